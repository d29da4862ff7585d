"""The GPU requests of a component as the sbatch client groups them before it checks them.

sbatch's client-side GRES validation (``src/common/slurm_opt.c:slurm_opt_create_job_desc()``
→ ``src/common/gres.c:gres_job_state_validate()`` → ``_test_gres_cnt()``) runs before
anything reaches the controller. Checked case by case against sbatch 22.05.8 with
``--test-only``:

* GPU requests are grouped by type: ``--gpus=v100:2`` and ``--gres=gpu:v100:4``
  meet in one record, untyped requests in another; each record holds a count
  per job (``--gpus``), per node (``--gpus-per-node``, then ``--gres=gpu``,
  which wins when both are given), per socket and per task. Inside one option
  the last item of a type wins (``--gpus=2,1`` is 1). Zero counts are dropped.
* From 23.02 ``--tres-per-task=gres/gpu[:type]:N`` is the per-task count
  ``--gpus-per-task`` sets (both given is a fatal conflict).

The node and task counts each record is checked against are ``sbatch_tasks``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from slurmspec.frozen import define
from slurmspec.model.job.request import JobRequest, Setting
from slurmspec.model.views.values import gres_items, gres_parsed, tres_items

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.model.values.gres import GresItem

# The option -> the count of a record it sets, in the order sbatch reads them (later ones win).
_FIELD_OF = {"gpus": "job", "gpus-per-node": "node", "gres": "node",
             "gpus-per-socket": "socket", "gpus-per-task": "task"}
_SHOWN = {"job": "--gpus", "node": "--gpus-per-node", "socket": "--gpus-per-socket",
          "task": "--gpus-per-task"}


@define
class Record:
    """The GPUs of one type (None: untyped) per job, node, socket and task; 0 where not asked."""

    type: str | None
    job: int = 0
    node: int = 0
    socket: int = 0
    task: int = 0
    where: dict = attrs.field(factory=dict)  # field -> directive that set it

    def count(self, field: str) -> int:
        """The count of ``field`` ("job", "node", "socket" or "task")."""
        return {"job": self.job, "node": self.node, "socket": self.socket, "task": self.task}[field]

    def shown(self, field: str) -> str:
        """How the option that set ``field`` reads in a message: `--gpus-per-node=v100:2`."""
        directive = self.where.get(field)
        option = _SHOWN[field]
        value = self.count(field)
        if directive is not None and directive.option.long == "tres-per-task":
            return f"`--tres-per-task=gres/gpu:{self.type + ':' if self.type else ''}{value}`"
        if directive is not None and directive.option.long == "gres":
            option = "--gres=gpu"
        prefix = f"{self.type}:" if self.type else ""
        return f"`{option}={prefix}{value}`" if option != "--gres=gpu" else f"`--gres=gpu:{prefix}{value}`"


def gpu_items(setting: Setting | None) -> list[GresItem]:
    """The ``gpu`` items of a ``--gres``/``--gpus*`` setting (none when it did not parse)."""
    return [i for i in gres_items(setting) or () if i.name == "gpu"]


def gpu_records(request: JobRequest) -> tuple[list[Record], bool]:
    """Records by GPU type in Slurm's order, and whether every GPU value parsed."""
    records: dict[str | None, Record] = {}
    complete = True
    for name in ("gpus", "gpus-per-node", "gres", "gpus-per-socket", "gpus-per-task"):
        setting = request.get(name)
        if setting is None:
            continue
        if not gres_parsed(setting):
            complete = False  # an invalid value: other rules report it
            continue
        field = _FIELD_OF[name]
        for item in gpu_items(setting):
            if item.count <= 0:
                continue
            record = records.setdefault(item.type, Record(item.type))
            setattr(record, field, item.count)
            record.where[field] = setting.directive
    tres = request.get("tres-per-task")
    if tres is not None and request.get("gpus-per-task") is None:
        # sbatch 24.11.5 refuses `--tres-per-task=gres/gpu=1 -N 1-2` ("--gpus-per-task or
        # --tres-per-task used without either --gpus or -n/--ntasks"): the same per-task count.
        for item in tres_items(tres) or ():
            if item.kind == "gres" and item.name == "gpu" and item.count > 0:
                record = records.setdefault(item.type, Record(item.type))
                record.task = item.count
                record.where["task"] = tres.directive
    return list(records.values()), complete


def requests_gpu(request: JobRequest) -> bool:
    """The component asks for a GPU in any of the ways sbatch counts."""
    records, _ = gpu_records(request)
    if records:
        return True
    return any(item.kind == "gres" and item.name == "gpu" and item.count > 0
               for item in tres_items(request.get("tres-per-task")) or ())
