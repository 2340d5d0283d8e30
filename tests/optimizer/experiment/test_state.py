"""state.json's writer: phase changes coalesced, the start and the end written at once, never out of order."""

from __future__ import annotations

import subprocess
import sys
import threading

from autoresearch.optimizer.experiment.history import History
from autoresearch.optimizer.experiment.state import State, Writer, load, summarize
from autoresearch.trajectory.iterations import Iteration
from tests.helpers.scenario import wait_for


def make_state(phase: str) -> State:
    return State(experiment="exp", artifact="prompt.md", initial_sha="0" * 40, phase=phase)


def join_timers() -> None:
    """Wait for every writer timer of this process to finish (a cancelled one ends at once)."""
    for thread in threading.enumerate():
        if isinstance(thread, threading.Timer):
            thread.join()


def test_now_writes_at_once(tmp_path):
    path = tmp_path / "state.json"
    Writer(path, delay_s=3600).now(make_state("starting"))
    assert load(path).phase == "starting"


def test_soon_writes_nothing_before_its_delay_and_now_supersedes_what_is_pending(tmp_path):
    path = tmp_path / "state.json"
    writer = Writer(path, delay_s=3600)
    writer.soon(make_state("mutate"))
    writer.soon(make_state("eval"))
    assert not path.exists()  # phases shorter than the delay never reach the disk
    writer.now(make_state("done"))
    join_timers()
    assert load(path).phase == "done"


def test_a_phase_that_lasts_is_on_disk_after_the_delay_with_the_latest_state(tmp_path):
    path = tmp_path / "state.json"
    writer = Writer(path, delay_s=0.05)
    writer.soon(make_state("mutate"))
    writer.soon(make_state("eval"))
    wait_for(path.exists)
    join_timers()
    assert load(path).phase == "eval"


def test_a_pending_write_never_lands_after_now(tmp_path):
    path = tmp_path / "state.json"
    for _ in range(50):  # the timer races `now` at a different point each time
        writer = Writer(path, delay_s=0.0)
        writer.soon(make_state("eval"))
        writer.now(make_state("done"))
        join_timers()
        assert load(path).phase == "done"


def test_soon_keeps_the_state_as_it_was_when_asked(tmp_path):
    path = tmp_path / "state.json"
    writer = Writer(path, delay_s=0.05)
    state = make_state("eval")
    writer.soon(state)
    state.phase = "decide"  # the loop goes on changing its own copy
    wait_for(path.exists)
    join_timers()
    assert load(path).phase == "eval"


def test_a_keep_line_without_its_commit_leaves_no_null_that_state_json_cannot_read_back(tmp_path):
    """A hand-edited iterations.jsonl may lose a KEEP's commit: state.json must still load after summarize."""
    history = History(
        [
            Iteration(cycle=1, score=0.5, decision="keep", commit="a" * 40),
            Iteration(cycle=2, score=0.6, decision="keep", commit="b" * 40),
            Iteration(cycle=3, score=0.7, decision="keep"),
        ]
    )
    state = make_state("done")
    summarize(state, history)
    path = tmp_path / "state.json"
    Writer(path, delay_s=3600).now(state)
    assert load(path).commits == ["b" * 40]


def test_soon_renders_no_text_the_timer_does_not_write(tmp_path):
    """A cycle changes phase four times: `soon` keeps a copy of the state, and only the write renders it."""
    rendered = []

    def count(frame, event, arg):
        if event == "c_call" and getattr(arg, "__name__", "") == "to_json":
            rendered.append(arg)

    path = tmp_path / "state.json"
    writer = Writer(path, delay_s=3600)
    sys.setprofile(count)
    try:
        for phase in ("mutate", "eval", "decide", "idle"):
            writer.soon(make_state(phase))
    finally:
        sys.setprofile(None)
    assert not rendered and not path.exists()
    writer.now(make_state("done"))
    join_timers()


def test_a_commit_that_joins_the_list_after_soon_is_not_in_the_state_it_kept(tmp_path):
    """The commits' list is the history's, shared with the copy `soon` keeps: the write shows the commits
    the state had when it was kept, the next `soon` the new one."""
    history = History(
        [
            Iteration(cycle=1, score=0.5, decision="keep"),
            Iteration(cycle=2, score=0.6, decision="keep", commit="a" * 40),
        ]
    )
    state = make_state("decide")
    summarize(state, history)
    assert state.commits is history.commits  # held once, not copied every cycle
    path = tmp_path / "state.json"
    writer = Writer(path, delay_s=0.05)
    writer.soon(state)
    history.add(Iteration(cycle=3, score=0.7, decision="keep", commit="b" * 40))
    wait_for(path.exists)
    join_timers()
    assert load(path).commits == ["a" * 40] and load(path).keeps == 2
    summarize(state, history)
    writer.now(state)
    assert load(path).commits == ["a" * 40, "b" * 40]


def test_a_commit_that_joins_the_list_while_the_timer_renders_is_not_in_the_state_it_kept(tmp_path):
    """The KEEP's commit joins the shared list between the timer's look at its length and its render (the loop
    records a line while the timer thread writes): the state written is still the one `soon` kept, without it.
    The interleaving is made exact by a profile hook in the timer's thread, at the render's call."""
    history = History(
        [
            Iteration(cycle=1, score=0.5, decision="keep"),
            Iteration(cycle=2, score=0.6, decision="keep", commit="a" * 40),
        ]
    )
    state = make_state("decide")
    summarize(state, history)
    joined = []

    def keep_lands(frame, event, arg):
        if event == "c_call" and getattr(arg, "__name__", "") == "to_json" and not joined:
            joined.append(True)
            history.add(Iteration(cycle=3, score=0.7, decision="keep", commit="b" * 40))

    path = tmp_path / "state.json"
    writer = Writer(path, delay_s=0.01)
    threading.setprofile(keep_lands)  # the timer's thread, started by `soon`, takes it
    try:
        writer.soon(state)
    finally:
        threading.setprofile(None)
    wait_for(path.exists)
    join_timers()
    assert joined
    assert load(path).commits == ["a" * 40] and load(path).keeps == 2


