"""screenpilot.datasets"""
