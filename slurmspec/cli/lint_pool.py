"""``slurmspec lint --jobs N``: lint the inputs on several processes and hand the results back in input order.

Workers are forked once the parent has read the configuration and imported
the rules, so each starts with everything loaded and the list of inputs in its
memory: a task is a range of indexes into that list, and what comes back is
each file's findings and the lines they point at (never the parsed script).
Results are yielded in input order and a worker stops at the first exception
of a file, so the report, and where it stops on an error, is the same byte for
byte whatever the number of processes. Small runs stay in this process: a pool
costs more than a handful of files. Without ``fork`` (not on Linux or macOS)
everything runs here.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, Iterator, Sequence

# Below this many inputs per worker, forking and sending findings back cost more than they save.
MIN_INPUTS_PER_WORKER = 8
# Inputs per task: small enough to share the work out evenly, large enough to keep messages few.
MAX_CHUNK = 64

# (function, inputs) for the forked workers; set only while a pool runs.
_work: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


def default_jobs() -> int:
    """The cores this process may run on (a batch job's allocation, not the whole node)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def map_in_order(function: Callable[[Any], Any], inputs: Sequence[Any], jobs: int) -> Iterator[Any]:
    """``function(item)`` for each of ``inputs``, in order, on up to ``jobs`` processes."""
    workers = min(jobs, len(inputs) // MIN_INPUTS_PER_WORKER)
    if workers < 2 or not hasattr(os, "fork"):
        for item in inputs:
            yield function(item)
        return
    # The first input is linted here: its lazy imports and first-use caches are then
    # inherited by every worker instead of being redone in each.
    yield function(inputs[0])
    yield from _in_pool(function, inputs[1:], workers)


def _in_pool(function: Callable[[Any], Any], inputs: Sequence[Any], workers: int) -> Iterator[Any]:
    import multiprocessing

    global _work
    chunk = max(1, min(MAX_CHUNK, len(inputs) // (workers * 8)))
    ranges = [(start, min(start + chunk, len(inputs))) for start in range(0, len(inputs), chunk)]
    _work = (function, inputs)
    # A forked worker gets a copy of any output still buffered here, and flushes it on its way out.
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    try:
        with multiprocessing.get_context("fork").Pool(workers, initializer=_ignore_interrupts) as pool:
            for results, raised in pool.imap(_run_range, ranges):
                yield from results
                if raised is not None:
                    raise raised
    finally:
        _work = None


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group: the parent stops the pool; workers should not
    # each print a traceback on the way out.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_range(bounds: tuple[int, int]) -> tuple[list[Any], BaseException | None]:
    """Results for ``inputs[start:stop]``, stopping at the first exception (sent back with the results before it)."""
    assert _work is not None, "a worker runs only inside _in_pool"
    function, inputs = _work
    results = []
    for index in range(*bounds):
        try:
            results.append(function(inputs[index]))
        except Exception as exc:  # re-raised in the parent, after the results that came before it
            return results, exc
    return results, None
