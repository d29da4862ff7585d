"""SB248: `$SLURM_JOB_NODELIST` used where a single host name is needed.

The batch step's `SLURM_JOB_NODELIST` (and `SLURM_NODELIST`) is the job's
compressed host list, e.g. `gpu[01-04]` (`src/common/env.c:env_array_for_batch_job()`);
`scontrol show hostnames` expands it.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from slurmspec.body.index import body_index
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.request_facts import has_body, node_bounds

_NODELIST_VARS = frozenset({"SLURM_JOB_NODELIST", "SLURM_NODELIST"})
_HOST_NAME = re.compile(r"(ADDR|HOST|MASTER|HEAD|SERVER|ENDPOINT|IP)", re.I)
_HOST_OPTIONS = frozenset({"master-addr", "main-process-ip", "rdzv-endpoint", "host", "hosts", "H"})
_HOST_COMMANDS = frozenset({"ssh", "ping", "nc", "scp", "rsync", "curl", "telnet"})
_EXPANDERS = ("scontrol", "hostlist", "nodeset", "hostname")


@rule("SB248", "nodelist-as-hostname", Severity.WARNING, Outcome.WRONG)
def nodelist_as_hostname(ctx: Context) -> None:
    """
        ## What it does
        Finds `$SLURM_JOB_NODELIST` (or `$SLURM_NODELIST`) used as a host name: in a variable
        whose name says host or address (`MASTER_ADDR`, `HEAD_NODE`, `*_HOST`, `*_IP`...), in a
        launcher's host option (`--master_addr`, `--rdzv_endpoint`, `--main_process_ip`,
        `--host`), or after `ssh`/`ping`. Uses that go through `scontrol show hostnames`,
        `hostlist` or `nodeset` are fine. Jobs limited to one node (`-N 1`) are skipped; jobs
        without `--nodes` get `info`.

        ## Why is this bad?
        The variable is a compressed host list such as `gpu[01-04]`, which no resolver knows:
        the rendezvous cannot connect.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4
        export MASTER_ADDR=$SLURM_JOB_NODELIST
        srun python train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4
        export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
        srun python train.py
        ```

        ## Slurm versions
        All.

        ## References
        - `man scontrol`, `show hostnames`
        - `src/common/env.c:env_array_for_batch_job()`, which sets `SLURM_JOB_NODELIST` to the job's host list
    """
    if not has_body(ctx):
        return
    bounds = node_bounds(ctx)
    if bounds is not None and bounds[1] <= 1:
        return  # one node: the list is a single host name
    body = ctx.shared(body_index)
    host_values = _host_values(ctx)
    starts = [v[0] for v in host_values]
    for ref in body.refs:
        if ref.name not in _NODELIST_VARS:
            continue
        command = body.command_at(ref.start)
        if command is not None and command.name.startswith(_EXPANDERS):
            continue
        used = body.first_word_at(ref.start) in _HOST_COMMANDS
        i = bisect_right(starts, ref.start) - 1
        for start, end, value in host_values[max(0, i - 4):i + 1]:
            if start <= ref.start < end and not any(x in value for x in _EXPANDERS):
                used = True
        if not used:
            continue
        spans = bounds is not None  # without --nodes, only a guess: `info`
        when = "this job can span several nodes" if spans else "with more than one node"
        ctx.report(
            "SB248", ctx.script.span(ref.start, ref.end),
            f"`${ref.name}` is a compressed host list such as `gpu[01-04]`, not a host name;"
            f" {when} it cannot be resolved. Take the first host with"
            f" `$(scontrol show hostnames \"${ref.name}\" | head -n 1)`",
            severity=None if spans else Severity.INFO, outcome=None if spans else Outcome.ADVICE,
        )


def _host_values(ctx: Context) -> list[tuple[int, int, str]]:
    """(start, end, text) of the values used as a host: host-like variables and launcher options."""
    found = []
    for assignment in ctx.script.body.exports:
        if _HOST_NAME.search(assignment.name) and assignment.value_span is not None:
            found.append((assignment.value_span.start, assignment.value_span.end, assignment.value or ""))
    for launch in ctx.script.body.all_launches():
        for option in launch.options:
            if option.name in _HOST_OPTIONS and option.value_span is not None:
                found.append((option.value_span.start, option.value_span.end, option.value or ""))
    found.sort()
    return found
