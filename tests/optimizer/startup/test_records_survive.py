"""The daemon's records outlive it: a kill -9 leaves a copy of every line it appended that the next start
puts back (autoresearch.optimizer.guard.ledger), whatever an unsandboxed mutator did to iterations.jsonl."""

from __future__ import annotations

import json
import signal
import subprocess

from autoresearch.plumbing.faults import ENV
from tests.helpers.repos import cli, git
from tests.helpers.scenario import held_in_a_mutation, scenario_repo
from tests.optimizer.startup.test_crash import ORIGINAL, PLAN, assert_same_as_uninterrupted, make

FOLDER = ".autoresearch/runs/exp/_autoresearch"


def held_mutation(tmp_path, command: str):
    """A repository whose third cycle's mutator runs `command` (at its first try only), then waits; the daemon
    running it."""
    once = f"test -e .autoresearch/done || {{ touch .autoresearch/done; {command}; }}"
    plan = {**PLAN, 3: {**PLAN[3], "run": [once], "hold": True}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": ORIGINAL}, plan)
    proc = held_in_a_mutation(repo)
    return repo, proc


def kill_and_go_on(repo, proc) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    (repo / ".autoresearch/go-on").touch()  # the orphaned mutator ends


def test_a_history_cut_mid_line_by_a_mutator_then_a_kill_is_put_back_by_the_next_start(tmp_path):
    repo, proc = held_mutation(tmp_path, f"truncate -s -20 {FOLDER}/iterations.jsonl")
    kill_and_go_on(repo, proc)
    damaged = (repo / FOLDER / "iterations.jsonl").read_bytes()
    assert damaged.count(b"\n") == 1  # cut in place, mid-line: the mirror's hard links are cut with it

    resumed = cli(repo, "run")

    assert resumed.returncode == 0, resumed.stderr
    assert "put back iterations.jsonl" in resumed.stderr
    assert_same_as_uninterrupted(repo)
    assert (repo / FOLDER / "iterations.jsonl").read_bytes().startswith(damaged)  # the rest added to what was left
    log = [json.loads(line) for line in (repo / FOLDER / "daemon.log").read_text().splitlines()]
    assert any("put back iterations.jsonl" in e["event"] for e in log)


def test_a_history_rewritten_by_a_mutator_then_a_kill_is_saved_then_put_back_by_the_next_start(tmp_path):
    repo, proc = held_mutation(tmp_path, f'sed -i \'s/"keep"/"drop"/\' {FOLDER}/iterations.jsonl')
    kill_and_go_on(repo, proc)
    damaged = (repo / FOLDER / "iterations.jsonl").read_bytes()
    assert b'"keep"' not in damaged  # a new file in its place: not one the mirror puts back

    resumed = cli(repo, "run")

    assert resumed.returncode == 0, resumed.stderr
    assert "put back iterations.jsonl" in resumed.stderr
    assert_same_as_uninterrupted(repo)
    saved = list((repo / FOLDER).glob("iterations.jsonl.damaged-*"))
    assert [p.read_bytes() for p in saved] == [damaged]  # saved in full before the put-back


def test_lines_a_mutator_appends_before_a_kill_are_not_taken_for_the_daemons(tmp_path):
    forged = json.dumps({"cycle": 3, "score": 1, "decision": "drop", "cost_usd": 0, "mutation": "forged"})
    repo, proc = held_mutation(tmp_path, f"echo '{forged}' >> {FOLDER}/iterations.jsonl")
    kill_and_go_on(repo, proc)

    resumed = cli(repo, "run")

    assert resumed.returncode == 0, resumed.stderr
    assert_same_as_uninterrupted(repo)
    assert "forged" not in (repo / FOLDER / "iterations.jsonl").read_text()
    assert forged.encode() in b"".join(p.read_bytes() for p in (repo / FOLDER).glob("iterations.jsonl.damaged-*"))


def test_a_rollback_after_a_kill_between_the_two_appends_reads_and_keeps_the_daemons_last_line(tmp_path):
    repo = make(tmp_path)
    assert cli(repo, "run", env={ENV: "between-appends:4"}).returncode == -signal.SIGKILL  # cycle 4's KEEP
    assert cli(repo, "rollback", "--to", "2").returncode == 0

    resumed = cli(repo, "run")

    assert resumed.returncode == 0, resumed.stderr
    lines = [json.loads(line) for line in (repo / FOLDER / "iterations.jsonl").read_text().splitlines()]
    assert [r["decision"] for r in lines][:5] == ["keep", "keep", "drop", "keep", "keep"]  # the 5th the rollback's
    assert lines[4]["commit"] == git(repo, "log", "--format=%H", "--grep", "rollback to cycle 2").strip()
    assert not list((repo / FOLDER).glob("iterations.jsonl.damaged-*"))


def test_a_history_removed_while_no_daemon_ran_begins_a_new_experiment_and_keeps_the_last_ones_lines(tmp_path):
    repo = make(tmp_path)
    assert cli(repo, "run").returncode == 0
    history = repo / FOLDER / "iterations.jsonl"
    night = history.read_bytes()
    subprocess.run(["git", "clean", "-ffdxq"], cwd=repo, check=True)  # a process a mutator left, or the user

    again = cli(repo, "run")

    assert again.returncode == 10, again.stderr  # a new experiment from the last one's best: no improvement
    assert "a new experiment begins" in again.stderr
    kept = list((repo / ".git/autoresearch").glob("*/records/iterations.jsonl.removed-*"))
    assert [p.read_bytes() for p in kept] == [night]


def links_to(victim, folders: str, *names: str) -> str:
    """A mutator's command putting a symbolic link to `victim` at each of `names` in each of `folders` (a glob).
    The names an older version wrote through; the daemon's temporary files now have names no mutator can
    foresee (atomic.write_chunks), which tests/plumbing/test_fresh.py plants links at by making them foreseen."""
    return f"for d in {folders}; do " + "".join(f"ln -sfn {victim} $d/{name}; " for name in names) + "done"


def test_a_link_at_the_restores_temporary_name_leads_no_write_to_the_file_it_names(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file\n")
    plant = links_to(victim, FOLDER, "iterations.jsonl.autoresearch-restore")
    repo, proc = held_mutation(tmp_path, f'{plant}; sed -i \'s/"keep"/"drop"/\' {FOLDER}/iterations.jsonl')
    (repo / ".autoresearch/go-on").touch()  # the daemon lives: it puts the history back after the mutation

    assert proc.wait(timeout=120) == 0
    assert victim.read_text() == "the user's own file\n"  # was truncated and given the night's lines
    lines = [json.loads(line) for line in (repo / FOLDER / "iterations.jsonl").read_text().splitlines()]
    decisions = [(r["cycle"], r["decision"]) for r in lines]
    assert decisions == [(1, "keep"), (2, "keep"), (3, "error"), (4, "keep"), (5, "drop")]  # cycle 3: the records'
    assert not (repo / FOLDER / "iterations.jsonl").is_symlink()


def test_links_in_place_of_the_copy_and_at_its_temporary_name_lead_no_write_to_the_file_they_name(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file\n")
    plant = links_to(victim, ".git/autoresearch/*/records", "iterations.jsonl.tmp", "iterations.jsonl")
    repo, proc = held_mutation(tmp_path, plant)
    (repo / ".autoresearch/go-on").touch()  # the daemon makes its copy again from the file, which is whole

    assert proc.wait(timeout=120) == 0
    assert victim.read_text() == "the user's own file\n"
    assert_same_as_uninterrupted(repo)
    copies = list((repo / ".git/autoresearch").glob("*/records/iterations.jsonl"))
    assert [p.read_bytes() for p in copies] == [(repo / FOLDER / "iterations.jsonl").read_bytes()]
    assert not any(p.is_symlink() for p in copies)
