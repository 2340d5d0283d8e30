"""The autoresearch daemon: the cycle, its stop rules, git, config and the CLI."""
