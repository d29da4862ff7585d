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
    """Chunk ``k`` of ``inputs`` is linted by process ``k % workers``: 0 is this one, the others are forked.

    A hand-made pool: ``import multiprocessing.pool`` alone costs about 33 ms
    of a ~350 ms run over 300 files (sockets, queues, threads this needs none
    of), and this process, warm and otherwise idle, takes its share instead of
    waiting. Chunks are dealt round-robin, small enough to even out. A worker
    blocks on a full pipe at most until this process reaches its chunk, which
    it always does, as it takes every chunk in order.
    """
    import pickle

    chunk = max(1, min(MAX_CHUNK, len(inputs) // (workers * 8)))
    ranges = [(start, min(start + chunk, len(inputs))) for start in range(0, len(inputs), chunk)]
    # A forked worker gets a copy of any output still buffered here, and would flush it on its way out.
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    children: list[tuple[int, Any]] = []
    try:
        for number in range(1, workers):
            read_end, write_end = os.pipe()
            pid = os.fork()
            if pid == 0:  # the worker: never returns
                os.close(read_end)
                _work_and_exit(function, inputs, ranges[number::workers], write_end)
            os.close(write_end)
            children.append((pid, os.fdopen(read_end, "rb")))
        for index, (start, stop) in enumerate(ranges):
            owner = index % workers
            if owner == 0:
                results, raised = _run_range(function, inputs, start, stop)
            else:
                results, raised = _receive(children[owner - 1][1], pickle)
            yield from results
            if raised is not None:
                raise raised
    finally:
        _stop(children)


def _work_and_exit(function: Callable[[Any], Any], inputs: Sequence[Any], ranges: list, fd: int) -> None:
    import pickle
    import signal

    # Ctrl-C reaches the whole process group: the parent stops the workers; they should not
    # each print a traceback on the way out.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    status = 0
    try:
        with os.fdopen(fd, "wb") as pipe:
            for start, stop in ranges:
                results, raised = _run_range(function, inputs, start, stop)
                try:
                    payload = pickle.dumps((results, raised), pickle.HIGHEST_PROTOCOL)
                except Exception:  # noqa: BLE001 - an exception that cannot travel is sent as text
                    payload = pickle.dumps((results, RuntimeError(f"{type(raised).__name__}: {raised}")))
                pipe.write(len(payload).to_bytes(8, "little"))
                pipe.write(payload)
                if raised is not None:
                    break
    except BrokenPipeError:  # the parent stopped reading (an error, Ctrl-C): nothing left to do
        pass
    except BaseException:  # noqa: BLE001 - the parent sees the missing chunk and says so
        status = 1
    finally:
        os._exit(status)  # no interpreter teardown, no atexit handlers of the parent's, no buffered output


def _run_range(function: Callable[[Any], Any], inputs: Sequence[Any], start: int, stop: int):
    """Results for ``inputs[start:stop]``, stopping at the first exception (sent back with the results before it)."""
    results = []
    for index in range(start, stop):
        try:
            results.append(function(inputs[index]))
        except Exception as exc:  # re-raised in the parent, after the results that came before it
            return results, exc
    return results, None


def _receive(pipe, pickle) -> tuple[list[Any], BaseException | None]:
    header = pipe.read(8)
    size = int.from_bytes(header, "little") if len(header) == 8 else -1
    payload = pipe.read(size) if size >= 0 else b""
    if size < 0 or len(payload) != size:
        raise RuntimeError("a --jobs worker process ended before sending its results (killed, or out of memory?)")
    return pickle.loads(payload)


def _stop(children: list[tuple[int, Any]]) -> None:
    """Close the pipes, end the workers still running (after an error or Ctrl-C) and reap them all."""
    import signal

    for pid, pipe in children:
        pipe.close()
        try:
            if os.waitpid(pid, os.WNOHANG) == (0, 0):
                os.kill(pid, signal.SIGTERM)
                os.waitpid(pid, 0)
        except ChildProcessError:
            pass
