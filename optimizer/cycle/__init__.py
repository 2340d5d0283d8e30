"""The loop and one cycle: mutate, evaluate, decide, record."""
