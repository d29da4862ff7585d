"""Every input slurmspec reads, read through one bounded reader: time and memory stay bounded
whatever the input (a 10 GB log file, ``/dev/zero``, a FIFO that never ends).

- Scripts: slurmctld refuses a batch script larger than ``SchedulerParameters=max_script_size``,
  4 MiB unless the site raised it (``src/slurmctld/job_mgr.c:_test_job_desc_fields()``,
  "Pathname of a file, directory or other parameter too long"). Reading stops one byte
  past that: a larger script is reported (SB106) from its first lines, never analysed.
  A job spec and a spec's ``[body] file`` make such a script, so they have the same limit.
- Settings files (configuration, cluster profile, site policy): ``MAX_SETTINGS_BYTES``.
- Saved ``scontrol`` output for ``cluster import`` (files or standard input): ``MAX_IMPORT_BYTES``.

Past its limit an input is an error naming the file and the limit (``TooLarge``, an
``OSError``: every caller already turns those into a one-line message and exit 2).

What is analysed is bounded too: every pass is linear, but a model of every line costs a
few hundred bytes and one of every option a few kilobytes, so 4 MiB of one-letter lines
(two million of them) would still take a minute and gigabytes. A script of more than
``MAX_SCRIPT_LINES`` lines, or more than ``MAX_DIRECTIVE_OPTIONS`` options or
``MAX_DIRECTIVE_WORDS`` words on its ``#SBATCH`` lines, is
reported (SB905) from its first lines and not analysed (``beyond_limits``), as one over
4 MiB is (SB106); sbatch would still take it. Both limits are far above any real script. Of the
body's launch statements the first ``MAX_LAUNCHES`` are modelled; SB905 names the first one after.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
from typing import NamedTuple

MAX_SCRIPT_BYTES = 4 * 1024 * 1024  # slurmctld's default max_script_size
HEAD_BYTES = 64 * 1024  # what is parsed of a larger script, to show where it starts
# A configuration or policy is a few kilobytes; a cluster profile names its nodes by host list,
# so even 10,000 nodes in a few hundred shapes stay far under a megabyte.
MAX_SETTINGS_BYTES = 1024 * 1024
# `scontrol --json show node` prints a few kilobytes per node: 64 MiB is some 20,000 nodes.
MAX_IMPORT_BYTES = 64 * 1024 * 1024
# What is analysed of a script (see above): within these, any script lints in seconds and
# well under 300 MB (benchmarks/bench_hostile.py).
MAX_SCRIPT_LINES = 200_000
MAX_DIRECTIVE_OPTIONS = 100_000  # `--time=10` is one, `-t 10` one (and two words)
MAX_DIRECTIVE_WORDS = 2 * MAX_DIRECTIVE_OPTIONS
# Launch statements (srun, mpirun, python ...) modelled per script: each keeps its words, options
# and spans, and the job model a step and its tasks, a few kilobytes in all, so 190,000 `srun`
# lines (under 4 MiB and MAX_SCRIPT_LINES) took 850 MB. Later ones are read as commands only and
# SB905 names the first (``slurmspec.body.launch.analyse_body``).
MAX_LAUNCHES = 4_096
_DIRECTIVE_TEXT = {bytes: re.compile(rb"^#(?:SBATCH|SLURM)([^\n]*)", re.MULTILINE),
                   str: re.compile(r"^#(?:SBATCH|SLURM)([^\n]*)", re.MULTILINE)}
_WORD = {bytes: re.compile(rb"[^ \t\r\n]+"), str: re.compile(r"[^ \t\r\n]+")}
_NEWLINE, _DASH = {bytes: b"\n", str: "\n"}, {bytes: b"-", str: "-"}


class TooLarge(OSError):
    """An input past its limit; ``str()`` names the file and the limit."""

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


class NotAFile(OSError):
    """A path that names a FIFO, a device or a socket where a regular file is needed."""


def file_kind(path: str) -> str | None:
    """None for a regular file (symlinks followed); else what it is ("FIFO", "device", ...).

    Raises ``OSError`` when the path cannot be examined (a dangling link, a link loop).
    """
    return kind_of(os.stat(path).st_mode)


def kind_of(mode: int) -> str | None:
    """None for a regular file's ``st_mode``; else what the file is ("a FIFO", "a device", ...)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def read_bounded(path: str, limit: int = MAX_SCRIPT_BYTES) -> bytes:
    """At most ``limit + 1`` bytes of ``path`` (``-``: standard input); more than ``limit`` means too large."""
    if path == "-":
        return sys.stdin.buffer.read(limit + 1)
    with open(path, "rb") as handle:
        return handle.read(limit + 1)


