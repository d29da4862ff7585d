"""SB129, SB130: `--distribution=arbitrary` without a node list, or with `--nodes`.

One pass over the component's distribution reports both. The arbitrary
distribution places task *i* on the *i*-th host of the node list:
``src/common/slurm_opt.c:slurm_opt_create_job_desc()`` refuses it without one
("With Arbitrary distribution you need to specify a nodelist or hostfile with
the -w option"), and from 23.11 ``_validate_arbitrary()`` refuses an explicit
node count beside it ("--nodes is incompatible with --distribution=arbitrary").
"""

from __future__ import annotations

from slurmspec.gates import NODES_WITH_ARBITRARY_REFUSED
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.values.distribution import Distribution
from slurmspec.rules.reject._settings import first_occurrence, where


@rule("SB129", "arbitrary-distribution-without-nodelist", Severity.ERROR, Outcome.REFUSED)
def arbitrary_distribution_without_nodelist(ctx: Context) -> None:
    """
        ## What it does
        Finds `--distribution=arbitrary` (`-m arbitrary`) without `--nodelist` or `--nodefile`.

        ## Why is this bad?
        The arbitrary distribution places task *i* on the *i*-th host of the node list; without
        one sbatch refuses the job (`With Arbitrary distribution you need to specify a nodelist
        or hostfile with the -w option`).

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=3
        #SBATCH --distribution=arbitrary
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=3
        #SBATCH --distribution=arbitrary
        #SBATCH --nodelist=node01,node01,node02
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--distribution` ("arbitrary")
        - `src/common/slurm_opt.c:slurm_opt_create_job_desc()`
    """
    ctx.shared(_check_arbitrary_distribution)


@rule("SB130", "nodes-with-arbitrary-distribution", Severity.ERROR, Outcome.REFUSED)
def nodes_with_arbitrary_distribution(ctx: Context) -> None:
    """
        ## What it does
        Finds `--nodes` (`-N`) together with `--distribution=arbitrary`, on Slurm 23.11 and newer.

        ## Why is this bad?
        With the arbitrary distribution the node list decides the nodes. From 23.11 sbatch
        refuses an explicit node count next to it: `--nodes is incompatible with
        --distribution=arbitrary`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --distribution=arbitrary
        #SBATCH --nodelist=node01,node01,node02
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --distribution=arbitrary
        #SBATCH --nodelist=node01,node01,node02
        srun ./app
        ```

        ## Slurm versions
        23.11 and newer (22.05–23.02 accept the pair).

        ## References
        - `man sbatch`, `--nodes`, `--distribution` ("arbitrary")
        - `src/common/slurm_opt.c:_validate_arbitrary()` (23.11)
    """
    ctx.shared(_check_arbitrary_distribution)


def _is_arbitrary(setting) -> bool:
    distribution = setting.value_as(Distribution)
    return distribution is not None and distribution.levels[:1] == ("arbitrary",)


def _check_arbitrary_distribution(ctx: Context) -> None:
    # -m arbitrary needs -w or a node file (checked against sbatch 22.05.8);
    # from 23.11 -N is refused beside it too.
    for component in ctx.script.components:
        request = component.request
        dist = request.get("distribution")
        if dist is None or not _is_arbitrary(dist):
            continue
        hosts = [request.get(n) for n in ("nodelist", "nodefile")]
        if not any(h is not None and (h.raw or "").strip() for h in hosts):
            ctx.report(
                "SB129", dist.directive.span,
                f"`--distribution={dist.raw}` places tasks on the hosts of a node list, but"
                " there is none; sbatch refuses the job (\"With Arbitrary distribution you need"
                " to specify a nodelist or hostfile with the -w option\"). Add `--nodelist`"
                " (one host per task) or pick another distribution",
            )
        nodes = request.get("nodes")
        if nodes is not None and ctx.version >= NODES_WITH_ARBITRARY_REFUSED:
            ctx.report(
                "SB130", first_occurrence(nodes).span,
                f"`--nodes` cannot be combined with `--distribution={dist.raw}`"
                f" ({where(dist.directive)}) on Slurm 23.11 and newer; sbatch stops with"
                " \"--nodes is incompatible with --distribution=arbitrary\". Drop `--nodes`:"
                " the node list decides the nodes",
            )
