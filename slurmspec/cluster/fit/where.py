"""Where each hetjob component may run: its partitions, and how the controller treats a limit one of them breaks.

``placements(ctx)`` gives, per component, the partitions named by
``--partition`` (a comma list) or the cluster's default partition, split into
the ones the job may use, the names the cluster does not have, and the ones
closed to new jobs (``State=INACTIVE`` or ``DRAIN``).

Measured with held-off submissions (``sbatch --begin=now+1hour``, then
``scancel``) and ``sbatch --test-only`` on Slurm 22.05.8 and 24.11.5
(tests/cluster/layouts.py), which match ``src/slurmctld/job_mgr.c``
(``_valid_job_part()``, ``_part_access_check()``, ``job_limits_check()``):

- an unknown name anywhere in the list refuses the job ("Invalid partition
  name specified"); an INACTIVE or DRAIN partition refuses it when it is the
  only one ("Required partition not available (inactive or drain)") and is
  dropped from a longer list; a DOWN one accepts it, and it pends;
- a partition *limit* (MaxTime, MaxNodes, MinNodes, the partition's node count,
  MaxMemPerNode, AllowAccounts ...) is judged over the list by
  ``EnforcePartLimits`` (``limit_outcome``): ``ALL`` refuses the job when any
  listed partition's limit is broken, ``ANY`` when every partition's is, and
  ``NO`` accepts it and lets it pend when every partition's is (it runs in
  another partition otherwise);
- what no node of any listed partition can give (CPUs, memory, GPUs,
  features, named nodes) refuses the job whatever ``EnforcePartLimits`` says
  ("Requested node configuration is not available") -- unless a listed
  partition is DOWN (``Placement.down``).
"""

from __future__ import annotations

from typing import Callable, Iterable


from slurmspec.cluster.fit import FitRun
from slurmspec.frozen import frozen
from slurmspec.kinds import EnforcePartLimits, Outcome

CLOSED_STATES = ("INACTIVE", "DRAIN")


@frozen
class Placement:
    """The partitions one component may run in."""

    component: object  # slurmspec.model.syntax.script.Component
    setting: object | None  # the effective --partition Setting, None for the default partition
    names: tuple[str, ...]  # as listed, in order (the default partition's name without --partition)
    usable: tuple = ()  # Partition records the job may run in, in the listed order
    unknown: tuple[str, ...] = ()  # listed names the cluster lacks
    closed: tuple = ()  # listed partitions that take no new jobs (INACTIVE, DRAIN)

    @property
    def request(self):
        return self.component.request

    @property
    def down(self) -> bool:
        """A listed partition is DOWN: the controller then checks nodes and node counts inconsistently.

        Measured: 22.05.8 refuses `-p down --mem=300G` (no node fits) but accepts
        `-p cpu,down --mem=300G`, which pends; 24.11.5 accepts both, and even
        `-p down -N 5` on a 2-node partition under EnforcePartLimits=ALL; with a
        DOWN partition in a longer list even `--time` over another partition's
        MaxTime is accepted under ALL (`-p down,cpu` and `-p cpu,down`), and
        `-p down -t 04:01:00` (MaxTime=04:00:00) is refused but accepted with a
        `--time-min`. The node and limit rules stay silent for such a job (SB402
        says the partition is down).
        """
        return any(p.state.upper() == "DOWN" for p in self.usable)

    @property
    def first(self):
        """The first usable partition: its DefaultTime sets a missing --time (closed ones are dropped first:
        `-p inactive,cpu --time-min=01:01:00` is refused against cpu's DefaultTime=01:00:00, 22.05.8)."""
        return self.usable[0] if self.usable else None

    def shown(self) -> str:
        """`partition gpu` / `partitions gpu, cpu` / `the default partition debug` for messages."""
        names = ", ".join(p.name for p in self.usable)
        if self.setting is None:
            return f"the default partition {names}"
        return f"partition{'s' if len(self.usable) > 1 else ''} {names}"


def placements(ctx: FitRun) -> tuple[Placement, ...]:
    """One ``Placement`` per component whose partitions can be read (shared per script)."""
    return ctx.shared(_placements)


def _placements(ctx: FitRun) -> tuple[Placement, ...]:
    profile = ctx.cluster
    found = []
    for component in ctx.script.components:
        setting = component.request.get("partition")
        if setting is None:
            default = profile.default_partition()
            if default is None:
                continue  # sbatch asks the controller, which refuses a job without a partition
            names = (default.name,)
        else:
            if not isinstance(setting.value, str) or not setting.value.strip(","):
                continue
            # job_mgr.c:_get_part_list(): a comma list; empty items are skipped.
            names = tuple(dict.fromkeys(name for name in setting.value.split(",") if name))
        usable, unknown, closed = [], [], []
        for name in names:
            partition = profile.partition(name)
            if partition is None:
                unknown.append(name)
            elif partition.state.upper() in CLOSED_STATES:
                closed.append(partition)
            else:
                usable.append(partition)
        found.append(Placement(component, setting, names, tuple(usable), tuple(unknown), tuple(closed)))
    return tuple(found)


def runnable(ctx: FitRun) -> Iterable[Placement]:
    """The placements whose partitions are all known and not all closed: the ones limits are judged on."""
    for placement in placements(ctx):
        if not placement.unknown and placement.usable:
            yield placement


def limit_outcome(ctx: FitRun, partitions: tuple, breaks: Callable[[object], bool]) -> Outcome | None:
    """What a partition limit that ``breaks`` some of ``partitions`` does to the job (None: nothing).

    ``EnforcePartLimits=ALL`` refuses on any broken partition, ``ANY`` when all
    are broken; ``NO`` accepts the job and leaves it pending when all are
    broken (measured on 22.05.8 and 24.11.5, see the module doc).
    """
    if any(p.state.upper() == "DOWN" for p in partitions):
        return None  # a DOWN partition: limits are not enforced consistently at submission (Placement.down)
    broken = [p for p in partitions if breaks(p)]
    if not broken:
        return None
    enforce = ctx.cluster.config.enforce_part_limits
    if enforce is EnforcePartLimits.ALL:
        return Outcome.REFUSED
    if len(broken) < len(partitions):
        return None
    return Outcome.REFUSED if enforce is EnforcePartLimits.ANY else Outcome.PENDS


def enforcement(ctx: FitRun, outcome: Outcome) -> str:
    """Why the outcome is what it is, for messages: `EnforcePartLimits=ALL refuses the job`."""
    enforce = ctx.cluster.config.enforce_part_limits.value
    if outcome is Outcome.REFUSED:
        return f"with EnforcePartLimits={enforce} the controller refuses the job"
    return f"with EnforcePartLimits={enforce} the job is accepted and pends forever"


def anchor(placement: Placement, *names: str):
    """Where to report: the first of ``names`` the component sets, else its --partition, else its first directive."""
    for name in names:
        setting = placement.request.get(name)
        if setting is not None:
            return setting.directive.span
    if placement.setting is not None:
        return placement.setting.directive.span
    directives = placement.component.directives
    return directives[0].span if directives else None


def where(setting) -> str:
    """`--time=3-00:00:00` (line 4) for a setting."""
    directive = setting.directive
    return f"`{directive.raw}` (line {directive.line})"
