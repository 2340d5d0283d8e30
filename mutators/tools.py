"""The mutator model's file tools, confined to the repository: it reads what it needs and writes only the artifact.

Every path is resolved to its real path before use, so `..`, absolute paths
and symlinks cannot lead outside the repository. No path with a `.git`
component (as any filesystem may spell it: `.GIT`, `.git.`, `GIT~1`), given or
reached through a symlink, is read, listed, searched or written: a nested
`.git/config` would let the model's `core.fsmonitor` run on the user's next
`git status`. Reads are allowed anywhere else in the repository but the hidden
paths (held-out results, the daemon's own files); writes only inside the
artifact scope (the file itself, or files under the directory) and never in a
read-only path. Every call ends in bounded time: reads and listings are capped
in size and count, and `search` matches in a child killed at a deadline
(mutators/grep.py). A refused call raises `ToolRefused`, whose message goes
back to the model as a tool error. Every secret the masker knows (plumbing/redact.py:
the environment's keys, those of every `.env` the evals may load, each line of a
key of several lines) is masked in every answer, and `search` matches the masked
lines, so a `.env` or a committed key in the repository is never sent to the
provider, nor can the model learn one by guessing it a character at a time.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from autoresearch.mutators import grep
from autoresearch.mutators.base import MutationRequest
from autoresearch.mutators.gitnames import is_git_name, names_git
from autoresearch.plumbing.errors import AutoresearchError
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.plumbing.redact import redact, secret_values
from autoresearch.providers import Tool, ToolCall, ToolResult

READ_LIMIT_BYTES = 100_000  # per read_file / git_show answer; the model pages with offset/limit
READ_FILE_LIMIT_BYTES = 50_000_000  # read_file reads a file to its end to count its lines
WRITE_LIMIT_BYTES = 1_000_000
SEARCH_FILE_LIMIT_BYTES = 2_000_000  # larger files are skipped by search
MAX_SEARCH_FILES = 20_000  # files one search looks at
MAX_LIST_ENTRIES = 500
MAX_SCANNED_ENTRIES = 20_000  # directory entries one listing reads
MAX_MATCHES = 100
DEFAULT_READ_LINES = 2_000
GIT_TIMEOUT_S = 30.0
SKIPPED_DIRS = {"node_modules", "__pycache__", ".venv"}


class ToolRefused(AutoresearchError):
    """The call was refused (outside the sandbox, too large, malformed); the message says why, for the model
    (`dispatch` turns it into the tool's error result: it never ends a mutation)."""


@dataclass
class Sandbox:
    request: MutationRequest
    written: list[str] = field(default_factory=list)  # repository-relative paths, in order of writing

    def __post_init__(self) -> None:
        self.root = self.request.repo_root.resolve()
        self.scope = self.request.artifact.resolve()
        self.read_only = [p.resolve() for p in self.request.read_only] + [self.root / ".git"]
        # the run and the history may live outside the checkout (a --worktree run keeps them in the main one)
        self.also_readable = [
            self.request.run_dir.resolve(),
            self.request.iterations.resolve(),
            self.request.digest.resolve(),
        ]
        self.hidden_paths = [p.resolve() for p in self.request.hidden]

    def _resolve(self, path: str, also: Sequence[Path] = ()) -> Path:
        if not isinstance(path, str) or not path.strip() or "\0" in path or not _encodable(path):
            raise ToolRefused("path must be a non-empty string of text")
        if names_git(path):
            raise ToolRefused(f"{path}: .git is off limits")
        try:
            real = (self.root / path).resolve()  # an absolute `path` replaces root, then is checked like any other
        except RuntimeError:  # Python < 3.13 raises this, not OSError, for a symlink loop
            raise ToolRefused(f"{path}: a symlink loop") from None
        base = next((p for p in [self.root, *also] if real.is_relative_to(p)), None)
        if base is None:
            raise ToolRefused(f"{path}: outside the repository (only files under {self.root} are available)")
        if names_git(str(real.relative_to(base))):
            raise ToolRefused(f"{path}: leads into .git, which is off limits")
        return real

    def readable(self, path: str) -> Path:
        real = self._resolve(path, self.also_readable)
        if self.hidden(real):
            raise ToolRefused(f"{path}: hidden from the mutator (held-out results and the daemon's own files)")
        return real

    def hidden(self, real: Path) -> bool:
        """Under a hidden path, unless it is one the mutator is handed (the run just decided, the history, its digest)."""
        if any(real.is_relative_to(p) for p in self.also_readable):
            return False
        return any(real.is_relative_to(p) for p in self.hidden_paths)

    def writable(self, path: str) -> Path:
        real = self._resolve(path)
        if self.hidden(real):
            raise ToolRefused(f"{path}: hidden from the mutator, and read-only")
        if self.request.mode == "file":
            in_scope = real == self.scope
        else:
            in_scope = real != self.scope and real.is_relative_to(self.scope)
        if not in_scope:
            raise ToolRefused(f"{path}: read-only; only the artifact may be written ({self.relative(self.scope)})")
        if any(real.is_relative_to(p) for p in self.read_only):
            raise ToolRefused(f"{path}: read-only (eval files, graders and results may not be changed)")
        return real

    def relative(self, real: Path) -> str:
        if not real.is_relative_to(self.root):
            return str(real)
        return str(real.relative_to(self.root)) or "."


def list_dir(box: Sandbox, path: str = ".") -> str:
    """Names and sizes, .git and hidden entries left out; at most MAX_LIST_ENTRIES of the first MAX_SCANNED_ENTRIES."""
    real = box.readable(path)
    if not real.is_dir():
        raise ToolRefused(f"{path}: not a directory")
    entries: list[Path] = []
    more = False
    with os.scandir(real) as scan:
        for entry in scan:
            if len(entries) >= MAX_SCANNED_ENTRIES:
                more = True
                break
            if not is_git_name(entry.name) and not box.hidden(real / entry.name):
                entries.append(real / entry.name)
    entries.sort()
    lines = [f"{p.name}/" if p.is_dir() else f"{p.name}  ({_size(p)} bytes)" for p in entries[:MAX_LIST_ENTRIES]]
    if more or len(entries) > MAX_LIST_ENTRIES:
        lines.append(f"… {'more than ' if more else ''}{len(entries) - MAX_LIST_ENTRIES} more entries not shown")
    return "\n".join(lines) or "(empty directory)"


def read_file(box: Sandbox, path: str, offset: int = 0, limit: int = DEFAULT_READ_LINES) -> str:
    """Lines offset..offset+limit (0-based), at most READ_LIMIT_BYTES; the header says where the page sits."""
    real = box.readable(path)
    if not real.is_file():
        raise ToolRefused(f"{path}: not a file")
    if _size(real) > READ_FILE_LIMIT_BYTES:
        raise ToolRefused(f"{path}: {_size(real)} bytes, too large to read (the limit is {READ_FILE_LIMIT_BYTES})")
    offset, limit = _non_negative(offset, "offset"), _non_negative(limit, "limit") or DEFAULT_READ_LINES
    page: list[str] = []
    size, total, full, secrets = 0, 0, False, secret_values()
    with open(real, encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle):
            total = number + 1  # read on to the end: the header gives the line count
            full = full or len(page) >= limit or bool(page) and size + len(line) > READ_LIMIT_BYTES
            if number >= offset and not full:
                page.append(redact(line, secrets)[:READ_LIMIT_BYTES])  # masked before the cut, which could halve a key
                size += len(page[-1])
    end = offset + len(page)
    more = f"; continue with offset={end}" if end < total else ""
    return f"[{box.relative(real)}: lines {offset + 1}-{end} of {total}{more}]\n" + "".join(page)


def search(box: Sandbox, pattern: str, path: str = ".") -> str:
    """`file:line: text` for each line matching the regular expression, at most MAX_MATCHES, within grep.TIMEOUT_S."""
    if not isinstance(pattern, str) or not _encodable(pattern):
        raise ToolRefused("pattern must be a string of text")
    try:
        re.compile(pattern)
    except (re.error, RecursionError, OverflowError) as exc:  # the last two: patterns too deeply nested or too large
        raise ToolRefused(f"pattern is not a valid regular expression ({exc})") from None
    deadline = time.monotonic() + grep.TIMEOUT_S
    files, complete = _files_under(box, box.readable(path), deadline)
    found, timed_out = grep.grep(pattern, files, MAX_MATCHES, max(deadline - time.monotonic(), 0.1), secret_values())
    lines = [f"{box.relative(files[number])}:{line}: {text}" for number, line, text in found]
    if len(found) >= MAX_MATCHES:
        lines.append(f"… stopped at {MAX_MATCHES} matches; narrow the pattern or the path")
    elif timed_out:
        lines.append(
            f"… stopped after {grep.TIMEOUT_S:g}s: the pattern backtracks too much (nested quantifiers "
            "such as (a+)+) or the path holds too much; simplify the pattern or narrow the path"
        )
    elif not complete:
        lines.append(f"… searched the first {len(files)} files only; narrow the path")
    return "\n".join(lines) or "(no matches)"


def _files_under(box: Sandbox, real: Path, deadline: float) -> tuple[list[Path], bool]:
    """(the text-sized files to search, whether that is all of them): .git, hidden paths and symlinks are never followed."""
    if real.is_file():
        return ([real] if _size(real) <= SEARCH_FILE_LIMIT_BYTES else []), True
    files: list[Path] = []
    for folder, dirs, names in os.walk(real):
        if time.monotonic() > deadline:  # a tree of many folders and few files
            return files, False
        dirs[:] = sorted(
            d for d in dirs if d not in SKIPPED_DIRS and not is_git_name(d) and not box.hidden(Path(folder, d))
        )
        for name in sorted(names):
            file = Path(folder, name)
            if is_git_name(name) or box.hidden(file) or file.is_symlink() or not file.is_file():
                continue
            if _size(file) <= SEARCH_FILE_LIMIT_BYTES:
                files.append(file)
            if len(files) >= MAX_SEARCH_FILES or time.monotonic() > deadline:
                return files, False
    return files, True


def git_show(box: Sandbox, revision: str, path: str) -> str:
    """The file as it was at `revision` (a sha, HEAD, HEAD~2…): `git show <revision>:<path>`."""
    if (
        not isinstance(revision, str)
        or not re.fullmatch(r"[A-Za-z0-9_./~^@{}-]+", revision)
        or revision.startswith("-")
    ):
        raise ToolRefused(f"revision {revision!r} is not a commit name")
    spec = f"{revision}:{box.relative(box.readable(path))}"
    size = int(_git(box, "cat-file", "-s", spec) or 0)
    if size > READ_FILE_LIMIT_BYTES:  # git show would hold all of it in memory
        raise ToolRefused(f"{spec}: {size} bytes, too large to show (the limit is {READ_FILE_LIMIT_BYTES})")
    text = redact(_git(box, "show", spec))  # before the cut, which could halve a key
    cut = f"\n… cut at {READ_LIMIT_BYTES} bytes" if len(text) > READ_LIMIT_BYTES else ""
    return text[:READ_LIMIT_BYTES] + cut


def _git(box: Sandbox, *args: str) -> str:
    """`git ARGS`'s output, within GIT_TIMEOUT_S; a failure or a timeout is refused with git's words."""
    what = f"git {' '.join(args)}"
    try:
        done = subprocess.run(["git", *args], cwd=box.root, capture_output=True, timeout=GIT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise ToolRefused(f"{what} took more than {GIT_TIMEOUT_S:g}s and was stopped") from None
    if done.returncode != 0:
        raise ToolRefused(f"{what} failed: {done.stderr.decode(errors='replace').strip()[:300]}")
    return done.stdout.decode("utf-8", errors="replace")


def write_file(box: Sandbox, path: str, content: str) -> str:
    """Replace (or create) a whole file inside the artifact scope, atomically."""
    if not isinstance(content, str) or not _encodable(content):
        raise ToolRefused("content must be a string of text: the whole new file")
    data = content.encode("utf-8")
    if len(data) > WRITE_LIMIT_BYTES:
        raise ToolRefused(f"content is {len(data)} bytes; the limit is {WRITE_LIMIT_BYTES}")
    real = box.writable(path)
    if real.is_dir():
        raise ToolRefused(f"{path}: is a directory")
    real.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=real.parent, prefix=".autoresearch-write-")
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    if real.exists():
        os.chmod(temp, real.stat().st_mode & 0o777)
    os.replace(temp, real)
    box.written.append(box.relative(real))
    return f"wrote {box.relative(real)} ({len(data)} bytes)"


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _encodable(text: str) -> bool:
    """False for text holding lone surrogates (JSON allows `\\ud800`), which no file name or UTF-8 file can hold."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _non_negative(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ToolRefused(f"{name} must be a non-negative integer")
    return value


def _spec(name: str, description: str, required: list[str], **properties: JSONObject) -> Tool:
    schema = {"type": "object", "properties": properties, "required": required, "additionalProperties": False}
    return Tool(name, description, schema)


PATH = {"type": "string", "description": "Path relative to the repository root"}
SPECS = [
    _spec("list_dir", "List a directory of the repository (names, sizes).", [], path=PATH),
    _spec(
        "read_file",
        "Read a text file, a page of lines at a time.",
        ["path"],
        path=PATH,
        offset={"type": "integer", "description": "First line, 0-based (default 0)"},
        limit={"type": "integer", "description": f"Number of lines (default {DEFAULT_READ_LINES})"},
    ),
    _spec(
        "search",
        "Search files for a regular expression; answers file:line: text.",
        ["pattern"],
        pattern={"type": "string", "description": "A Python regular expression"},
        path={**PATH, "description": "File or directory to search (default: the whole repository)"},
    ),
    _spec(
        "git_show",
        "Show a file as it was at a git revision (git show <revision>:<path>).",
        ["revision", "path"],
        revision={"type": "string", "description": "A commit sha, HEAD, HEAD~1, ..."},
        path=PATH,
    ),
    _spec(
        "write_file",
        "Write a whole file (create or replace). Only the artifact may be written.",
        ["path", "content"],
        path=PATH,
        content={"type": "string", "description": "The complete new content of the file"},
    ),
]
HANDLERS: dict[str, Callable[..., str]] = {
    "list_dir": list_dir,
    "read_file": read_file,
    "search": search,
    "git_show": git_show,
    "write_file": write_file,
}


def run(box: Sandbox, call: ToolCall) -> ToolResult:
    """Carry out one tool call; anything refused or malformed becomes an error result, never an exception."""
    try:
        name, arguments = _checked(call)
        return ToolResult(call.id, redact(HANDLERS[name](box, **arguments)))
    except ToolRefused as exc:
        return ToolResult(call.id, redact(str(exc)), is_error=True)
    except OSError as exc:
        return ToolResult(call.id, redact(f"{call.name} failed: {exc.strerror or exc}"), is_error=True)


def _checked(call: ToolCall) -> tuple[str, JSONObject]:
    """The handler's name and the arguments it is called with, once both are known good."""
    if call.name not in HANDLERS:
        raise ToolRefused(f"unknown tool {call.name!r}; the tools are {', '.join(HANDLERS)}")
    if call.arguments is None:
        raise ToolRefused(f"{call.name}: {call.problem}")
    schema = next(spec.parameters for spec in SPECS if spec.name == call.name)
    missing = [name for name in schema["required"] if name not in call.arguments]
    unknown = [name for name in call.arguments if name not in schema["properties"]]
    if missing or unknown:
        raise ToolRefused(
            f"{call.name}: missing {missing} / unknown {unknown} arguments; expected {list(schema['properties'])}"
        )
    return call.name, call.arguments
