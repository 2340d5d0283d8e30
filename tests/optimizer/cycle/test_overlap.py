"""search.overlap: the next cycle's mutations run while this cycle's candidates are evaluated and decided.

The planned mutator (tests/helpers/scenario.py) runs in its candidate's worktree,
`.autoresearch/runs/exp/_autoresearch/candidates/<cycle>/<index>`, so `../../2/1` is cycle 2's second
candidate seen from a mutator of cycle 3. It runs outside the sandbox, so most tests here ask for
`overlap: on` (by default such a mutator is not run ahead) to see what the guard does when it reaches. The artifact's scored lines are kept apart by comment lines, so
that edits to different tests merge.
"""

from __future__ import annotations

import json
import os
import signal
import time

from tests.helpers.procs import daemon, ended
from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations, scenario_repo, wait_for

RUNS = ".autoresearch/runs/exp"


def doc(a: str = "0", b: str = "0", c: str = "0", tail: str = "") -> str:
    return f"a {a}\n# -\n# -\nb {b}\n# -\n# -\nc {c}\n{tail}"


def make(tmp_path, plan: dict, **config):
    settings = {
        "search": {"candidates": 2, "overlap": "on"},
        "stop": {"max_cycles": 3, "max_convergence": 10},
        **config,
    }
    return scenario_repo(
        tmp_path / "r", {"prompt.md": doc()}, {}, config=settings, extra_files={"plan.json": json.dumps(plan)}
    )


def candidates(line: dict) -> list[tuple[str, str]]:
    return [(c["summary"], c["decision"]) for c in line["candidates"]]


def test_the_next_cycles_edits_are_made_while_this_cycle_is_evaluated_and_carried_onto_its_keep(tmp_path):
    plan = {
        "2.0": {"write": {"prompt.md": doc(a="1")}, "summary": "fix a"},
        # its eval waits for a file only cycle 3's mutators make: without overlap it times out (an error)
        "2.1": {"write": {"prompt.md": doc(tail="WAITGATE\n")}, "summary": "wait"},
        "3.0": {"run": ["touch ../../2/1/gate"], "write": {"prompt.md": doc(b="1")}, "summary": "fix b"},
        "3.1": {"run": ["touch ../../2/1/gate"], "write": {"prompt.md": doc(c="1")}, "summary": "fix c"},
    }
    repo = make(tmp_path, plan)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("search.overlap is on with a command mutator outside the sandbox") == 1
    lines = iterations(repo)
    assert candidates(lines[1]) == [("fix a", "keep"), ("wait", "drop")]
    # cycle 3's edits, made from the original, were carried onto cycle 2's KEEP; each won a test, their merge both
    assert candidates(lines[2]) == [("fix b", "drop"), ("fix c", "drop"), ("fix b + fix c", "keep")]
    assert (repo / "prompt.md").read_text() == doc(a="1", b="1", c="1")
    assert git(repo, "status", "--porcelain") == ""
    # cycle 3 was the last (max_cycles): nothing was mutated ahead for a cycle 4
    assert not list((repo / RUNS).glob("*-c0004*"))
    assert git(repo, "worktree", "list").count("\n") == 1


def test_edits_made_ahead_that_conflict_with_the_keep_are_saved_and_mutated_again_from_it(tmp_path):
    count = tmp_path / "count"
    count.mkdir()
    plan = {
        "2.0": {"write": {"prompt.md": doc(a="1")}, "summary": "fix a"},
        "2.1": {"write": {"prompt.md": doc(tail="# pad\n")}, "summary": "pad"},
        # both rewrite line a differently from cycle 2's KEEP (the same score, other words): a conflict
        **{
            f"3.{i}": {
                "run": [f"echo x >> {count}/{i}"],
                "write": {"prompt.md": doc(a="1.0", **{test: "1"})},
                "summary": f"fix {test}",
            }
            for i, test in enumerate("bc")
        },
    }
    repo = make(tmp_path, plan)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    for i in range(2):  # mutated ahead, then again from the new HEAD
        assert (count / str(i)).read_text() == "x\nx\n"
        (saved,) = (repo / RUNS).glob(f"*-c0003/candidate-{i}/rebase-conflict.patch")
        assert "+a 1.0" in saved.read_text()
    line = iterations(repo)[2]
    assert (line["decision"], line["mutation"]) == ("keep", "fix b + fix c")
    assert (repo / "prompt.md").read_text() == doc(a="1.0", b="1", c="1")


