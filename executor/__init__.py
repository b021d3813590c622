"""screenpilot.executor"""
