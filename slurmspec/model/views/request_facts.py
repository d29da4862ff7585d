"""What the output and job-environment traps (SB230–SB256) ask of the header and the body.

The effective ``--output``/``--error``/``--input`` settings (``file_settings``),
whether the job may span several nodes or tasks (``may_span``, ``node_bounds``),
how it asks for GPUs (``gpu_request``, ``gpus_per_node``, ``visible_gpus_per_node``),
and the variables the body sets itself (``assigned``). Read from the first
component's request unless said otherwise; a value that did not parse counts as
not given (other rules report it).
"""

from __future__ import annotations

from typing import Iterator

from slurmspec.model.views.run import LintRun
from slurmspec.model.views.values import count, gres_items, node_count, tres_items

FILE_OPTIONS = ("output", "error", "input")


def has_body(ctx: LintRun) -> bool:
    """True when the script has anything after its header (the body rules look at nothing else)."""
    return ctx.script.header_end < len(ctx.script.source)


def file_settings(ctx: LintRun) -> Iterator[tuple]:
    """(component, setting) for each effective --output/--error/--input, once per directive."""
    seen = set()
    for component in ctx.script.components:
        for name in FILE_OPTIONS:
            setting = component.request.get(name)
            if setting is None or id(setting.directive) in seen:
                continue
            seen.add(id(setting.directive))
            yield component, setting


def _assigned_names(ctx: LintRun) -> frozenset[str]:
    return frozenset(a.name for a in ctx.script.body.exports)


def assigned(ctx: LintRun, name: str) -> bool:
    """True when the body sets variable ``name`` itself (export, assignment, command prefix)."""
    return name in ctx.shared(_assigned_names)


def gpu_request(ctx: LintRun) -> str | None:
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
            items = gres_items(setting) if name == "gres" else tres_items(setting)
            if items is not None:
                if any(item.name == "gpu" for item in items):
                    return f"--{name}={setting.raw}"
            elif isinstance(setting.raw, str) and "gpu" in setting.raw:
                return f"--{name}={setting.raw}"
    return None


def gpus_per_node(ctx: LintRun) -> int | None:
    """GPUs per node of the first component, when written as a plain count (``--gpus-per-node``, ``--gres``)."""
    request = ctx.script.request
    items = gres_items(request.get("gpus-per-node"))
    if items is not None:
        return sum(item.count for item in items)
    counts = [item.count for item in gres_items(request.get("gres")) or () if item.name == "gpu"]
    return sum(counts) if counts else None


def visible_gpus_per_node(ctx: LintRun) -> int | None:
    """GPUs per node: ``--gpus-per-node``/``--gres``, else ``--gpus`` on a one-node job."""
    per_node = gpus_per_node(ctx)
    if per_node is not None:
        return per_node
    request = ctx.script.request
    nodes = node_count(request.get("nodes"))
    if request.value("nodes") is not None and not (nodes is not None and nodes.minimum == 1 and nodes.maximum == 1):
        return None
    items = gres_items(request.get("gpus"))
    return sum(item.count for item in items) if items else None


def may_span(ctx: LintRun) -> tuple[bool, bool]:
    """(the job may have several nodes, the job may have several tasks), from the header.

    Without `--nodes` a job of one task is on one node; one of several tasks may be spread.
    """
    request = ctx.script.request
    bounds = node_bounds(ctx)
    tasks = [count(request.get(n)) for n in ("ntasks", "ntasks-per-node", "ntasks-per-gpu")]
    many_tasks = any(t is not None and t > 1 for t in tasks) or any(
        request.has(n) for n in ("ntasks-per-socket", "ntasks-per-core", "gpus-per-task"))
    if len(ctx.script.components) > 1:
        return True, True
    if bounds is not None:
        multi_node = bounds[1] > 1
    else:
        multi_node = many_tasks
    return multi_node, multi_node or many_tasks


def node_bounds(ctx: LintRun) -> tuple[int, int] | None:
    """(fewest, most) nodes `--nodes` allows (``2**31`` for no maximum), or None without `--nodes`."""
    nodes = node_count(ctx.script.request.get("nodes"))
    if nodes is None:
        return None
    top = max([nodes.minimum, nodes.maximum or 0, *nodes.sizes]) if nodes.maximum != 0 else 2**31
    return nodes.minimum, top
