from autoresearch.policies.stop import Limits, Progress, continues_run, stop_reason


def progress(done=1, without_keep=0, errors=0, out_of_scope=0):
    return Progress(done, without_keep, errors, out_of_scope)


def test_stop_reasons_in_order_of_severity():
    limits = Limits(max_cycles=10, max_convergence=3)
    assert stop_reason(progress(done=5), limits) is None
    assert stop_reason(progress(done=10), limits) == "max_cycles"
    assert stop_reason(progress(without_keep=3), limits) == "converged"
    assert stop_reason(progress(errors=3, without_keep=3), limits) == "errors"
    assert stop_reason(progress(out_of_scope=3, errors=3), limits) == "out-of-scope"


def test_zero_means_no_limit():
    assert stop_reason(progress(done=10_000, without_keep=500), Limits(max_cycles=0, max_convergence=0)) is None


def test_the_target_is_reached_in_the_eval_goal_direction_and_only_when_set():
    up, down = Limits(target_score=0.9), Limits(target_score=0.9, minimize=True)
    assert stop_reason(Progress(1, 0, 0, 0, best_score=0.9), up) == "target"
    assert stop_reason(Progress(1, 0, 0, 0, best_score=0.89), up) is None
    assert stop_reason(Progress(1, 0, 0, 0, best_score=0.9), down) == "target"
    assert stop_reason(Progress(1, 0, 0, 0, best_score=0.91), down) is None
    assert stop_reason(Progress(1, 0, 0, 0, best_score=None), up) is None
    assert stop_reason(Progress(1, 0, 0, 0, best_score=1.0), Limits()) is None
    assert stop_reason(Progress(10, 0, 0, 0, best_score=1.0), Limits(max_cycles=10, target_score=1.0)) == "target"


def test_only_an_interrupted_or_crashed_run_is_continued():
    assert continues_run("running", None)  # its daemon died
    for reason in ("interrupted", "stop-requested", "failed"):
        assert continues_run("stopped", reason)
    for reason in (
        "max_cycles",
        "converged",
        "target",
        "budget",
        "deadline",
        "errors",
        "out-of-scope",
        "mutations-exhausted",
    ):
        assert not continues_run("finished", reason)
    assert not continues_run(None, None)
