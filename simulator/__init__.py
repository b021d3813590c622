"""screenpilot.simulator"""
