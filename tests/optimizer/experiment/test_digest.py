"""The digest of what was tried: written every cycle, handed to the mutator, bounded, blind to the holdout."""

from __future__ import annotations

import json
import re

import pytest

from autoresearch.optimizer.experiment.digest import DETAILED, LIMIT, Digest
from autoresearch.plumbing import sandbox
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.policies.holdout import split
from autoresearch.trajectory.iterations import Iteration, append
from tests.helpers.repos import cli
from tests.helpers.scenario import iterations, scenario_repo, scores

EXP = ".autoresearch/runs/exp"
DIGEST = f"{EXP}/_autoresearch/digest.md"
START = {"alpha": 0, "bravo": 1, "charlie": 0}


def _needs_bwrap() -> None:
    if sandbox.unavailable():
        pytest.fail(f"the kernel sandbox is needed here: {sandbox.unavailable()}")


def test_the_mutator_reads_what_was_tried_with_each_tests_move_even_in_the_sandbox(tmp_path):
    """Cycle 4's mutator refuses to work unless the digest it is handed already says what cycles 2 and 3
    did; it runs in the kernel sandbox, where the experiment's own files are out of sight."""
    _needs_bwrap()
    check = (
        'grep -q "Cycle 3: discarded" "$AUTORESEARCH_DIGEST" && grep -q "Tried: break bravo" "$AUTORESEARCH_DIGEST"'
        ' && grep -q "Helped: none; hurt: bravo" "$AUTORESEARCH_DIGEST"'
        ' && grep -q "Cycle 2: KEPT" "$AUTORESEARCH_DIGEST"'
    )
    plan = {
        2: {"write": {"prompt.md": scores(**(START | {"alpha": 1}))}, "summary": "fix alpha"},
        3: {"write": {"prompt.md": scores(**(START | {"alpha": 1, "bravo": 0}))}, "summary": "break bravo"},
        4: {"run": [check], "write": {"prompt.md": scores(**(START | {"alpha": 1, "charlie": 1}))}, "summary": "c"},
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(**START)}, plan, config={"mutator": {"sandbox": "on"}})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "keep", "drop", "keep"], lines[-1].get("error")
    digest = (repo / DIGEST).read_text()
    assert "Read this before you choose a change" in digest
    assert "3 candidates decided: 2 kept, 1 discarded, 0 failed" in digest  # rewritten once cycle 4 was decided
    newest_first = [digest.index(f"### Cycle {n}:") for n in (4, 3, 2)]
    assert newest_first == sorted(newest_first)
    assert "Helped: charlie; hurt: none" in digest and "Helped: alpha; hurt: none" in digest
    patch = lines[2]["run_dir"] + "/candidate.patch"
    assert f"- Patch: runs/exp/{patch}" in digest and (repo / EXP / patch).is_file()
    assert f"- Patch: commit {lines[1]['commit'][:12]}" in digest


def test_held_out_tests_are_never_named(tmp_path):
    start = {name: i % 2 for i, name in enumerate(["kilo", "lima", "mike", "november", "oscar", "papa"])}
    held = split(start, 0.34, "exp")
    assert held
    changed = {name: 1 - score for name, score in start.items()}  # every test moves, held-out ones too
    plan = {2: {"write": {"prompt.md": scores(**changed)}, "summary": "flip all"}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(**start)}, plan, config={"eval": {"holdout": 0.34}})
    assert cli(repo, "run").returncode in (0, 10)
    digest = (repo / DIGEST).read_text()
    assert "### Cycle 2:" in digest and "Helped: " in digest
    assert sorted(json.loads((repo / EXP / "_autoresearch/holdout.json").read_text())["tests"]) == sorted(held)
    train = [t for t in start if t not in held]
    assert all(t in digest for t in train)
    assert not [t for t in held if t in digest]


def _records(count: int, summary: str) -> list[Iteration]:
    lines = [Iteration(cycle=1, score=0.5, decision="keep", mutation="original", run_dir="r1")]
    for cycle in range(2, count + 2):
        decision = "keep" if cycle % 10 == 0 else "drop"
        lines.append(Iteration(cycle=cycle, score=0.5, decision=decision, mutation=f"{summary} {cycle}", reason="x"))
    return lines


