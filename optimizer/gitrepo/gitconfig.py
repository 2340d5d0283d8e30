"""What the loop needs from git's configuration and attributes files, read again only when one has changed.

Every cycle the throwaway checkout's put-back asks whether libgit2 may check out as git would (no filter
driver or sparse checkout configured, no attributes file naming a filter or an encoding), and the
candidates' check which ignore files the configuration names: a walk over every configuration entry (each
a few microseconds through pygit2, and a user's configuration has dozens) and three files read, with the
paths built to find them. The answers come from a few files (the system's, the user's two, the
repository's and the worktree's configuration, the repository's and the user's attributes, and any
`core.attributesFile`), so they are kept with the signature of each (inode, size, modification and change
times, kind; or absent) and found again when one differs. A file written in the same clock tick as it was
read would keep its times: the answers are kept only when every file's change time is at least `_SETTLED`
before the clock read before the signatures were taken, so that a later write gives a later change time.
A configuration that includes other files (`include.path`, `includeIf`) is read every time: the files it
names are not watched.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import pygit2
from pygit2.enums import ConfigLevel
from pygit2.errors import check_error
from pygit2.ffi import C, ffi

CONVERTING = (b"filter", b"working-tree-encoding")  # attribute names whose checkout libgit2 cannot do as git
_USERS = ((ConfigLevel.SYSTEM, "gitconfig"), (ConfigLevel.XDG, "config"), (ConfigLevel.GLOBAL, ".gitconfig"))
_READS = 5  # a configuration read at most so many times while a file is replaced as it is read (`_read`)
_SETTLED = 1_000_000_000  # ns: more than the file system's clock lags the system's (a tick: 1-10 ms)

Signature = tuple[tuple[int, int, int, int, int] | None, ...]


@dataclass(frozen=True)
class Settings:
    """What the configuration and the attributes files say now."""

    converts: bool  # a filter driver or a sparse checkout configured, or an attributes file naming a
    # filter or a `working-tree-encoding`: libgit2 would not check out as git does
    excludes_files: tuple[Path, ...]  # `core.excludesFile`, the user's home expanded
    writes: dict[str, str | None] = field(
        default_factory=dict, compare=False
    )  # the `WRITES` keys set, by lower-case name (the last value: git's; None: a
    # bare key, true), the system's file left out as git leaves it under GIT_CONFIG_NOSYSTEM; and each
    # `includeIf.<condition>.path` libgit2 may not judge as git does (`unjudged`): what it includes is git's alone


# what the decision's in-process git writes (autoresearch.optimizer.gitrepo.direct) must know of the configuration
WRITES = frozenset(
    {
        *(f"{who}.{what}" for who in ("user", "author", "committer") for what in ("name", "email")),
        *("commit.gpgsign", "commit.cleanup", "i18n.commitencoding", "core.autocrlf", "core.eol", "core.filemode"),
        *("core.sharedrepository", "core.fsync", "core.fsyncobjectfiles", "core.fsyncmethod", "core.splitindex"),
        *("extensions.objectformat", "extensions.refstorage", "core.attributesfile", "core.logallrefupdates"),
        "core.filesreflocktimeout",
    }
)
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
_INTEGER = re.compile(r"[ \t\n\v\f\r]*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)([kKmMgG]?)")  # strtoimax's
_INT_MAX = (1 << 31) - 1


@dataclass(frozen=True)
class _Kept:
    files: tuple[str, ...]
    signature: Signature
    settings: Settings


_seen: dict[tuple[str, str, bool], _Kept] = {}  # by (git folder, common folder, GIT_CONFIG_NOSYSTEM)
_REMEMBERED = 64
_REDIRECTING = frozenset({"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_PARAMETERS"})  # see `redirected`


def settings(repo: pygit2.Repository, common: Path) -> Settings:
    """The `Settings` of `repo`, whose common git folder is `common`: as last found when none of the files
    they come from has changed since (see the module's docstring)."""
    key = (repo.path, str(common), _no_system())
    started = time.time_ns()
    kept = _seen.get(key)
    if kept is not None and _signature(kept.files, started) == kept.signature:
        return _as_git_reads(kept.settings)
    configs = _config_files(repo.path, common)
    attributes = attribute_files(common)
    before = _signature((*configs, *attributes), started)  # before the files are read: a write meanwhile shows
    converts, excludes, named, includes, writes = _walk(_read(repo.path, configs))
    after = _signature(named, started)
    found = Settings(converts or any(_converting(file) for file in (*attributes, *named)), excludes, writes)
    if len(_seen) >= _REMEMBERED:  # the candidates' worktrees come and go
        _seen.clear()
    if before is None or after is None or includes:
        _seen.pop(key, None)
    else:
        _seen[key] = _Kept((*configs, *attributes, *named), before + after, found)
    return _as_git_reads(found)


def redirected() -> bool:
    """Whether git reads a configuration libgit2 does not: another user's or system's file
    (`GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM`), or entries given in the environment (`GIT_CONFIG_COUNT` with
    its `GIT_CONFIG_KEY_<n>`s, `GIT_CONFIG_PARAMETERS`: what `git -c` hands down to a hook, what a CI step
    sets). libgit2 reads the usual files alone: a filter driver or an ignore file named there only is git's."""
    count = os.environ.get("GIT_CONFIG_COUNT", "").strip()  # each name looked up: a set of the environment's
    # keys decoded all forty of them, twice a cycle
    return any(name in os.environ for name in _REDIRECTING) or count not in ("", "0")


def _as_git_reads(found: Settings) -> Settings:
    """`found`, taken as converting (libgit2 does not check out as git does) when git reads another configuration."""
    return replace(found, converts=True) if not found.converts and redirected() else found


def attribute_files(common: Path) -> tuple[str, ...]:
    """The attributes files git and libgit2 read whatever the configuration says: the repository's
    info/attributes, the user's, and the system's (`gitattributes` in libgit2's system folder: /etc, where
    git's is too). Found again only when what they come from differs: the decision's check asks every cycle,
    and the paths made were 5-15 us of it."""
    system = pygit2.settings.search_path[ConfigLevel.SYSTEM]
    return _attribute_files(common, system, os.environ.get("XDG_CONFIG_HOME"), os.environ.get("HOME"))


@functools.lru_cache(maxsize=16)
def _attribute_files(common: Path, system: str, config_home: str | None, home: str | None) -> tuple[str, ...]:
    found = (str(common / "info" / "attributes"), str(_users_git_file("attributes", config_home, home)))
    return found + tuple(os.path.join(folder, "gitattributes") for folder in system.split(os.pathsep) if folder)


def integer(value: str | None) -> int | None:
    """A configuration value as git's `git_config_int` reads it (parse.c's git_parse_signed: C's base prefixes
    `0x` and `0`, a unit `k`, `m` or `g`, within an int); None where git would stop with "bad numeric config
    value" (a bare key, a word, out of range)."""
    found = _INTEGER.fullmatch(value or "")
    if found is None:
        return None
    sign, digits, unit = found.groups()
    base = 16 if digits[1:2] in ("x", "X") else 8 if digits.startswith("0") else 10
    number = (-1 if sign == "-" else 1) * int(digits, base) * _UNITS[unit.lower()]
    return number if -_INT_MAX - 1 <= number <= _INT_MAX else None


def unjudged(name: str) -> bool:
    """Whether the configuration entry `name` is an `includeIf.<condition>.path` libgit2 may not judge as git
    does: it knows `onbranch:` and `gitdir:` but not `hasconfig:`, and a relative `gitdir:` pattern it
    matches where git does not (git 2.39, libgit2 1.9). The condition is as written (git's are case-sensitive)."""
    if not (name.lower().startswith("includeif.") and name.lower().endswith(".path")):
        return False
    condition = name[len("includeif.") : -len(".path")]
    if condition.startswith("onbranch:"):
        return False
    pattern = condition.removeprefix("gitdir:").removeprefix("gitdir/i:")
    return pattern == condition or not pattern.startswith(("/", "~/"))


def users_git_file(name: str) -> Path:
    """git's per-user file `name` (`ignore`, `attributes`): under $XDG_CONFIG_HOME/git, as git reads it.
    Found again only when $XDG_CONFIG_HOME or $HOME differs: the candidates' check asks every cycle."""
    return _users_git_file(name, os.environ.get("XDG_CONFIG_HOME"), os.environ.get("HOME"))


@functools.lru_cache(maxsize=16)
def _users_git_file(name: str, config_home: str | None, home: str | None) -> Path:
    return Path(config_home or Path.home() / ".config") / "git" / name


def _config_files(git_dir: str, common: Path) -> list[str]:
    """Every file libgit2 reads the configuration from, or would if it were there."""
    files = [os.path.join(common, "config"), os.path.join(git_dir, "config.worktree")]
    for level, name in _USERS:
        folders = pygit2.settings.search_path[level]
        files += [os.path.join(folder, name) for folder in folders.split(os.pathsep) if folder]
    return files


def signature(files: list[str] | tuple[str, ...]) -> Signature | None:
    """The files' signatures as `settings` keeps them; None when one changed too recently to tell a later
    write by its times (see the module's docstring)."""
    return _signature(files, time.time_ns())


def _signature(files: list[str] | tuple[str, ...], started: int) -> Signature | None:
    """Each file's (inode, size, modification and change times, kind), or None when absent; None for the
    whole when a file changed too recently for its times to tell a later write."""
    found: list[tuple[int, int, int, int, int] | None] = []
    for file in files:
        try:
            st = os.stat(file)
        except OSError:
            found.append(None)
            continue
        if st.st_ctime_ns >= started - _SETTLED:
            return None
        found.append((st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_mode))
    return tuple(found)


def _no_system() -> bool:
    return os.environ.get("GIT_CONFIG_NOSYSTEM", "").lower() not in ("", "0", "false", "no", "off")


def _read(git_dir: str, files: list[str]) -> list[tuple[str, bytes | None, int]]:
    """`_entries`, read again while one of the configuration `files` changed during the read or the read
    failed, up to `_READS` times. libgit2 takes a file's size from stat(2), then opens it by name and reads that
    many bytes: a file replaced between the two (`git config`, the user's or a hook's, renames its new file
    in) failed the read ("could not read (expected 1121 bytes, read 21)") and the KEEP or the put-back that
    asked with it, or, the new file longer, read the new file cut short: a configuration without its last
    entries (a `commit.gpgSign`, a filter driver), which git never reads, or one ending mid-line (a parse
    error). The last read is taken as it is."""
    for _ in range(_READS - 1):
        stamps = _signature(files, sys.maxsize)  # whatever their age: only whether one changed meanwhile
        with contextlib.suppress(pygit2.GitError):
            found = _entries(git_dir)
            if _signature(files, sys.maxsize) == stamps:
                return found
    return _entries(git_dir)


def _entries(git_dir: str) -> list[tuple[str, bytes | None, int]]:
    """Every configuration entry libgit2 reads for the repository at `git_dir`: (name as `_text` keeps it,
    value's bytes or None for a bare key, level). pygit2's own iterator decodes each name as UTF-8 and raised
    on one git takes as it is (`[branch "caf\xe9"]` in Latin-1), which ended the loop at its first DROP; so the
    entries are read here through libgit2's calls, from a snapshot of a handle of our own."""
    handle, config, walk = ffi.new("git_repository **"), ffi.new("git_config **"), ffi.new("git_config_iterator **")
    entry, found = ffi.new("git_config_entry **"), []
    with contextlib.ExitStack() as held:
        # 1: GIT_REPOSITORY_OPEN_NO_SEARCH, the folder as it is
        check_error(C.git_repository_open_ext(handle, os.fsencode(git_dir), 1, ffi.NULL))
        held.callback(C.git_repository_free, handle[0])
        check_error(C.git_repository_config_snapshot(config, handle[0]))
        held.callback(C.git_config_free, config[0])
        check_error(C.git_config_iterator_new(walk, config[0]))
        held.callback(C.git_config_iterator_free, walk[0])
        while (error := C.git_config_next(entry, walk[0])) != C.GIT_ITEROVER:
            check_error(error)  # the entry's buffer is reused by the next call: copied out at once
            raw = entry[0].value
            value = None if raw == ffi.NULL else ffi.string(raw)
            name = ffi.string(entry[0].name).decode("utf-8", "surrogateescape")
            found.append((name, value, int(entry[0].level)))
    return found


def _walk(
    entries: list[tuple[str, bytes | None, int]],
) -> tuple[bool, tuple[Path, ...], list[str], bool, dict[str, str | None]]:
    """Whether a filter driver or sparse checkout is configured, the excludes files, the attributes files,
    whether the configuration includes other files, and the `WRITES` keys set."""
    converts, includes = False, False
    excludes: list[Path] = []
    attributes: list[str] = []
    writes: dict[str, str | None] = {}
    skip = ConfigLevel.SYSTEM if _no_system() else None
    for written, raw, level in entries:
        text = _text(raw)
        name, value = written.lower(), text or ""
        if (name in WRITES or unjudged(written)) and level != skip:
            writes[name] = text
        if name.startswith("filter.") and name.endswith((".smudge", ".process")):
            converts = True
        elif name == "core.sparsecheckout" and value.lower() not in ("false", "no", "off", "0"):
            converts = True
        elif name == "core.attributesfile":
            attributes.append(str(Path(value).expanduser()))
        elif name == "core.excludesfile":
            excludes.append(Path(str(text)).expanduser())
        elif name.startswith(("include.", "includeif.")):
            includes = True
    return converts, tuple(excludes), attributes, includes, writes


def _text(raw: bytes | None) -> str | None:
    """A value as git takes it, bytes: one that is not UTF-8 (a `user.name` in Latin-1) keeps them as
    surrogates, as Python keeps a file name's (pygit2's `value` raised, and the loop with it, at every DROP)."""
    return None if raw is None else raw.decode("utf-8", "surrogateescape")


def _converting(file: str) -> bool:
    """Whether the attributes file `file` names a filter or an encoding (not when there is none)."""
    try:
        with open(file, "rb") as read:
            text = read.read()
    except OSError:
        return False
    return any(word in text for word in CONVERTING)
