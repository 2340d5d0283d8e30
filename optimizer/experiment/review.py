"""A night's work as a pull request's description: the Markdown `report --markdown` prints and `finalize`
writes beside the review branch, ready for `gh pr create --body-file`.

It is read from the experiment's files alone, as `report` reads them, and it goes where the public may read
it: every value from outside (a mutation's summary, a test's name, a reason) is masked, kept on one line and
escaped so that it cannot break the table it sits in or smuggle HTML into the page.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from datetime import datetime

from autoresearch.optimizer.config import Config
from autoresearch.optimizer.experiment import state as state_file
from autoresearch.optimizer.experiment.history import History
from autoresearch.optimizer.experiment.state import State
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.plumbing.redact import redact
from autoresearch.plumbing.text import cut, inert
from autoresearch.trajectory import iterations, testscores
from autoresearch.trajectory.iterations import Iteration

SHORT = 120  # characters of an error's message in the table of what was not kept
MAX_TESTS = 30  # rows of wins and of losses each: the rest are counted
MAX_DROPS = 20  # the most recent; the rest are counted


@dataclass(frozen=True)
class Night:
    """An experiment's files, read once."""

    records: list[Iteration]
    unreadable: int
    history: History
    state: State | None


@dataclass(frozen=True)
class Commit:
    sha: str
    short: str
    subject: str


def own_commits(ws: Workspace, st: State, history: History) -> list[Commit]:
    """The experiment's commits on its branch (HEAD without a worktree), newest first: those its lines
    record, never another experiment's that a promote or a merge brought onto the same branch."""
    ours = {r.commit for r in history.rows if r.commit}
    log = ws.git("log", "--format=%H %h %s", f"{st.initial_sha}..{st.branch or 'HEAD'}", "--", ws.artifact)
    commits = [Commit(*line.split(" ", 2)) for line in log.splitlines() if line.strip()]
    return [c for c in commits if c.sha in ours]


def load(paths: ExperimentPaths) -> Night:
    records, bad = iterations.read(paths.iterations)
    return Night(records, bad, History(records), state_file.load(paths.state))


@dataclass(frozen=True)
class Scale:
    """How the experiment's scores read: 0-1 scores, higher better, or a metric with its goal."""

    metric: bool = False
    goal: str = "maximize"

    def show(self, value: float | None) -> str:
        if value is None or not math.isfinite(value):
            return "–"
        return f"{value:.6g}" if self.metric else f"{value:.4f}"

    def better(self, new: float, old: float) -> bool:
        return new < old if self.goal == "minimize" else new > old


def scale(cfg: Config) -> Scale:
    return Scale(metric=cfg.eval.metric is not None, goal=cfg.eval.goal)


def title(night: Night, artifact: str, scale: Scale, earlier: int = 0) -> str:
    """The pull request's title and the squashed commit's subject. With `earlier` commits to the artifact between
    the review's base and the experiment's start, its original score is not the base's: only the best is said."""
    original, best = night.history.original, night.history.best
    before, after = (scale.show(r.score if r else None) for r in (original, best))
    return f"autoresearch: {artifact} at {after}" if earlier else f"autoresearch: {artifact} {before} → {after}"


def markdown(
    night: Night, paths: ExperimentPaths, experiment: str, artifact: str, scale: Scale, earlier: int = 0
) -> str:
    """The description; it links `chart.png`, which `finalize` writes beside it. `earlier`: as in `title`."""
    history = night.history
    original, best = history.original, history.best
    lines = [f"## autoresearch: {_cell(artifact)}, experiment {_cell(experiment)}", ""]
    if original is None or best is None:
        return "\n".join([*lines, "No cycle has been decided yet.", ""])
    kept = _kept(night.records)
    lines.append(
        f"Score **{scale.show(original.score)} → {scale.show(best.score)}** "
        f"({'lower' if scale.goal == 'minimize' else 'higher'} is better) over {len(night.records)} cycles: "
        f"{len(kept)} kept, {history.count('drop')} dropped, {_count(history.count('error'), 'error')}."
    )
    if earlier and night.state is not None:
        lines += [
            "",
            f"This change also holds {_count(earlier, 'earlier commit')} to {_cell(artifact)}, made before this "
            f"experiment began at `{night.state.initial_sha[:12]}`: the scores here are measured from there.",
        ]
    lines += ["", "| | |", "| --- | --- |"]
    if original.holdout_score is not None and best.holdout_score is not None:
        held = f"{scale.show(original.holdout_score)} → {scale.show(best.holdout_score)}"
        lines.append(f"| holdout (tests the mutator never saw) | {held} |")
    lines.append(f"| cost | ${history.spent_usd:.4f} |")
    lines.append(f"| time | {_duration(night.records)} |")
    if night.state is not None:
        lines.append(f"| started from | `{night.state.initial_sha[:12]}` |")
        lines.append(f"| stopped | {_cell(night.state.stop_reason or night.state.status)} |")
    if not scale.metric:  # a metric is one number: there are no tests to compare
        lines += ["", *_tests(paths, original, best, scale)]
    lines += ["", "### Kept changes", ""]
    if kept:
        lines += ["| cycle | score | change |", "| ---: | ---: | --- |"]
        lines += [f"| {r.cycle} | {scale.show(r.score)} | {_cell(r.mutation)} |" for r in kept]
    else:
        lines.append("None: the artifact is still the original.")
    lines += ["", *_dropped(night.records, scale)]
    if night.unreadable:
        lines += ["", f"{night.unreadable} unreadable line(s) of iterations.jsonl are left out."]
    lines += ["", "![score over the cycles](chart.png)", ""]
    return "\n".join(lines)


