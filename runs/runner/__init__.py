"""The built-in runner: runs a Suite's tests against its targets and grades them (`run`), one case (`case`) or one
conversation (`conversation`) at a time, repeated (`trials`), into a run directory (`rundir`), with the targets the
suite and its graders name (`resolve`, `filerefs`) and the settings the config gives (`settings`).

Above the eval-file parser, the graders, the targets and the workspaces, which it puts together; below the
evaluators, which pick it.
"""
