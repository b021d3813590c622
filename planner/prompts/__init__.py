"""screenpilot.planner.prompts"""
