"""An experiment's summary, in text or as one JSON object: what `report` prints, and every `run` on its way out.

Apart from `report`'s options (typer) so that a plain `run` prints it without loading the parser.
"""

from __future__ import annotations

import shlex
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from autoresearch.plumbing.jsontypes import JSONObject

if TYPE_CHECKING:
    from autoresearch.optimizer.config import Config
    from autoresearch.optimizer.experiment.history import History
    from autoresearch.optimizer.experiment.review import Commit
    from autoresearch.optimizer.gitrepo.workspace import Workspace
    from autoresearch.plumbing.paths import ExperimentPaths
    from autoresearch.trajectory.iterations import Iteration


def _point(record: Iteration | None) -> JSONObject | None:
    return None if record is None else {"cycle": record.cycle, "score": record.score, "holdout": record.holdout_score}


def summary_json(paths: "ExperimentPaths", ws: "Workspace", cfg: "Config") -> JSONObject:
    """What `summary_lines` says, as data for scripts: the same files read the same way."""
    from autoresearch.optimizer.experiment.review import load, own_commits

    night = load(paths)
    records, bad, history, st = night.records, night.unreadable, night.history, night.state
    commits = own_commits(ws, st, history) if st else []
    return {
        "experiment": cfg.experiment_name,
        "goal": cfg.eval.goal,
        "cycles": len(records),
        "status": st.status if st else None,
        "stop_reason": st.stop_reason if st else None,
        "keeps": history.count("keep"),
        "drops": history.count("drop"),
        "errors": history.count("error"),
        "original": _point(history.original),
        "best": _point(history.best),
        "rebaseline": _point(next((r for r in reversed(records) if r.rebaseline), None)),
        "cost_usd": history.spent_usd,
        "lost_attempts": sum(r.mutation_lost_attempts or 0 for r in records),
        "eval_lost_attempts": sum(r.eval_lost_attempts or 0 for r in records),
        "overlap": asdict(overlap) if (overlap := history.overlap) else None,
        "warning": st.warning if st else None,
        "unreadable_lines": bad,
        "branch": st.branch if st else None,
        "initial_commit": st.initial_sha if st else None,
        "commits": [{"sha": c.sha, "subject": c.subject} for c in commits],
        "chart": str(paths.chart),
    }


def summary_lines(paths: "ExperimentPaths", ws: "Workspace", cfg: "Config") -> list[str]:
    from autoresearch.optimizer.experiment.review import load, own_commits

    night = load(paths)
    records, bad, history, st = night.records, night.unreadable, night.history, night.state
    original, best = history.original, history.best
    lines = [f"experiment {cfg.experiment_name}: {len(records)} cycles"]
    if st:
        lines[0] += f", {st.status} ({st.stop_reason or 'running'})"
        lines.append(f"  last run: {_run_cycles(history, st.run_start_cycle)}")
    lines.append(f"  keeps {history.count('keep')}, drops {history.count('drop')}, errors {history.count('error')}")
    lines.extend(_strategy_lines(records))
    lines.extend(_partial_lines(records))
    if original and best:
        lines.append(_score_line(cfg, original.score, best.score, best.cycle))
    rebased = [r for r in records if r.rebaseline]
    if rebased and best:
        lines.append(
            f"  re-baseline: the eval changed, HEAD measured again at cycle {rebased[-1].cycle}: "
            f"{rebased[-1].score:.4f} -> {best.score:.4f} (best); the scores before it are another eval's"
        )
    held = [r.holdout_score if r else None for r in (original, best)]
    if None not in held:
        lines.append(f"  holdout {held[0]:.4f} (original) -> {held[1]:.4f} (best): the tests the mutator never saw")
    lines.append(f"  cost ${history.spent_usd:.4f}")
    lines.extend(_lost_lines(records))
    lines.extend(_overlap_lines(history))
    if st and st.warning:
        lines.append(f"  warning: {st.warning}")
    if bad:
        lines.append(f"  warning: {bad} unreadable line(s) in {paths.iterations}")
    if st:
        lines.extend(_commit_lines(own_commits(ws, st, history), st.initial_sha, st.branch, ws.artifact))
    lines.append(f"  chart: {paths.chart}")
    return lines


def _strategy_lines(records: list["Iteration"]) -> list[str]:
    """With parallel candidates: which strategies the KEEPs came from, out of how many candidates each tried;
    and how many KEEPs came from candidates that started from an earlier one (`search.parents: pareto`)."""
    from autoresearch.trajectory.candidates import from_parents, keeps_per_strategy

    counts = keeps_per_strategy(records)
    if not counts:
        return []
    lines = ["  keeps per strategy: " + ", ".join(f"{c.strategy} {c.keeps} of {c.candidates}" for c in counts)]
    keeps, started = from_parents(records)
    if started:
        lines.append(f"  keeps from an earlier candidate (search.parents: pareto): {keeps} of {started}")
    return lines


