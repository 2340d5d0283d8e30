"""`autoresearch chart`: the score chart as an SVG or PNG file, and the page rewritten from the files."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from autoresearch.optimizer.commands.common import ConfigOption
from autoresearch.optimizer.commands.common import experiment as find_experiment

if TYPE_CHECKING:
    from autoresearch.plumbing.paths import ExperimentPaths
    from autoresearch.trajectory.chartdata import Reading


def command(
    experiment: str = typer.Argument(None, help="Experiment name (default: the config's)."),
    png: Path = typer.Option(None, "--png", help="Write the score chart as a PNG (needs chromium installed)."),
    svg: Path = typer.Option(None, "--svg", help="Write the score chart as an SVG."),
    config: Path = ConfigOption,
) -> int:
    """Write the score chart as an image (--png/--svg); with neither, rewrite trajectory.html and print its path."""
    from autoresearch.optimizer.cycle.record import reading
    from autoresearch.plumbing.errors import InvalidInput
    from autoresearch.trajectory import image, iterations

    cfg, _, paths = find_experiment(experiment, config)
    if not paths.iterations.exists():
        raise InvalidInput(f"experiment '{paths.root.name}' has no history in {paths.root}")
    records, bad = iterations.read(paths.iterations)
    if bad:
        print(f"warning: {bad} unreadable line(s) in {paths.iterations} left out")
    if svg:
        _write(svg, image.score_svg(records, reading(cfg)))
    if png:
        _png(image.score_svg(records, reading(cfg)), png)
    if not (svg or png):
        _page(paths, records, bad, reading(cfg))
    return 0


def _write(path: Path, text: str) -> None:
    from autoresearch.plumbing import atomic

    atomic.write_text(path, text, durable=False)
    print(f"wrote {path}")


def _png(svg_text: str, out: Path) -> None:
    from autoresearch.plumbing import process
    from autoresearch.plumbing.errors import InvalidInput
    from autoresearch.trajectory import image

    browser = image.find_browser()
    if browser is None:
        raise InvalidInput(
            "--png needs Chromium to draw the image: install it (Debian/Ubuntu: apt-get install chromium) or use --svg"
        )
    out = out.resolve()
    out.unlink(missing_ok=True)  # a PNG left from before must not pass for this one
    with tempfile.TemporaryDirectory(prefix="autoresearch-chart-") as tmp:
        source = Path(tmp) / "score.svg"
        source.write_text(svg_text, encoding="utf-8")
        done = process.run(
            image.png_command(browser, source, out), cwd=Path(tmp), log_prefix=Path(tmp) / "chromium", timeout_s=60
        )
        if not image.is_png(out):
            raise InvalidInput(f"{browser} did not write {out}: {process.tail(done.stderr)}")
    print(f"wrote {out}")


def _page(paths: "ExperimentPaths", records: list, bad: int, reading: "Reading") -> None:
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
