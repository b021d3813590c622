"""screenpilot.pbd"""
