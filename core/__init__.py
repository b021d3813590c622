"""The core: small modules every part of screenpilot may import (fonts that ship in pip
packages, the offline switches, an on-screen keyboard's rows of keys). They import
nothing of screenpilot but the spine's records and errors (screenpilot.model,
screenpilot.errors)."""