def test_a_run_that_stops_after_a_cycle_saves_what_was_mutated_ahead_for_the_next(tmp_path):
    plan = {
        "2.0": {"write": {"prompt.md": doc(a="1")}, "summary": "fix a"},
        "2.1": {"write": {"prompt.md": doc(tail="# pad\n")}, "summary": "pad"},
        "3.0": {"write": {"prompt.md": doc(b="1")}, "summary": "fix b"},
        "3.1": {"write": {"prompt.md": doc(c="1")}, "summary": "fix c"},
    }
    repo = make(tmp_path, plan, stop={"max_cycles": 5, "target_score": 0.3})  # cycle 2's KEEP reaches it
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [r["cycle"] for r in iterations(repo)] == [1, 2]
    patches = sorted((repo / RUNS).glob("*-c0003/candidate-*/candidate.patch"))
    assert [p.parent.name for p in patches] == ["candidate-0", "candidate-1"]
    assert "+b 1" in patches[0].read_text()
    assert "mutated ahead for cycle 3 were not evaluated" in done.stderr
    assert git(repo, "worktree", "list").count("\n") == 1
    assert (repo / "prompt.md").read_text() == doc(a="1")


def test_a_mutator_made_ahead_that_writes_into_the_checkout_spoils_only_its_own_cycle(tmp_path):
    into_checkout = "../../../../../../../notes.txt"  # from …/_autoresearch/candidates/3/0 to the repository root
    plan = {
        "2.0": {"write": {"prompt.md": doc(a="1")}, "summary": "fix a"},
        "2.1": {"write": {"prompt.md": doc(tail="# pad\n")}, "summary": "pad"},
        "3.0": {"write": {"prompt.md": doc(b="1"), into_checkout: "mine now\n"}, "summary": "fix b"},
        "3.1": {"write": {"prompt.md": doc(c="1")}, "summary": "fix c"},
    }
    repo = make(tmp_path, plan)
    done = cli(repo, "run")
    assert not (repo / "notes.txt").exists(), done.stderr
    lines = iterations(repo)
    assert candidates(lines[1]) == [("fix a", "keep"), ("pad", "drop")]  # decided while the write happened
    assert (lines[2]["decision"], lines[2]["error_reason"]) == ("error", "out-of-scope")
    (saved,) = (repo / RUNS).glob("*-c0003/outside/files/notes.txt")
    assert saved.read_text() == "mine now\n"
    assert (repo / "prompt.md").read_text() == doc(a="1")


def test_a_pick_whose_worktree_changed_after_its_evaluation_is_not_committed(tmp_path):
    meddle = "touch ../../2/0/gate && echo '# meddled' >> ../../2/0/evals/score.py"
    plan = {
        "2.0": {"write": {"prompt.md": doc(a="1", tail="WAITGATE\n")}, "summary": "fix a"},  # waits for the meddler
        "2.1": {"write": {"prompt.md": doc(tail="# pad\n")}, "summary": "pad"},
        "3.0": {"run": [meddle], "write": {"prompt.md": doc(b="1")}, "summary": "fix b"},
        "3.1": {"run": [meddle], "write": {"prompt.md": doc(c="1")}, "summary": "fix c"},
    }
    repo = make(tmp_path, plan)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    line = iterations(repo)[1]
    assert line["decision"] == "drop"
    assert "changed after it was evaluated: evals/score.py" in line["candidates"][0]["reason"]
    assert (repo / RUNS / line["candidates"][0]["patch"].removeprefix("runs/exp/")).is_file()
    assert "WAITGATE" not in (repo / "prompt.md").read_text()
    assert "meddled" not in (repo / "evals/score.py").read_text()
    assert git(repo, "log", "--format=%s").splitlines()[-1] == "initial"
    assert "cycle 2" not in git(repo, "log", "--format=%s")


