"""What the body exports for a launch to read: ``SRUN_CPUS_PER_TASK``, ``CUDA_VISIBLE_DEVICES``...

Only certain answers: an assignment inside ``if``/``case``/a function, one
later in the same loop, or an ``unset`` make the value unknown.
"""

from __future__ import annotations

import re

from slurmspec.body.model import Launch

DEVICE_VARS = frozenset({"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
                         "ZE_AFFINITY_MASK", "GPU_DEVICE_ORDINAL"})
_LOOPS = frozenset({"for", "while", "until", "select"})


def _unsets(script, name: str) -> bool:
    body = script.source[script.header_end:]
    return re.search(rf"\bunset\b[^\n;|&]*\b{re.escape(name)}\b", body) is not None


def env_value(script, launch: Launch, name: str) -> tuple[bool, str | None]:
    """(known, value) of environment variable ``name`` as ``launch`` sees it.

    ``(True, None)``: the script does not set it; ``(False, None)``: it cannot be
    told. The submitting shell's own environment is not known and not counted.
    """
    for assignment in reversed(launch.env):  # NAME=v srun ..., env NAME=v srun ...
        if assignment.name == name:
            return True, assignment.value
    mine = [a for a in script.body.exports if a.name == name and a.kind != "prefix"]
    if not mine:
        return True, None
    if _unsets(script, name):
        return False, None
    start = launch.statement_span.start
    before = [a for a in mine if a.span.start < start]
    if any(a.span.start > start for a in mine) and _LOOPS.intersection(launch.context):
        return False, None  # a later assignment in a loop reaches the next round
    outer = launch.context
    for a in before:
        if a.context and tuple(a.context) != tuple(outer[: len(a.context)]):
            return False, None  # set inside a branch or function the launch is not in
        if "function" in a.context or any(k in ("if", "case") for k in a.context if k not in outer):
            return False, None
    if "function" in outer and any(a.span.start > start for a in mine):
        return False, None  # a function runs when called: a later assignment may come first
    exported = False
    value = None
    for a in before:
        if a.kind == "export":
            exported = True
            if a.value is not None:
                value = a.value
        else:
            value = a.value
    if not exported:
        return True, None  # a plain shell variable: srun does not see it
    return True, value


def device_vars_set(script, launch: Launch) -> bool:
    """The script chooses the GPUs itself for this launch (``CUDA_VISIBLE_DEVICES`` and the like)."""
    for node in launch.walk():
        if any(a.name in DEVICE_VARS for a in node.env):
            return True
    return any(a.name in DEVICE_VARS for a in script.body.exports if a.kind != "prefix")