def kept_commits(records: list[Iteration]) -> set[str]:
    """The commits the experiment's KEEPs made, as its lines record them."""
    return {r.commit for r in _kept(records) if r.commit}


def _kept(records: list[Iteration]) -> list[Iteration]:
    """The KEEPs after the original's line (cycle 1 measures the artifact as it was)."""
    return [r for r in records[1:] if r.decision == "keep" and not r.rebaseline]


def _tests(paths: ExperimentPaths, original: Iteration, best: Iteration, scale: Scale) -> list[str]:
    """Each test's score in the original's run against the best's: the tests that changed."""
    before = testscores.read(paths.run_dir(original.run_dir)) if original.run_dir else {}
    after = testscores.read(paths.run_dir(best.run_dir)) if best.run_dir else {}
    common = sorted(set(before) & set(after))
    lines = ["### Per test, original → best", ""]
    if not common:
        return [*lines, "The per-test results of the original or the best cycle are not on this machine."]
    wins = [t for t in common if scale.better(after[t], before[t])]
    losses = [t for t in common if scale.better(before[t], after[t])]
    lines.append(f"{len(wins)} better, {len(losses)} worse, {len(common) - len(wins) - len(losses)} unchanged.")
    for title, names in (("better", wins), ("worse", losses)):
        if not names:
            continue
        names = sorted(names, key=lambda t: -abs(after[t] - before[t]))
        lines += ["", f"| test ({title}) | original | best |", "| --- | ---: | ---: |"]
        rows = names[:MAX_TESTS]
        lines += [f"| {_cell(t)} | {scale.show(before[t])} | {scale.show(after[t])} |" for t in rows]
        if len(names) > MAX_TESTS:
            lines.append(f"| … and {len(names) - MAX_TESTS} more | | |")
    return lines


def _dropped(records: list[Iteration], scale: Scale) -> list[str]:
    tried = [r for r in records if r.decision != "keep"]
    lines = ["### Tried and not kept", ""]
    if not tried:
        return [*lines, "Nothing: every mutation was kept."]
    lines += ["| cycle | decision | score | why | change |", "| ---: | --- | ---: | --- | --- |"]
    for r in tried[-MAX_DROPS:]:
        why = f"{r.error_reason}: {cut(r.error or '', SHORT)}" if r.error_reason else (r.gate or r.reason or "")
        score = "–" if r.decision == "error" else scale.show(r.score)
        lines.append(f"| {r.cycle} | {r.decision} | {score} | {_cell(why)} | {_cell(r.mutation)} |")
    if len(tried) > MAX_DROPS:
        lines.append(f"| … | {len(tried) - MAX_DROPS} earlier | | | |")
    return lines


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _duration(records: list[Iteration]) -> str:
    """From the first cycle's start to the last one's end."""
    try:
        first, last = (datetime.fromisoformat(r.timestamp.replace("Z", "+00:00")) for r in (records[0], records[-1]))
    except ValueError:
        return "–"
    seconds = max(0.0, (last - first).total_seconds() + (records[-1].duration_s or 0.0))
    hours, rest = divmod(round(seconds), 3600)
    return f"{hours} h {rest // 60:02d} min" if hours else f"{rest // 60} min {rest % 60:02d} s"


def _cell(text: str) -> str:
    """Masked, on one line, and inert in a Markdown table: no `|` ends the cell, no HTML renders, and no `@name`
    or `#123` pings a person or links (or, after "fixes", closes) an issue: a zero-width space follows each. Nor
    in a terminal (`report --markdown` prints it): a control character left shows as `\\xNN`."""
    flat = inert(" ".join(redact(text).split()))
    cell = html.escape(flat, quote=False).replace("|", "\\|").replace("`", "'")
    return cell.replace("#", "#&#8203;").replace("@", "@&#8203;") or "–"
