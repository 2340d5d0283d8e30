"""Pure decisions: keep/discard rules and stop rules. No I/O, no project imports."""
