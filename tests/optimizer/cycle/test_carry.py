"""search.overlap's carry rate: edits made ahead that do not carry onto the new HEAD are mutated again (paid
twice), so running ahead stops while they mostly fail to carry, probes now and then, and resumes when they do.

The mutator below appends a line `t<k> 1` to the artifact (a win on test t<k>: the last row of an id counts),
which meets every KEEP's own appended line, or, from the cycle after `append_until`, sets the line `t<k> 0` in
place, far from the others' (comment lines between them), so its edits carry. Each call is counted in $CALLS
and reports a spend of $0.01, 100 tokens in and 10 out.
"""

from __future__ import annotations

import json
from collections import Counter

from tests.helpers.repos import cli
from tests.helpers.scenario import iterations, scenario_repo

MUTATOR = r"""
import os  # alone: json and pathlib (with the re and enum they load) cost more CPU than the rest of the script

cycle, sibling = int(os.environ["AUTORESEARCH_CYCLE"]), int(os.environ["AUTORESEARCH_SIBLING"])
k = (cycle - 2) * 3 + sibling
with open("prompt.md") as file:
    artifact = file.read()
mode = eval(open("mode.json").read(), {"__builtins__": {}})  # two numbers: as json.dumps wrote them, a Python literal
if cycle <= mode["append_until"]:
    artifact += f"t{k} {mode['score']}\n"
else:
    artifact = artifact.replace(f"t{k} 0\n", f"t{k} 1\n")
with open("prompt.md", "w") as file:
    file.write(artifact)
with open(os.environ["CALLS"], "a") as calls:
    calls.write(f"{cycle}\n")
with open(os.environ["AUTORESEARCH_CHANGELOG"], "w") as file:
    file.write(f"t{k}\n")
with open(os.environ["AUTORESEARCH_COST_FILE"], "w") as file:
    file.write('{"cost_usd": 0.01, "tokens_in": 100, "tokens_out": 10}')
"""
ARTIFACT = "".join(f"t{k} 0\n# -\n# -\n" for k in range(40))


def carrying(tmp_path, append_until: int, max_cycles: int, score: int = 1):
    """A repository whose mutator appends up to cycle `append_until` (`t<k> <score>`) and edits in place after
    it, and the path its calls are counted in."""
    settings = {
        "search": {"candidates": 3, "confirm": "off", "overlap": "on"},  # made ahead outside the sandbox
        "stop": {"max_cycles": max_cycles, "max_convergence": 20},
        "mutator": {"command": "python3 tools/append.py"},
    }
    files = {"tools/append.py": MUTATOR, "mode.json": json.dumps({"append_until": append_until, "score": score})}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": ARTIFACT}, {}, config=settings, extra_files=files)
    return repo, tmp_path / "calls"


def run(repo, calls, *flags: str, code: int = 0):
    done = cli(repo, "run", *flags, env={"CALLS": str(calls)}, timeout=300)
    assert done.returncode == code, done.stderr
    return done


def calls_per_cycle(calls) -> dict[int, int]:
    return dict(sorted(Counter(int(c) for c in calls.read_text().split()).items()))


def ahead(lines: list[dict]) -> dict[int, tuple[int, int]]:
    """{cycle: (edits made ahead for it, how many carried)} of the cycles made ahead."""
    return {r["cycle"]: (r["made_ahead"], r["carried"]) for r in lines if "made_ahead" in r}


def test_edits_made_ahead_that_never_carry_stop_the_running_ahead_and_report_says_what_they_cost(tmp_path):
    repo, calls = carrying(tmp_path, append_until=99, max_cycles=7)
    done = run(repo, calls)
    # cycles 3-5 were made ahead, none of their edits carried, and were mutated again: then no more
    assert calls_per_cycle(calls) == {2: 3, 3: 6, 4: 6, 5: 6, 6: 3, 7: 3}
    assert "no longer mutating ahead: 0 of the last 3 batches made ahead carried" in done.stderr
    lines = iterations(repo)
    assert ahead(lines) == {3: (3, 0), 4: (3, 0), 5: (3, 0)}
    lost = [
        (r.get("overlap_lost_usd"), r.get("overlap_lost_tokens_in"), r.get("overlap_lost_tokens_out")) for r in lines
    ]
    assert lost[2:5] == [(0.03, 300, 30)] * 3 and set(lost[5:]) == {(None, None, None)}
    assert [r["decision"] for r in lines] == ["keep"] * 7

    report = cli(repo, "report")
    assert "made ahead: 0 of 3 batches carried onto the new HEAD (0 of 9 edits, 0%)" in report.stdout
    assert "lost to overlap: $0.0900 (900 tokens in, 90 out)" in report.stdout
    summary = json.loads(cli(repo, "report", "--json").stdout)
    assert summary["overlap"] == {
        "batches": 3,
        "batches_carried": 0,
        "edits": 9,
        "edits_carried": 0,
        "lost_usd": 0.09,
        "lost_tokens_in": 900,
        "lost_tokens_out": 90,
    }

    # the rate is read from the lines: a run resumed later makes nothing ahead until its probe, five cycles
    # after the last batch made ahead (cycle 10, made during cycle 9), which does not carry either
    calls.unlink()
    again = run(repo, calls, "--max-cycles", "3")
    assert calls_per_cycle(calls) == {8: 3, 9: 3, 10: 6}
    assert "mutating ahead to probe whether edits made ahead carry now" in again.stderr
    assert ahead(iterations(repo)) == {3: (3, 0), 4: (3, 0), 5: (3, 0), 10: (3, 0)}


def test_edits_made_ahead_that_carry_keep_the_running_ahead(tmp_path):
    repo, calls = carrying(tmp_path, append_until=0, max_cycles=6)
    done = run(repo, calls)
    assert calls_per_cycle(calls) == {c: 3 for c in range(2, 7)}
    assert ahead(iterations(repo)) == {c: (3, 3) for c in range(3, 7)}
    assert "no longer mutating ahead" not in done.stderr
    assert "made ahead: 4 of 4 batches carried onto the new HEAD (12 of 12 edits, 100%)" in cli(repo, "report").stdout


def test_edits_made_ahead_while_nothing_is_kept_carry_as_they_are(tmp_path):
    repo, calls = carrying(tmp_path, append_until=99, max_cycles=6, score=0)  # ties, and longer: dropped
    run(repo, calls, code=10)
    lines = iterations(repo)
    assert [r["decision"] for r in lines[1:]] == ["drop"] * 5
    assert ahead(lines) == {c: (3, 3) for c in range(3, 7)}
    assert calls_per_cycle(calls) == {c: 3 for c in range(2, 7)}


def test_a_probe_whose_edits_carry_brings_the_running_ahead_back(tmp_path):
    repo, calls = carrying(tmp_path, append_until=5, max_cycles=12)
    done = run(repo, calls)
    # stopped after cycle 5; cycle 10 made ahead to probe, which carried: cycles 11 and 12 made ahead again
    assert ahead(iterations(repo)) == {3: (3, 0), 4: (3, 0), 5: (3, 0), 10: (3, 3), 11: (3, 3), 12: (3, 3)}
    assert calls_per_cycle(calls) == {2: 3, 3: 6, 4: 6, 5: 6, **{c: 3 for c in range(6, 13)}}
    assert "mutating ahead again: the batch made ahead to probe carried" in done.stderr
