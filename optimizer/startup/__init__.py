"""Starting a run: the checks before anything is touched, the experiment opened (and after a crash, repaired)."""
