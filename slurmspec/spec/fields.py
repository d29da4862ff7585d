"""Every key of the TOML job spec, in one table that drives loading, emitting, converting and the JSON Schema.

A key that maps to an sbatch option names it (``option``); its value is read
with the same typed-value parser the script parser uses (``PARSERS[kind]``),
so a spec value and an ``#SBATCH`` value mean exactly the same thing.
"""

from __future__ import annotations

import attrs

from slurmspec.frozen import frozen

# Value types of the table below (also the JSON Schema vocabulary):
#   str, int (> 0 unless `minimum` says otherwise), bool, list (of strings),
#   str|int (a number is written as its digits), str|list, map (string -> string),
#   table (a nested table of `children`).
STR, INT, BOOL, LIST, STR_INT, STR_LIST, MAP, TABLE = (
    "str", "int", "bool", "list", "str|int", "str|list", "map", "table")


@frozen
class Field:
    key: str
    type: str
    doc: str
    option: str | None = None  # the sbatch long option it becomes
    choices: tuple[str, ...] = ()
    minimum: int = 1  # for numbers
    children: tuple["Field", ...] = ()
    required: bool = False


def _f(key, type_, doc, option=None, **kw) -> Field:
    return Field(key, type_, doc, option, **kw)


SECTIONS: dict[str, tuple[Field, ...]] = {
    "job": (
        _f("name", STR, "job name", "job-name"),
        _f("partition", STR, "partition", "partition"),
        _f("account", STR, "account to charge", "account"),
        _f("qos", STR, "quality of service", "qos"),
        _f("time", STR_INT, "time limit: minutes, `H:M:S` or `D-H:M:S` (0: no limit)", "time", minimum=0),
        _f("output", STR, "stdout file (`%j` job id, `%x` name, `%A`/`%a` array)", "output"),
        _f("error", STR, "stderr file", "error"),
        _f("chdir", STR, "working folder of the job", "chdir"),
        _f("mail_type", STR_LIST, "mail events: BEGIN, END, FAIL, ALL, ...", "mail-type"),
        _f("mail_user", STR, "mail address", "mail-user"),
        _f("array", STR, "array indexes, e.g. `0-99%10`", "array"),
        _f("dependency", STR, "dependency, e.g. `afterok:123`", "dependency"),
        _f("requeue", BOOL, "true: --requeue, false: --no-requeue", "requeue"),
        _f("signal", STR, "signal to the batch shell before the time limit, e.g. `B:USR1@300`, passed on to the"
                             " program (docs/spec.md, Stopping before the time limit)", "signal"),
    ),
    "resources": (
        _f("nodes", STR_INT, "node count or `min-max`", "nodes"),
        _f("ntasks", INT, "total task count", "ntasks"),
        _f("ntasks_per_node", INT, "tasks per node", "ntasks-per-node"),
        _f("gpus_per_node", INT, "GPUs per node", "gpus-per-node"),
        _f("gpus_per_task", INT, "GPUs per task", "gpus-per-task"),
        _f("gpu_type", STR, "GPU type for gpus_per_node/gpus_per_task, e.g. `a100`"),
        _f("cpus_per_task", INT, "CPUs per task", "cpus-per-task"),
        _f("cpus_per_gpu", INT, "CPUs per GPU", "cpus-per-gpu"),
        _f("mem", STR_INT, "memory per node (`64G`; 0 = all of it)", "mem", minimum=0),
        _f("mem_per_cpu", STR_INT, "memory per CPU", "mem-per-cpu"),
        _f("mem_per_gpu", STR_INT, "memory per GPU", "mem-per-gpu"),
        _f("constraint", STR_LIST, "features: a list (all required) or an expression", "constraint"),
        _f("exclusive", BOOL, "whole nodes", "exclusive"),
    ),
    "launch": (
        _f("kind", STR, "launcher", choices=("torchrun", "srun", "horovod", "lightning", "accelerate",
                                             "deepspeed", "mpi", "plain"), required=True),
        _f("program", STR, "program (a `.py` file runs under `python`); cannot start with `-`", required=True),
        _f("args", LIST, "program arguments"),
        _f("python", STR, "python interpreter, with its options if any (`python -u`; default `python`)"),
        _f("procs_per_node", INT, "torchrun/accelerate processes per node (default: gpus_per_node)"),
        _f("launcher", STR, "alternative launcher: `mpirun` (mpi), `horovodrun` (horovod)",
           choices=("srun", "mpirun", "horovodrun")),
        _f("mpi", STR, "srun --mpi plugin, e.g. `pmix`"),
        _f("container", TABLE, "container to run in", children=(
            _f("image", STR, "image (pyxis: `nvcr.io#nvidia/pytorch:24.01-py3`; apptainer: a .sif)",
               required=True),
            _f("runtime", STR, "container runtime", choices=("pyxis", "apptainer")),
            _f("mounts", LIST, "`src:dst` bind mounts"),
            _f("workdir", STR, "working folder inside the container (default: the job's, mounted at the same"
                               " path under pyxis)"),
        )),
    ),
    "env": (),  # a map of variable -> value, exported before the launch
    "staging": (
        _f("inputs", LIST, "files/folders copied to node-local storage before the run", required=True),
        _f("dest", STR, "node-local folder (default: a new private folder in `$SLURM_TMPDIR` or `$TMPDIR`)"),
        _f("export_as", STR, "variable holding the staged folder (default `STAGE_DIR`)"),
    ),
    "checkpoint": (
        _f("persistent", STR, "persistent folder the checkpoints are synced to", required=True),
        _f("local", STR, "node-local checkpoint folder (default: a new private folder in `$SLURM_TMPDIR` or"
                         " `$TMPDIR`)"),
        _f("interval", INT, "seconds between background syncs (default 600)"),
        _f("export_as", STR, "variable holding the local folder (default `CHECKPOINT_DIR`)"),
    ),
    "monitor": (
        _f("gpu", BOOL, "log `nvidia-smi dmon` to `gpu_log`"),
        _f("gpu_log", STR, "dmon log file (default `gpu-$SLURM_JOB_ID.log`)"),
        _f("interval", INT, "dmon sampling interval in seconds (default 10)"),
        _f("tensorboard", STR, "log folder served by TensorBoard"),
        _f("tensorboard_port", INT, "TensorBoard port (default 6006)"),
    ),
    "chain": (
        _f("count", INT, "how many times the job resubmits itself (a link stopped by the signal)", required=True),
        _f("script", STR, "script to resubmit (default: this job's own script)"),
    ),
    "body": (
        _f("script", STR, "shell text run verbatim after the header (instead of [launch])"),
        _f("file", STR, "file whose text is the body, relative to the spec"),
    ),
    "sbatch": (
        _f("shebang", STR, "first line (default `#!/bin/bash`)"),
        _f("options", LIST, "other sbatch options, one word each (`--exclude=n[1-2]`)"),
        _f("lines", LIST, "header lines kept verbatim, before the directives (comments; every #SBATCH line"
                          " of a header sbatch cannot read)"),
    ),
    "hetjob": (
        _f("options", LIST, "sbatch options of one further hetjob component", required=True),
        _f("lines", LIST, "its #SBATCH lines kept verbatim when sbatch cannot read them"),
    ),
}

SECTION_DOCS = {
    "job": "job identity, limits, files and notifications",
    "resources": "what the job asks for",
    "launch": "how the program is started (see docs/spec.md for each kind's task geometry)",
    "env": "variables exported before the launch; `$NAME`/`${NAME}` references expand",
    "staging": "copy inputs to node-local storage before the run (on every node)",
    "checkpoint": "checkpoint locally (restored from the persistent folder), sync to it in the background and"
                  " at the end",
    "monitor": "GPU utilisation log and TensorBoard (on the first node)",
    "chain": "when the signal stopped the run, resubmit after itself (afterany), for work longer than the time limit",
    "body": "a verbatim shell body instead of [launch]",
    "sbatch": "everything else of the header",
    "hetjob": "further hetjob components (an array of tables)",
}

ARRAY_SECTIONS = frozenset({"hetjob"})


def field(section: str, key: str) -> Field | None:
    for f in SECTIONS.get(section, ()):
        if f.key == key:
            return f
    return None


def option_fields() -> dict[str, tuple[str, Field]]:
    """sbatch long option -> (section, field) for every option-backed key."""
    return {f.option: (section, f) for section, fields in SECTIONS.items()
            for f in fields if f.option}
