"""Parse -d/--dependency lists (validated by slurmctld, not by sbatch).

sbatch passes the string through; slurmctld parses it in
``job_scheduler.c:update_job_dependency()`` and answers "Job dependency
problem". Items are ``type:jobid[:jobid...]`` (or ``singleton``, or a bare job
id list meaning ``afterany``) joined by ``,`` (all must hold) or ``?`` (any
may hold). slurmctld does not reject mixing the two: a single ``?`` turns the
whole list into OR (``_depend_list2str(set_or_flag)``).
"""

from __future__ import annotations

import re

import attrs

from slurmspec.frozen import as_tuple, frozen

from ._base import Parsed
from ._common import problem, tick

TYPES = ("after", "afterany", "afterok", "afternotok", "aftercorr", "afterburstbuffer",
         "singleton", "expand")
_JOB = re.compile(r"(\d+)(?:_(\d+|\*|\[[0-9,\-:%]+\]))?(?:\+(\d+))?(?:\(([A-Za-z_]+)\))?")
HINT = "use `type:jobid[:jobid...]` (types: " + ", ".join(TYPES[:-1]) + ")"


@frozen
class JobRef:
    job_id: int
    task: str | None = None  # "3", "*" or "[1-5]" for array tasks
    minutes: int | None = None  # +time


@frozen
class DependencyItem:
    type: str
    jobs: tuple[JobRef, ...] = attrs.field(converter=as_tuple)


@frozen
class DependencySpec:
    items: tuple[DependencyItem, ...] = attrs.field(converter=as_tuple)
    joiner: str | None = None  # "," (AND), "?" (OR) or None for a single item


def parse_dependency(text: str, version: object = None) -> Parsed:
    if text.strip() == "":
        # An empty --dependency means "no dependency" to slurmctld (accepted by 22.05.8).
        return Parsed(None, (problem(text, "empty --dependency value: the job depends on nothing",
                                     rejected=False),))
    problems = []
    joiners = {c for c in text if c in ",?"}
    joiner = "?" if "?" in joiners else ("," if joiners else None)
    if joiners == {",", "?"}:
        first = text.index("?")
        problems.append(problem(text, "mixing `,` (AND) and `?` (OR) does not work: a single "
                                "`?` makes slurmctld treat the whole list as OR",
                                first, first + 1, rejected=False))
    items = []
    for m in re.finditer(r"[^,?]+|(?<=[,?])(?=[,?]|$)|^(?=[,?])", text):
        piece, start, end = m.group(0), m.start(), m.end()
        item = _item(text, piece, start, end, problems)
        if item is None:
            return Parsed(None, tuple(problems))
        items.append(item)
    return Parsed(DependencySpec(items, joiner), tuple(problems))


def _item(text: str, piece: str, start: int, end: int, problems: list) -> DependencyItem | None:
    if piece == "":
        problems.append(problem(text, f"empty dependency item; {HINT}", start, end + 1))
        return None
    if piece.lower() == "singleton":
        return DependencyItem("singleton", ())
    dtype, colon, rest = piece.partition(":")
    if dtype.isdigit() or dtype[:1].isdigit():
        dtype, rest = "afterany", piece  # a bare job id list means afterany
    elif not colon:
        problems.append(problem(text, f"{tick(piece)} names no job; {HINT}", start, end))
        return None
    low = dtype.lower()
    if low not in TYPES or low == "singleton":
        problems.append(problem(text, f"{tick(dtype)} is not a dependency type; {HINT}",
                                start, start + len(dtype)))
        return None
    if low == "expand":
        problems.append(problem(text, "`expand` only works if the cluster is configured to "
                                "allow growing jobs", start, start + len(dtype), rejected=False))
    jobs = []
    pos = end - len(rest)
    for job in rest.split(":"):
        m = _JOB.fullmatch(job)
        if job == "":
            problems.append(problem(text, "missing job id after `:`", pos - 1, pos))
            return None
        if not m or int(m.group(1)) == 0:
            problems.append(problem(text, f"{tick(job)} is not a job id (`N`, `N_T`, `N_*` or "
                                    "`N_[range]`, optionally `+minutes`)", pos, pos + len(job)))
            return None
        minutes = int(m.group(3)) if m.group(3) else None
        if minutes is not None and low != "after":
            problems.append(problem(text, f"`+{minutes}` is only meaningful with `after` "
                                    "(minutes after the job started)", pos, pos + len(job),
                                    rejected=False))
        jobs.append(JobRef(int(m.group(1)), m.group(2), minutes))
        pos += len(job) + 1
    return DependencyItem(low, jobs)
