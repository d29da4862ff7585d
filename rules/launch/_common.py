"""Message helpers the launch rules share: how a launch, a count or a source reads in a finding.

The facts they compare (the steps, their shapes, the launcher and ``python`` steps)
are ``slurmspec/model/views/launch_steps.py``.
"""

from __future__ import annotations

from slurmspec.body.model import Launch
from slurmspec.body.wrappers import basename
from slurmspec.kinds import LaunchKind
from slurmspec.model.job.types import Component


def program(launch: Launch) -> str:
    """How a ``python`` run is called in messages: `python train.py`, `python -m pkg`."""
    cmd = basename(launch.command)
    if launch.kind == LaunchKind.PYTHON and launch.program:
        return f"{cmd} -m {launch.program}" if launch.has("module") else f"{cmd} {launch.program}"
    return cmd


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def idle(n: int, what: str = "") -> str:
    """``3 GPUs stay idle`` / ``1 GPU stays idle`` / ``1 of them stays idle``."""
    noun = what or ("GPU" if n == 1 else "GPUs")
    return f"{n} {noun} {'stays' if n == 1 else 'stay'} idle"


def option_span(launch: Launch, *names: str):
    """The span of the last of ``names`` on the launch line, else of its command."""
    for opt in reversed(launch.options):
        if opt.name in names:
            return opt.span
    return launch.command_span


def nodes_note(geom: Component) -> tuple[str, ...]:
    return (f"the node count comes from {geom.node_source}",) if geom.node_source else ()


def gpu_note(geom: Component) -> tuple[str, ...]:
    return (f"the GPUs per node come from {geom.gpu_source}",) if geom.gpu_source else ()


def task_note(geom: Component) -> tuple[str, ...]:
    return (f"the tasks come from {geom.task_source}",) if geom.task_source else ()
