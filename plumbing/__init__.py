"""Shared plumbing below every other package: it imports nothing of ours.

The exception root and exit-code table, the subprocess helper, redaction,
atomic writes, the clock, repository discovery and the results-directory
paths: what `runs`, `mutators`, `providers`, `trajectory` and `optimizer`
all need, kept here so that none of them has to import another for it.
"""
