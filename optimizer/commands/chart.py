"""`autoresearch chart`: the score chart as an SVG or PNG file, the page rewritten from the files, or
several experiments compared on one page."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from autoresearch.optimizer.commands.common import experiment as find_experiment
from autoresearch.optimizer.commands.options import ConfigOption

if TYPE_CHECKING:
    from autoresearch.optimizer.config import Config
    from autoresearch.plumbing.paths import ExperimentPaths
    from autoresearch.trajectory.chartdata import Reading
    from autoresearch.trajectory.iterations import Iteration

MAX_COMPARED = 6  # one colour of the palette each


def command(
    experiments: list[str] = typer.Argument(
        None, help="Experiment name (default: the config's); two or more: compare them on one page."
    ),
    png: Path = typer.Option(None, "--png", help="Write the score chart as a PNG (1920×600)."),
    svg: Path = typer.Option(None, "--svg", help="Write the score chart as an SVG."),
    config: Path = ConfigOption,
) -> int:
    """Write the score chart as an image (--png/--svg); with neither, rewrite trajectory.html and print its path.
    With several experiments, the same for all of them on one chart (the page goes to <results>/compare/)."""
    from autoresearch.optimizer.cycle.record import reading
    from autoresearch.plumbing.errors import InvalidInput
    from autoresearch.trajectory import compare, image

    names: list[str | None] = list(experiments) if experiments else [None]
    if len(names) > MAX_COMPARED:
        raise InvalidInput(f"chart compares at most {MAX_COMPARED} experiments; {len(names)} were named")
    if len(set(names)) < len(names):
        raise InvalidInput("chart: an experiment is named twice; name each one once")
    loaded = [_load(name, config) for name in names]
    if len(loaded) == 1:
        cfg, paths, records, bad = loaded[0]
        chart_svg = image.score_svg(records, reading(cfg))
    else:
        named = [(paths.root.name, records) for _, paths, records, _ in loaded]
        chart_svg = compare.compare_svg(named)
    images: list[tuple[Path, bytes]] = []  # both drawn before either is written
    if svg:
        images.append((svg, chart_svg.encode("utf-8")))
    if png:
        images.append((png, image.png(chart_svg)))
    for path, data in images:
        _write(path, data)
    if not (svg or png):
        if len(loaded) == 1:
            _page(paths, records, bad, reading(cfg))
        else:
            _compare_page([paths for _, paths, _, _ in loaded], [records for _, _, records, _ in loaded])
    return 0


def _load(name: str | None, config: Path) -> tuple["Config", "ExperimentPaths", list["Iteration"], int]:
    from autoresearch.plumbing.errors import InvalidInput
    from autoresearch.trajectory import iterations

    cfg, _, paths = find_experiment(name, config)
    if not paths.iterations.exists():
        raise InvalidInput(f"experiment '{paths.root.name}' has no history in {paths.root}")
    records, bad = iterations.read(paths.iterations)
    if bad:
        print(f"warning: {bad} unreadable line(s) in {paths.iterations} left out")
    return cfg, paths, records, bad


def _write(path: Path, data: bytes) -> None:
    from autoresearch.plumbing import atomic
    from autoresearch.plumbing.errors import InvalidInput

    try:
        atomic.write_bytes(path, data, durable=False)
    except OSError as exc:
        raise InvalidInput(f"{path}: cannot write the chart there: {exc.strerror or exc}") from None
    print(f"wrote {path}")


def _page(paths: "ExperimentPaths", records: list["Iteration"], bad: int, reading: "Reading") -> None:
    """Rewrite the page from the files, e.g. after a crash left it saying `running`."""
    from autoresearch.optimizer.experiment import state as state_file
    from autoresearch.optimizer.experiment.lockfile import holder
    from autoresearch.trajectory import page

    st = state_file.load(paths.state)
    state = st.model_dump() if st else {}
    live = holder(paths.lock) is not None
    status = "running" if live else str(state.get("status", "finished"))
    page.write(
        paths.chart,
        page.PageData(paths.root.name, records, bad, status=status, live=live, state=state, reading=reading),
    )
    print(f"wrote {paths.chart}")


def _compare_page(every: list["ExperimentPaths"], records: list[list["Iteration"]]) -> None:
    """Beside the experiments, in the results directory `serve` serves: its links reach each one's page."""
    from autoresearch.trajectory import compare

    results = every[0].root.parent.parent
    out = compare.write(results, [(p.root.name, r) for p, r in zip(every, records)])
    print(f"wrote {out}")