@pytest.mark.parametrize("count", [3, DETAILED + 5, 5000])
def test_its_size_is_bounded_whatever_the_history(tmp_path, count):
    """Newest first; older cycles shrink to one line each, then to a count, never past LIMIT bytes."""
    records = _records(count, "é" * 190)  # summaries at their length limit, two bytes a character
    digest = Digest(ExperimentPaths(tmp_path / "exp"))
    text = digest.render(records)
    assert len(text.encode("utf-8")) <= LIMIT
    assert text.index(f"### Cycle {count + 1}:") < text.index(f"### Cycle {count}:")
    detailed = text.count("### Cycle ")
    one_line = len(re.findall(r"^- \d+, (?:kept|discarded): ", text, re.MULTILINE))
    assert detailed == min(count, DETAILED)
    assert (f"- 2, discarded: {'é' * 190} 2\n" in text) == (count == DETAILED + 5)  # one line; at 5000, not at all
    unlisted = count - detailed - one_line
    assert (f"({unlisted} older cycles not listed here" in text) == (unlisted > 0) and (unlisted > 0) == (count == 5000)
    paths = ExperimentPaths(tmp_path / "exp")
    for record in records:
        append(paths.iterations, record)
    digest.write()
    assert paths.digest.read_text() == text


def test_a_long_error_is_cut_to_its_start(tmp_path):
    """An error's message may quote a command's whole output: one cycle must not take the digest's room."""
    records = _records(1, "tried")
    records.append(Iteration(cycle=3, score=0.5, decision="error", error="boom\n" + "x" * 5000, error_reason="eval"))
    text = Digest(ExperimentPaths(tmp_path / "exp")).render(records)
    [why] = [line for line in text.splitlines() if line.startswith("- Why: boom")]
    assert why.startswith("- Why: boom xxx") and why.endswith("…") and len(why) == len("- Why: ") + 300


def test_written_cycle_by_cycle_it_says_what_a_whole_read_says_and_holds_a_bounded_part(tmp_path):
    """The loop writes the digest after every cycle from the lines appended since: the text is the one
    the whole history gives, and what it keeps between cycles stays bounded (a whole read every cycle
    grew the daemon's heap with the night)."""
    paths = ExperimentPaths(tmp_path / "exp")
    records = _records(600, "é" * 190)  # one-line entries of 400 bytes: LIMIT holds about sixty
    digest = Digest(paths)
    for start in range(0, len(records), 150):
        for record in records[start : start + 150]:
            append(paths.iterations, record)
        digest.write()
        assert paths.digest.read_text() == digest.render(records[: start + 150])
    seen = digest._seen
    assert len(seen.recent) == DETAILED and len(seen.kept) <= DETAILED + 1
    assert seen.older_bytes <= LIMIT and len(seen.older) < 600 - DETAILED
    assert sum(entry.block is not None for entry in seen.recent) <= DETAILED
    paths.iterations.write_text("")  # replaced by a shorter history: read from its start again
    append(paths.iterations, records[0])
    digest.write()
    assert paths.digest.read_text() == digest.render(records[:1])


def test_written_after_every_line_each_block_is_the_one_a_whole_read_makes(tmp_path):
    """The loop writes the digest before each cycle, one line more each time, and keeps each cycle's block
    from one write to the next: every write must say what a whole read says, and a history replaced by
    other lines under the same cycle numbers (a rollback) must not show the old lines' blocks."""
    paths = ExperimentPaths(tmp_path / "exp")
    digest = Digest(paths)
    records = _records(60, "alpha")
    for n, record in enumerate(records, start=1):
        append(paths.iterations, record)
        digest.write()
        assert paths.digest.read_text() == digest.render(records[:n])
    assert all(entry.block is not None for entry in digest._seen.recent)
    other = _records(60, "omega")
    replaced = paths.iterations.with_name("replaced.jsonl")
    for record in other:
        append(replaced, record)
    replaced.replace(paths.iterations)  # a new file: Tail reads it from its start
    digest.write()
    text = paths.digest.read_text()
    assert text == digest.render(other) and "alpha" not in text
