"""What the body exports for a launch to read: ``SRUN_CPUS_PER_TASK``, ``CUDA_VISIBLE_DEVICES``...

Only certain answers: an assignment inside ``if``/``case``/a function, one
later in the same loop, or an ``unset`` make the value unknown.

Cost: the script's assignments are grouped by name once (``_EnvIndex``, O(assignments +
body)); then each question is O(log n) plus one check per distinct construct the
earlier assignments of that name sit in -- not a walk over every assignment, which
made a body of n ``export X=..; srun ..`` lines cost O(n²).
"""

from __future__ import annotations

import re
from bisect import bisect_left

from slurmspec.body.model import EnvAssignment, Launch
from slurmspec.kinds import AssignmentKind
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.syntax.memo import per_script

DEVICE_VARS = frozenset({"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
                         "ZE_AFFINITY_MASK", "GPU_DEVICE_ORDINAL"})
_LOOPS = frozenset({"for", "while", "until", "select"})
_UNSET = re.compile(r"\bunset\b([^\n;|&]*)")
_WORD = lazy_compile(r"\w+")
# Distinct enclosing constructs of one variable's earlier assignments looked at per launch; past
# this many the value is "cannot be told" (no real script sets one variable in 256 different places).
MAX_CONTEXTS = 256


class _Name:
    """The assignments of one variable (prefix assignments excluded), in file order, with running results."""

    __slots__ = ("starts", "exported", "values", "contexts")

    def __init__(self, assignments: list[EnvAssignment]) -> None:
        self.starts = [a.span.start for a in assignments]
        # exported[k] / values[k]: what the first k assignments leave (see env_value's last step).
        self.exported, self.values = [False], [None]
        for a in assignments:
            if a.kind is AssignmentKind.EXPORT:
                self.exported.append(True)
                self.values.append(a.value if a.value is not None else self.values[-1])
            else:
                self.exported.append(self.exported[-1])
                self.values.append(a.value)
        # Each distinct non-empty context, with the start of the first assignment made in it.
        first: dict[tuple[str, ...], int] = {}
        for a in assignments:
            if a.context:
                first.setdefault(tuple(a.context), a.span.start)
        self.contexts = sorted(((start, context) for context, start in first.items()), key=lambda item: item[0])


class _EnvIndex:
    def __init__(self, script) -> None:
        grouped: dict[str, list[EnvAssignment]] = {}
        device = False
        for a in script.body.exports:  # in file order
            if a.kind is not AssignmentKind.PREFIX:
                grouped.setdefault(a.name, []).append(a)
                device = device or a.name in DEVICE_VARS
        self.names = {name: _Name(found) for name, found in grouped.items()}
        self.device_vars = device
        self.any_named = frozenset(a.name for a in script.body.exports)
        body = script.source[script.header_end:]
        # The names an `unset` mentions: a word of the text after it, up to the end of its command.
        self.unset = frozenset(word for m in _UNSET.finditer(body) for word in _WORD.findall(m.group(1)))


_index = per_script(_EnvIndex)


def sets_variable(script, name: str) -> bool:
    """Some assignment of the body (``export``, plain or a command prefix) sets ``name``."""
    return name in _index(script).any_named


def env_value(script, launch: Launch, name: str) -> tuple[bool, str | None]:
    """(known, value) of environment variable ``name`` as ``launch`` sees it.

    ``(True, None)``: the script does not set it; ``(False, None)``: it cannot be
    told. The submitting shell's own environment is not known and not counted.
    """
    for assignment in reversed(launch.env):  # NAME=v srun ..., env NAME=v srun ...
        if assignment.name == name:
            return True, assignment.value
    index = _index(script)
    mine = index.names.get(name)
    if mine is None:
        return True, None
    if name in index.unset:
        return False, None
    start = launch.statement_span.start
    count = bisect_left(mine.starts, start)  # the assignments before the launch
    later = mine.starts[-1] > start
    if later and _LOOPS.intersection(launch.context):
        return False, None  # a later assignment in a loop reaches the next round
    outer = launch.context
    for checked, (first, context) in enumerate(mine.contexts):
        if first >= start:
            break
        if checked >= MAX_CONTEXTS:
            return False, None
        if context != tuple(outer[: len(context)]):
            return False, None  # set inside a branch or function the launch is not in
        if "function" in context or any(k in ("if", "case") for k in context if k not in outer):
            return False, None
    if "function" in outer and later:
        return False, None  # a function runs when called: a later assignment may come first
    if not mine.exported[count]:
        return True, None  # a plain shell variable: srun does not see it
    return True, mine.values[count]


def device_vars_set(script, launch: Launch) -> bool:
    """The script chooses the GPUs itself for this launch (``CUDA_VISIBLE_DEVICES`` and the like)."""
    for node in launch.walk():
        if any(a.name in DEVICE_VARS for a in node.env):
            return True
    return _index(script).device_vars
