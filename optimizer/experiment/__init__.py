"""An experiment's state on disk: its paths, lock, history, state.json, and the session that opens (and after a crash, repairs) it."""
