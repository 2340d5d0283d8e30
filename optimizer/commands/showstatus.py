"""What `autoresearch status` prints, from the experiments' files alone; without typer, so that `status` as
scripts poll it is answered before the CLI's parser is built (see autoresearch.optimizer.commands.quick).

Fast on purpose (no pydantic, git or SDK imports; see optimizer/experiment/overview.py):
people run it in a loop, and scripts poll it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from autoresearch.plumbing.errors import OK
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.plumbing.paths import ExperimentPaths

if TYPE_CHECKING:
    from autoresearch.optimizer.experiment.overview import ExperimentView, ScheduleView


def show(experiment: str | None, config: Path, as_json: bool) -> int:
    """Print every experiment and scheduler of the repository, one line each, or one experiment in full."""
    from autoresearch.optimizer.experiment import overview

    results = overview.results_root(config)
    if any(ExperimentPaths.at(results, name).version_journal.exists() for name in overview.experiments(results)):
        from autoresearch.optimizer.commands.common import settle_versions

        settle_versions(results)  # (git is loaded only then: status stays fast)
    if experiment:
        view, sched = overview.experiment(results, experiment), overview.schedule(results, experiment)
        if as_json:
            print(json.dumps({**view.as_dict(), "scheduler": sched.as_dict() if sched else None}, indent=2))
        else:
            print("\n".join(_details(view, sched)))
        return OK
    views = [overview.experiment(results, name) for name in overview.experiments(results)]
    scheds = [s for s in (overview.schedule(results, name) for name in overview.schedules(results)) if s]
    undone = [] if views or scheds else _left_undone(results)
    if as_json:
        listed: JSONObject = {"experiments": [v.as_dict() for v in views], "schedulers": [s.as_dict() for s in scheds]}
        if undone:
            listed["interrupted_mutations"] = [str(run_dir) for run_dir in undone]
        print(json.dumps(listed, indent=2))
        return OK
    if not views and not scheds:
        print(_nothing_under(results, undone))
    for view in views:
        print(_summary(view))
    for sched in scheds:
        print(_schedule_line(sched))
    return OK


def _left_undone(results: Path) -> list[Path]:
    """With no experiment here, or none left: an unsandboxed mutator's `git clean -ffdx` deletes the results
    folder, and a kill during that mutation leaves its undo (which puts the folder back) to the next start,
    recorded under `.git/autoresearch/` (the records only the daemon trusts; git is asked where they are only
    then, so that `status` stays fast)."""
    from autoresearch.optimizer.startup.interrupted import left_undone_at

    return left_undone_at(results.parent)


def _nothing_under(results: Path, undone: list[Path]) -> str:
    if not undone:
        return f"no experiments yet under {results}"
    names = ", ".join(sorted({repr(run_dir.parent.name) for run_dir in undone}))
    return (
        f"no experiments under {results}, but a run of {names} was killed during a mutation in this checkout and "
        f"its undo is pending ({undone[0]}): the mutator may have deleted the experiment's files. Start that "
        "experiment again (`autoresearch run`, with its config): its start puts them back and undoes what the "
        "mutator changed outside the artifact, before anything else"
    )


def _liveness(view: ExperimentView) -> str:
    from autoresearch.optimizer.experiment.overview import seconds_since

    st = view.state or {}
    if view.running:
        cycle, phase = st.get("cycle", 0) + 1, st.get("phase", "starting")
        elapsed = seconds_since(st.get("phase_started_at"))
        return f"running (pid {view.holder}), cycle {cycle} {phase} for {duration(elapsed)}"
    if view.stale_pid:
        from autoresearch.plumbing.owned import alive  # only here: it brings tempfile (ms of every `status`)

        why = "is gone" if not alive(view.stale_pid) else "no longer holds the lock"
        return f"not running (stale: pid {view.stale_pid} {why})"
    if not st:
        return "not running (no state yet)"
    reason = f" ({st['stop_reason']})" if st.get("stop_reason") else ""
    return f"not running: {st.get('status', '?')}{reason}, {st.get('cycle', 0)} cycles"


def _summary(view: ExperimentView) -> str:
    st = view.state or {}
    return f"{view.name}: {_liveness(view)}; best {_score(st.get('best_score'))} (original {_score(st.get('original_score'))})"


def _details(view: ExperimentView, sched: ScheduleView | None) -> list[str]:
    from autoresearch.optimizer.experiment.overview import seconds_since
    from autoresearch.trajectory.goal import better

    st = view.state or {}
    lines = [f"experiment {view.name}: {_liveness(view)}"]
    if st:
        best_at = f" (cycle {st['best_cycle']})" if st.get("best_cycle") else ""
        if st.get("metric"):  # a value (val_bpb), not a 0-1 score, and maybe one that should go down
            lines.append(
                f"  metric:    original {_value(st.get('original_score'))}, best {_value(st.get('best_score'))}"
                f"{best_at}, {better(st.get('goal', 'maximize'))}"
            )
        else:
            lines.append(
                f"  score:     original {_score(st.get('original_score'))}, best {_score(st.get('best_score'))}{best_at}"
            )
        lines.append(
            f"  decisions: {st.get('keeps', 0)} keeps, {st.get('drops', 0)} drops, {st.get('errors', 0)} errors"
        )
        budget = f" of ${st['budget_usd']:.2f}" if st.get("budget_usd") else " (no budget)"
        lines.append(f"  spend:     ${st.get('cost_usd', 0):.2f}{budget}")
        if st.get("deadline"):
            left = -(seconds_since(st["deadline"]) or 0)
            lines.append(f"  deadline:  {st['deadline']} ({duration(left) + ' left' if left > 0 else 'passed'})")
        if st.get("warning"):
            lines.append(f"  warning:   {st['warning']}")
    if view.decisions:
        lines.append("  last decisions:")
        lines += [f"    {_decision(r)}" for r in view.decisions]
    if sched:
        lines.append("  " + _schedule_line(sched))
    return lines


def _decision(record: JSONObject) -> str:
    mutation = str(record.get("mutation", ""))[:60]
    line = f"cycle {record['cycle']:<3} {record.get('decision', '?'):<5} {_score(record.get('score'))}  {mutation}"
    lost = [
        f"{count} {what} attempt(s)"
        for what, key in (("mutation", "mutation_lost_attempts"), ("eval task", "eval_lost_attempts"))
        if (count := record.get(key))  # executor: ray; their spend is in no figure
    ]
    if lost:
        line += f"  ({' and '.join(lost)} lost with their Ray node, spend not known)"
    return line


def _schedule_line(sched: ScheduleView) -> str:
    data = sched.state or {}
    where = f"running (pid {sched.holder})" if sched.running else "not running"
    line = f"scheduler {sched.name}: {where}, cron '{data.get('cron')}' ({data.get('tz')})"
    if sched.running and data.get("current"):
        line += f", a run started at {data['current'].get('started_at')}"
    elif sched.running and data.get("next_fire"):
        line += f", next run {data['next_fire']}"
    if data.get("runs"):
        last = data["runs"][-1]
        line += f", last run exit {last.get('exit_code')} ({last.get('started_at')})"
    return line


def _score(value: object) -> str:
    return f"{value:.3f}" if isinstance(value, (int, float)) else "-"


def _value(value: object) -> str:
    return f"{value:.6g}" if isinstance(value, (int, float)) else "-"


def duration(seconds: float | None) -> str:
    """`45s`, `12m 5s`, `3h 20m`, `2d 4h`: elapsed or remaining time at a glance."""
    if seconds is None:
        return "?"
    s = int(max(0, seconds))
    for unit, size, sub, sub_size in (("d", 86400, "h", 3600), ("h", 3600, "m", 60), ("m", 60, "s", 1)):
        if s >= size:
            return f"{s // size}{unit} {(s % size) // sub_size}{sub}"
    return f"{s}s"