def test_held_out_results_written_while_mutations_run_ahead_are_not_taken_for_the_mutators(tmp_path):
    six = "".join(f"{t} 0\n# -\n# -\n" for t in "abcdef")
    plan = {
        "2.0": {"write": {"prompt.md": six.replace("a 0", "a 1")}, "summary": "fix a"},
        "2.1": {"write": {"prompt.md": six + "# pad\n"}, "summary": "pad"},
        "3.0": {"write": {"prompt.md": six.replace("b 0", "b 1")}, "summary": "fix b"},
        "3.1": {"write": {"prompt.md": six + "# pad 2\n"}, "summary": "pad"},
    }
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": six},
        {},
        config={"search": {"candidates": 2, "overlap": "on"}, "eval": {"holdout": 0.34}, "stop": {"max_cycles": 3}},
        extra_files={"plan.json": json.dumps(plan)},
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert "records changed during the mutation" not in done.stderr
    lines = iterations(repo)
    assert [candidates(r) for r in lines[1:]] == [
        [("fix a", "keep"), ("pad", "drop")],
        [("fix b", "keep"), ("pad", "drop")],
    ]
    assert not list((repo / RUNS).glob("*/outside/records"))  # nothing was put back
    assert (repo / "prompt.md").read_text() == six.replace("a 0", "a 1").replace("b 0", "b 1")


FORGE = r"""
import hashlib, hmac, json, pathlib, subprocess
cache = pathlib.Path("../../../../../../../.autoresearch/cache")
blob = subprocess.check_output(["git", "hash-object", "../../2/0/prompt.md"], text=True).strip()
(folder,) = [p for p in cache.iterdir() if p.is_dir()]
rows = [{"test_id": t, "score": 1.0} for t in "abc"]
body = "".join(json.dumps(r) + "\n" for r in rows).encode()
mac = hmac.new((cache / "key").read_bytes(), f"{folder.name}\n{blob}\n2\n".encode() + body, hashlib.sha256)
head = json.dumps({"format": "autoresearch-cache-v2", "mac": mac.hexdigest()}).encode()
(folder / f"{blob}-sample-2.jsonl").write_bytes(head + b"\n" + body)
pathlib.Path("../../2/0/gate").touch()
"""


def test_a_cache_entry_a_mutator_made_ahead_signs_is_not_read_by_the_cycle_evaluated_meanwhile(tmp_path):
    """Cycle 3's mutator reads the cache's key and signs a second sample of all 1.0 for cycle 2's pick,
    before that pick's confirming run looks it up: it was read, the KEEP recorded at 1.0 and made HEAD's
    baseline, and the guard undid the entry only afterwards."""
    plan = {
        "2.0": {"write": {"prompt.md": doc(a="1", tail="WAITGATE\n")}, "summary": "fix a"},
        "2.1": {"write": {"prompt.md": doc(tail="# pad\n")}, "summary": "pad"},
        "3.0": {"run": ["python3 forge.py"], "write": {"prompt.md": doc(b="1")}, "summary": "fix b"},
        "3.1": {"write": {"prompt.md": doc(c="1")}, "summary": "fix c"},
    }
    settings = {"search": {"candidates": 2, "overlap": "on"}, "stop": {"max_cycles": 3, "max_convergence": 10}}
    files = {"plan.json": json.dumps(plan), "forge.py": FORGE}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": doc()}, {}, config=settings, extra_files=files)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert (lines[1]["decision"], round(lines[1]["score"], 4), lines[1]["wins"]) == ("keep", 0.3333, 1)
    assert lines[2]["error_reason"] == "out-of-scope"  # the forger's own cycle


AFTER_ROWS = r"""
import os, time  # only modules Python has loaded at start (tests.helpers.scenario.JSON_WRITING says why)
while not os.path.exists("../../2/0/rows-written"):  # not the rows' file alone: it may be half written
    time.sleep(0.02)
%s
open("../../2/0/gate2", "a").close()
"""
GATE2 = r"""
import os, time  # only modules Python has loaded at start: it runs after each eval
if os.getcwd().split(os.sep)[-2:] == ["2", "0"]:  # cycle 2's first candidate waits, once its rows are written
    open("rows-written", "a").close()
    while not os.path.exists("gate2"):
        time.sleep(0.02)
"""


