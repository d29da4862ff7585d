"""How many hosts a ``--nodelist`` names, as sbatch counts them before the controller sees the job.

sbatch 22.05 raises the node count to the distinct hosts of ``--nodelist``
(``src/sbatch/opt.c``), and ``-m arbitrary`` gives one task per listed host,
repeats included; the views of the client (``sbatch_tasks``) and of the controller
(``slurmspec/cluster/fit/need.py``) count them here.
"""

from __future__ import annotations

import re
from slurmspec.lazy_regex import lazy_compile

_HOST = lazy_compile(r"([A-Za-z0-9_.-]*)(?:\[([0-9,\-]+)\])?([A-Za-z0-9_.-]*)")


def count_hosts(text: str | None) -> int | None:
    """Distinct hosts of a simple hostlist (``a,b``, ``n[01-04,07]``); None if unsure.

    Only one bracket group per name is understood; a ``/`` means sbatch reads
    the value as a file name, and anything else unusual gives None.
    """
    if not text or "/" in text:
        return None
    names: set[str] = set()
    for item in re.findall(r"[^,\[]*(?:\[[^\]]*\][^,\[]*)*", text):
        if not item:
            continue
        m = _HOST.fullmatch(item)
        if not m or (not m.group(1) and not m.group(2)):
            return None
        prefix, ranges, suffix = m.groups()
        if ranges is None:
            names.add(item)
            continue
        for part in ranges.split(","):
            lo, dash, hi = part.partition("-")
            if not lo.isdigit() or (dash and not hi.isdigit()):
                return None
            first, last = int(lo), int(hi) if dash else int(lo)
            if last < first or last - first > 100000 or len(names) > 100000:
                return None
            width = len(lo)
            names.update(f"{prefix}{n:0{width}d}{suffix}" for n in range(first, last + 1))
    return len(names) or None


def listed_hosts(raw: str | None) -> int | None:
    """Hosts of a ``-m arbitrary`` node list, repeats included (each is one task); None if unsure."""
    if not raw or "/" in raw:
        return None
    if "[" in raw:
        return count_hosts(raw)
    return len([h for h in raw.split(",") if h]) or None
