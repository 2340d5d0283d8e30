from policies.stop import Limits, Progress, stop_reason


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
