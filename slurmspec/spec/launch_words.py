"""The words of ``[launch]``: the interpreter, the program and its arguments.

- ``launch.python`` is a command, possibly with options (``python -u``): it is
  split into words the way a shell would (``shlex``), and each word is quoted
  on its own when emitted.
- The program is the first word after the launcher's options, so it cannot
  start with ``-``: ``srun`` (and ``mpirun``, ``torchrun``...) would read it as
  one of its own options (``srun -m`` is ``--distribution``).
- Per-task variables (``$SLURM_PROCID``...) only have their per-task value
  inside each task: the emitter expands words that use them in the task
  (``slurmspec/spec/writer/launch.py``). Variables a launcher sets in each worker's
  environment (torchrun's ``LOCAL_RANK``) never reach its arguments at all.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Iterator

from slurmspec.spec.model import Section, Spec

# Set separately in each task (or on each node) of a step, so the batch shell's
# value (rank 0, the first node) is wrong for the others. Slurm:
# src/common/env.c setup_env() and src/slurmd/slurmstepd/mgr.c (per task);
# src/plugins/gres/common/gres_common.c (the GPU lists of each task); the MPI
# launchers set their own ranks in each process.
PER_TASK_VARIABLES = frozenset({
    "SLURM_PROCID", "SLURM_LOCALID", "SLURM_NODEID", "SLURM_TASK_PID", "SLURM_GTIDS", "SLURMD_NODENAME",
    "SLURM_TOPOLOGY_ADDR", "SLURM_CPUS_ON_NODE", "SLURM_GPUS_ON_NODE", "SLURM_STEP_ID", "SLURM_STEPID",
    "SLURM_STEP_NODELIST", "SLURM_STEP_NUM_NODES", "SLURM_STEP_NUM_TASKS", "SLURM_STEP_TASKS_PER_NODE",
    "SLURM_STEP_GPUS", "SLURM_CPU_BIND", "SLURM_CPU_BIND_LIST", "SLURM_LAUNCH_NODE_IPADDR",
    "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL", "ZE_AFFINITY_MASK", "HOSTNAME",
    "PMI_RANK", "PMIX_RANK", "PMI_LOCAL_RANK", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
    "OMPI_COMM_WORLD_NODE_RANK", "MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
    "HOROVOD_RANK", "HOROVOD_LOCAL_RANK",
    # exported in each task by the srun/deepspeed launch block (slurmspec/spec/writer/launch.py)
    "RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE",
})
# torchrun and accelerate set these in each worker's environment; the worker's
# arguments are the same for every worker (the launcher passes them on verbatim).
WORKER_VARIABLES = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "GROUP_RANK", "ROLE_RANK")
_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


def variables(text: str) -> list[str]:
    """Names of the ``$NAME``/``${NAME}`` references in ``text`` (the ones the emitter expands)."""
    return [m.group(1) or m.group(2) for m in _VAR.finditer(text)]


def per_task(words) -> bool:
    """Does any word refer to a per-task variable?"""
    return any(name in PER_TASK_VARIABLES for word in words for name in variables(word))


def python_words(launch: Section) -> list[str] | None:
    """``launch.python`` split into words (None when it is unset)."""
    python = launch.get("python")
    return None if python is None else shlex.split(python)


def user_words(launch: Section) -> list[str]:
    """The words of the launched command that come from the spec: interpreter, program, arguments."""
    return [*(python_words(launch) or ()), launch.get("program"), *launch.get("args", ())]


def check_launch_words(spec: Spec) -> Iterator[tuple[tuple, str]]:
    launch = spec.section("launch")
    if launch is None:
        return
    python = launch.get("python")
    if python is not None:
        try:
            words = shlex.split(python)
        except ValueError as exc:
            yield ("launch", "python"), (f"`launch.python` cannot be split into words ({exc}): write the"
                                         " interpreter and its options as a shell would, e.g. `python -u`")
            return
        if not words:
            yield ("launch", "python"), "`launch.python` is empty: name the interpreter, e.g. `python3`"
            return
        if words[0].startswith("-"):
            yield ("launch", "python"), (f"`launch.python` starts with `{words[0]}`, an option: name the"
                                         f" interpreter first, e.g. `python {python}`")
    program = launch.get("program")
    if program.startswith("-"):
        yield ("launch", "program"), (
            f"`launch.program = {json.dumps(program)}` starts with `-`, so the launcher would read it as one of"
            f" its own options (`srun -m` is srun's `--distribution`, not a module); {_program_hint(launch)}")
    kind = launch.get("kind")
    if kind in ("torchrun", "accelerate"):
        for i, arg in enumerate(launch.get("args", ())):
            used = [name for name in variables(arg) if name in WORKER_VARIABLES]
            if used:
                yield ("launch", "args"), (
                    f"`launch.args[{i}]` uses `${used[0]}`, which {kind} sets in each worker's environment;"
                    " it passes the same arguments to every worker, so no shell can expand it per worker."
                    f" Read it in the program instead (`os.environ[\"{used[0]}\"]`)")
                break


def _program_hint(launch: Section) -> str:
    program = launch.get("program")
    if program != "-m":
        return f"a file whose name starts with `-` is written `./{program}`"
    try:
        interpreter = python_words(launch) or ["python"]
    except ValueError:
        interpreter = ["python"]
    module = next(iter(launch.get("args", ())), "package.module")
    args = ", ".join(json.dumps(w) for w in [*interpreter[1:], "-m", module])
    return (f"to run a module, name the interpreter as the program: `program = {json.dumps(interpreter[0])}`,"
            f" `args = [{args}, ...]`")
