"""screenpilot.planner"""
