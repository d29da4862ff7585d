"""Parse integer-valued options: task/CPU counts, --core-spec, -N node counts, --nice, --priority.

Counts go through ``src/common/proc_args.c:parse_int()`` (strtol, nothing may
follow the digits, > 0 or >= 0); 23.02 added an explicit INT_MAX cap ("too
large"), before that the ``long`` was cast to ``int`` and silently wrapped.
Node counts go through ``proc_args.c:verify_node_count()``.
"""

from __future__ import annotations


import attrs

from slurmspec.frozen import as_tuple, frozen
from slurmspec.gates import COUNTS_ABOVE_INT_MAX_REFUSED, NODE_SIZE_LISTS
from slurmspec.lazy_regex import lazy_compile
from slurmspec.version import NEWEST, Version

from ._base import Parsed
from ._common import INT_MAX, LONG_MAX, bad, problem, strtol, tick, to_c_int

NICE_LIMIT = 2147483645  # NICE_OFFSET - 3, slurm_opt.c:arg_set_nice()
NO_VAL = 0xFFFFFFFE


@frozen
class Count:
    value: int


@frozen
class NodeCount:
    """-N: ``maximum`` 0 means "no maximum"; ``sizes`` lists allowed sizes (23.02+)."""

    minimum: int
    maximum: int
    sizes: tuple[int, ...] = attrs.field(default=(), converter=as_tuple)


@frozen
class Nice:
    value: int


@frozen
class Priority:
    value: int | None
    top: bool = False


def _parse_int(text: str, version: Version, positive: bool, what: str) -> Parsed:
    value, end = strtol(text)
    if value is None or end != len(text):
        at = end if value is not None else 0
        if not text.strip():
            if not positive:
                # strtol("") gives 0 with no leftover: parse_int() accepts it.
                return Parsed(Count(0), (problem(text, f"empty value is read as 0 for {what}",
                                                 rejected=False),))
            return bad(text, f"empty value for {what}; give a whole number")
        return bad(text, f"{tick(text)} is not a whole number; {what} takes digits only",
                   at, len(text))
    if value < 0 or (positive and value == 0):
        need = "greater than 0" if positive else "0 or more"
        return bad(text, f"{tick(text)} is out of range; {what} must be {need}")
    if value >= LONG_MAX:
        return bad(text, f"{tick(text)} is too large for {what}")
    if value > INT_MAX:
        if version >= COUNTS_ABOVE_INT_MAX_REFUSED:
            return bad(text, f"{tick(text)} is too large for {what} (at most {INT_MAX})")
        wrapped = to_c_int(value)
        # 22.05 casts the long to int; a wrapped non-positive count fails later checks.
        return Parsed(Count(wrapped), (problem(
            text, f"{tick(text)} exceeds {INT_MAX} and silently wraps to {wrapped} on 22.05",
            rejected=wrapped <= 0 or (positive and wrapped == 0)),))
    return Parsed(Count(value))


def parse_count(text: str, version: Version = NEWEST) -> Parsed:
    """A positive integer (``parse_int(positive=true)``): -n, -c, --ntasks-per-*, ..."""
    return _parse_int(text, version, True, "this option")


def parse_count0(text: str, version: Version = NEWEST) -> Parsed:
    """A non-negative integer (``parse_int(positive=false)``): --core-spec."""
    return _parse_int(text, version, False, "this option")


def _nodes_part(text: str) -> tuple[int, str]:
    # proc_args.c:_str_to_nodes(): strtol, then an optional k then m suffix;
    # no digits at all yields -1.
    value, end = strtol(text)
    if value is None:
        return -1, text
    rest = text[end:]
    if rest[:1] in ("k", "K"):
        value *= 1024
        rest = rest[1:]
    if rest[:1] in ("m", "M"):
        value *= 1024 * 1024
        rest = rest[1:]
    return to_c_int(value), rest


_SIZE_ITEM = lazy_compile(r"(\d{1,9})(?:-(\d{1,9})(?::(\d{1,9}))?)?")


