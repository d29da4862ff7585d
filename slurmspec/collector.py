"""``collector_paused``: no cycle collection while one script is parsed or linted.

Parsing and linting build many small frozen objects (lines, spans, words,
tokens, commands, findings) that form no reference cycles: reference counting
frees them. The cycle collector still walks them, again and again as they age
through its generations, for nothing; on a script of 100,000 lines that was
about half of the time (measured with ``benchmarks/bench_hostile.py``).
Pausing it for the duration of one parse or lint and restoring it after leaves
it to collect whatever cycles remain, once, when the work is done.

The collector is per process, so a lint on the language server's worker thread
pauses it for the event loop too, for as long as that one lint takes.
"""

from __future__ import annotations

import functools
import gc
from typing import Callable, TypeVar

F = TypeVar("F", bound=Callable)


def collector_paused(function: F) -> F:
    """``function`` with the cycle collector off while it runs (it stays as the caller had it)."""

    @functools.wraps(function)
    def paused(*args, **kwargs):
        if not gc.isenabled():
            return function(*args, **kwargs)
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            gc.enable()

    return paused  # type: ignore[return-value]
