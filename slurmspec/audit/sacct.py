"""Reading accounting through ``sacct`` as the calling user (Slurm's PrivateData applies, never bypassed).

`SacctSource` streams the job rows from one ``sacct -X`` process (a line at a time: memory does
not grow with the window) and fetches the stored scripts and environments of a batch of jobs
with one ``sacct -j ID,ID,... --batch-script`` (``--env-vars``) call each: sacct 22.05 refuses
``--batch-script`` without ``-j`` ("When requesting job scripts you must also request specific
jobs with the '-j' option").

Output of those calls (sacct 22.05.8, measured): for each job found (in an order of its own),
``Batch Script for <id>`` (``Environment used for <id> (must be batch to display)``), a line of
80 dashes, the stored text, and one newline sacct adds; ``NONE`` when nothing is stored. A
script could itself hold a line that looks like a header: `split_blocks` accepts the output only
when each header names a requested job and none twice, and otherwise the batch is
fetched again one job per call, where nothing inside a script can be taken for a header.
"""

from __future__ import annotations

import re
import subprocess
from typing import Callable, Iterable, Iterator, Sequence

from slurmspec.audit.jobs import Job, parse_rows

_HEADERS = {
    "--batch-script": re.compile(rb"^Batch Script for (\S+)\n-{80}\n", re.M),
    "--env-vars": re.compile(rb"^Environment used for (\S+) \(must be batch to display\)\n-{80}\n", re.M),
}
NOTHING_STORED = b"NONE"


class AccountingError(RuntimeError):
    """sacct could not run, or refused (no accounting, no permission)."""


def split_blocks(data: bytes, flag: str, refs: Sequence[str]) -> dict[str, bytes] | None:
    """Job id (as ``JobID`` prints it) -> stored text; None unless each header names a requested job once.

    sacct orders the answers its own way (an array's tasks after a later job), so only the set is
    checked: a header-like line inside a script names a job whose real header also comes (a
    duplicate), or one not requested.
    """
    heads = list(_HEADERS[flag].finditer(data))
    named = [head[1].decode("utf-8", "replace") for head in heads]
    if len(set(named)) != len(named) or not set(named) <= set(refs):
        return None
    if heads and data[:heads[0].start()].strip():
        return None
    found: dict[str, bytes] = {}
    for head, after in zip(heads, heads[1:] + [None]):
        text = data[head.end(): after.start() if after is not None else len(data)]
        text = text[:-1] if text.endswith(b"\n") else text  # the newline sacct adds after each text
        if text.rstrip(b"\n") != NOTHING_STORED:
            found[head[1].decode("utf-8", "replace")] = text
    return found


def one_block(data: bytes, flag: str) -> bytes | None:
    """The stored text of a one-job answer: everything after its first header."""
    head = _HEADERS[flag].search(data)
    if head is None:
        return None
    text = data[head.end():]
    text = text[:-1] if text.endswith(b"\n") else text
    return None if text.rstrip(b"\n") == NOTHING_STORED else text


def sbatch_variables(environment: bytes) -> dict[str, str]:
    """The variables sbatch reads as options, from a stored environment (every other value is dropped here)."""
    found = {}
    for line in environment.decode("utf-8", "surrogateescape").split("\n"):
        name, eq, value = line.partition("=")
        if eq and (name.startswith("SBATCH_") or name in ("SLURM_HINT", "SLURM_CLUSTERS")):
            found[name] = value
    return found


def streamed_lines(argv: list[str], name: str) -> Iterator[bytes]:
    """The lines ``argv`` writes, as it writes them (the listing of a site's archive is streamed, never held).

    Its standard error goes to a temporary file, not a pipe: a command that writes much
    there while this side reads its output would otherwise stall on a full pipe. A
    failure raises ``AccountingError`` with what it said, once its output is read.
    """
    import tempfile

    with tempfile.TemporaryFile() as errors:
        try:
            proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=errors, stdin=subprocess.DEVNULL)
        except OSError as exc:
            raise AccountingError(f"`{argv[0]}` could not run: {exc.strerror or exc}") from None
        assert proc.stdout is not None
        try:
            yield from proc.stdout
        finally:
            proc.stdout.close()
            code = proc.wait()
        if code != 0:
            errors.seek(0)
            message = errors.read().decode("utf-8", "replace").strip()
            raise AccountingError(f"`{name}` failed (exit {code}): {message or 'no message'}")


class SacctSource:
    """Jobs, scripts and environments from ``sacct``; ``program`` is the sacct to run."""

    def __init__(self, argv: list[str], program: str = "sacct", runner: Callable | None = None) -> None:
        self.argv = argv
        self.program = program
        self._run = runner or _run
        self.calls = 0  # sacct runs for scripts and environments, for the progress line and the benchmark

    def jobs(self) -> Iterator[Job]:
        lines = (raw.decode("utf-8", "surrogateescape") for raw in streamed_lines(self.argv, "sacct"))
        yield from parse_rows(lines)

    def scripts(self, refs: Iterable[str]) -> dict[str, bytes]:
        """Stored script by job (``JobID``, e.g. ``12`` or ``12_3``)."""
        return self._blocks("--batch-script", list(refs))

    def environments(self, refs: Iterable[str]) -> dict[str, dict[str, str]]:
        return {job: sbatch_variables(text) for job, text in self._blocks("--env-vars", list(refs)).items()}

    def _blocks(self, flag: str, ids: list[str]) -> dict[str, bytes]:
        if not ids:
            return {}
        data = self._fetch(flag, ids)
        found = split_blocks(data, flag, ids)
        if found is not None:
            return found
        found: dict[str, bytes] = {}
        for job in ids:  # a script held a header-like line: one job per call cannot be confused
            text = one_block(self._fetch(flag, [job]), flag)
            if text is not None:
                found[job] = text
        return found

    def _fetch(self, flag: str, ids: list[str]) -> bytes:
        self.calls += 1
        return self._run([self.program, "-j", ",".join(ids), flag])


def _run(argv: list[str]) -> bytes:
    try:
        done = subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL, timeout=600)
    except (OSError, subprocess.SubprocessError) as exc:
        raise AccountingError(f"`{' '.join(argv[:3])} ...` could not run: {exc}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip()
        raise AccountingError(f"`{argv[0]} {argv[-1]}` failed (exit {done.returncode}): {message or 'no message'}")
    return done.stdout
