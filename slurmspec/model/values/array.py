"""Parse --array index specifications (validated by slurmctld, not by sbatch).

sbatch stores the string verbatim; slurmctld checks it in
``job_mgr.c:_valid_array_inx()`` and ``_parse_array_tok()`` and answers
"Invalid job array specification". The throttle is read from the *first* `%`
in the whole string (``strchr(array_inx, '%')``) and must be followed by
digits only; every comma-separated item is ``N``, ``N-M`` or ``N-M:S`` (a
``[ ]`` wrapper is tolerated); every index must be below MaxArraySize
(default 1001, so at most 1000) and the string is limited to 4096 characters.
"""

from __future__ import annotations

import re

import attrs

from slurmspec.frozen import as_tuple, frozen

from ._base import Parsed
from ._common import problem, tick

MAX_ARRAY_SIZE = 1001  # slurm.conf MaxArraySize default
LARGEST_MAX_ARRAY_SIZE = 4000001  # "The value may not exceed 4000001" (man slurm.conf, MaxArraySize)
MAX_LENGTH = 4096  # _test_job_desc_fields(): array_inx limit
_ITEM = re.compile(r"\[?[ \t]*(\d+)\]?(?:-[ \t]*(\d+)\]?(?::[ \t]*(\d+)\]?)?)?")
HINT = "use comma-separated `N`, `N-M` or `N-M:STEP`, optionally ending in `%LIMIT`"


@frozen
class ArrayRange:
    first: int
    last: int
    step: int = 1

    @property
    def count(self) -> int:
        return (self.last - self.first) // self.step + 1


@frozen
class ArraySpec:
    ranges: tuple[ArrayRange, ...] = attrs.field(converter=as_tuple)
    throttle: int | None = None

    @property
    def count(self) -> int:
        """Distinct indexes (ranges may overlap), on a bitmap as slurmctld keeps them: at most 4 MB."""
        seen = bytearray(max(r.last for r in self.ranges) + 1)
        for r in self.ranges:
            seen[r.first:r.last + 1:r.step] = b"\x01" * len(range(r.first, r.last + 1, r.step))
        return seen.count(1)

    @property
    def max_index(self) -> int:
        return max(r.last - (r.last - r.first) % r.step for r in self.ranges)


def parse_array(text: str, version: object = None) -> Parsed:
    reason = "slurmctld refuses it with \"Invalid job array specification\""
    if text.strip() == "":
        # slurmctld treats an empty --array as "not an array" (checked on 22.05.8).
        return Parsed(None, (problem(text, "empty --array value: the job is not an array job",
                                     rejected=False),))
    if len(text) > MAX_LENGTH:
        return Parsed(None, (problem(text, f"array specification longer than {MAX_LENGTH} "
                                     "characters; slurmctld refuses it"),))
    problems = []
    throttle = None
    body = text
    pct = text.find("%")
    if pct >= 0:
        body = text[:pct]
        limit = text[pct + 1:]
        digits = re.match(r"[0-9]+", limit) if limit.isascii() else None
        if digits is None:
            return Parsed(None, (problem(text, f"throttle {tick(limit)} is not a whole "
                                         f"number; {reason}", pct, len(text)),))
        if digits.end() < len(limit):
            # slurmctld reads the number after the first "%" and ignores the rest
            # (accepted by 22.05.8: "1%2%3" throttles to 2).
            problems.append(problem(text, f"only `%{digits.group()}` is used as the throttle; "
                                    f"{tick(limit[digits.end():])} after it is ignored",
                                    pct + 1 + digits.end(), len(text), rejected=False))
        throttle = int(digits.group())
        if throttle == 0:
            problems.append(problem(text, "`%0` sets no limit on simultaneous tasks",
                                    pct, len(text), rejected=False))
    ranges = []
    pos = 0
    for item in body.split(","):
        start, end = pos, pos + len(item)
        pos = end + 1
        if item == "":
            continue  # strtok_r() skips empty items
        m = _ITEM.fullmatch(item)
        if not m:
            why = "negative indices are not allowed" if item.lstrip("[ ").startswith("-") \
                else HINT
            return Parsed(None, (problem(text, f"{tick(item)} is not a valid array index or "
                                         f"range; {why}", start, end),))
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) else first
        step = int(m.group(3)) if m.group(3) else 1
        if last < first:
            return Parsed(None, (problem(text, f"range {tick(item)} is descending; {reason}",
                                         start, end),))
        if step <= 0:
            return Parsed(None, (problem(text, f"step in {tick(item)} must be 1 to "
                                         f"{MAX_ARRAY_SIZE - 1}; {reason}", start, end),))
        if step >= LARGEST_MAX_ARRAY_SIZE:
            return Parsed(None, (problem(text, f"step in {tick(item)} is above the largest MaxArraySize "
                                         f"any site can set ({LARGEST_MAX_ARRAY_SIZE}); {reason}",
                                         start, end),))
        if last >= LARGEST_MAX_ARRAY_SIZE:
            return Parsed(None, (problem(text, f"index {last} in {tick(item)} is above the largest "
                                         f"MaxArraySize any site can set ({LARGEST_MAX_ARRAY_SIZE});"
                                         f" {reason}", start, end),))
        # Over the default MaxArraySize the range stays in the value: a cluster profile with the
        # site's own MaxArraySize judges it (SB412), and only without one is the default assumed.
        if step >= MAX_ARRAY_SIZE:
            problems.append(problem(text, f"step in {tick(item)} is not below MaxArraySize (default "
                                    f"{MAX_ARRAY_SIZE}); {reason} unless the site raised MaxArraySize",
                                    start, end, site_limit="MaxArraySize"))
        elif last >= MAX_ARRAY_SIZE:
            problems.append(problem(text, f"index {last} in {tick(item)} is not below "
                                    f"MaxArraySize (default {MAX_ARRAY_SIZE}, so at most "
                                    f"{MAX_ARRAY_SIZE - 1}); {reason} unless the site "
                                    "raised MaxArraySize", start, end, site_limit="MaxArraySize"))
        if m.group(3) and (last - first) % step:
            problems.append(problem(text, f"range {tick(item)} stops at "
                                    f"{last - (last - first) % step}, not {last}", start, end,
                                    rejected=False))
        ranges.append(ArrayRange(first, last, step))
    if not ranges:
        return Parsed(None, (problem(text, f"no array indices given; {HINT}"),))
    return Parsed(ArraySpec(ranges, throttle), tuple(problems))
