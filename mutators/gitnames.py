"""`.git` as any filesystem may spell it: the mutator's file tools refuse such paths, and the scope guard
watches them.

A module of its own so that the guard, which every `run` and `validate` loads, does not load the file tools
with it (and through them the provider clients' tool types): only an LLM mutator needs those.
"""

from __future__ import annotations

import re

# code points HFS+ ignores in names, so that `.g\u200cit` is `.git` on macOS (git's own check, CVE-2014-9390)
HFS_IGNORED = dict.fromkeys([*range(0x200C, 0x2010), *range(0x202A, 0x202F), *range(0x206A, 0x2070), 0xFEFF])


def is_git_name(name: str) -> bool:
    """`.git` as some filesystem may read `name`: any case (macOS, Windows), trailing dots and spaces or
    a `:stream` suffix (Windows), the 8.3 short name `GIT~1` (NTFS), with code points HFS+ ignores."""
    return name.split(":")[0].translate(HFS_IGNORED).casefold().rstrip(". ") in (".git", "git~1")


def names_git(path: str) -> bool:
    """Whether any component of `path`, split at `/` and at `\\` (a separator on Windows), is `.git`."""
    return any(is_git_name(part) for part in re.split(r"[\\/]", path))
