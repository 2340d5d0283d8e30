"""Repository discovery: the one way we find the git repository a path belongs to.

By the file system alone (no git, no pygit2 import): `status` uses it and must stay fast.
"""

from __future__ import annotations

from pathlib import Path


def git_root(start: Path) -> Path | None:
    """The nearest directory at or above `start` holding `.git` (a directory, or a file in a worktree)."""
    for directory in (start, *start.parents):
        if (directory / ".git").exists():
            return directory
    return None


def config_dir(config: Path) -> Path:
    """Where the repository is looked for: the config file's directory, so that a config names its
    own repository whatever the current directory (a cron line); a config kept outside any git
    repository applies to the repository of the current directory."""
    here = config.resolve().parent
    return here if git_root(here) is not None else Path.cwd()


def config_root(config: Path) -> Path | None:
    """The repository a config file names (`config_dir`'s); None outside any."""
    return git_root(config_dir(config))


def find_config(path: Path) -> Path:
    """`path` as given when it is there or absolute; else the same relative path in the nearest folder above
    the current directory, up to its repository's root, that holds it: every command finds the repository's
    `autoresearch.yaml` from a subfolder, as git finds `.git` (none there: `path` as given, for the error)."""
    if path.is_absolute() or path.exists():
        return path
    here = Path.cwd()
    root = git_root(here)
    for directory in (here, *here.parents) if root is not None else ():
        if (directory / path).is_file():
            return directory / path
        if directory == root:
            break
    return path


def find_repo_root(start: Path) -> Path:
    """The repository root above `start`; outside any repository, the working directory when it
    contains `start`, else `start` (an eval file kept outside git still has a base for its paths)."""
    start = start.resolve()
    root = git_root(start)
    if root is not None:
        return root
    cwd = Path.cwd().resolve()
    return cwd if start.is_relative_to(cwd) else start
