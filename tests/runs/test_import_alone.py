"""Every module of runs/ imports on its own (issue 32).

A module-level import cycle shows as an ImportError only when the import starts on the wrong side of it (say
`autoresearch.runs.graders` before `autoresearch.runs.evalfile`), so a suite that happens to import them in a kind
order never sees it. Each module is imported here first, in a subprocess, with none of runs/ loaded before it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

RUNS = Path(__file__).resolve().parents[2] / "runs"

# One subprocess for them all (a few seconds, not one interpreter start per module): before each module, every
# `autoresearch.runs` module is forgotten, so each import starts from nothing of ours.
IMPORT_EACH_ALONE = """
import importlib, sys, traceback
failed = []
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "autoresearch.runs" or m.startswith("autoresearch.runs.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception:
        failed.append(name + ": " + traceback.format_exc().strip().splitlines()[-1])
print("\\n".join(failed))
sys.exit(1 if failed else 0)
"""


def runs_modules() -> list[str]:
    found = []
    for path in sorted(RUNS.rglob("*.py")):
        parts = list(path.relative_to(RUNS).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found.append(".".join(["autoresearch.runs", *parts]))
    return found


def test_each_module_of_runs_imports_alone():
    modules = runs_modules()
    assert "autoresearch.runs.graders" in modules
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_EACH_ALONE, *modules], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
