"""SB463: CPUs or memory per GPU outside the bounds the site's policy sets for the GPU model.

Sites size each GPU model's share of a node and cap (or fix) the CPUs and
memory a job may take per GPU (Slurm itself has ``MaxCPUsPerGPU`` and
``MaxMemPerGPU`` per partition only, ``man slurm.conf``); the policy's
``[policy.gpu.MODEL]`` tables carry the bounds (``*``: any model).
The CPUs per GPU are ``--cpus-per-gpu``, else the CPUs per node over the GPUs
per node; memory per GPU is ``--mem-per-gpu``, else the memory per node over
the GPUs per node. A job that sets no CPU (or memory) option gets the site's
default, which is not judged.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.cluster._policy import consequence, policies, verdict

_CPU_OPTIONS = ("cpus-per-gpu", "cpus-per-task", "ntasks-per-node", "ntasks", "mincpus")


def _models(ctx: Context, ask) -> tuple[str | None, ...]:
    """The GPU models the job may get: the one it names, else those of the nodes it may run on."""
    if ask.gpu_type is not None or ctx.cluster is None:
        return (ask.gpu_type,)
    from slurmspec.cluster.fit.waste import candidates
    types = {g.type for shape in candidates(ctx, ask) for g in shape.gres if g.name == "gpu"}
    return tuple(sorted(types, key=str)) or (None,)


def _outside(amount: float, bound) -> bool:
    return (bound.minimum is not None and amount < bound.minimum) or (
        bound.maximum is not None and amount > bound.maximum)


@rule("SB463", "policy-per-gpu-limit", Severity.ERROR, Outcome.REFUSED)
def policy_per_gpu_limit(ctx: Context) -> None:
    """
    ## What it does
    With a site policy that bounds CPUs or memory per GPU for a GPU model
    (`[policy.gpu.MODEL]`), finds a GPU job whose CPUs or memory per GPU fall outside the
    bounds, for the model it names (or, untyped, for every model it could get).

    ## Why is this bad?
    The site's submit plugin refuses the job (or, with `enforced = false`, the staff ask for
    the share): a node's CPUs and memory are sized for its GPUs, and a job that takes more
    than its GPUs' share keeps other jobs off the node's other GPUs.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gres=gpu:v100:1
    #SBATCH --cpus-per-task=16
    #SBATCH --account=project42
    #SBATCH --time=04:00:00
    python train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gres=gpu:v100:1
    #SBATCH --cpus-per-task=4
    #SBATCH --account=project42
    #SBATCH --time=04:00:00
    python train.py
    ```

    ## Slurm versions
    All. Needs a site policy; silent without one (docs/policy.md). The example's policy:
    `[policy.gpu.v100] cpus-per-gpu = { max = 8 }`.

    ## References
    - `man slurm.conf`, `MaxCPUsPerGPU`, `MaxMemPerGPU` (partition), `JobSubmitPlugins`
    - docs/policy.md
    """
    found = policies(ctx)
    if not found:
        return
    from slurmspec.cluster.fit.waste import asks, cpu_setting, gib, memory_setting
    for ask in asks(ctx):
        if not ask.gpus:
            continue
        request = ask.request
        cpus = ask.cpus if any(request.has(name) for name in _CPU_OPTIONS) else None
        memory = ask.memory_mb
        if memory == 0:
            memory = None  # all of a node's memory: judged by SB451 against the node, not here
        for policy in found:
            for what, amount, setting, unit, bound_of in (
                ("cpus_per_gpu", None if cpus is None else cpus / ask.gpus, cpu_setting(request), "CPUs",
                 lambda rule_: rule_.cpus_per_gpu),
                ("mem_per_gpu", None if memory is None else memory / ask.gpus, memory_setting(request), "of memory",
                 lambda rule_: rule_.mem_per_gpu),
            ):
                if amount is None or setting is None:
                    continue
                rules = [policy.gpu_rule(model) for model in _models(ctx, ask)]
                bounds = [bound_of(r) if r is not None else None for r in rules]
                if not bounds or any(b is None or not _outside(amount, b) for b in bounds):
                    continue
                rule_, bound = rules[0], bounds[0]
                shown = f"{amount:g}" if unit == "CPUs" else gib(int(amount))
                model = f"`{rule_.model}` GPU" if rule_.model != "*" else "GPU"
                key = f"{rule_.key}.{what.replace('_', '-')}"
                ctx.report(
                    "SB463", setting.directive.span,
                    f"the job asks for {shown} {unit} per GPU; the site allows {bound.text} per {model}"
                    f" ({policy.where(key)}); {consequence(policy)}",
                    **verdict(policy),
                )
