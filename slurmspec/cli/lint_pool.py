"""``slurmspec lint --jobs N``: lint the inputs on several processes and hand the results back in input order.

Workers are forked once the parent has read the configuration and imported
the rules, so each starts with everything loaded and the list of inputs in its
memory: a task is a range of indexes into that list, and what comes back is
each file's findings and the lines they point at (never the parsed script),
pickled over a private pipe -- about 360 bytes a file, a millisecond of
unpickling per hundred files against the ~100 ms it took to lint them.

Work is handed out as it is asked for, never dealt in advance: each worker
holds at most ``QUEUED`` chunks, gets the next one as it sends a result back,
and this process -- which also writes the report -- lints a chunk itself only
when the result it must write next is not in yet. So the share each process
takes follows how fast it really is (a busy core, a slow file), and more
workers never make a run slower than it would be with fewer.

Results are yielded in input order and the run stops at the first exception
of a file, so the report, and where it stops on an error, is the same byte for
byte whatever the number of processes. A worker that dies (killed, out of
memory) costs nothing but time: its unfinished chunks are linted here, and a
note says so. Workers end with this process: they read their tasks from a pipe
whose other end it holds, and check between files that it is still there.
Small runs stay in this process: a pool costs more than a handful of files.
Without ``fork`` (not on Linux or macOS) everything runs here.
"""

from __future__ import annotations

import os
import sys
from collections import deque
from typing import Any, Callable, Iterator, Sequence

# Below this many inputs per worker, forking and sending findings back cost more than they save.
MIN_INPUTS_PER_WORKER = 8
# Inputs per task: small enough to share the work out evenly, large enough to keep messages few.
MAX_CHUNK = 64
# Chunks a worker holds at once: one it works on and one waiting, so it never idles between two.
QUEUED = 2
# How far (in chunks) this process may run ahead of the report: bounds the results held in memory.
AHEAD = 8


