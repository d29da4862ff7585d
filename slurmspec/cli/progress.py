"""A progress line on standard error while ``slurmspec lint`` works through many files.

Shown only to a person: standard error is a terminal, ``CI`` is not set (CI
logs keep every carriage-return frame), ``TERM`` is not ``dumb``, and
``--quiet`` was not given. Drawn only once the run has taken ``AFTER``
seconds (``SLURMSPEC_PROGRESS_AFTER`` changes that), so a quick run never
flickers, and at most ``EVERY`` seconds apart.
The line is cleared before each file's findings are written, so on a terminal
that shows both streams the report is never interleaved with it; it is gone
when the run ends.
"""

from __future__ import annotations

import os
import sys
import time
from typing import IO, Iterable, Iterator, TypeVar

T = TypeVar("T")

AFTER = 1.0  # seconds before the first frame: shorter runs show nothing
EVERY = 0.1  # seconds between frames
WIDTH = 30  # cells of the bar itself
_CLEAR = "\r\x1b[K"


def wanted(stream: IO[str], quiet: bool) -> bool:
    """Whether a person watches ``stream``: a terminal, not CI, not a dumb terminal, not ``--quiet``."""
    if quiet or os.environ.get("CI") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def follow(results: Iterable[T], total: int, stream: IO[str], report: IO[str]) -> Iterator[T]:
    """``results`` unchanged, with a progress line on ``stream`` (``report`` is flushed before each frame)."""
    start = time.monotonic()
    after = _after()
    last = 0.0
    drawn = False
    done = 0
    try:
        for item in results:
            if drawn:
                stream.write(_CLEAR)
                stream.flush()
                drawn = False
            yield item
            done += 1
            now = time.monotonic()
            if now - start >= after and now - last >= EVERY and done < total:
                report.flush()  # the findings first, then the line under them
                stream.write(_frame(done, total))
                stream.flush()
                drawn, last = True, now
    finally:
        if drawn:
            stream.write(_CLEAR)
            stream.flush()


def _after() -> float:
    try:
        return max(0.0, float(os.environ.get("SLURMSPEC_PROGRESS_AFTER", AFTER)))
    except ValueError:
        return AFTER


def _frame(done: int, total: int) -> str:
    filled = WIDTH * done // max(total, 1)
    return f"{_CLEAR}[{'#' * filled}{'.' * (WIDTH - filled)}] {done}/{total} files"


def maybe_follow(results: Iterable[T], total: int, report: IO[str], quiet: bool) -> Iterable[T]:
    """``follow`` on standard error when a person watches it, else ``results`` as they are."""
    if not wanted(sys.stderr, quiet):
        return results
    return follow(results, total, sys.stderr, report)