def _overlap_lines(history: "History") -> list[str]:
    """With `search.overlap`: how the edits made ahead carried onto the new HEAD, and the spend of those that
    did not (part of the cost above, lost)."""
    o = history.overlap
    if o is None:
        return []
    tokens = (
        f" ({o.lost_tokens_in} tokens in, {o.lost_tokens_out} out)" if o.lost_tokens_in or o.lost_tokens_out else ""
    )
    return [
        f"  made ahead: {o.batches_carried} of {o.batches} batches carried onto the new HEAD "
        f"({o.edits_carried} of {o.edits} edits, {o.edits_carried / o.edits:.0%})",
        f"  lost to overlap: ${o.lost_usd:.4f}{tokens}, the mutations of the {o.edits - o.edits_carried} edits "
        "made ahead that did not carry",
    ]


def _lost_lines(records: list["Iteration"]) -> list[str]:
    """With `executor: ray`: the mutation attempts and the eval tasks' attempts lost with their node, whose spend
    the cost above lacks."""
    counts = {
        "mutation attempt(s)": {r.cycle: r.mutation_lost_attempts or 0 for r in records},
        "eval task attempt(s)": {r.cycle: r.eval_lost_attempts or 0 for r in records},
    }
    lines = []
    for what, lost in counts.items():
        if cycles := ", ".join(str(cycle) for cycle, count in lost.items() if count):
            lines.append(
                f"  lost with their Ray node: {sum(lost.values())} {what} (cycle {cycles}), "
                "what they spent is not known and not in the cost above"
            )
    return lines


def _partial_lines(records: list["Iteration"]) -> list[str]:
    """The cycles an early discard stopped: their scores are over the tests they ran, not the whole eval."""
    partial = [f"cycle {r.cycle} over {r.partial.scored} of {r.partial.total} tests" for r in records if r.partial]
    return [f"  discarded early, each score over the tests it ran: {', '.join(partial)}"] if partial else []


def _score_line(cfg: "Config", original: float, best: float, cycle: int) -> str:
    """A metric is named as one and says which way is better: 1.5 -> 1.4 is a gain for val_bpb."""
    from autoresearch.trajectory.goal import better

    if cfg.eval.metric is None:
        return f"  score {original:.4f} (original) -> {best:.4f} (best, cycle {cycle})"
    return f"  metric {original:.6g} (original) -> {best:.6g} (best, cycle {cycle}), {better(cfg.eval.goal)}"


def _run_cycles(history: "History", start: int) -> str:
    last = history.last_cycle
    return f"cycles {start + 1}-{last}" if last > start else "no cycle"


def _commit_lines(commits: list["Commit"], initial: str, branch: str | None, artifact: str) -> list[str]:
    tip = branch or "HEAD"
    if not commits:
        return [f"  no commits: {tip} is still the original artifact"]
    lines = ["  commits:", *(f"    {c.short} {c.subject}" for c in commits)]
    if branch:
        return [
            *lines,
            f"  adopt: git merge {branch}   # the experiment ran in its own worktree and branch",
            f"  revert: your branch has none of these commits until you merge {branch}; after a merge, run:",
            f"    {revert_command(initial, artifact)}",
        ]
    return [
        *lines,
        "  adopt: nothing to do, the commits are on your branch",
        f"  revert: {revert_command(initial, artifact)}",
    ]


def revert_command(initial: str, artifact: str) -> str:
    """Puts the artifact back exactly as it was at `initial` and commits only it: `git restore --source`
    also deletes the files an experiment added to a directory (`git checkout` would leave them), and a
    commit with a pathspec leaves whatever else the user has staged out of it."""
    path = shlex.quote(artifact)
    return (
        f"git restore --source={initial[:12]} --staged --worktree -- {path}"
        f" && git commit -m 'Revert autoresearch' -- {path}"
    )


def print_summary(paths: "ExperimentPaths", ws: "Workspace", cfg: "Config") -> None:
    print("\n".join(summary_lines(paths, ws, cfg)), flush=True)


def print_run_summary(cfg: "Config", start: Path) -> None:
    """The summary `run` prints however it ends (cron mails it), read from the files as `report`
    reads them: nothing for an experiment without history, and never an error of its own that
    would hide the one that ended the run."""
    from autoresearch.optimizer.gitrepo.workspace import open_workspace
    from autoresearch.plumbing.errors import AutoresearchError
    from autoresearch.plumbing.paths import ExperimentPaths

    try:
        ws = open_workspace(start, cfg.artifact)
        paths = ExperimentPaths.of(ws.root, cfg.results_dir, cfg.experiment_name)
        if paths.iterations.exists():
            print_summary(paths, ws, cfg)
    except AutoresearchError as exc:
        print(f"no summary: {exc}", file=sys.stderr, flush=True)