def after_the_picks_rows(tmp_path, meddle: str):
    """Cycle 2's pick, once its eval has written its rows, waits for cycle 3's first mutator to `meddle`
    (Python, with os imported) before its eval ends."""
    plan = {
        "2.0": {"write": {"prompt.md": doc(a="1")}, "summary": "fix a"},
        "2.1": {"write": {"prompt.md": doc(tail="# pad\n")}, "summary": "pad"},
        "3.0": {"run": ["python3 meddle.py"], "write": {"prompt.md": doc(b="1")}, "summary": "fix b"},
        "3.1": {"write": {"prompt.md": doc(c="1")}, "summary": "fix c"},
    }
    settings = {
        "search": {"candidates": 2, "confirm": False, "overlap": "on"},
        "stop": {"max_cycles": 3, "max_convergence": 10},
        "eval": {"command": "python3 evals/score.py {run_dir} prompt.md && python3 gate2.py", "timeout_s": 30},
    }
    files = {"plan.json": json.dumps(plan), "meddle.py": AFTER_ROWS % meddle, "gate2.py": GATE2}
    return scenario_repo(tmp_path / "r", {"prompt.md": doc()}, {}, config=settings, extra_files=files)


REACH = r"""
import glob, json, os, pathlib, time
meet, runs = pathlib.Path(%r), %r
while not (meet / "rows-written").exists():
    time.sleep(0.02)
targets = {
    "the pick's rows": [runs + "/*-c0002/candidate-0/index.jsonl", "../../../../*-c0002/candidate-0/index.jsonl"],
    "another candidate's logs and changelog": [runs + "/*-c0002/candidate-1/*"],
    "the pick's worktree": [runs + "/_autoresearch/candidates/2/0/prompt.md", "../../2/0/prompt.md"],
    "the result cache": [runs + "/../../cache/*", runs + "/../../cache/*/*"],
    "the experiment's records": [runs + "/_autoresearch/*"],
}
reached = []
for what, patterns in targets.items():
    for found in (f for p in patterns for f in glob.glob(p) if os.path.isfile(f)):
        try:
            pathlib.Path(found).write_text("".join(json.dumps({"test_id": t, "score": 1.0}) + "\n" for t in "abc"))
            reached.append(f"{what}: {found}")
        except OSError:
            pass
for made in (runs + "/forged.jsonl", runs + "/../../cache/forged"):  # into the empty folders it sees there
    pathlib.Path(made).write_text("forged\n")
os.symlink(runs, "__pycache__")  # its own tree: a tool cache the daemon removes afterwards, pointing at the runs
(meet / "reached").write_text("\n".join(reached))
(meet / "gate2").touch()
"""
MEET = r"""
import os, time  # only modules Python has loaded at start: it runs after each eval
meet = %r
if os.getcwd().split(os.sep)[-2:] == ["2", "0"]:  # cycle 2's first candidate waits, once its rows are written
    open(os.path.join(meet, "rows-written"), "a").close()
    while not os.path.exists(os.path.join(meet, "gate2")):
        time.sleep(0.02)
"""


def test_a_sandboxed_mutator_made_ahead_reaches_nothing_of_the_cycle_evaluated_meanwhile(tmp_path):
    """Cycle 3's mutator, in the sandbox, waits for cycle 2's pick to write its rows (its eval then waits
    for it) and tries to overwrite them, the other candidate's logs and changelog, the pick's worktree, the
    result cache and the experiment's records, by their real paths and from its own tree, and leaves a
    symlink to the runs in its tree where the daemon removes tool caches: none of them is there to write,
    the KEEP is recorded at its own score, and the symlink is removed, not followed."""
    meet, repo = tmp_path / "meet", tmp_path / "r"
    meet.mkdir()
    plan = {
        "2.0": {"write": {"prompt.md": doc(a="1")}, "summary": "fix a"},
        "2.1": {"write": {"prompt.md": doc(tail="# pad\n")}, "summary": "pad"},
        "3.0": {"run": ["python3 reach.py"], "write": {"prompt.md": doc(b="1")}, "summary": "fix b"},
        "3.1": {"write": {"prompt.md": doc(c="1")}, "summary": "fix c"},
    }
    settings = {
        "search": {"candidates": 2, "confirm": False},
        "stop": {"max_cycles": 3, "max_convergence": 10},
        "eval": {"command": "python3 evals/score.py {run_dir} prompt.md && python3 meet.py", "timeout_s": 30},
        "mutator": {"sandbox": {"mode": "on", "writable": [str(meet)]}},  # where the two meet, and nothing else
    }
    files = {
        "plan.json": json.dumps(plan),
        "reach.py": REACH % (str(meet), str(repo / RUNS)),
        "meet.py": MEET % str(meet),
    }
    scenario_repo(repo, {"prompt.md": doc()}, {}, config=settings, extra_files=files)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert (meet / "reached").read_text() == ""
    lines = iterations(repo)
    assert (lines[1]["decision"], round(lines[1]["score"], 4)) == ("keep", 0.3333)
    (rows,) = (repo / RUNS).glob("*-c0002/candidate-0/index.jsonl")
    assert [json.loads(r)["score"] for r in rows.read_text().splitlines()] == [1.0, 0.0, 0.0]
    assert candidates(lines[2]) == [("fix b", "drop"), ("fix c", "drop"), ("fix b + fix c", "keep")]
    assert not (repo / RUNS / "forged.jsonl").exists() and not (repo / ".autoresearch/cache/forged").exists()


