"""The records of the job model (see ``slurmspec/model/job/model.py``): components, steps and tasks.

Every number is ``None`` when it cannot be known from the script's literal
values (a variable, a node range, an uneven split, a GPU binding the model
does not follow): consumers compare only numbers that are certain.
"""

from __future__ import annotations

import attrs

from slurmspec.body.model import Launch
from slurmspec.frozen import frozen, to
from slurmspec.kinds import GpuBindKind


@frozen
class GpuBind:
    """How a step's GPUs are split between the tasks of a node (``--gpu-bind`` and what implies it)."""

    kind: GpuBindKind = attrs.field(converter=to(GpuBindKind))
    count: int | None = None  # per_task:N / single:N
    ids: tuple[int, ...] = ()  # map_gpu:<ids>


@frozen
class Component:
    """What one hetjob component asks for (a plain job has one component, index 0)."""

    index: int
    nodes: int | None = None  # the node count when it is certain (the minimum of a fixed -N)
    tasks: int | None = None  # total tasks (one per node when no count is given)
    tasks_per_node: int | None = None  # when every node runs the same number
    tasks_explicit: bool = False  # a task count was given (-n, --ntasks-per-node, --gpus/--gpus-per-task)
    per_node_given: bool = False  # --ntasks-per-node without -n
    ntasks_exported: bool = False  # SLURM_NTASKS is set in the batch script, so srun reads it back
    cpus_per_task: int | None = None  # -c (or --tres-per-task=cpu=N); 1 when neither nor --cpus-per-gpu
    cpus_per_task_given: bool = False
    cpus_per_gpu: int | None = None
    cpus_per_node: int | None = None  # CPUs the component asks for on each node (tasks per node x -c)
    gpus_per_node: int | None = None  # 0: no GPU asked for
    gpus_total: int | None = None
    gpus_per_task: int | None = None  # --gpus-per-task (or --tres-per-task=gres/gpu=N) as given
    ntasks_per_gpu: int | None = None
    gpu_bind: GpuBind | None = None  # --gpu-bind as given (None: not given)
    distribution: str | None = None  # first level of -m (block, cyclic, plane, arbitrary)
    # Where the numbers come from, for messages: "`--gres=gpu:4`", "`--ntasks-per-node=2`".
    gpu_source: str = ""
    task_source: str = ""
    node_source: str = ""

    @property
    def has_gpus(self) -> bool:
        return bool(self.gpus_per_node) or bool(self.gpus_total)

    @property
    def cpus_per_task_asked(self) -> int | None:
        """``-c`` as the script gives it (None when only the default of 1 or ``--cpus-per-gpu`` sets it)."""
        return self.cpus_per_task if self.cpus_per_task_given else None


@frozen
class Task:
    """One task of a step: its rank, local rank, node index and the GPUs it can see.

    ``gpus`` are positions among the GPUs the step holds on the task's node (what
    ``CUDA_VISIBLE_DEVICES`` shows when devices are constrained by cgroup; the
    node's own numbers when the job holds every GPU of the node); None unknown.
    """

    rank: int
    local_rank: int
    node: int
    gpus: tuple[int, ...] | None = None


@frozen
class Step:
    """One launch statement of the body and what it starts.

    ``srun`` is None when the statement runs in the batch script itself: then the
    step is the batch step, one task on the job's first node that sees all of that
    node's CPUs and GPUs (``mpirun``/``horovodrun`` spread their own processes).
    """

    launch: Launch  # the outermost launch of the statement
    srun: Launch | None  # the srun that starts the step's tasks
    work: Launch  # the innermost launch (what each process runs)
    spawner: Launch | None  # torchrun/accelerate/deepspeed/mpirun/horovodrun between srun and the work
    component: int | None  # hetjob component (--het-group); None for several or a variable
    nodes: int | None = None
    tasks: int | None = None  # Slurm tasks of the step (1 for the batch step)
    tasks_per_node: int | None = None
    cpus_per_task: int | None = None  # CPUs each task is laid out with (the batch step: the node's CPUs)
    cpus_explicit: bool = False  # the step's -c came from srun -c / SRUN_CPUS_PER_TASK / inheritance
    gpus_per_node: int | None = None  # GPUs the step holds on each node
    gpus_total: int | None = None
    gpus_per_task: int | None = None  # GPUs each task can see, when every task sees as many
    gpu_bind: GpuBind | None = None  # the binding in effect for the step (given or implied)
    processes_per_task: int | None = None  # what each task starts (torchrun --nproc-per-node...)
    processes: int | None = None
    processes_per_node: int | None = None
    task_list: tuple[Task, ...] | None = None  # every task, when the counts are known and small
    fits: bool | None = None  # False: asks more CPUs/GPUs per node than the job requested
    gpu_source: str = ""
    task_source: str = ""
    node_source: str = ""

    @property
    def in_batch(self) -> bool:
        return self.srun is None


@frozen
class JobModel:
    """What the job will do: its components and one step per launch statement, in file order."""

    components: tuple[Component, ...]
    steps: tuple[Step, ...]
    # id of every launch of every step's chain -> its step. Rules ask for the step of each
    # launch, so a search of the steps would make the script's launches cost O(launches²).
    _by_launch: dict[int, Step] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        index: dict[int, Step] = {}
        for step in self.steps:
            for node in step.launch.walk():
                index.setdefault(id(node), step)  # the first step holding it, as a search would find
        object.__setattr__(self, "_by_launch", index)

    def component(self, index: int = 0) -> Component | None:
        return self.components[index] if 0 <= index < len(self.components) else None

    def step_of(self, launch: Launch) -> Step | None:
        """The step a launch belongs to (any launch of a statement's chain); O(1)."""
        # The steps keep their launches alive, so an id found here can only be this launch's.
        return self._by_launch.get(id(launch))