def _size_list(text: str) -> Parsed:
    # 23.02+: -N takes a job size list, e.g. `1,4,8` or `1-15:4`.
    sizes: set[int] = set()
    pos = 0
    for item in text.split(","):
        m = _SIZE_ITEM.fullmatch(item.strip())
        if not m:
            return bad(text, f"{tick(item)} is not a node count, range or `first-last:step`",
                       pos, pos + len(item))
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        step = int(m.group(3)) if m.group(3) else 1
        if hi < lo or step == 0:
            return bad(text, f"{tick(item)} is not an ascending range with a positive step",
                       pos, pos + len(item))
        if len(sizes) + (hi - lo) // step > 100000:
            return bad(text, f"{tick(text)} lists too many node counts")
        sizes.update(range(lo, hi + 1, step))
        pos += len(item) + 1
    ordered = sorted(sizes)
    return Parsed(NodeCount(ordered[0], ordered[-1], ordered))


def parse_node_count(text: str, version: Version = NEWEST) -> Parsed:
    if ("," in text or ":" in text) and version >= NODE_SIZE_LISTS:
        return _size_list(text)
    if "," in text or ":" in text:
        return bad(text, f"{tick(text)} is a node size list, which needs Slurm 23.02 or "
                   "newer; use `N` or `min-max`")
    problems = []
    if "-" in text:
        dash = text.index("-")
        lo_text, hi_text = text[:dash], text[dash + 1:]
        lo, rest = _nodes_part(lo_text)
        if rest.strip():
            return bad(text, f"{tick(lo_text)} is not a valid node count", 0, dash)
        if lo < 0:
            lo = 1
            problems.append(problem(text, f"{tick(text)} has no minimum; Slurm reads it as "
                                    f"`1{text[dash:]}`", 0, dash + 1, rejected=False))
        hi, rest = _nodes_part(hi_text)
        if rest.strip():
            return bad(text, f"{tick(hi_text)} is not a valid node count", dash + 1)
    else:
        lo, rest = _nodes_part(text)
        hi = lo
        if rest.strip() or lo < 0:
            return bad(text, f"{tick(text)} is not a valid node count; use `N`, `min-max` "
                       "(optionally with a `k` or `m` suffix)", len(text) - len(rest))
    if hi != 0 and hi < lo:
        return bad(text, f"maximum node count {hi} is less than minimum {lo}")
    if lo == 0 and hi == 0:
        problems.append(problem(text, f"{tick(text)} asks for zero nodes; the job still "
                                "gets at least one", rejected=False))
    elif hi == 0 and "-" in text:
        problems.append(problem(text, f"maximum `0` in {tick(text)} means no maximum",
                                rejected=False))
    return Parsed(NodeCount(lo, hi), tuple(problems))


def parse_nice(text: str | None, version: Version = NEWEST) -> Parsed:
    """--nice[=adjustment]: strtoll() with no error checking, default 100."""
    if text is None:
        return Parsed(Nice(100))
    value, end = strtol(text)
    problems = []
    if value is None:
        value = 0
        problems.append(problem(text, f"{tick(text)} is not a number; sbatch silently "
                                "uses a nice value of 0", rejected=False))
    elif end != len(text):
        problems.append(problem(text, f"trailing {tick(text[end:])} is ignored; the nice "
                                f"value is {value}", end, len(text), rejected=False))
    if abs(value) > NICE_LIMIT:
        return bad(text, f"{tick(text)} is out of range; --nice must be within "
                   f"±{NICE_LIMIT}")
    if value < 0:
        problems.append(problem(text, "a negative --nice raises priority and is refused "
                                "by slurmctld unless you are an operator or admin",
                                rejected=False))
    return Parsed(Nice(value), tuple(problems))


def parse_priority(text: str, version: Version = NEWEST) -> Parsed:
    """--priority=value|TOP: strtoll() with no check of trailing text."""
    if text.lower() == "top":
        return Parsed(Priority(None, True))
    value, end = strtol(text)
    problems = []
    if value is None:
        value = 0
        problems.append(problem(text, f"{tick(text)} is not a number or `TOP`; sbatch "
                                "silently uses priority 0 (held)", rejected=False))
    elif end != len(text):
        problems.append(problem(text, f"trailing {tick(text[end:])} is ignored; the "
                                f"priority is {value}", end, len(text), rejected=False))
    if value < 0:
        return bad(text, f"{tick(text)} is negative; --priority must be 0 or more")
    if value >= NO_VAL:
        return bad(text, f"{tick(text)} is too large; --priority must be below {NO_VAL}")
    return Parsed(Priority(value), tuple(problems))