def read_regular(path: str, limit: int | None = MAX_SCRIPT_BYTES) -> bytes:
    """``read_bounded`` for a path that must be a regular file (``limit`` None: all of it).

    A FIFO, device or socket raises ``NotAFile`` at once: the file is opened
    with ``O_NONBLOCK`` and judged by what was opened (``fstat``), so a FIFO
    swapped in after a check cannot make the read wait for a writer.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as handle:
        kind = kind_of(os.fstat(fd).st_mode)
        if kind is not None:
            raise NotAFile(f"{kind}, not a regular file")
        return handle.read() if limit is None else handle.read(limit + 1)


class Beyond(NamedTuple):
    """The limit a script is past: ``what`` is "bytes", "lines", "options" or "words" (on ``#SBATCH``
    lines), ``count`` how many it has (for options and words, at least: counting stops past the limit)."""

    what: str
    count: int
    limit: int


def beyond_limits(data: bytes | str) -> Beyond | None:
    """The limit ``data`` (a whole script, or its first ``MAX_SCRIPT_BYTES + 1`` bytes) is past, else None.

    O(len(data)); a script too short to reach a limit is not even scanned. Options are
    counted from the words of the ``#SBATCH`` lines as getopt could at most read them: a
    word starting ``--`` is one, a word ``-abc`` as many as its letters (a bundle ``-HHHH...``
    is one option per letter).
    """
    size = len(data)
    if isinstance(data, str) and size * 4 > MAX_SCRIPT_BYTES:
        size = len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_SCRIPT_BYTES:
        return Beyond("bytes", size, MAX_SCRIPT_BYTES)
    kind = type(data)
    if len(data) > MAX_SCRIPT_LINES:  # every line takes a character
        newline = _NEWLINE[kind]
        lines = data.count(newline) + (0 if data.endswith(newline) else 1)
        if lines > MAX_SCRIPT_LINES:
            return Beyond("lines", lines, MAX_SCRIPT_LINES)
    if len(data) > MAX_DIRECTIVE_OPTIONS:  # every option takes a character
        dash, word = _DASH[kind], _WORD[kind]
        options = words = 0
        for line in _DIRECTIVE_TEXT[kind].finditer(data):
            for found in word.finditer(data, line.start(1), line.end(1)):
                words += 1
                text = found.group()
                if text.startswith(dash):
                    options += 1 if text.startswith(dash + dash) else len(text) - 1
                    if options > MAX_DIRECTIVE_OPTIONS:
                        return Beyond("options", options, MAX_DIRECTIVE_OPTIONS)
                if words > MAX_DIRECTIVE_WORDS:
                    return Beyond("words", words, MAX_DIRECTIVE_WORDS)
    return None


def head_of(data: bytes) -> bytes:
    """The first lines of an oversized script: enough to show and to judge its first line."""
    head = data[:HEAD_BYTES]
    cut = head.rfind(b"\n")
    return head[: cut + 1] if cut > 0 else head


def read_whole(path: str, limit: int, what: str) -> bytes:
    """All of ``path`` (``-``: standard input), at most ``limit`` bytes; past that ``TooLarge``
    (``what`` says what the input is, for the message: "a configuration file")."""
    data = read_bounded(path, limit)
    if len(data) > limit:
        shown = "standard input" if path == "-" else path
        raise TooLarge(errno.EFBIG, f"larger than {size_text(limit)}, the most slurmspec reads for {what}", shown)
    return data


def size_text(size: int) -> str:
    return f"{size // (1024 * 1024)} MiB" if size % (1024 * 1024) == 0 else f"{size:,} bytes"


def read_utf8(path: str, error: type[Exception], cannot_read: str = "cannot read", what: str = "a settings file") -> str:
    """A settings file's text (configuration, cluster profile, site policy), at most ``MAX_SETTINGS_BYTES``;
    ``error`` with a one-line message naming ``path`` when it cannot be read, is too large or is not
    UTF-8, so a CLI can print it and exit 2."""
    try:
        return read_whole(path, MAX_SETTINGS_BYTES, what).decode("utf-8")
    except OSError as exc:
        raise error(f"{path}: {cannot_read}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise error(f"{path}: not UTF-8 text") from None
