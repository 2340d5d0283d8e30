"""Crash repair in-process: what a daemon killed mid-cycle leaves, repaired before the next run."""

from __future__ import annotations

import json

from autoresearch.optimizer.cycle.conclude import commit_message
from autoresearch.optimizer.cycle.head import original
from autoresearch.optimizer.cycle.record import record
from autoresearch.optimizer.experiment.history import History
from autoresearch.optimizer.startup.reconcile import reconcile
from autoresearch.trajectory import iterations
from tests.helpers.repos import git
from tests.optimizer.unit import experiment, lines, scores


def crashed(tmp_path):
    """An experiment after its original, its lock released as a killed daemon's would be."""
    session = experiment(tmp_path, scores(a=0, b=1), {})
    record(session, original(session))
    session.close()
    return session


def repair(session) -> list[str]:
    return reconcile(session.config, session.ws, session.paths, History(iterations.read(session.paths.iterations)[0]))


def test_a_keep_committed_but_not_logged_is_logged_from_its_run_directory(tmp_path):
    session = crashed(tmp_path)
    run_dir = session.paths.new_run_dir(2)
    (run_dir / "index.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in [{"test_id": "a", "score": 1.0}, {"test_id": "b", "score": 1.0}])
    )
    session.ws.artifact_path.write_text(scores(a=1, b=1))
    git(session.ws.root, "commit", "-qam", commit_message(2, "fix a"))
    assert repair(session) == [f"logged cycle 2, committed as {session.ws.head()[:10]} just before the crash"]
    line = lines(session)[-1]
    assert (line["cycle"], line["decision"], line["mutation"], line["wins"], line["commit"]) == (
        2,
        "keep",
        "fix a",
        1,
        session.ws.head(),
    )


def test_a_commit_not_made_by_the_daemon_is_never_logged_as_a_keep(tmp_path):
    session = crashed(tmp_path)
    session.ws.artifact_path.write_text(scores(a=1, b=1))
    git(session.ws.root, "commit", "-qam", "my own edit")
    assert repair(session) == [] and len(lines(session)) == 1


def test_a_candidate_left_in_the_tree_is_saved_as_a_patch_and_the_artifact_restored(tmp_path):
    session = crashed(tmp_path)
    session.ws.artifact_path.write_text(scores(a=1, b=1))
    [action] = repair(session)
    [patch] = session.paths.meta.glob("recovered-*.patch")
    assert action == f"saved the candidate left in the tree as {patch.name} and restored the artifact"
    assert "+a=1" in patch.read_text() and session.ws.artifact_path.read_text() == scores(a=0, b=1)


def test_an_experiment_left_consistent_needs_no_repair(tmp_path):
    assert repair(crashed(tmp_path)) == []


def test_a_keep_line_without_its_commit_is_left_to_the_resume_check(tmp_path):
    """A hand-edited iterations.jsonl whose KEEP lost its commit: repair logs nothing and looks up no commit
    "None" (the resume check then refuses the history with its own message)."""
    session = crashed(tmp_path)
    [line] = lines(session)
    del line["commit"]
    session.paths.iterations.write_text(json.dumps(line) + "\n")
    session.ws.artifact_path.write_text(scores(a=1, b=1))
    git(session.ws.root, "commit", "-qam", commit_message(2, "fix a"))
    assert repair(session) == [] and lines(session) == [line]