def default_jobs() -> int:
    """The cores this process may run on (a batch job's allocation, not the whole node)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def map_in_order(function: Callable[[Any], Any], inputs: Sequence[Any], jobs: int) -> Iterator[Any]:
    """``function(item)`` for each of ``inputs``, in order, on up to ``jobs`` processes.

    Never more processes than cores: on two cores a third process only takes
    turns with the other two, and each turn costs.
    """
    workers = min(jobs, default_jobs(), len(inputs) // MIN_INPUTS_PER_WORKER)
    if workers < 2 or not hasattr(os, "fork"):
        for item in inputs:
            yield function(item)
        return
    # The first input is linted here: its lazy imports and first-use caches are then
    # inherited by every worker instead of being redone in each.
    yield function(inputs[0])
    yield from _Pool(function, inputs[1:], workers - 1).results()


class _Worker:
    """A forked process, the pipes to it, and the chunks it was given and has not sent back."""

    def __init__(self, pid: int, tasks: int, replies: int) -> None:
        # Raw descriptors, never buffered file objects: a buffered read could take in the next
        # reply too, and `select` would then wait for data already read.
        self.pid, self.tasks, self.replies = pid, tasks, replies
        self.given: deque[int] = deque()


class _Pool:
    """Chunks of ``inputs`` shared among ``count`` forked workers and this process, read back in order."""

    def __init__(self, function: Callable[[Any], Any], inputs: Sequence[Any], count: int) -> None:
        self.function, self.inputs = function, inputs
        size = max(1, min(MAX_CHUNK, len(inputs) // ((count + 1) * 8)))
        self.chunks = [(start, min(start + size, len(inputs))) for start in range(0, len(inputs), size)]
        self.count = count
        self.workers: list[_Worker] = []
        self.done: dict[int, tuple[list, BaseException | None]] = {}
        self.next_chunk = 0  # the first chunk nobody has been given yet

    def results(self) -> Iterator[Any]:
        try:
            self._start()
            for index in range(len(self.chunks)):
                while index not in self.done:
                    self._make_progress(index)
                results, raised = self.done.pop(index)
                yield from results
                if raised is not None:
                    raise raised
        finally:
            self._stop()

    # ------------------------------------------------------------ the workers
    def _start(self) -> None:
        # A forked worker gets a copy of any output still buffered here, and would flush it on its way out.
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        parent = os.getpid()
        for _ in range(self.count):
            task_read, task_write = os.pipe()
            reply_read, reply_write = os.pipe()
            pid = os.fork()
            if pid == 0:  # the worker: never returns
                os.close(task_write)
                os.close(reply_read)
                for other in self.workers:  # only this process may hold the others' pipes
                    os.close(other.tasks)
                    os.close(other.replies)
                _work_and_exit(self.function, self.inputs, self.chunks, task_read, reply_write, parent)
            os.close(task_read)
            os.close(reply_write)
            self.workers.append(_Worker(pid, task_write, reply_read))
        for worker in self.workers:
            for _ in range(QUEUED):
                self._give(worker)

    def _give(self, worker: _Worker) -> None:
        if self.next_chunk >= len(self.chunks):
            return
        try:
            os.write(worker.tasks, self.next_chunk.to_bytes(4, "little"))
        except OSError:  # the worker is gone; its end is noticed when its replies end
            return
        worker.given.append(self.next_chunk)
        self.next_chunk += 1

    def _make_progress(self, wanted: int) -> None:
        """Take in what the workers sent; else lint the next chunk here, if not too far ahead; else wait."""
        import select

        live = [worker for worker in self.workers if worker.replies is not None]
        ready, _, _ = select.select([w.replies for w in live], [], [], 0) if live else ([], [], [])
        if not ready:
            if self.next_chunk < len(self.chunks) and self.next_chunk - wanted < AHEAD or not live:
                self._run_here(self.next_chunk if self.next_chunk < len(self.chunks) else wanted)
                return
            ready, _, _ = select.select([w.replies for w in live], [], [])
        for worker in live:
            if worker.replies in ready:
                self._receive(worker)

    def _run_here(self, index: int) -> None:
        if index == self.next_chunk:
            self.next_chunk += 1
        start, stop = self.chunks[index]
        self.done[index] = _run_range(self.function, self.inputs, start, stop)

    def _receive(self, worker: _Worker) -> None:
        import pickle

        header = _read_exactly(worker.replies, 8)
        size = int.from_bytes(header, "little") if len(header) == 8 else -1
        payload = _read_exactly(worker.replies, size) if size >= 0 else b""
        if size < 0 or len(payload) != size:
            self._lost(worker)
            return
        index = worker.given.popleft()
        self.done[index] = pickle.loads(payload)
        self._give(worker)

    def _lost(self, worker: _Worker) -> None:
        """A worker ended without sending all it was given: its chunks are linted here instead."""
        os.close(worker.replies)
        worker.replies = None
        os.close(worker.tasks)
        _, status = os.waitpid(worker.pid, 0)
        worker.pid = 0
        how = f"killed by signal {-os.waitstatus_to_exitcode(status)}" if os.WIFSIGNALED(status) else "ended"
        sys.stderr.write(f"slurmspec: note: a --jobs worker process {how} (out of memory?); "
                         "its files were linted in the main process\n")
        for index in worker.given:
            start, stop = self.chunks[index]
            self.done[index] = _run_range(self.function, self.inputs, start, stop)
        worker.given.clear()

    def _stop(self) -> None:
        """Close the pipes (a waiting worker then ends), end the workers still running, reap them all."""
        import signal

        for worker in self.workers:
            if worker.replies is not None:
                os.close(worker.replies)
                os.close(worker.tasks)
            if worker.pid:
                try:
                    if os.waitpid(worker.pid, os.WNOHANG) == (0, 0):
                        os.kill(worker.pid, signal.SIGTERM)
                        os.waitpid(worker.pid, 0)
                except ChildProcessError:
                    pass


def _work_and_exit(function: Callable[[Any], Any], inputs: Sequence[Any], chunks: list, tasks: int,
                   replies: int, parent: int) -> None:
    import pickle
    import signal

    # Ctrl-C reaches the whole process group: the parent stops the workers; they should not
    # each print a traceback on the way out. SIGTERM ends a worker at once (the default action).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    status = 0
    try:
        with os.fdopen(replies, "wb") as pipe:
            while True:
                asked = _read_exactly(tasks, 4)
                if len(asked) < 4:  # the parent closed the task pipe, or died: nothing more to do
                    break
                start, stop = chunks[int.from_bytes(asked, "little")]
                results, raised = _run_range(function, inputs, start, stop, parent)
                if results is None:  # the parent is gone
                    break
                try:
                    payload = pickle.dumps((results, raised), pickle.HIGHEST_PROTOCOL)
                except Exception:  # noqa: BLE001 - an exception that cannot travel is sent as text
                    payload = pickle.dumps((results, RuntimeError(f"{type(raised).__name__}: {raised}")))
                pipe.write(len(payload).to_bytes(8, "little") + payload)
                pipe.flush()
    except BrokenPipeError:  # the parent stopped reading (an error, Ctrl-C): nothing left to do
        pass
    except BaseException:  # noqa: BLE001 - the parent sees the missing chunk and lints it itself
        status = 1
    finally:
        os._exit(status)  # no interpreter teardown, no atexit handlers of the parent's, no buffered output


def _read_exactly(fd: int, size: int) -> bytes:
    """``size`` bytes from a pipe, or fewer if it ends first (a pipe returns what it has)."""
    parts, missing = [], size
    while missing > 0:
        more = os.read(fd, min(missing, 1 << 20))
        if not more:
            break
        parts.append(more)
        missing -= len(more)
    return b"".join(parts)


def _run_range(function: Callable[[Any], Any], inputs: Sequence[Any], start: int, stop: int, parent: int = 0):
    """Results for ``inputs[start:stop]``, stopping at the first exception (sent back with the results before it).

    In a worker (``parent`` set), ``(None, None)`` once the parent has gone: a
    worker whose parent was killed stops within a file, not after its chunk.
    """
    results = []
    for index in range(start, stop):
        if parent and os.getppid() != parent:
            return None, None
        try:
            results.append(function(inputs[index]))
        except Exception as exc:  # re-raised in the parent, after the results that came before it
            return results, exc
    return results, None
