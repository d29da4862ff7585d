"""Facts about the job request and the body shared by the output and job-environment traps (SB230–SB250).

The effective ``--output``/``--error``/``--input`` settings (``file_settings``),
how a directive is shown in a message (``show``), whether the job may span
several nodes or tasks (``may_span``, ``node_bounds``), how it asks for GPUs
(``gpu_request``, ``gpus_per_node``), and the variables the body sets itself
(``assigned``).
"""

from __future__ import annotations

from typing import Iterator

from slurmspec.check.context import Context
from slurmspec.model.script import Directive

FILE_OPTIONS = ("output", "error", "input")


def has_body(ctx: Context) -> bool:
    """True when the script has anything after its header (the body rules look at nothing else)."""
    return ctx.script.header_end < len(ctx.script.source)


def file_settings(ctx: Context) -> Iterator[tuple]:
    """(component, setting) for each effective --output/--error/--input, once per directive."""
    seen = set()
    for component in ctx.script.components:
        for name in FILE_OPTIONS:
            setting = component.request.get(name)
            if setting is None or id(setting.directive) in seen:
                continue
            seen.add(id(setting.directive))
            yield component, setting


def show(directive: Directive) -> str:
    """The directive as written, cut to 60 characters."""
    raw = directive.raw
    return raw if len(raw) <= 60 else raw[:57] + "..."


def _assigned_names(ctx: Context) -> frozenset[str]:
    return frozenset(a.name for a in ctx.script.body.exports)


def assigned(ctx: Context, name: str) -> bool:
    """True when the body sets variable ``name`` itself (export, assignment, command prefix)."""
    return name in ctx.shared(_assigned_names)


def gpu_request(ctx: Context) -> str | None:
    """How the job asks for GPUs (the option text), or None."""
    for component in ctx.script.components:
        request = component.request
        for name in ("gpus", "gpus-per-node", "gpus-per-task", "gpus-per-socket"):
            setting = request.get(name)
            if setting is not None:
                return f"--{name}={setting.raw}"
        for name in ("gres", "tres-per-task"):
            setting = request.get(name)
            if setting is None:
                continue
            items = getattr(setting.value, "items", None)
            if items is not None:
                if any(getattr(item, "name", None) == "gpu" for item in items):
                    return f"--{name}={setting.raw}"
            elif isinstance(setting.raw, str) and "gpu" in setting.raw:
                return f"--{name}={setting.raw}"
    return None


def gpus_per_node(ctx: Context) -> int | None:
    """GPUs per node of the first component, when written as a plain count."""
    request = ctx.script.request
    value = request.value("gpus-per-node")
    total = getattr(value, "total", None)
    if isinstance(total, int) and not isinstance(value, str):
        return total
    value = request.value("gres")
    items = getattr(value, "items", None)
    if items is not None and not isinstance(value, str):
        counts = [item.count for item in items if getattr(item, "name", None) == "gpu"]
        if counts and all(isinstance(c, int) for c in counts):
            return sum(counts)
    return None


def _count_of(request, name: str) -> int | None:
    value = request.value(name)
    count = getattr(value, "value", value)
    return count if isinstance(count, int) and not isinstance(count, bool) else None


def may_span(ctx: Context) -> tuple[bool, bool]:
    """(the job may have several nodes, the job may have several tasks), from the header.

    Without `--nodes` a job of one task is on one node; one of several tasks may be spread.
    """
    request = ctx.script.request
    bounds = node_bounds(ctx)
    tasks = [_count_of(request, n) for n in ("ntasks", "ntasks-per-node", "ntasks-per-gpu")]
    many_tasks = any(t is not None and t > 1 for t in tasks) or any(
        request.has(n) for n in ("ntasks-per-socket", "ntasks-per-core", "gpus-per-task"))
    if len(ctx.script.components) > 1:
        return True, True
    if bounds is not None:
        multi_node = bounds[1] > 1
    else:
        multi_node = many_tasks
    return multi_node, multi_node or many_tasks


def node_bounds(ctx: Context) -> tuple[int, int] | None:
    """(fewest, most) nodes `--nodes` allows (``2**31`` for no maximum), or None without `--nodes`."""
    value = ctx.script.request.value("nodes")
    minimum = getattr(value, "minimum", None)
    maximum = getattr(value, "maximum", None)
    if not isinstance(minimum, int):
        return None
    sizes = getattr(value, "sizes", ()) or ()
    top = max([minimum, maximum or 0, *sizes]) if maximum != 0 else 2**31
    return minimum, top
