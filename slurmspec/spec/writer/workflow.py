"""The workflow pieces around the launch: environment, staging, checkpoint sync, monitoring.

Each returns (setup lines, cleanup lines); cleanup runs after the launch
whatever its exit status, before the script exits with that status. Stopping
before the time limit and the chain's next link are in ``stop.py``.

Node-local folders are private: by default a new ``mktemp -d`` folder (mode
0700, a name nobody can guess) under ``$SLURM_TMPDIR`` (set by some sites) or
``$TMPDIR`` (which slurmstepd sets, /tmp when unset: slurmstepd/task.c
_make_tmpdir()). A predictable name in a shared /tmp (``/tmp/$SLURM_JOB_ID``:
job ids are sequential) can be made beforehand by another user, who then owns
the folder and what the job reads from it. A folder the spec names is created
with mode 0700, and refused when it exists and is not ours (another user's,
or a symbolic link).
"""

from __future__ import annotations

from slurmspec.spec.writer.launch import srun_cpus
from slurmspec.spec.writer.quote import shell_literal, shell_template
from slurmspec.spec.model import Spec
from slurmspec.version import NEWEST, Version

_BASE = "${SLURM_TMPDIR:-${TMPDIR:-/tmp}}"
# Makes folder $1 (and its parents) with mode 0700, or accepts it when it is already a folder of
# ours; run with `bash -c`, so it works the same in the batch shell and in an srun task.
_PRIVATE = ('mkdir -p -- "$(dirname -- "$1")" && { mkdir -m 700 -- "$1" 2>/dev/null'
            ' || { [ -d "$1" ] && [ ! -L "$1" ] && [ -O "$1" ]; }; }'
            ' || { echo "slurmspec: refusing $1: it exists and is not a folder of ours" >&2; exit 1; }')
_TASK = "slurmspec-task"
# cp without -a: preserving the source folder's mode and owner would give them to the destination
# folder itself (cp -a src/. dst/ makes dst as private, or as open, as src).
_COPY = "cp -R --preserve=timestamps --"

Block = tuple[list[str], list[str]]


def private_folder(var: str, given: str | None, kind: str) -> list[str]:
    """Lines that set and export ``var``: a new private folder, or the ``given`` one (checked in ``private_check``)."""
    if given is None:
        return [f'{var}=$(mktemp -d "{_BASE}/slurmspec-{kind}.XXXXXXXXXX") || exit 1', f"export {var}"]
    return [f"export {var}={shell_template(given)}"]


def private_check(var: str, prefix: str = "") -> str:
    """Create ``$var`` with mode 0700 or accept it if it is ours; ``prefix`` runs it elsewhere (``srun ...``)."""
    return f'{prefix}bash -c {shell_literal(_PRIVATE)} {_TASK} "${{{var}}}" || exit 1'


def env_block(spec: Spec) -> Block:
    env = spec.section("env")
    if env is None or not env.values:
        return [], []
    return ["# Environment", *(f"export {key}={shell_template(value)}" for key, value in env.values)], []


def staging_block(spec: Spec, version: Version = NEWEST) -> Block:
    staging = spec.section("staging")
    if staging is None:
        return [], []
    var = staging.get("export_as", "STAGE_DIR")
    inputs = " ".join(shell_template(i) for i in staging.get("inputs"))
    # One task per node: node-local storage is private to each node, so every node needs its copy.
    # Where srun does not inherit --cpus-per-task, it is passed as for the launch (each node has that many).
    per_node = " ".join(['srun --nodes="$SLURM_NNODES" --ntasks="$SLURM_NNODES" --ntasks-per-node=1',
                         *srun_cpus(spec, version)])
    return [
        "# Stage inputs to a private node-local folder (the same path on every node of the job)",
        *private_folder(var, staging.get("dest"), "stage"),
        private_check(var, per_node + " "),
        f'{per_node} {_COPY} {inputs} "${{{var}}}"/',
    ], []


def checkpoint_block(spec: Spec) -> Block:
    ckpt = spec.section("checkpoint")
    if ckpt is None:
        return [], []
    var = ckpt.get("export_as", "CHECKPOINT_DIR")
    interval = ckpt.get("interval", 600)
    sync = f'{_COPY} "${{{var}}}"/. "$checkpoint_persistent"/'
    return [
        "# Checkpoints go to fast storage local to the batch node (the first node), starting from the",
        "# persistent copy (so a chained link resumes); a background loop copies them back so a killed",
        "# or timed-out job loses at most one interval.",
        *private_folder(var, ckpt.get("local"), "ckpt"),
        *([] if "local" not in ckpt else [private_check(var)]),
        f"checkpoint_persistent={shell_template(ckpt.get('persistent'))}",
        'mkdir -p -- "$checkpoint_persistent" || exit 1',
        f'{_COPY} "$checkpoint_persistent"/. "${{{var}}}"/ || exit 1',
        f"( while sleep {interval}; do {sync}; done ) &",
        "checkpoint_sync_pid=$!",
    ], [
        'kill "$checkpoint_sync_pid" 2>/dev/null',
        f"{sync}  # final sync",
    ]


def monitor_block(spec: Spec) -> Block:
    mon = spec.section("monitor")
    if mon is None:
        return [], []
    setup, cleanup = ["# Monitoring, on the batch node (the first node of the job) only"], []
    if mon.get("gpu"):
        log = shell_template(mon.get("gpu_log", "gpu-$SLURM_JOB_ID.log"))
        setup += [f"nvidia-smi dmon -s pucvmet -d {mon.get('interval', 10)} -o DT > {log} 2>&1 &",
                  "gpu_monitor_pid=$!"]
        cleanup.append('kill "$gpu_monitor_pid" 2>/dev/null')
    if "tensorboard" in mon:
        port = mon.get("tensorboard_port", 6006)
        setup += [f"tensorboard --logdir={shell_template(mon.get('tensorboard'))} --port {port} --bind_all"
                  " > tensorboard-\"$SLURM_JOB_ID\".log 2>&1 &",
                  "tensorboard_pid=$!",
                  f'echo "TensorBoard: http://$(hostname):{port}"']
        cleanup.append('kill "$tensorboard_pid" 2>/dev/null')
    return setup, cleanup
