"""Derive a launch's typed convenience fields (ntasks, np, nproc_per_node, ...) from its options.

Numbers are ``int`` only when written as a literal; ``$SLURM_NTASKS``,
``${GPUS:-8}``, ``gpu`` or ``auto`` give None and stay readable through
``Launch.value(name)``.  Later occurrences win, as in getopt/argparse.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from slurmspec.body.model import LaunchOption
from slurmspec.lazy_regex import lazy_compile

__all__ = ["typed_fields", "as_int", "gpu_count"]

_INT = re.compile(r"[0-9]+")
_GPU_COUNT = lazy_compile(r"(?:[^:,]+:)?([0-9]+)")  # --gpus=[type:]N (srun(1))
_PPR = lazy_compile(r"ppr:([0-9]+):node\b.*", re.IGNORECASE)  # Open MPI --map-by ppr:N:node[:PE=n]
_RANGE = lazy_compile(r"([0-9]+):([0-9]+)")  # torchrun --nnodes MIN:MAX


def as_int(text: str | None) -> int | None:
    """``"8"`` -> 8; anything that is not a plain decimal literal -> None."""
    return int(text) if text is not None and _INT.fullmatch(text) else None


def gpu_count(text: str | None) -> int | None:
    """Count in a ``--gpus``-style value: ``4`` or ``a100:4`` -> 4."""
    m = _GPU_COUNT.fullmatch(text) if text is not None else None
    return int(m.group(1)) if m else None


def _text(text: str | None) -> str | None:
    return text


def _ppn(opt: LaunchOption) -> int | None:
    if opt.name == "map-by":
        m = _PPR.fullmatch(opt.value or "")
        return int(m.group(1)) if m else None
    return as_int(opt.value)


def _nnodes_range(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    if _INT.fullmatch(text):
        return int(text), int(text)
    m = _RANGE.fullmatch(text)
    return (int(m.group(1)), int(m.group(2))) if m else None


# field -> (canonical option names, converter); bool fields are "flag present".
_Row = tuple[Sequence[str], Callable[[Any], Any]]
_SRUN: dict[str, _Row] = {
    "ntasks": (("ntasks",), as_int),
    "nodes": (("nodes",), as_int),
    "ntasks_per_node": (("ntasks-per-node",), as_int),
    "gpus": (("gpus",), gpu_count),
    "gpus_per_node": (("gpus-per-node",), gpu_count),
    "gpus_per_task": (("gpus-per-task",), gpu_count),
    "gres": (("gres",), _text),
    "cpus_per_task": (("cpus-per-task",), as_int),
    "mpi": (("mpi",), _text),
    "container_image": (("container-image",), _text),
    "exact": (("exact",), bool),
    "overlap": (("overlap",), bool),
}
_MPIRUN: dict[str, _Row] = {
    "np": (("np",), as_int),
    "hosts": (("host",), _text),
    "hostfile": (("hostfile",), _text),
    "ppn": (("ppn", "npernode", "map-by"), _ppn),
}
_TORCHRUN: dict[str, _Row] = {
    "nproc_per_node": (("nproc-per-node",), as_int),
    "nnodes": (("nnodes",), as_int),
    "nnodes_range": (("nnodes",), _nnodes_range),
    "node_rank": (("node-rank",), as_int),
    "rdzv_backend": (("rdzv-backend",), _text),
    "rdzv_endpoint": (("rdzv-endpoint",), _text),
    "rdzv_id": (("rdzv-id",), _text),
    "master_addr": (("master-addr",), _text),
    "master_port": (("master-port",), as_int),
    "standalone": (("standalone",), bool),
}
_HOROVOD: dict[str, _Row] = {
    "np": (("num-proc",), as_int),
    "hosts": (("hosts",), _text),
    "hostfile": (("hostfile",), _text),
}
_ACCELERATE: dict[str, _Row] = {
    "num_processes": (("num-processes",), as_int),
    "num_machines": (("num-machines",), as_int),
    "machine_rank": (("machine-rank",), as_int),
    "main_process_ip": (("main-process-ip",), _text),
    "main_process_port": (("main-process-port",), as_int),
    "multi_gpu": (("multi-gpu",), bool),
    "config_file": (("config-file",), _text),
}
_DEEPSPEED: dict[str, _Row] = {
    "num_gpus": (("num-gpus",), as_int),
    "num_nodes": (("num-nodes",), as_int),
    "hostfile": (("hostfile",), _text),
    "launcher": (("launcher",), _text),
    "master_addr": (("master-addr",), _text),
    "master_port": (("master-port",), as_int),
    "node_rank": (("node-rank",), as_int),
}
_FIELDS = {"srun": _SRUN, "mpirun": _MPIRUN, "torchrun": _TORCHRUN, "horovodrun": _HOROVOD,
           "accelerate": _ACCELERATE, "deepspeed": _DEEPSPEED}


def typed_fields(kind: str, options: Sequence[LaunchOption]) -> dict[str, Any]:
    """Keyword arguments for :class:`Launch`'s typed fields of a ``kind`` launch."""
    out: dict[str, Any] = {}
    for field, (names, convert) in _FIELDS.get(kind, {}).items():
        last = None
        for opt in options:
            if opt.name in names:
                if convert is _ppn:
                    value = _ppn(opt)
                    if value is None and opt.name == "map-by":
                        continue  # --map-by core etc. says nothing about tasks per node
                last = opt
        if last is None:
            continue
        if convert is bool:
            out[field] = True
        elif convert is _ppn:
            out[field] = _ppn(last)
        else:
            out[field] = convert(last.value)
    return out
