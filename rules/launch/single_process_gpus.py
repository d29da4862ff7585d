"""SB310: two or more GPUs per node driven by a single `python` process per node.

A job step runs one task per node unless asked for more (`man srun`,
`--ntasks`: "The default is one task per node"), and one process drives one GPU
unless the program starts its own workers. The rule keeps quiet whenever
anything in the script suggests that it does.
"""

from __future__ import annotations

import re

from slurmspec.body.programs import TRIVIAL_COMMANDS
from slurmspec.body.wrappers import basename
from slurmspec.kinds import Fixability, LaunchKind, LineKind, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.views.launch_steps import python_steps, repeated, steps
from slurmspec.rules.launch._common import gpu_note, idle, program, task_note
from slurmspec.rules.launch._per_gpu_fix import one_task_per_gpu

_SPAWNING = frozenset({LaunchKind.TORCHRUN, LaunchKind.ACCELERATE, LaunchKind.DEEPSPEED, LaunchKind.HOROVODRUN, LaunchKind.MPIRUN})
# Arguments or programs that hand a GPU/process count to the program, or name a
# framework that starts its own workers: the program may use every GPU itself.
_GPU_HINT = lazy_compile(
    r"gpu|device|nproc|world.?size|parallel|distributed|ddp|fsdp|strategy|accelerat|launcher|"
    r"tp.?size|tensor|pipeline|num.?proc|n.?procs|vllm|sglang|\bray\b|deepspeed|megatron|horovod|"
    r"spawn|multi.?process|jax|\bcuda\b|num.?workers.?per|lightning|hydra/launcher",
    re.IGNORECASE,
)
# Words in the body that show the work is multi-GPU aware: frameworks that start their own
# workers or drive every visible GPU from one process, and variables telling the program
# how many GPUs it has. Lower case, searched case-insensitively (see _mentions_gpu_work).
# Every alternative starts with a letter or "-", so the regex engine skips ahead to the next
# such character; a leading `\b` would turn that off and make the search four times slower.
# `j(?<!\wj)ax` is `\bjax` written so: after the `j`, the character before it is no word character.
_SCRIPT_HINT = lazy_compile(
    r"torch\.distributed|distributeddataparallel|dataparallel|deepspeed|megatron|accelerate|horovod|"
    r"vllm|sglang|j(?<!\wj)ax|r(?<!\wr)ay\b|nccl|world.?size|nproc|mp\.spawn|tensor.?parallel|t(?<!\wt)p.?size|"
    r"n(?<!\wn)_?gpus?\b|num.?gpus?|gpu.?count|gpus.?per|gpus.?on.?node|slurm_gpus|visible_devices|"
    r"--devices|strategy|lightning|tensorflow|keras|f(?<!\wf)sdp|disbatch|dask|parsl|submitit|snakemake|nextflow"
)
_LIGHTNING = lazy_compile(r"lightning", re.IGNORECASE)
# Program arguments under which Lightning does not expect one task per device: one device
# (the one task), or a strategy that spawns its own processes.
_NOT_SLURM_ENV = lazy_compile(r"devices\W*1\b|spawn", re.IGNORECASE)
_RUNS_SCRIPT = lazy_compile(r"^\s*(?:(?:time|exec|bash|sh|zsh)\s+)*(?:\./|/|~/|\$\{?\w+\}?/)?[\w./${}-]*\.sh\b")


