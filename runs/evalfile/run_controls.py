"""How a suite and each test run: trials, a target matrix, a budget, concurrency, dependencies.

Read as AgentV 4.42.4 reads them where it implements them (`execution.trials`,
`execution.targets`, `execution.budget_usd`, a test's `depends_on`,
`on_dependency_failure` and `execution.targets`), and as the Experiments page
(and AgentV 5's source) describes the rest (`evaluate_options.repeat`,
`budget_usd` and `max_concurrency`, a top-level `timeout_seconds`, a test's
`options.repeat` and scoped `run: {repeat, threshold, timeout_seconds}`). A value of the wrong type or out of range is an error
naming the field: a run must never quietly do something other than asked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeGuard

from autoresearch.runs.evalfile import fields
from autoresearch.runs.evalfile.model import Case, Suite, TargetRef, Trials
from autoresearch.runs.evalfile.problems import Problems
from autoresearch.runs.evalfile.workspace import target_hooks

TRIALS = {"count", "strategy", "cost_limit_usd", "costLimitUsd"}
TRIAL_STRATEGIES = ("pass_at_k", "mean", "confidence_interval")
REPEAT = {"count", "strategy", "early_exit", "cost_limit_usd"}
REPEAT_STRATEGIES = ("pass_any", "pass_all", "mean", "confidence_interval")
EVALUATE_OPTIONS = {"repeat", "budget_usd", "max_concurrency"}
HOOKS = ("beforeAll", "beforeEach", "afterEach", "afterAll")
FILE_PREFIX = "file://"
AGENT_RULES = "agentv:agent-rules"
DEPENDENCY_POLICIES = ("skip", "fail", "run")
REF_KEYS = ("use_target", "hooks")  # an `execution.targets` object's fields besides its name
RUN_IGNORED = {
    "budget_usd": "a per-test budget; the suite's evaluate_options.budget_usd and eval.budget_usd bound the run",
}


def suite_controls(raw: dict[str, Any], execution: dict[str, Any], suite: Suite, problems: Problems) -> None:
    """`execution.trials/targets/budget_usd` and `evaluate_options`; the latter's repeat wins over trials."""
    if "trials" in execution:
        suite.trials = _trials(execution["trials"], problems, None, "execution.trials")
    if "targets" in execution:
        suite.targets = target_names(execution["targets"], problems, None, "execution.targets", suite.target_refs)
    if "budget_usd" in execution:
        suite.budget_usd = _positive(execution["budget_usd"], problems, None, "execution.budget_usd")
    if "timeout_seconds" in raw:
        suite.timeout_s = _positive(raw["timeout_seconds"], problems, None, "timeout_seconds", "seconds")
    options = raw.get("evaluate_options")
    if options is None:
        return
    if not isinstance(options, dict):
        problems.add(None, "evaluate_options", "must be a mapping of repeat, budget_usd and max_concurrency")
        return
    fields.check_fields(options, EVALUATE_OPTIONS, {}, problems, None, "evaluate_options.")
    if "repeat" in options:
        suite.trials = repeat(options["repeat"], problems, None, "evaluate_options.repeat")
    if "budget_usd" in options:
        suite.budget_usd = _positive(options["budget_usd"], problems, None, "evaluate_options.budget_usd")
    if "max_concurrency" in options:
        value = options["max_concurrency"]
        if _is_int(value) and 1 <= value <= 50:
            suite.max_concurrency = value
        else:
            problems.add(
                None, "evaluate_options.max_concurrency", f"must be a whole number from 1 to 50, not {value!r}"
            )


def extensions(raw: Any, base: Path, problems: Problems) -> None:
    """`extensions` (the page's lifecycle hooks, `file://setup.mjs:beforeAll`): checked, then not run.
    AgentV 4.42.4 does not run them either; AgentV 5 (`extensions/runner.ts`) runs them only inside a
    materialized workspace, so a file without a workspace scores as both score it: without them."""
    if raw is None:
        return
    if not isinstance(raw, list):
        problems.add(None, "extensions", "must be a list such as [file://scripts/setup.mjs:beforeAll]")
        return
    for index, entry in enumerate(raw):
        where = f"extensions[{index}]"
        if isinstance(entry, dict) and entry.get("id") == AGENT_RULES:
            continue
        if not isinstance(entry, str) or not (entry.startswith(FILE_PREFIX) or entry.startswith(AGENT_RULES)):
            problems.add(None, where, f"must be 'file://PATH:HOOK' or '{AGENT_RULES}', not {entry!r}")
            continue
        path, _, hook = (
            entry.removeprefix(FILE_PREFIX).rpartition(":")
            if entry.startswith(FILE_PREFIX)
            else ("", "", entry[len(AGENT_RULES) + 1 :])
        )
        if hook and hook not in HOOKS:
            problems.add(None, where, f"the hook must be one of {', '.join(HOOKS)}, not {hook!r}")
        elif path and not (base / path).is_file():
            problems.add(None, where, f"no such file {path} (under {base})")
    problems.note(None, "extensions", "not run (nor by AgentV 4.42.4; AgentV 5 runs them inside a workspace)")


