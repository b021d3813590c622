"""screenpilot.simulator.apps"""
