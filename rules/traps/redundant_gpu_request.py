"""SB214: the same GPUs requested twice (`--gres=gpu` beside `--gpus-per-node`, or `--gpus`).

Before 26.05 sbatch keeps both `--gres=gpu:N` and `--gpus-per-node=M`; with
different counts the `--gres` one is allocated (probed on 22.05.8), so the
other is silently ignored. From 26.05 the pair is refused
(`--gpus-per-node and --gres=gpu are mutually exclusive.`), reported by the
reject family. A `--gpus` equal to the per-node count times a fixed node count
is advice: two options for one request drift apart at the next edit.
"""

from __future__ import annotations

from slurmspec.fix import build
from slurmspec.gates import GRES_WITH_GPUS_PER_NODE_REFUSED
from slurmspec.kinds import Fixability, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.values.counts import NodeCount
from slurmspec.model.values.gres import GpuRequest, GresItem, GresRequest
from slurmspec.rules.traps._header import option_span, own, shown


@rule("SB214", "redundant-gpu-request", Severity.WARNING, Outcome.WRONG, fix=Fixability.SOMETIMES)
def redundant_gpu_request(ctx: Context) -> None:
    """
        ## What it does
        Finds GPUs requested twice: `--gres=gpu:N` together with `--gpus-per-node` (before
        26.05), or `--gpus` that only repeats `--gres=gpu`/`--gpus-per-node` times the nodes.

        ## Why is this bad?
        Two requests for the same GPUs drift apart at the next edit. With different counts in
        `--gres=gpu` and `--gpus-per-node`, Slurm keeps both and allocates the `--gres` count
        (probed on 22.05), silently ignoring `--gpus-per-node`; Slurm 26.05 refuses the pair.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --gpus=4
        #SBATCH --gres=gpu:4
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu:4
        srun ./app
        ```

        ## Slurm versions
        `--gres=gpu` with `--gpus-per-node` is reported here before 26.05 (refused from
        26.05); the `--gpus` duplicates in all versions.

        ## References
        - `man sbatch`, `--gpus`, `--gpus-per-node` and `--gres`
        - `src/common/slurm_opt.c:_validate_gres_vs_gpus_per_node()` (26.05): `--gpus-per-node
          and --gres=gpu are mutually exclusive.`
    """
    for component in ctx.script.components:
        _check_gpus(ctx, component.request)


def _gpu_items(setting) -> list[GresItem]:
    """The ``gpu`` items of a ``--gres`` or ``--gpus-per-node`` setting; none when it did not parse."""
    if setting is None:
        return []
    value = setting.value_as(GresRequest) or setting.value_as(GpuRequest)
    return [item for item in value.items if item.name == "gpu"] if value is not None else []


def _fixed_nodes(request) -> int | None:
    nodes = request.value_as("nodes", NodeCount)
    if nodes is None:
        return 1 if not request.has("nodes") else None
    if nodes.minimum and nodes.minimum == nodes.maximum:
        return nodes.minimum
    return None


def _check_gpus(ctx: Context, request) -> None:
    gres = own(request, "gres")
    per_node = own(request, "gpus-per-node")
    total = own(request, "gpus")
    gres_gpus = _gpu_items(gres)
    gres_count = sum(item.count for item in gres_gpus)
    gres_types = {item.type for item in gres_gpus}
    nodes = _fixed_nodes(request)

    if gres_gpus and per_node is not None and ctx.version < GRES_WITH_GPUS_PER_NODE_REFUSED:
        gpn_items = _gpu_items(per_node)
        gpn_count = sum(item.count for item in gpn_items)
        gpn_types = {item.type for item in gpn_items}
        if gpn_items and (None in gres_types) == (None in gpn_types):  # mixed: refused
            later = max(gres.directive, per_node.directive, key=lambda d: d.span.start)
            both = f"`{shown(gres.directive)}` and `{shown(per_node.directive)}`"
            if gpn_count == gres_count and gpn_types == gres_types:
                outcome = Outcome.ADVICE  # the same GPUs: the job runs as meant
                message = (f"{both} ask for the same GPUs twice; keep one of them (Slurm 26.05"
                           " refuses `--gres=gpu` together with `--gpus-per-node`)")
            else:
                outcome = Outcome.WRONG
                message = (f"{both} ask for different GPU counts per node; Slurm keeps both"
                           f" requests and allocates the `--gres` one ({gres_count}),"
                           " ignoring `--gpus-per-node`; keep only one")
            ctx.report("SB214", option_span(ctx.script, later), message, outcome=outcome,
                       fix=build.drop_gres_same_as_gpus_per_node(ctx.script, gres, per_node))
    if total is not None and nodes is not None:
        total_gpus = total.value_as(GpuRequest)
        total_count = None if total_gpus is None else total_gpus.total
        for other, count in ((gres, gres_count if gres_gpus else None),
                             (per_node, sum(i.count for i in _gpu_items(per_node))
                              if per_node is not None else None)):
            if other is None or not count or total_count is None:
                continue
            if count * nodes == total_count:
                later = max(total.directive, other.directive, key=lambda d: d.span.start)
                ctx.report(
                    "SB214", option_span(ctx.script, later),
                    f"`{shown(total.directive)}` and `{shown(other.directive)}` request the"
                    " same GPUs twice; keep one of them (two GPU options invite"
                    " inconsistent edits, which sbatch refuses)",
                    outcome=Outcome.ADVICE,
                )
                break
