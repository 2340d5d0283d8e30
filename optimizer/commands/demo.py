"""`autoresearch demo`: a whole run on a throwaway repository, in seconds, with no API key."""

from __future__ import annotations

import subprocess
from pathlib import Path

import typer

SETUP = (
    ["init", "-q", "-b", "main"],
    ["config", "user.name", "autoresearch demo"],
    ["config", "user.email", "demo@autoresearch.invalid"],
    ["add", "-A"],
    ["commit", "-q", "-m", "demo: initial"],
)


def command(
    directory: Path = typer.Option(
        None, "--dir", help="Where to create the demo repository (default: a new temp dir)."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Only the final summary."),
) -> int:
    """Create a small git repository with a prompt, a deterministic eval and recorded edits, and optimize it.

    Exits as `run` does: 0 when the best prompt beats the original, 10 when not.
    """
    from autoresearch.optimizer import demofiles, signals
    from autoresearch.optimizer.commands.common import load, setup_logging
    from autoresearch.optimizer.commands.summary import print_summary
    from autoresearch.optimizer.cycle import loop
    from autoresearch.optimizer.startup.opening import open_session
    from autoresearch.plumbing.errors import NO_IMPROVEMENT, OK

    root = _make_repo(directory, demofiles.files())
    print(f"demo repository: {root}")
    cfg = load(root / "autoresearch.yaml")
    setup_logging(quiet=quiet)
    signals.install()
    session = open_session(cfg, root)
    setup_logging(session.paths.log, quiet=quiet)
    try:
        outcome = loop.run(session)
    finally:
        session.close()
    print_summary(session.paths, session.ws, cfg)
    print(f"results: {session.paths.root}")
    print(f"open the chart: file://{session.paths.chart}")
    return OK if outcome.succeeded else NO_IMPROVEMENT


def _make_repo(directory: Path | None, files: dict[str, str]) -> Path:
    import tempfile  # with `random`: 7 ms of every command's start-up, for `demo` alone

    from autoresearch.plumbing.errors import InvalidInput

    root = Path(tempfile.mkdtemp(prefix="autoresearch-demo-")) if directory is None else directory.resolve()
    if root.exists() and any(root.iterdir()):
        raise InvalidInput(f"--dir {root}: the directory is not empty")
    root.mkdir(parents=True, exist_ok=True)
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for args in SETUP:
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    return root