def test_a_mutator_outside_the_sandbox_is_not_run_ahead_and_what_it_writes_into_the_rows_decided_is_undone(tmp_path):
    """Without the sandbox nothing keeps a mutator from the rows an eval is writing, and no check can tell
    its bytes from the eval's: so, by default, it runs only once the cycle before is decided (cycle 3's
    mutator found cycle 2's line written), and its overwrite of the KEEP's rows (HEAD's baseline from then
    on) is put back and makes its batch out of scope. It ran ahead, overwriting rows being evaluated."""
    order = tmp_path / "order"
    meddle = (
        f"wc -l < ../../../iterations.jsonl > {order}; "
        """for f in ../../../../*-c0002/candidate-*/index.jsonl; do echo '{"test_id": "a", "score": 0}' > $f; done"""
    )
    plan = {
        "2.0": {"write": {"prompt.md": doc(a="1")}, "summary": "fix a"},
        "2.1": {"write": {"prompt.md": doc(tail="# pad\n")}, "summary": "pad"},
        "3.0": {"run": [meddle], "write": {"prompt.md": doc(b="1")}, "summary": "fix b"},
        "3.1": {"write": {"prompt.md": doc(c="1")}, "summary": "fix c"},
    }
    settings = {"search": {"candidates": 2, "confirm": False}, "stop": {"max_cycles": 3, "max_convergence": 10}}
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": doc()}, {}, config=settings, extra_files={"plan.json": json.dumps(plan)}
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert "the next cycle's mutations are made after each decision" in done.stderr
    assert order.read_text().strip() == "2"  # the original's line and cycle 2's
    lines = iterations(repo)
    assert (lines[1]["decision"], round(lines[1]["score"], 4)) == ("keep", 0.3333)
    assert (lines[2]["decision"], lines[2]["error_reason"]) == ("error", "out-of-scope")  # the whole batch
    (rows,) = (repo / RUNS).glob("*-c0002/candidate-0/index.jsonl")
    assert [json.loads(r)["score"] for r in rows.read_text().splitlines()] == [1.0, 0.0, 0.0]


def test_a_mutator_made_ahead_that_breaks_the_picks_worktree_makes_the_pick_not_kept(tmp_path):
    """The pick's .git file rewritten after its evaluation: git failed on that worktree when checking it and
    again when removing it, so the run ended with exit 50, and every later run failed on the worktree left."""
    repo = after_the_picks_rows(tmp_path, 'open("../../2/0/.git", "w").write("gitdir: /nowhere")')
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    line = iterations(repo)[1]
    assert line["decision"] == "drop"
    assert "changed after it was evaluated: .git" in line["candidates"][0]["reason"]
    assert "fix a" not in git(repo, "log", "--format=%s")
    assert git(repo, "worktree", "list").count("\n") == 1


def test_a_stop_file_written_while_a_cycle_is_evaluated_stops_the_run_after_that_cycle(tmp_path):
    once = tmp_path / "once"  # one STOP file, before the evals end (they wait for the gates)
    stop_then_go = f"[ -e {once} ] || touch {once} ../../../STOP; touch ../../2/0/gate ../../2/1/gate"
    plan = {
        "2.0": {"write": {"prompt.md": doc(a="1", tail="WAITGATE\n")}, "summary": "fix a"},
        "2.1": {"write": {"prompt.md": doc(c="1", tail="WAITGATE\n")}, "summary": "fix c"},
        "3.0": {"run": [stop_then_go], "write": {"prompt.md": doc(b="1")}, "summary": "fix b"},
        "3.1": {"run": [stop_then_go], "write": {"prompt.md": doc(b="0.5")}, "summary": "half b"},
    }
    repo = make(tmp_path, plan, stop={"max_cycles": 5, "max_convergence": 10})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [r["cycle"] for r in lines] == [1, 2]  # the merge was not tried, and the STOP file was not lost
    assert candidates(lines[1]) == [("fix a", "keep"), ("fix c", "drop")]
    assert json.loads((repo / RUNS / "_autoresearch/state.json").read_text())["stop_reason"] == "stop-requested"


