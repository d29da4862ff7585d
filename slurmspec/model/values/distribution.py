"""Parse -m/--distribution task layouts.

Follows ``src/common/proc_args.c:verify_dist_type()``: ``plane=N`` alone, or
up to three ``:``-separated levels (node, socket, core) taken from a fixed
list of combinations, then an optional ``,pack``/``,nopack``; ``pack`` or
``nopack`` may also stand alone. Comparison is case-insensitive and ``*``
means the level's default.
"""

from __future__ import annotations

import attrs

from slurmspec.frozen import as_tuple, frozen

from ._base import Parsed
from ._common import INT_MAX, bad, problem, strtol, tick

HINT = ("use `block|cyclic|arbitrary|plane=N` optionally followed by `:block|cyclic|fcyclic` "
        "levels and `,pack` or `,nopack`")
_NODE = ("block", "cyclic")
_LOWER = ("block", "cyclic", "fcyclic")


@frozen
class Distribution:
    """``levels`` is (node[, socket[, core]]) after `*` expansion; empty if only a flag."""

    levels: tuple[str, ...] = attrs.field(converter=as_tuple)
    plane_size: int | None = None
    pack: bool | None = None


def parse_distribution(text: str, version: object = None) -> Parsed:
    if text[:5].lower() == "plane":
        # _parse_plane_dist(): only the part after the first '=' is checked.
        eq = text.find("=")
        if eq < 0:
            return bad(text, "`plane` needs a size, e.g. `plane=4` (or SLURM_DIST_PLANESIZE "
                       "in the environment)")
        size, end = strtol(text, eq + 1)
        if size is None or end != len(text) or not 0 < size <= INT_MAX:
            return bad(text, f"{tick(text[eq + 1:])} is not a valid plane size (a positive "
                       "whole number, and nothing may follow it)", eq + 1)
        problems = ()
        if eq != 5:
            problems = (problem(text, f"{tick(text[:eq])} is read as `plane`", 0, eq,
                                rejected=False),)
        return Parsed(Distribution(("plane",), size), problems)
    if not text or text[0] == ",":
        return bad(text, f"missing distribution; {HINT}")
    base, _, flag = text.partition(",")
    # strtok_r() on ':' skips empty fields, so `block::cyclic` is `block:cyclic`.
    tokens = [t for t in base.split(":") if t]
    if not tokens:
        return bad(text, f"missing distribution; {HINT}")
    if len(tokens) > 3:
        return bad(text, f"{tick(base)} has more than three levels; {HINT}", 0, len(base))
    levels: list[str] = []
    socket_default = None
    for i, token in enumerate(tokens):
        if token == "*":
            if i == 0:
                token = "block"
            elif i == 1:
                token = socket_default = "cyclic"
            else:
                token = socket_default or "cyclic"
        elif i == 1:
            socket_default = token
        levels.append(token.lower())
    pack = None
    joined = ":".join(levels)
    if joined == "hostfile":
        levels = ["arbitrary"]
    elif joined in ("pack", "nopack") and len(levels) == 1:
        pack, levels = joined == "pack", []
    elif not _valid_levels(levels):
        return bad(text, f"{tick(base)} is not a known distribution; {HINT}", 0, len(base))
    problems = []
    if flag:
        if flag.lower() not in ("pack", "nopack"):
            return bad(text, f"{tick(flag)} is not `pack` or `nopack`", len(base) + 1)
        if pack is not None and (flag.lower() == "pack") != pack:
            # Both flag bits end up set; sbatch 22.05.8 only logs "Unknown
            # distribution flag value" and submits anyway.
            problems.append(problem(text, "`pack` and `nopack` together contradict each "
                                    "other", rejected=False))
        pack = flag.lower() == "pack"
    elif "," in text:
        problems.append(problem(text, "trailing `,` is ignored", len(base), len(text),
                                rejected=False))
    return Parsed(Distribution(levels, None, pack), tuple(problems))


def _valid_levels(levels: list[str]) -> bool:
    if levels == ["arbitrary"]:
        return True
    if not levels or levels[0] not in _NODE:
        return False
    return all(level in _LOWER for level in levels[1:])