@rule("SB310", "gpus-idle-single-process", Severity.ERROR, Outcome.WRONG, fix=Fixability.SOMETIMES)
def gpus_idle_single_process(ctx: Context) -> None:
    """
    ## What it does
    Finds a job with two or more GPUs per node whose work is a single `python` process per
    node (`python train.py` or `srun python train.py` with one task per node) and that has no
    launcher starting per-GPU processes (`torchrun`, `accelerate`, `deepspeed`, `horovodrun`,
    `mpirun`). It stays silent when the program's arguments mention GPUs, devices or a
    distributed strategy (the program may spawn its own workers), when the script sets
    `CUDA_VISIBLE_DEVICES`, and for launches in loops or in the background.

    Lightning is the exception to "the program may spawn its own workers": under `srun` its
    SLURM environment takes its processes from Slurm's tasks and needs one task per device,
    so `srun python train_lightning.py` with one task per node on 2 or more GPUs per node is
    reported whenever Lightning shows in the program, its arguments or a command of the body
    (unless the arguments ask for one device or a `spawn` strategy).

    The unsafe fix (for `srun` launches) asks for one task per GPU and divides the CPUs per
    node the job asked for among them (`--ntasks=1 --cpus-per-task=64` on 8 GPUs becomes
    `--ntasks-per-node=8 --cpus-per-task=8`). When the CPUs cannot be kept (no
    `--cpus-per-task`, so each new task would add a CPU, or a count that does not divide)
    there is no fix.

    ## Why is this bad?
    One process drives one GPU unless the program itself spawns workers or uses
    `DataParallel`; the other GPUs are allocated, billed and idle, and they block other
    users. This is the most common GPU waste on shared clusters.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=1
    #SBATCH --ntasks=1
    #SBATCH --gres=gpu:8
    #SBATCH --time=04:00:00
    srun python train.py --epochs 10
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=1
    #SBATCH --ntasks-per-node=8
    #SBATCH --gres=gpu:8
    #SBATCH --time=04:00:00
    srun python train.py --epochs 10
    ```

    ## Slurm versions
    All.

    ## References
    - `man srun`, `--ntasks` ("The default is one task per node")
    - `man sbatch`, `--ntasks-per-node`, `--gres`
    - Lightning `lightning/fabric/plugins/environments/slurm.py` (`validate_settings`: "the number of
      tasks per node configured in SLURM ... does not match")
    """
    work = python_steps(ctx)
    if not work:
        return
    script = ctx.script
    launches = steps(ctx)
    spawning = any(l.kind in _SPAWNING for l, _ in launches)
    reported = _other_work(script, launches)  # reported at most once, and never beside other GPU work
    for launch, srun, geom in work:
        gpn, tpn = geom.gpus_per_node, geom.tasks_per_node
        if gpn is None or gpn == 0 or repeated(launch) or (srun is not None and repeated(srun)):
            continue
        if not (tpn == 1 or srun is None):
            continue  # several tasks per node: SB311 compares them with the GPUs
        if gpn >= 2 and srun is not None and _lightning(ctx, launch):
            _lightning_layout(ctx, launch, srun, geom, gpn)
            continue
        if gpn >= 2 and not spawning and not reported and not _hinted(launch):
            reported = True
            where = srun if srun is not None else launch
            fix = (f"start one task per GPU (`#SBATCH --ntasks-per-node={gpn}`{_cpus_each(geom, gpn)} and"
                   f" `srun`) or use `torchrun --nproc_per_node={gpn}`")
            ctx.report(
                "SB310", where.span if where.span.end_line == where.span.line else where.command_span,
                f"the job has {gpn} GPUs per node but `{program(launch)}` runs as a single process"
                f" per node: unless the program starts one process per GPU itself, {idle(gpn - 1)}; {fix}",
                notes=gpu_note(geom) + task_note(geom),
                fix=one_task_per_gpu(ctx, srun, gpn, "one task per GPU"),
            )


def _lightning(ctx: Context, launch) -> bool:
    """Lightning under `srun`: its name on the launch or a command of the body, and nothing that keeps
    Lightning's SLURM environment off (`devices` equal to the one task, a `*spawn*` strategy, a job named
    `bash` or `interactive`, which Lightning treats as an interactive session)."""
    words = (launch.program or "", *launch.args)
    if any(_NOT_SLURM_ENV.search(w) for w in words):
        return False
    name = ctx.script.request.get("job-name")
    if name is not None and name.raw in ("bash", "interactive"):
        return False
    if any(_LIGHTNING.search(w) for w in words):
        return True
    return ctx.shared(_body_mentions_lightning)  # once per script, not once per launch