def test_ctrl_c_while_a_cycle_is_evaluated_and_the_next_is_mutated_ends_both_and_saves_the_next(tmp_path):
    """The eval of cycle 2 and a mutator of cycle 3 both hold; Ctrl-C (SIGINT to the process group) ends the
    run at once: nothing of either left running, the checkout restored, the edit made ahead saved."""
    marks = tmp_path / "marks"
    marks.mkdir()
    hold = f"touch {marks}/mutating-$$; while [ ! -e {marks}/release ]; do sleep 0.05; done; "
    hold += "touch ../../2/1/gate"  # once let go (in the resumed run): cycle 2's eval goes on
    plan = {
        "2.0": {"write": {"prompt.md": doc(a="1")}, "summary": "fix a"},
        "2.1": {"write": {"prompt.md": doc(tail="WAITGATE\n")}, "summary": "wait"},
        "3.0": {"write": {"prompt.md": doc(b="1")}, "run": [hold], "summary": "fix b"},
        "3.1": {"write": {"prompt.md": doc(b="0.5")}, "run": [hold], "summary": "half b"},
    }
    repo = make(tmp_path, plan)
    proc = daemon(repo, "run", session=True)
    waiting = repo / RUNS / "_autoresearch/candidates/2/1/waiting"
    wait_for(lambda: waiting.exists() and len(list(marks.glob("mutating-*"))) == 2)
    holders = [int(p.name.split("-")[1]) for p in marks.glob("mutating-*")]
    began = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        (marks / "release").touch()
    assert proc.returncode == 130, err
    assert time.monotonic() - began < 20
    assert all(ended(pid) for pid in holders)
    assert (repo / "prompt.md").read_text() == doc() and git(repo, "status", "--porcelain") == ""
    assert git(repo, "worktree", "list").count("\n") == 1
    patches = sorted((repo / RUNS).glob("*-c0003/candidate-*/candidate.patch"))
    assert len(patches) == 2 and "+b 1" in patches[0].read_text()
    resumed = cli(repo, "run")  # cycle 2 again, then cycle 3
    assert resumed.returncode == 0, resumed.stderr
    assert [candidates(r) for r in iterations(repo)[1:]] == [
        [("fix a", "keep"), ("wait", "drop")],
        [("fix b", "keep"), ("half b", "drop")],
    ]


def test_a_commit_you_make_while_mutations_run_ahead_stops_the_run_and_says_how_to_get_it_back(tmp_path):
    """As with one candidate (exit 50): the guard puts the branch back, and the message names the commit; it
    was silently dropped from the branch, the run going on with cycle 3 an out-of-scope error."""
    marks = tmp_path / "marks"
    marks.mkdir()
    hold = f"touch {marks}/m-$$; while [ ! -e {marks}/release ]; do sleep 0.05; done; touch ../../2/0/gate"
    plan = {
        "2.0": {"write": {"prompt.md": doc(a="1", tail="WAITGATE\n")}, "summary": "fix a"},
        "2.1": {"write": {"prompt.md": doc(tail="# pad\n")}, "summary": "pad"},
        "3.0": {"run": [hold], "write": {"prompt.md": doc(b="1")}, "summary": "fix b"},
        "3.1": {"run": [hold], "write": {"prompt.md": doc(c="1")}, "summary": "fix c"},
    }
    repo = make(tmp_path, plan)
    proc = daemon(repo, "run")
    wait_for(lambda: len(list(marks.glob("m-*"))) == 2)
    (repo / "notes.txt").write_text("mine\n")
    git(repo, "add", "notes.txt")
    git(repo, "commit", "-qm", "my notes")
    mine = git(repo, "rev-parse", "HEAD").strip()
    (marks / "release").touch()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 50, err
    assert f"git merge --ff-only {mine[:12]}" in err
    git(repo, "merge", "--ff-only", mine)
    assert (repo / "notes.txt").read_text() == "mine\n"
    assert git(repo, "worktree", "list").count("\n") == 1