def case_controls(item: dict[str, Any], execution: dict[str, Any], case: Case, problems: Problems) -> None:
    """A test's dependencies, its own matrix targets, and its repeat override."""
    test_id = case.id
    if "depends_on" in item:
        deps = item["depends_on"]
        if not isinstance(deps, list) or not all(isinstance(d, str) and d for d in deps):
            problems.add(test_id, "depends_on", "must be a list of test ids")
        else:
            case.depends_on = list(dict.fromkeys(deps))
    if "on_dependency_failure" in item:
        policy = item["on_dependency_failure"]
        if policy not in DEPENDENCY_POLICIES:
            problems.add(
                test_id, "on_dependency_failure", f"must be one of {', '.join(DEPENDENCY_POLICIES)}, not {policy!r}"
            )
        else:
            case.on_dependency_failure = policy
    if "targets" in execution:
        case.targets = target_names(execution["targets"], problems, test_id, "execution.targets")
    if "threshold" in execution:
        case.threshold = _score(execution["threshold"], problems, test_id, "execution.threshold")
    options = fields.mapping(item, "options", problems, test_id, "options")
    fields.check_fields(options, {"repeat"}, {}, problems, test_id, "options.")
    if "repeat" in options:
        case.trials = repeat(options["repeat"], problems, test_id, "options.repeat")
    scoped_run(item.get("run"), case, problems, test_id, "run")


def scoped_run(
    raw: Any, case: Case, problems: Problems, test_id: str | None, where: str, fill_only: bool = False
) -> None:
    """A `run:` block: a test's own, or an import's (`fill_only`: applied where the test set nothing),
    so test.run > import run > the suite's run controls. `repeat`, `threshold` and `timeout_seconds`
    (the target's answer) are applied; a per-test `budget_usd` is checked and noted."""
    if raw is None:
        return
    if not isinstance(raw, dict):
        problems.add(test_id, where, "must be a mapping of repeat, threshold, timeout_seconds and budget_usd")
        return
    fields.check_fields(
        raw, {"repeat", "threshold", "timeout_seconds"}, {}, problems, test_id, f"{where}.", RUN_IGNORED
    )
    if "threshold" in raw:
        threshold = _score(raw["threshold"], problems, test_id, f"{where}.threshold")
        if not (fill_only and case.threshold is not None):
            case.threshold = threshold
    if "timeout_seconds" in raw:
        timeout = _positive(raw["timeout_seconds"], problems, test_id, f"{where}.timeout_seconds", "seconds")
        if not (fill_only and case.timeout_s is not None):
            case.timeout_s = timeout
    if "budget_usd" in raw:
        _positive(raw["budget_usd"], problems, test_id, f"{where}.budget_usd")
    if "repeat" in raw:
        trials = repeat(raw["repeat"], problems, test_id, f"{where}.repeat")
        if not (fill_only and case.trials is not None):
            case.trials = trials


def target_names(
    raw: Any, problems: Problems, test_id: str | None, where: str, refs: dict[str, TargetRef] | None = None
) -> list[str]:
    """`execution.targets`: names, or `{name, use_target, hooks}` objects. The objects' settings are the
    suite's (`refs`): AgentV reads a test's own list for its names only, and says nothing of the rest."""
    if not isinstance(raw, list):
        problems.add(test_id, where, "must be a list of target names")
        return []
    names: list[str] = []
    for index, entry in enumerate(raw):
        ref = None
        if isinstance(entry, dict):
            ignored = (
                {} if refs is not None else {key: "read from the suite's execution.targets only" for key in REF_KEYS}
            )
            fields.check_fields(
                entry, {"name", *REF_KEYS} - set(ignored), {}, problems, test_id, f"{where}[{index}].", ignored
            )
            ref = _ref(entry, problems, f"{where}[{index}]") if refs is not None else None
            entry = entry.get("name")
        if not isinstance(entry, str) or not entry.strip():
            problems.add(test_id, f"{where}[{index}]", "must be a target name (or {name: ...})")
        elif entry.strip() in names:
            problems.add(test_id, f"{where}[{index}]", f"{entry.strip()!r} is listed twice")
        else:
            names.append(entry.strip())
            if ref is not None and refs is not None:
                refs[entry.strip()] = ref
    return names


