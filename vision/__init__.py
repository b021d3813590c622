"""screenpilot.vision"""
