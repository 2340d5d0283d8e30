"""The user's git repository as the daemon may touch it: the artifact, git commands, the worktree."""
