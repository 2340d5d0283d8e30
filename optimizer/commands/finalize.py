"""`autoresearch finalize [EXPERIMENT]`: the night's work as a branch to review and a pull request's text."""

from __future__ import annotations

import json
import shlex
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from autoresearch.optimizer.commands.common import experiment as find_experiment
from autoresearch.optimizer.commands.common import settle_versions
from autoresearch.optimizer.commands.options import ConfigOption

if TYPE_CHECKING:
    from autoresearch.optimizer.experiment import review
    from autoresearch.optimizer.gitrepo.review import Made
    from autoresearch.plumbing.paths import ExperimentPaths


def command(
    experiment: str = typer.Argument(None, help="Experiment name (default: the config's)."),
    series: bool = typer.Option(
        False, "--series", help="One commit per KEEP, each with its message and author, instead of one commit."
    ),
    branch: str = typer.Option(None, "--branch", help="The review branch (default: autoresearch/<experiment>-review)."),
    onto: str = typer.Option(
        None,
        "--onto",
        help="The commit the review starts from (default: where the experiment started), e.g. origin/main; "
        "refused if the artifact changed there since the experiment began.",
    ),
    force: bool = typer.Option(False, "--force", help="Replace the review branch if it exists."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object: the branch, its commits, the files."),
    config: Path = ConfigOption,
) -> int:
    """Make a branch holding the experiment's change to the artifact on top of where it started (one commit, or
    the KEEPs one by one with --series), and write a pull request's description (description.md) and the score
    chart (chart.png) under <results>/runs/<experiment>/review/. Your branch, working tree and index are not
    touched. Refuses (exit 30) a review that would change nothing, a branch checked out anywhere, and an existing
    branch without --force."""
    from autoresearch.optimizer.experiment import review
    from autoresearch.optimizer.gitrepo import review as review_branch
    from autoresearch.plumbing.errors import IntegrityError, InvalidInput

    cfg, ws, paths = find_experiment(experiment, config)
    name = cfg.experiment_name
    settle_versions(paths.results_dir)
    if not paths.iterations.exists():
        raise InvalidInput(f"experiment '{name}' has no history in {paths.root}")
    night = review.load(paths)
    if night.state is None:
        raise InvalidInput(f"finalize: {paths.state} is missing: the experiment's start is unknown")
    start = night.state.initial_sha
    if start not in ws.lib:  # a rebase, then git gc: the KEEPs, if still there, are other commits now
        raise IntegrityError(
            f"finalize: the experiment's start {start[:12]} is no longer in this repository (history rewritten): "
            "there is no base to review from"
        )
    commits = review.own_commits(ws, night.state, night.history)  # newest first
    recorded = review.kept_commits(night.records)
    if recorded and not commits:  # not "nothing to review": the night's work is there, HEAD is elsewhere
        on = night.state.branch or "HEAD"
        raise InvalidInput(
            f"finalize: none of {name}'s {len(recorded)} kept commit(s) is on {on}: check out the branch it ran on"
        )
    ref = review_branch.check_name(ws, branch or f"autoresearch/{name}-review", night.state.branch)
    tip = commits[0].sha if commits else start  # kept nothing: earlier nights' work may still be new to `base`
    base = review_branch.check_base(ws, onto or start, tip)
    if not review_branch.artifact_changed(ws, base, tip):
        raise InvalidInput(f"finalize: nothing to review: {ws.artifact} is the same in {tip[:12]} as in {base[:12]}")
    scale = review.scale(cfg)
    earlier = int(ws.git("rev-list", "--count", f"{base}..{start}", "--", ws.artifact))
    title = review.title(night, ws.artifact, scale, earlier)
    commits = [c for c in commits if not review_branch.holds(ws, base, c.sha)]  # KEEPs merged there already
    if series:
        steps = [review_branch.Step(c.sha) for c in reversed(commits)]
        if review_branch.artifact_changed(ws, base, start) and not review_branch.holds(ws, base, start):
            # earlier work on the way there: said, not hidden
            steps.insert(0, review_branch.Step(start, f"autoresearch: {ws.artifact} as {name} began"))
    else:
        kept = "\n".join(f"- {c.subject}" for c in reversed(commits))
        steps = [review_branch.Step(tip, f"{title}\n\n{kept}\n" if kept else f"{title}\n")]
    made = review_branch.make(ws, ref, base, steps, force)
    description, chart = _write(paths, night, name, ws.artifact, scale, earlier)
    if as_json:
        print(json.dumps({**asdict(made), "title": title, "description": str(description), "chart": str(chart)}))
    else:
        _say(made, title, description, chart)
    return 0


def _write(
    paths: "ExperimentPaths", night: "review.Night", name: str, artifact: str, scale: "review.Scale", earlier: int
) -> tuple[Path, Path]:
    """The description and, beside it (it links it), the chart."""
    from autoresearch.optimizer.experiment import review
    from autoresearch.plumbing import atomic
    from autoresearch.trajectory import chartdata, image

    folder = paths.root / "review"
    description, chart = folder / "description.md", folder / "chart.png"
    reading = chartdata.Reading(metric=scale.metric, goal=scale.goal)
    atomic.write_bytes(chart, image.png(image.score_svg(night.records, reading)), durable=False)
    text = review.markdown(night, paths, name, artifact, scale, earlier)
    atomic.write_text(description, text, durable=False)  # a test id with a lone surrogate: its escape
    return description, chart


def _say(made: "Made", title: str, description: Path, chart: Path) -> None:
    count = f"{len(made.commits)} commit{'s' if len(made.commits) > 1 else ''}"
    print(f"review branch {made.branch}: {count} on {made.base[:12]}; your branch is untouched")
    if made.replaced:
        print(f"  it replaced {made.replaced[:12]} (git branch -f {made.branch} {made.replaced[:12]} brings that back)")
    print(f"description: {description}")
    print(f"chart: {chart}")
    branch = shlex.quote(made.branch)
    print("open a pull request:")
    print(f"  git push origin {branch}")
    print(f"  gh pr create --head {branch} --title {shlex.quote(title)} --body-file {shlex.quote(str(description))}")
