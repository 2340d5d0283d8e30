"""What `git commit -m MESSAGE` would write for who and what, worked out as git does, or None where only git can say.

The author and committer (`GIT_AUTHOR_NAME` ... in the environment, else `author.name` / `committer.name`, else
`user.name` in the configuration; likewise the email), their date (now in the local time zone, or
`GIT_AUTHOR_DATE` in git's own `<seconds> <+hhmm>` form), the message as git's default clean-up for `-m` leaves it
(`commit.cleanup` unset: trailing blanks of each line and blank lines at either end dropped, runs of blank lines
made one), and the reflog's line (`commit: <first line>`, whitespace collapsed as git's refs.c does). None
wherever git would look further (the EMAIL variable, the system's user and host names), clean an identity's
characters, sign with bytes that are not UTF-8, parse another date format, or refuse: the caller then leaves the commit to git itself.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from autoresearch.plumbing.errors import IntegrityError, InvalidInput

_CRUD = frozenset(" \t\n\r,:;<>\"\\'.")  # what git's ident.c strips from either end (and more: '.' to be safe)
_RAW_DATE = re.compile(r"@?(\d+) ([+-])(\d\d)(\d\d)")  # git's internal date form, which it keeps as it is
_SPACE = " \t\n\r"  # git's isspace()
_SURROGATE = re.compile("[\ud800-\udfff]")  # the only characters a str holds that UTF-8 cannot
# what git's commit does not take for UTF-8 (utf8.c's find_invalid_utf8): bytes that are not (surrogates here, as
# surrogateescape keeps them) and the noncharacters U+FDD0-U+FDEF and U+xxFFFE-U+xxFFFF, valid to Python and libgit2
_NOT_GITS_UTF8 = re.compile(
    "[\ud800-\udfff\ufdd0-\ufdef"
    + "".join(f"{chr(plane | 0xFFFE)}{chr(plane | 0xFFFF)}" for plane in range(0, 0x110000, 0x10000))
    + "]"
)
_SECONDS, _Y2100 = 100_000_000, 4_102_444_800  # where git's date parser reads a number as seconds (date.c)


@dataclass(frozen=True)
class Who:
    name: str
    email: str
    seconds: int
    offset_minutes: int


def signatures(config: Mapping[str, str | None], env: Mapping[str, str] = os.environ) -> tuple[Who, Who] | None:
    """(author, committer) as git would sign a commit made now; None where git's answer is not this simple."""
    if "GIT_COMMITTER_DATE" in env:  # the reflog's line would carry it too, which libgit2 does not write
        return None
    now = int(time.time())
    today = (now, time.localtime(now).tm_gmtoff // 60)
    author_date = _date(env["GIT_AUTHOR_DATE"]) if "GIT_AUTHOR_DATE" in env else today
    author, committer = _person("AUTHOR", config, env), _person("COMMITTER", config, env)
    if author is None or committer is None or author_date is None:
        return None
    return Who(*author, *author_date), Who(*committer, *today)


def gits(git: Callable[..., str], which: str) -> str:
    """Who signs as `git commit` would now (`which`: GIT_AUTHOR_IDENT or GIT_COMMITTER_IDENT), in git's own
    line: `git var`, which reads every source git reads (the environment, author.* and committer.*, user.*,
    EMAIL, the system's names, a date in any of git's forms) and refuses as git's commit does (an empty name,
    one of only `.`): then InvalidInput with git's words and the fix. The KEEP works it out in-process
    (`signatures`), where a git process more a cycle costs, and answers only where git's answer is simple."""
    try:
        return git("var", which)
    except IntegrityError as exc:
        kind = which.split("_")[1]
        raise InvalidInput(
            f"git cannot sign a commit ({exc}): set user.name and user.email with git config, or the "
            f"GIT_{kind}_NAME and GIT_{kind}_EMAIL variables"
        ) from None


def _person(kind: str, config: Mapping[str, str | None], env: Mapping[str, str]) -> tuple[str, str] | None:
    found = []
    for field in ("name", "email"):
        value = env.get(f"GIT_{kind}_{field.upper()}")
        if value is None:
            value = config.get(f"{kind.lower()}.{field}") or config.get(f"user.{field}")
        if not value or value[0] in _CRUD or value[-1] in _CRUD or any(c in value for c in "<>\n\0"):
            return None  # missing (git guesses from the system), or git would clean it
        if _NOT_GITS_UTF8.search(value):  # bytes that are not UTF-8 (git's commit reads them as Latin-1,
            return None  # its reflog writes them as given: libgit2 cannot) or a noncharacter (git's commit: as bytes)
        found.append(value)
    return found[0], found[1]


def as_commit_writes(text: str) -> str:
    """`text` as git's commit object stores it: each byte of what git does not take for UTF-8 (a byte that is
    not, a surrogate here as Python keeps a file name's; a noncharacter's) read as Latin-1, as commit.c's
    verify_utf8 does to the whole object before writing it."""
    return _NOT_GITS_UTF8.sub(lambda found: found[0].encode("utf-8", "surrogateescape").decode("latin-1"), text)


def _date(text: str) -> tuple[int, int] | None:
    """`<seconds> <+hhmm>` as git reads it: after `@` as it is; without, only where git's date parser takes
    the number for seconds (nine digits or more, before 2100) and the zone for one (under 24 hours, under 60
    minutes): git refuses other numbers and puts the local zone for another offset."""
    match = _RAW_DATE.fullmatch(text)
    if match is None:
        return None
    seconds, sign, hours, minutes = match.groups()
    if not text.startswith("@") and not (_SECONDS <= int(seconds) < _Y2100 and int(hours) < 24 and int(minutes) < 60):
        return None
    offset = int(hours) * 60 + int(minutes)
    return int(seconds), -offset if sign == "-" else offset


def cleaned(message: str) -> str | None:
    """The message as `git commit -m` stores it (the default clean-up, "whitespace"); None when git would
    refuse it (empty), it cannot pass as an argument (a NUL), or git's commit does not take it for UTF-8 (a
    lone surrogate, a noncharacter: git writes each byte read as Latin-1, libgit2 as given or not at all)."""
    if "\0" in message or _NOT_GITS_UTF8.search(message):
        return None
    lines: list[str] = []
    for line in message.split("\n"):
        line = line.rstrip(_SPACE)
        if line or (lines and lines[-1]):
            lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n" if lines else None


def reflog_message(message: str, env: Mapping[str, str] = os.environ) -> str | None:
    """The reflog's line for a commit of `message` (cleaned): `commit: <first line>`, or GIT_REFLOG_ACTION's
    word in place of `commit` (set and empty too, as git's builtin/commit.c takes it), whitespace collapsed and
    trimmed as git's copy_reflog_msg does. None when GIT_REFLOG_ACTION's bytes are not UTF-8 (git writes
    them as given; the line could not be written here)."""
    text = f"{env.get('GIT_REFLOG_ACTION', 'commit')}: {message.split(chr(10), 1)[0]}"
    if _SURROGATE.search(text):
        return None
    return re.sub(r"[ \t\n\r]+", " ", text).strip(" ")
