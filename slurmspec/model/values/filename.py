"""Parse --output/--error/--input filename patterns into their `%` tokens.

sbatch stores the string verbatim (``none`` in any case becomes /dev/null,
``arg_set_ofname()``); the expansion happens on the compute node in
``src/slurmd/common/fname.c:fname_create()`` (26.05:
``src/common/print_fields.c:expand_stdio_fields()``). There, ``%%`` is a
percent sign, ``%<digits><spec>`` zero-pads numeric specs (width capped at 10,
``MAX_WIDTH``), unknown specs are left as literal text, and a backslash
anywhere disables all expansion (``remove_path_slashes()``). A pattern that is
only digits is "single task" I/O (``fname_single_task_io()``).
"""

from __future__ import annotations

import attrs

from slurmspec.frozen import as_tuple, frozen
from slurmspec.gates import FILENAME_ARRAY_MODULO, FILENAME_RESTART_AND_SLUID
from slurmspec.version import NEWEST, OLDEST, Version, format_version

from ._base import Parsed
from ._common import problem, tick

MAX_WIDTH = 10
# spec -> (meaning, introduced)
SPECS = {
    "A": ("array master job id (the job id for non-array jobs)", OLDEST),
    "a": ("array task id", OLDEST),
    "J": ("job id.step id", OLDEST),
    "j": ("job id", OLDEST),
    "N": ("short host name", OLDEST),
    "n": ("node id relative to the job", OLDEST),
    "s": ("step id (`batch` for the batch script)", OLDEST),
    "t": ("task id", OLDEST),
    "u": ("user name", OLDEST),
    "x": ("job name", OLDEST),
    "b": ("array task id modulo 10", FILENAME_ARRAY_MODULO),
    "r": ("restart count", FILENAME_RESTART_AND_SLUID),
    "S": ("SLUID", FILENAME_RESTART_AND_SLUID),
}
_NUMERIC = set("AajJnstbr")


@frozen
class FilenameToken:
    """One `%` sequence; ``spec`` is the letter ("%" for `%%`), ``known`` if Slurm expands it."""

    spec: str
    width: int | None
    start: int
    end: int
    known: bool = True


@frozen
class FilenamePattern:
    tokens: tuple[FilenameToken, ...] = attrs.field(converter=as_tuple)
    escaped: bool = False  # a backslash disables every `%` expansion
    is_none: bool = False  # `none` -> /dev/null
    text: str = ""


def parse_filename(text: str, version: Version = NEWEST) -> Parsed:
    if text.lower() == "none":
        return Parsed(FilenamePattern((), False, True, text))
    problems = []
    if text == "":
        # sbatch 22.05.8 accepts it and falls back to the default name.
        problems.append(problem(text, "empty file name", rejected=False))
        return Parsed(None, tuple(problems))
    if text.isascii() and text.isdigit():
        target = "/dev/null" if int(text) != 0 else "the first task only"
        problems.append(problem(text, f"{tick(text)} is taken as a task number, not a file "
                                f"name: the batch output goes to {target}; use e.g. "
                                f"`{text}.out`", rejected=False))
    escaped = "\\" in text
    tokens = _tokens(text, version, problems, escaped)
    if escaped and tokens:
        first = text.index("\\")
        problems.append(problem(text, "a backslash disables all `%` expansion in this file "
                                "name (and is then removed)", first, first + 1,
                                rejected=False))
    return Parsed(FilenamePattern(tokens, escaped, False, text), tuple(problems))


def _tokens(text: str, version: Version, problems: list,
            escaped: bool) -> list[FilenameToken]:
    tokens = []
    i = 0
    n = len(text)
    while i < n:
        if text[i] != "%":
            i += 1
            continue
        start = i
        j = i + 1
        while j < n and text[j].isascii() and text[j].isdigit():
            j += 1
        digits = text[i + 1:j]
        if j >= n:
            if not escaped:
                problems.append(problem(text, f"{tick(text[start:])} at the end is left as "
                                        "literal text", start, n, rejected=False))
            break
        spec = text[j]
        width = int(digits) if digits else None
        end = j + 1
        if spec == "%" and not digits:
            tokens.append(FilenameToken("%", None, start, end))
            i = end
            continue
        info = SPECS.get(spec)
        known = info is not None and version >= info[1]
        tokens.append(FilenameToken(spec, width, start, end, known))
        if escaped:
            i = end
            continue
        if info is None:
            problems.append(problem(text, f"{tick(text[start:end])} is not a Slurm filename "
                                    "pattern and is left as literal text; known ones are "
                                    + ", ".join(f"`%{k}`" for k, v in SPECS.items()
                                                if version >= v[1]),
                                    start, end, rejected=False))
        elif not known:
            problems.append(problem(text, f"{tick(text[start:end])} ({info[0]}) needs Slurm "
                                    f"{format_version(info[1])} or newer; older versions leave "
                                    "it as literal text", start, end, rejected=False))
        elif width is not None and width > MAX_WIDTH:
            problems.append(problem(text, f"padding width {width} in "
                                    f"{tick(text[start:end])} is capped at {MAX_WIDTH}",
                                    start, end, rejected=False))
        elif width is not None and spec not in _NUMERIC:
            problems.append(problem(text, f"padding has no effect on "
                                    f"{tick(text[start:end])} ({info[0]})",
                                    start, end, rejected=False))
        i = end
    return tokens
