"""AgentV workspaces for the built-in runner, as `autoresearch.runs.evalfile.workspace` reads them: run (`lifecycle`, `hooks`, `git`)."""
