"""The last KEEP's rows are the next run's baseline: a resume that read them rewritten would compare every
candidate with a forgery (all zeros: anything wins, and a worse artifact is committed). Without the sandbox, a
process the mutator started in a session of its own (`setsid`) outlives the run and can rewrite them after the
last check; each KEEP's line holds its rows' digest, and a resume that finds them changed refuses, naming the
file. A real daemon, a real `setsid` child that waits for the run's end."""

from __future__ import annotations

from tests.helpers.repos import assert_one_line_error, cli
from tests.helpers.scenario import iterations, scenario_repo, scores, wait_for

FORGE = r"""
import json, time
from pathlib import Path

meta = Path(".autoresearch/runs/exp/_autoresearch")
while json.loads((meta / "state.json").read_text()).get("status") == "running":  # until the run has ended
    time.sleep(0.05)
last = json.loads((meta / "iterations.jsonl").read_text().splitlines()[-1])
index = Path(".autoresearch/{folder}/exp", last["run_dir"], "index.jsonl")
rows = [json.loads(line) for line in index.read_text().splitlines()]
index.write_text("".join(json.dumps({**row, "score": 0.0}) + "\n" for row in rows))
Path(".autoresearch/forged").write_text(str(index))
"""


def forge(folder: str) -> str:
    """A script that waits for the run's end, then rewrites the last KEEP's rows under `folder` to zeros."""
    return FORGE.replace("{folder}", folder)


def test_a_resume_refuses_the_last_keeps_rows_rewritten_after_the_run(tmp_path):
    plan = {
        2: {
            "write": {"prompt.md": scores(a=1, b=1)},
            "summary": "better",
            "run": ["setsid -f python3 tools/forge.py </dev/null >/dev/null 2>&1"],
        },
        3: {"write": {"prompt.md": scores(a=0.5, b=0.5)}, "summary": "worse"},
    }
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0, b=0)},
        plan,
        config={"stop": {"max_cycles": 2, "max_convergence": 10}},
        extra_files={"tools/forge.py": forge("runs")},
    )
    assert cli(repo, "run").returncode == 0
    wait_for(lambda: (repo / ".autoresearch/forged").exists(), timeout=60)
    forged = (repo / ".autoresearch/forged").read_text()
    lines = (repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl").read_text()

    resumed = cli(repo, "run")
    assert_one_line_error(resumed, 50, forged, "changed after it was decided")
    assert (repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl").read_text() == lines
    assert [line["decision"] for line in iterations(repo)] == ["keep", "keep"]


def test_a_resume_refuses_the_last_keeps_held_out_rows_rewritten_after_the_run(tmp_path):
    """The held-out rows of the last KEEP are the next run's holdout baseline (a candidate that lowers the
    held-out tests is vetoed against them): rewritten to zeros after the run, every regression passed. Each
    KEEP's line holds their digest too, and a resume that finds them changed refuses, naming the file."""
    repo = held_out_run(tmp_path, forge("holdout"))
    forged = (repo / ".autoresearch/forged").read_text()
    lines = (repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl").read_text()

    resumed = cli(repo, "run")
    assert_one_line_error(resumed, 50, forged, "changed after it was decided")
    assert (repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl").read_text() == lines


def test_a_resume_refuses_the_split_rewritten_after_the_run(tmp_path):
    """holdout.json names the tests the mutator never sees: rewritten after the run, the next night would show it
    tests that were hidden, against a baseline split the old way. Each KEEP's line holds the split's digest, and a
    resume that finds it changed refuses, naming the file and --restart; the history stays as it was."""
    repo = held_out_run(tmp_path, FORGE_SPLIT)
    meta = repo / ".autoresearch/runs/exp/_autoresearch"
    forged = (repo / ".autoresearch/forged").read_text()
    assert forged == str((meta / "holdout.json").resolve())
    lines = (meta / "iterations.jsonl").read_text()
    assert all(line["holdout_sha256"] for line in iterations(repo))

    resumed = cli(repo, "run")
    assert_one_line_error(resumed, 50, forged, "changed after it was decided")
    assert "--restart" in resumed.stderr
    assert (meta / "iterations.jsonl").read_text() == lines

    (meta / "holdout.json").unlink()  # removed: every test shown
    gone = cli(repo, "run")
    assert_one_line_error(gone, 50, forged, "is gone")
    (meta / "holdout.json").write_text("{not json")
    damaged = cli(repo, "run")
    assert_one_line_error(damaged, 50, forged, "not a held-out split")
    assert (meta / "iterations.jsonl").read_text() == lines


FORGE_SPLIT = r"""
import json, time
from pathlib import Path

meta = Path(".autoresearch/runs/exp/_autoresearch")
while json.loads((meta / "state.json").read_text()).get("status") == "running":  # until the run has ended
    time.sleep(0.05)
split = meta / "holdout.json"
data = json.loads(split.read_text())
data["tests"] = sorted({"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"} - set(data["tests"]))[:1]
split.write_text(json.dumps(data, indent=2) + "\n")
Path(".autoresearch/forged").write_text(str(split.resolve()))
"""


def held_out_run(tmp_path, forger: str):
    """A run with a holdout whose cycle-2 KEEP's mutator leaves a setsid child running `forger` after the run."""
    start = {"a": 1, "b": 1, "c": 1, "d": 1, "e": 1, "f": 0, "g": 0, "h": 0, "i": 0, "j": 0}
    plan = {
        2: {
            "write": {"prompt.md": scores(**(start | {"f": 1, "g": 1, "h": 1, "i": 1, "j": 1}))},
            "summary": "better",
            "run": ["setsid -f python3 tools/forge.py </dev/null >/dev/null 2>&1"],
        },
        3: {"write": {"prompt.md": scores(**start)}, "summary": "worse"},
    }
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(**start)},
        plan,
        config={"stop": {"max_cycles": 2, "max_convergence": 10}, "eval": {"holdout": 0.4}},
        extra_files={"tools/forge.py": forger},
    )
    assert cli(repo, "run").returncode == 0
    wait_for(lambda: (repo / ".autoresearch/forged").exists(), timeout=60)
    assert [line["decision"] for line in iterations(repo)] == ["keep", "keep"]
    return repo
