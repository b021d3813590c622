"""The CLI's command groups, one module each; heavy imports stay inside the commands."""
