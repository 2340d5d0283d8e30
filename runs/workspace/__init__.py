"""AgentV workspaces for the built-in runner, as `runs.evalfile.workspace` reads them: run (`lifecycle`, `hooks`, `git`)."""