def test_a_secret_that_reaches_the_state_is_masked_on_disk_by_now_and_by_the_timer(tmp_path, monkeypatch):
    secret = 'sk-live-"quoted"\\and-long'
    monkeypatch.setenv("STATE_TEST_API_KEY", secret)
    for name, write in (("now", lambda w, s: w.now(s)), ("soon", lambda w, s: w.soon(s))):
        path = tmp_path / f"{name}.json"
        state = make_state("eval")
        state.warning = f"grader failed: bad key {secret}"
        state.commits.append("a" * 40)
        write(Writer(path, delay_s=0), state)
        join_timers()
        text = path.read_text(encoding="utf-8")
        assert "sk-live" not in text and "and-long" not in text
        back = load(path)
        assert back.warning == "grader failed: bad key ***"
        assert (back.commits, back.phase, back.experiment) == (["a" * 40], "eval", "exp")


def test_a_state_no_secret_reaches_is_written_as_pydantic_writes_it(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_TEST_API_KEY", "sk-live-not-in-this-state")
    path = tmp_path / "state.json"
    state = make_state("mutate")
    state.warning = "ünïcode stays as it is"
    Writer(path, delay_s=3600).now(state)
    assert path.read_text(encoding="utf-8") == state.model_dump_json(indent=2) + "\n"


def test_a_secret_that_is_one_of_the_states_own_words_leaves_the_state_readable(tmp_path, monkeypatch):
    """A secret whose value is a word of the state's own (its goal, its stop reason) or part of a commit it names
    masked the field too: `goal: "***"` made state.json unreadable, the next start refused ("move it away"), and a
    masked `initial_sha` or branch was a git error in `finalize`. The daemon writes those fields from its own
    vocabulary and git's ids, never from text it was given: the warning, which quotes text from outside, is
    still masked."""
    sha = "0123456789abcdef" * 2 + "01234567"
    for secret, field in (("minimize", "goal"), ("stop-requested", "stop_reason"), (sha[8:24], "initial_sha")):
        monkeypatch.setenv("STATE_TEST_API_KEY", secret)
        for name, write in (("now", lambda w, s: w.now(s)), ("soon", lambda w, s: w.soon(s))):
            path = tmp_path / f"{field}-{name}.json"
            state = State(experiment="exp", artifact="prompt.md", initial_sha=sha, phase="done", status="stopped")
            state.goal, state.stop_reason, state.branch = "minimize", "stop-requested", f"autoresearch/{sha[:20]}"
            state.commits.append(sha)
            state.warning = f"the grader said {secret}"
            write(Writer(path, delay_s=0), state)
            join_timers()
            back = load(path)
            assert back is not None, field
            assert back.warning == "the grader said ***", field
            kept = ("goal", "stop_reason", "status", "phase", "initial_sha", "commits", "branch", "started_at")
            assert {f: getattr(back, f) for f in kept} == {f: getattr(state, f) for f in kept}, field


def test_a_secret_in_a_fields_name_masks_another_versions_name_only(tmp_path, monkeypatch):
    """A field of another version's, kept (extra="allow"), named with a secret is written under a masked name; a
    name of the schema's that a secret matched ("original_score") stays, or state.json lacked the field."""
    secret = "sk-live-in-a-name"
    monkeypatch.setenv("STATE_TEST_API_KEY", secret)
    monkeypatch.setenv("STATE_TEST_OTHER_KEY", "original_score")
    path = tmp_path / "state.json"
    state = State.model_validate({**make_state("eval").model_dump(), f"from_{secret}": f"said {secret}"})
    state.original_score = 0.5
    Writer(path, delay_s=0).now(state)
    text = path.read_text(encoding="utf-8")
    assert "sk-live" not in text
    back = load(path)
    assert back is not None and back.original_score == 0.5 and back.model_extra == {"from_***": "said ***"}


NO_ROOM_FOR_A_LONG_STATE = """
import resource, signal, sys, threading
from pathlib import Path
from autoresearch.optimizer.experiment.state import State, Writer
from autoresearch.plumbing.errors import NoRoom
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG, as a full disk's ENOSPC
resource.setrlimit(resource.RLIMIT_FSIZE, (4000, 4000))
def state(warning):
    return State(experiment="exp", artifact="prompt.md", initial_sha="0" * 40, warning=warning)
writer = Writer(Path(sys.argv[1]), delay_s=0.0)
writer.soon(state("x" * 8000))  # the timer's write finds no room
for thread in threading.enumerate():
    if isinstance(thread, threading.Timer):
        thread.join()
try:
    writer.now(state(None))  # it fits, but the state the timer lost must not pass unseen
except NoRoom as exc:
    print(exc)
"""


def test_a_state_the_timer_found_no_room_for_stops_the_loop_at_its_next_write_without_a_traceback(tmp_path):
    path = tmp_path / "state.json"
    done = subprocess.run(
        [sys.executable, "-c", NO_ROOM_FOR_A_LONG_STATE, str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.stderr == ""  # the timer's thread printed its traceback ("Exception in thread")
    assert done.stdout.startswith(f"cannot write {path}: File too large"), done.stdout