def _body_mentions_lightning(ctx: Context) -> bool:
    script = ctx.script
    return any(line.kind is LineKind.COMMAND and line.span.start >= script.header_end and _LIGHTNING.search(line.text)
               for line in script.lines)


def _lightning_layout(ctx: Context, launch, srun, geom, gpn: int) -> None:
    # Lightning compares `devices` with SLURM_NTASKS_PER_NODE, which exists only when
    # `--ntasks-per-node` was given (`man sbatch`, OUTPUT ENVIRONMENT VARIABLES).
    per_node = ctx.script.request.get("ntasks-per-node") is not None or srun.has("ntasks-per-node") \
        or srun.has("tasks-per-node")
    if per_node:
        effect = (f"With `devices={gpn}` (what `\"auto\"` picks) it stops at start-up (\"You set"
                  f" `devices={gpn}` in Lightning, but the number of tasks per node configured in SLURM"
                  f" `--ntasks-per-node=1` does not match\"); with `devices=1` {idle(gpn - 1)}")
    else:
        effect = f"One process per node trains and {idle(gpn - 1)} (or Lightning stops when `devices` asks for more)"
    ctx.report(
        "SB310", srun.span if srun.span.end_line == srun.span.line else srun.command_span,
        f"`srun {program(launch)}` starts one task per node on {gpn} GPUs per node, but under `srun`"
        f" Lightning does not start workers itself: its SLURM environment needs one task per device."
        f" {effect}. Start one task per GPU (`#SBATCH --ntasks-per-node={gpn}`{_cpus_each(geom, gpn)})",
        outcome=Outcome.FAILS if per_node else Outcome.WRONG, notes=gpu_note(geom) + task_note(geom),
        fix=one_task_per_gpu(ctx, srun, gpn, "one task per GPU"),
    )


def _cpus_each(geom, gpn: int) -> str:
    """`` with `--cpus-per-task=8` ``: the CPUs per task that keep the CPUs per node asked for."""
    cpt, tpn = geom.cpus_per_task_asked, geom.tasks_per_node
    if not cpt or not tpn or cpt * tpn % gpn or cpt * tpn // gpn == cpt:
        return ""
    return f" with `--cpus-per-task={cpt * tpn // gpn}`"


def _hinted(launch) -> bool:
    return any(_GPU_HINT.search(word) for word in (launch.program or "", *launch.args))


def _mentions_gpu_work(text: str, start: int) -> bool:
    """``_SCRIPT_HINT`` anywhere in ``text[start:]``, in any case.

    A case-insensitive search of a long alternation over the whole body was the slowest
    step of a lint. On ASCII text (nearly every script) lowering it first finds exactly the
    same, about three times faster; other text keeps the case-insensitive search, since
    Unicode case folding matches more than ``lower()`` gives (the Kelvin sign is a ``k``).
    """
    if text.isascii():
        return _SCRIPT_HINT.search(text.lower(), start) is not None
    return re.compile(_SCRIPT_HINT.pattern, re.IGNORECASE).search(text, start) is not None


def _other_work(script, launches) -> bool:
    """True when something besides plain ``python`` may use the GPUs, so SB310 keeps quiet."""
    if _mentions_gpu_work(script.source, script.header_end):
        return True
    for launch, srun in launches:
        if launch.kind == LaunchKind.SRUN and launch.inner is None:
            if basename(launch.program or "") not in TRIVIAL_COMMANDS:
                return True
    for line in script.lines:
        if line.kind is LineKind.COMMAND and line.span.start >= script.header_end and _RUNS_SCRIPT.match(line.text):
            return True
    return False
