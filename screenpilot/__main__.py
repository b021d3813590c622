"""``python -m screenpilot`` runs the CLI."""

from screenpilot.cli import main

main()
