"""AgentV's example helper (examples/features/sdk-python/src/agentv_py, 4.42.4): grader.py as it is; its eval-authoring module (which needs PyYAML) is left out."""
