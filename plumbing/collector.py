"""Python's garbage collector during a command's start-up, and after it.

A command's imports make several hundred thousand objects that live as long as the process, and almost
no garbage. With the collector's default thresholds a collection runs every 700 new container objects and
each third-generation one walks every object made so far: about a hundred collections and 20 ms of a
`run`'s start-up CPU, every process. So `starting` raises the first threshold until `started` (once the
imports are done and the work begins) puts the defaults back and freezes what start-up made, so that later
full collections do not walk it again. A command that never calls `started` (a short one) keeps the raised
threshold: its garbage is still collected, less often.
"""

from __future__ import annotations

import gc

START_UP_THRESHOLD = 100_000  # more than a start-up's net new container objects: no collection during it
_DEFAULTS = gc.get_threshold()


def starting() -> None:
    """Collect no garbage during the imports (call first thing in the CLI)."""
    gc.set_threshold(START_UP_THRESHOLD, *_DEFAULTS[1:])


def started() -> None:
    """The imports are done: what they made is kept for good (frozen), and collections come at the usual
    pace again for what the work makes."""
    gc.freeze()
    gc.set_threshold(*_DEFAULTS)
