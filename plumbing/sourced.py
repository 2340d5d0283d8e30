"""The config file a section of the config was read from, carried by the section itself.

A setting is often found wrong long after the file was read, far from the code that read it: an eval
command missing from PATH, a mutator's replay file, a tree too big for the Ray cluster. Each such error
names the file the user gave (`-c sub/x.yaml`, a scheduled run's absolute path), as the reader's own
errors do, so each section remembers it. The reader is its one writer (`read_from`).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, PrivateAttr

DEFAULT = "autoresearch.yaml"  # a section made in code, not read from a file, is named as the default config


class Sourced(BaseModel):
    """A section of the config that knows the file it was read from (copies and pickles keep it)."""

    _source: str = PrivateAttr(default=DEFAULT)
    _folder: Path | None = PrivateAttr(default=None)  # the file's folder, absolute: None, the current directory

    def read_from(self, path: Path) -> None:
        """Told by the reader, once validated: this section and the sections in it (defaults included) name `path`."""
        self._source, self._folder = str(path), path.resolve().parent
        for value in self.__dict__.values():
            if isinstance(value, Sourced):
                value.read_from(path)

    @property
    def source(self) -> str:
        """The config file as the user named it."""
        return self._source

    def beside(self, given: str) -> Path:
        """A path the config gives, `~` expanded, a relative one taken from the config's folder: the same path
        whatever directory a run starts in (a cron line's, the daemon's, a Ray worker's, to which the config is
        shipped with this folder already absolute)."""
        path = Path(given).expanduser()
        return path if path.is_absolute() else (self._folder or Path.cwd()) / path

    def field(self, dotted: str) -> str:
        """`<file>: field '<dotted>'`, the start of an error about that setting, as the reader's own errors start."""
        return f"{self._source}: field '{dotted}'"
