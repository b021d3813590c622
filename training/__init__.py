"""screenpilot.training"""