def _ref(entry: dict[str, Any], problems: Problems, where: str) -> TargetRef | None:
    """AgentV's extractTargetRefsFromSuite: a `use_target` that is not text is ignored, and so are hooks without a command."""
    use_target = entry.get("use_target")
    use_target = use_target.strip() if isinstance(use_target, str) and use_target.strip() else None
    raw_hooks = entry.get("hooks")
    if raw_hooks is not None and not isinstance(raw_hooks, dict):
        problems.note(None, f"{where}.hooks", "not a mapping of hooks: ignored, as AgentV ignores it")
    hooks = target_hooks(raw_hooks)
    return TargetRef(use_target, hooks) if use_target or hooks else None


def _trials(raw: Any, problems: Problems, test_id: str | None, where: str) -> Trials | None:
    """AgentV 4.42.4's `execution.trials`: count (1 = off), strategy (default pass_at_k), cost_limit_usd."""
    if not isinstance(raw, dict):
        problems.add(test_id, where, "must be a mapping with count, strategy and cost_limit_usd")
        return None
    count, strategy = _count_and_strategy(raw, TRIALS, TRIAL_STRATEGIES, problems, test_id, where)
    if strategy is None:
        return None
    limit = raw.get("cost_limit_usd", raw.get("costLimitUsd"))
    limit = None if limit is None else _positive(limit, problems, test_id, f"{where}.cost_limit_usd")
    return Trials(count, strategy, limit) if count and count > 1 else None


def repeat(raw: Any, problems: Problems, test_id: str | None, where: str) -> Trials | None:
    """The page's `repeat`: a count, or `{count, strategy (pass_any), early_exit (false), cost_limit_usd}`."""
    if not isinstance(raw, dict):
        count = _count(raw, problems, test_id, where)
        return Trials(count, "pass_any", None, False) if count else None
    count, strategy = _count_and_strategy(raw, REPEAT, REPEAT_STRATEGIES, problems, test_id, where)
    if strategy is None:
        return None
    early = raw.get("early_exit", False)
    if not isinstance(early, bool):
        problems.add(test_id, f"{where}.early_exit", f"must be true or false, not {early!r}")
        return None
    limit = raw.get("cost_limit_usd")
    if limit is not None and not (_is_number(limit) and limit >= 0):
        problems.add(test_id, f"{where}.cost_limit_usd", f"must be a number of USD >= 0, not {limit!r}")
        return None
    return Trials(count, strategy, limit or None, early) if count else None


def _count_and_strategy(
    raw: dict[str, Any],
    known: set[str],
    strategies: tuple[str, ...],
    problems: Problems,
    test_id: str | None,
    where: str,
) -> tuple[int | None, str | None]:
    """The count (None after reporting a bad one) and the strategy (the first of `strategies` by default;
    None after reporting one that is not among them)."""
    fields.check_fields(raw, known, {}, problems, test_id, f"{where}.")
    count = _count(raw.get("count"), problems, test_id, f"{where}.count")
    strategy = raw.get("strategy", strategies[0])
    if strategy not in strategies:
        problems.add(test_id, f"{where}.strategy", f"must be one of {', '.join(strategies)}, not {strategy!r}")
        return count, None
    return count, strategy


def _score(value: Any, problems: Problems, test_id: str | None, where: str) -> float | None:
    if _is_number(value) and 0 <= value <= 1:
        return float(value)
    problems.add(test_id, where, f"must be a score in [0, 1], not {value!r}")
    return None


def _count(value: Any, problems: Problems, test_id: str | None, where: str) -> int | None:
    if _is_int(value) and value >= 1:
        return value
    problems.add(test_id, where, f"must be a whole number >= 1, not {value!r}")
    return None


def _positive(value: Any, problems: Problems, test_id: str | None, where: str, unit: str = "USD") -> float | None:
    if _is_number(value) and value > 0:
        return float(value)
    problems.add(test_id, where, f"must be a number of {unit} > 0, not {value!r}")
    return None


def _is_number(value: Any) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and value == value
        and abs(value) != float("inf")
    )


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
