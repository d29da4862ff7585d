"""The workflow pieces around the launch: environment, staging, checkpoint sync, monitoring, chaining.

Each returns (setup lines, cleanup lines); cleanup runs after the launch
whatever its exit status, before the script exits with that status.
"""

from __future__ import annotations

from slurmspec.emit.launch import srun_cpus
from slurmspec.emit.quote import shell_literal, shell_template
from slurmspec.spec.model import Spec
from slurmspec.version import NEWEST, Version

# Node-local scratch: many sites set $SLURM_TMPDIR (a per-job folder on local
# disk); elsewhere a per-job folder in /tmp serves.
LOCAL_DEFAULT = '"${SLURM_TMPDIR:-/tmp/$SLURM_JOB_ID}"'

Block = tuple[list[str], list[str]]


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
    dest = shell_template(staging.get("dest")) if "dest" in staging else LOCAL_DEFAULT
    inputs = " ".join(shell_template(i) for i in staging.get("inputs"))
    # One task per node: node-local storage is private to each node, so every node needs its copy.
    # Where srun does not inherit --cpus-per-task, it is passed as for the launch (each node has that many).
    per_node = " ".join(['srun --nodes="$SLURM_NNODES" --ntasks="$SLURM_NNODES" --ntasks-per-node=1',
                         *srun_cpus(spec, version)])
    return [
        "# Stage inputs to node-local storage (on every node of the job)",
        f"export {var}={dest}",
        f'{per_node} mkdir -p "${{{var}}}"',
        f'{per_node} cp -r {inputs} "${{{var}}}"/',
    ], []


def checkpoint_block(spec: Spec) -> Block:
    ckpt = spec.section("checkpoint")
    if ckpt is None:
        return [], []
    var = ckpt.get("export_as", "CHECKPOINT_DIR")
    local = shell_template(ckpt.get("local")) if "local" in ckpt else LOCAL_DEFAULT[:-1] + '/ckpt"'
    interval = ckpt.get("interval", 600)
    sync = f'cp -a "${{{var}}}"/. "$checkpoint_persistent"/'
    return [
        "# Checkpoints go to fast local storage; a background loop copies them to the",
        "# persistent folder so a killed or timed-out job loses at most one interval.",
        f"export {var}={local}",
        f"checkpoint_persistent={shell_template(ckpt.get('persistent'))}",
        f'mkdir -p "${{{var}}}" "$checkpoint_persistent"',
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
    setup, cleanup = ["# Monitoring"], []
    if mon.get("gpu"):
        log = shell_template(mon.get("gpu_log", "gpu-$SLURM_JOB_ID.log"))
        setup += [f"nvidia-smi dmon -s pucvmet -d {mon.get('interval', 10)} -o DT > {log} 2>&1 &",
                  "gpu_monitor_pid=$!"]
        cleanup.append('kill "$gpu_monitor_pid" 2>/dev/null')
    if "tensorboard" in mon:
        port = mon.get("tensorboard_port", 6006)
        setup += [f"tensorboard --logdir {shell_template(mon.get('tensorboard'))} --port {port} --bind_all"
                  " > tensorboard-\"$SLURM_JOB_ID\".log 2>&1 &",
                  "tensorboard_pid=$!",
                  f'echo "TensorBoard: http://$(hostname):{port}"']
        cleanup.append('kill "$tensorboard_pid" 2>/dev/null')
    return setup, cleanup


def chain_block(spec: Spec) -> Block:
    chain = spec.section("chain")
    if chain is None:
        return [], []
    if "script" in chain:
        script = shell_template(chain.get("script"))
    else:  # the script this job runs, as slurmctld recorded it at submission
        script = ('"$(scontrol show job "$SLURM_JOB_ID" | sed -n ' + shell_literal("s/^ *Command=//p")
                  + ')"')
    return [
        "# Chain: queue the next link now; afterok starts it only if this job succeeds.",
        "chain_index=${SLURMSPEC_CHAIN_INDEX:-0}",
        f'if [ "$chain_index" -lt {chain.get("count")} ]; then',
        f"    sbatch --dependency=afterok:\"$SLURM_JOB_ID\" --export=ALL,SLURMSPEC_CHAIN_INDEX=$((chain_index + 1))"
        f" {script}",
        "fi",
    ], []
