"""The eval file's model (`model.Suite`, its cases and grader specs) and the parts of its parser that need no grader.

The leaf of runs/: the graders, the targets and the workspaces read it and it imports none of them. The whole
file is read by `autoresearch.runs.parse`, which sits above the graders because it asks them to check their specs.
"""
