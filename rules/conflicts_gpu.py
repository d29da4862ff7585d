"""SB140–SB150: GPU requests that sbatch refuses as inconsistent.

Most of these come from sbatch's client-side GRES validation
(``slurm_opt_create_job_desc()`` → ``gres.c:gres_job_state_validate()``),
which runs before anything reaches the controller and prints a specific error
followed by ``Invalid generic resource (gres) specification``
(slurm-semantics.md §4.3). The model below was written from those messages and
checked case by case against sbatch 22.05.8 with ``--test-only``:

* GPU requests are grouped by type: ``--gpus=v100:2`` and ``--gres=gpu:v100:4``
  meet in one record, untyped requests in another; each record holds a count
  per job (``--gpus``), per node (``--gpus-per-node``, then ``--gres=gpu``,
  which wins when both are given), per socket and per task. Inside one option
  the last item of a type wins (``--gpus=2,1`` is 1). Zero counts are dropped.
* An untyped record with a count next to a typed one is refused ("with and
  without type identification"); untyped ``--mem-per-gpu``/``--cpus-per-gpu``
  alone merge into typed records.
* Two GPU types in one job together with ``--cpus-per-gpu`` are left to the
  controller (sbatch printed a record's error but still submitted the job).
* Each record is checked in turn against the job's geometry: the node range
  (``-N``, raised to the ``--nodelist`` host count on 22.05, lowered to ``-n``
  when that is smaller), the task count, ``--ntasks-per-node``,
  ``--sockets-per-node`` (or ``-B``) and ``--ntasks-per-socket``. Counts
  implied by one check feed the next, as in Slurm.
* The task count is ``-n``; on 22.05 sbatch also implies one (see
  `geometry()`): a fixed ``-N k`` gives k tasks (none with ``-c``), times
  ``--ntasks-per-node`` or times sockets × cores × threads when those are
  given (also with ``-c``); ``--ntasks-per-node`` or ``-B`` alone, and a node
  list with socket/core/thread counts, imply their product; ``-m arbitrary``
  gives one task per distinct listed host. A ``-N`` range implies nothing.
  With ``-m arbitrary`` or an explicit ``-n``, ``--ntasks-per-gpu`` and
  ``--gpus-per-task`` turn into a GPU total that must cover ``-N``.

From 23.02 the client no longer derives the task count from ``-N`` and
``--ntasks-per-node``; there, any check that would need an implied count is
skipped rather than guessed.
"""

from __future__ import annotations

import attrs

from slurmspec.rules._legacy import Context, Rule
from slurmspec.model.script import Directive
from slurmspec.rules.conflicts import count_hosts, first_occurrence
from slurmspec.fix import build

_GPU_OPTIONS = ("gpus", "gpus-per-node", "gres", "gpus-per-socket", "gpus-per-task")
_FIELD_OF = {"gpus": "job", "gpus-per-node": "node", "gres": "node",
             "gpus-per-socket": "socket", "gpus-per-task": "task"}
_SHOWN = {"job": "--gpus", "node": "--gpus-per-node", "socket": "--gpus-per-socket",
          "task": "--gpus-per-task"}
_UNKNOWN = object()  # a count Slurm derives in a way this model does not follow
_LAYOUT = ("threads-per-core", "ntasks-per-core", "cores-per-socket", "sockets-per-node")


@attrs.define
class _Record:
    type: str | None
    job: int = 0
    node: int = 0
    socket: int = 0
    task: int = 0
    where: dict = attrs.field(factory=dict)  # field -> directive that set it

    def shown(self, field: str) -> str:
        directive = self.where.get(field)
        option = _SHOWN[field]
        if directive is not None and directive.option.long == "gres":
            option = "--gres=gpu"
        value = getattr(self, field)
        prefix = f"{self.type}:" if self.type else ""
        return f"`{option}={prefix}{value}`" if option != "--gres=gpu" else f"`--gres=gpu:{prefix}{value}`"


def _items(setting) -> list:
    value = setting.value if setting is not None else None
    return [i for i in getattr(value, "items", ()) or () if getattr(i, "name", None) == "gpu"]


def gpu_records(request) -> tuple[list[_Record], bool]:
    """Records by GPU type in Slurm's order, and whether every GPU value parsed."""
    records: dict[str | None, _Record] = {}
    complete = True
    for name in ("gpus", "gpus-per-node", "gres", "gpus-per-socket", "gpus-per-task"):
        setting = request.get(name)
        if setting is None:
            continue
        if not hasattr(setting.value, "items"):
            complete = False  # an invalid value: other rules report it
            continue
        field = _FIELD_OF[name]
        for item in _items(setting):
            if item.count <= 0:
                continue
            record = records.setdefault(item.type, _Record(item.type))
            setattr(record, field, item.count)
            record.where[field] = setting.directive
    return list(records.values()), complete


def requests_gpu(request) -> bool:
    records, _ = gpu_records(request)
    if records:
        return True
    tres = request.get("tres-per-task")
    for item in getattr(getattr(tres, "value", None), "items", ()) or ():
        if item.kind == "gres" and item.name == "gpu" and item.count > 0:
            return True
    return False


def _count(request, name: str):
    setting = request.get(name)
    if setting is None:
        return None
    value = getattr(setting.value, "value", None)
    return value if isinstance(value, int) else _UNKNOWN


@attrs.define
class _Geometry:
    min_nodes: object = None
    max_nodes: object = None
    num_tasks: object = None
    ntasks_per_node: object = None
    sockets_per_node: object = None
    ntasks_per_socket: object = None
    tasks_from_hosts: bool = False  # -m arbitrary: the task count is the host count
    # -B / --sockets/cores/threads-per-* with a fixed -N set the task count
    # outright on 22.05 (_opt_verify: nodes x S x C x T), as if -n were given.
    tasks_from_layout: bool = False


def geometry(request, version) -> _Geometry:
    """The node/task counts sbatch hands to the GRES check (None = unset)."""
    g = _Geometry()
    nodes = request.get("nodes")
    n_min = n_max = None
    if nodes is not None:
        n_min = getattr(nodes.value, "minimum", None)
        n_max = getattr(nodes.value, "maximum", None)
        if n_min == 0 and n_max == 0:
            nodes = n_min = n_max = None  # -N 0 counts as no -N (checked against 22.05.8)
        elif not isinstance(n_min, int) or not isinstance(n_max, int) or n_min <= 0:
            n_min = n_max = _UNKNOWN
        elif n_max == 0:
            n_max = None
    nodelist = request.get("nodelist")
    listed = nodelist is not None or request.get("nodefile") is not None
    if listed:
        hosts = count_hosts(nodelist.raw) if nodelist is not None else None
        if hosts is None or n_min is _UNKNOWN:
            n_min = n_max = _UNKNOWN
        elif n_min is None:
            n_min = hosts
        elif version < (23, 2):
            n_min = max(n_min, hosts)
    ntasks = _count(request, "ntasks")
    if isinstance(ntasks, int) and isinstance(n_min, int) and ntasks < n_min:
        n_min = n_max = ntasks  # "can't run N processes on M nodes, setting nnodes to N"
    if isinstance(ntasks, int) and isinstance(n_max, int) and n_max > ntasks:
        n_max = ntasks
    g.min_nodes, g.max_nodes = n_min, n_max
    per_node = _count(request, "ntasks-per-node")
    g.ntasks_per_node = per_node
    # The task count: -n; on 22.05 also implied by a fixed -N k (k tasks unless
    # -c is given, or k x --ntasks-per-node) or by --ntasks-per-node alone; a -N
    # range or a node list alone implies none (all checked against sbatch 22.05.8).
    # With -m arbitrary the task count is the number of distinct listed hosts.
    arbitrary = _arbitrary(request)
    zero_nodes = request.get("nodes") is not None and nodes is None
    if ntasks is not None:
        g.num_tasks = ntasks
    elif (arbitrary and version < (23, 2) and isinstance(n_min, int) and n_max in (None, n_min)
          and per_node is None and isinstance(_layout_product(request), int)):
        # A layout count beats the host count (`-m arbitrary -w v100-01 -N 2
        # --threads-per-core=1 --ntasks-per-gpu=2` fails with "--gpus < -N" on
        # 22.05.8, without --threads-per-core it passes; `-m arbitrary
        # -w v100-[01-02] --sockets-per-node=2 --ntasks-per-gpu=2` passes: 4 tasks).
        g.num_tasks = n_min * _layout_product(request)
        g.tasks_from_layout = True
    elif arbitrary and version < (23, 2):
        # (with --ntasks-per-node the count is something else: not followed)
        hosts = count_hosts(nodelist.raw) if nodelist is not None and per_node is None else None
        g.num_tasks = hosts if hosts is not None else _UNKNOWN
        g.tasks_from_hosts = hosts is not None
    elif request.get("extra-node-info") is not None and nodes is None and not listed:
        # -B S:C:T alone implies S x C x T tasks (a missing level counts 1:
        # `--gpus=2 --gpus-per-task=1 -B 1` is refused by 22.05.8)
        product = _layout_product(request)
        g.num_tasks = product if version < (23, 2) and isinstance(product, int) else _UNKNOWN
    elif (zero_nodes or (listed and nodes is None)) and any(
            request.get(n) is not None for n in _LAYOUT[:1] + _LAYOUT[2:]):
        # A node list with a socket/core/thread count implies hosts x S x C x T
        # tasks (`-w v100-01 --sockets-per-node=1 --gpus=2 --gpus-per-task=1` is
        # refused by 22.05.8; with --ntasks-per-core alone none is implied)
        product = _layout_product(request)
        g.num_tasks = _UNKNOWN
        if (version < (23, 2) and not zero_nodes and isinstance(n_min, int) and isinstance(product, int)
                and per_node is None):
            g.num_tasks = n_min * product
            g.tasks_from_layout = True  # `-w v100-[01-02] --sockets-per-node=1 --ntasks-per-gpu=2`: "--gpus < -N"
    elif version >= (23, 2):
        g.num_tasks = _UNKNOWN if (nodes is not None or per_node is not None or arbitrary) else None
    elif nodes is not None:
        # "fixed" after the node list raised the minimum: `-w n[01-03] -N 2-3` is 3 nodes
        if not isinstance(n_min, int) or n_min != n_max:
            g.num_tasks = _UNKNOWN if not isinstance(n_min, int) else None
        elif isinstance(per_node, int):
            g.num_tasks = n_min * per_node
        elif per_node is _UNKNOWN:
            g.num_tasks = _UNKNOWN
        elif _layout_product(request) is not None:
            # -N k with sockets/cores/threads implies k x S x C x T tasks, with or
            # without -c (`-N 1 --threads-per-core=2 --gpus=1 --gpus-per-task=1`
            # and `-B 2:1:1 -c 2 --gpus=1 --gpus-per-task=1` are refused)
            product = _layout_product(request)
            g.num_tasks = n_min * product if isinstance(product, int) else _UNKNOWN
            g.tasks_from_layout = isinstance(product, int)
        elif request.get("cpus-per-task") is None:
            g.num_tasks = n_min  # with -c (and no --ntasks-per-node) none is implied
    elif per_node is not None:
        g.num_tasks = _UNKNOWN if listed else per_node
    sockets = _count(request, "sockets-per-node")
    if sockets is None and request.get("extra-node-info") is not None:
        sockets = _UNKNOWN
    g.sockets_per_node = sockets
    g.ntasks_per_socket = _count(request, "ntasks-per-socket")
    return g


def _layout_product(request):
    """Sockets x cores x threads asked for (-B and the per-level options), None if none.

    A missing level counts 1; _UNKNOWN when a level is a range or set twice.
    """
    names = ("sockets-per-node", "cores-per-socket", "threads-per-core")
    b = request.get("extra-node-info")
    if b is None and not any(request.get(n) is not None for n in names):
        return None
    levels = list(getattr(getattr(b, "value", None), "levels", None) or ()) if b is not None else []
    if b is not None and not levels:
        return _UNKNOWN
    levels += [None] * (3 - len(levels))
    product = 1
    for level, name in zip(levels, names):
        explicit = _count(request, name)
        if explicit is not None and level is not None:
            # Both -B and the per-level option set the same field: the one set
            # last wins (`-B 2:1:1 --sockets-per-node=2 --gpus=1 --gpus-per-task=1`
            # implies 2 tasks and is refused by 22.05.8).
            if request.get(name).directive.span.start > b.directive.span.start:
                level = None
            else:
                explicit = None
        if explicit is not None:
            if not isinstance(explicit, int):
                return _UNKNOWN
            product *= explicit
        elif level is not None:
            if not isinstance(level, tuple) or level[0] != level[1]:
                return _UNKNOWN
            product *= level[0]
    return product


def _arbitrary(request) -> bool:
    dist = request.get("distribution")
    levels = getattr(getattr(dist, "value", None), "levels", None)
    if dist is not None and levels is None:
        return True  # invalid: other rules report it; assume the worst
    return bool(levels) and levels[0] == "arbitrary"


def _known(*values) -> bool:
    return all(isinstance(v, int) for v in values)


_AGREES, _GIVE_UP = object(), object()


def _settle(g: _Geometry, field: str, derived: int) -> object:
    """Record a count one GPU option pair implies, as Slurm's GRES validation does.

    Unknown so far: it becomes ``derived`` (``_AGREES``). Unknowable: ``_GIVE_UP``.
    Otherwise ``_AGREES`` when it matches, else the conflicting known value.
    """
    known = getattr(g, field)
    if known is None:
        setattr(g, field, derived)
        return _AGREES
    if known is _UNKNOWN:
        return _GIVE_UP
    return _AGREES if known == derived else known


def _test_record(r: _Record, g: _Geometry) -> tuple[str, str, Directive] | None:
    """(code, message, where) for the first inconsistency of one GPU record, else None.

    Mirrors the order of sbatch's checks; counts it derives are written back to ``g``.
    """
    at = lambda *fields: max((r.where[f] for f in fields), key=lambda d: d.span.start)  # noqa: E731
    if r.job:
        for field in ("node", "task", "socket"):
            value = getattr(r, field)
            if value and value > r.job:
                code = {"node": "SB142", "task": "SB143", "socket": "SB145"}[field]
                return code, (f"{r.shown(field)} is more than {r.shown('job')} in total"), at("job", field)
    if r.node:
        for field in ("task", "socket"):
            value = getattr(r, field)
            if value and value > r.node:
                code = "SB143" if field == "task" else "SB145"
                return code, f"{r.shown(field)} is more than {r.shown('node')}", at("node", field)
    if r.socket and g.sockets_per_node is None:
        return "SB145", (f"{r.shown('socket')} needs `--sockets-per-node`"
                         " (\"--gpus-per-socket option requires --sockets-per-node specification\")"), at("socket")
    if r.job and r.node:
        if r.job % r.node:
            return "SB142", f"{r.shown('job')} is not a multiple of {r.shown('node')}", at("job", "node")
        need = r.job // r.node
        if g.min_nodes is _UNKNOWN or g.max_nodes is _UNKNOWN:
            return None
        if (g.min_nodes is not None and need < g.min_nodes) or (g.max_nodes is not None and need > g.max_nodes):
            span = f"{g.min_nodes}" if g.min_nodes == g.max_nodes else f"{g.min_nodes}-{g.max_nodes or ''}"
            return "SB142", (f"{r.shown('job')} with {r.shown('node')} needs exactly {need}"
                             f" node{'s' if need != 1 else ''}, but the job asks for {span}"), at("job", "node")
        g.min_nodes = g.max_nodes = need
    if r.node and r.socket:
        if r.node % r.socket:
            return "SB145", f"{r.shown('node')} is not a multiple of {r.shown('socket')}", at("node", "socket")
        sockets = r.node // r.socket
        known = _settle(g, "sockets_per_node", sockets)
        if known is _GIVE_UP:
            return None
        if known is not _AGREES:
            return "SB145", (f"{r.shown('node')} with {r.shown('socket')} means {sockets}"
                             f" socket{'s' if sockets != 1 else ''} per node, not"
                             f" `--sockets-per-node={known}`"), at("node", "socket")
    if r.job and r.task:
        if r.job % r.task:
            return "SB143", f"{r.shown('job')} is not a multiple of {r.shown('task')}", at("job", "task")
        tasks = r.job // r.task
        known = _settle(g, "num_tasks", tasks)
        if known is _GIVE_UP:
            return None
        if known is not _AGREES:
            return "SB143", (f"{r.shown('job')} with {r.shown('task')} makes {tasks}"
                             f" task{'s' if tasks != 1 else ''}, but the job has {known}"
                             " (\"number of requested tasks differ from -n/--ntasks\")"), at("job", "task")
    elif r.task and g.num_tasks is None:
        return "SB141", "", at("task")
    if r.node and r.task:
        if r.node % r.task:
            return "SB143", f"{r.shown('node')} is not a multiple of {r.shown('task')}", at("node", "task")
        per_node = r.node // r.task
        known = _settle(g, "ntasks_per_node", per_node)
        if known is _GIVE_UP:
            return None
        if known is not _AGREES:
            return "SB143", (f"{r.shown('node')} with {r.shown('task')} makes {per_node}"
                             f" task{'s' if per_node != 1 else ''} per node, not"
                             f" `--ntasks-per-node={known}`"), at("node", "task")
    if r.socket and r.task:
        if r.socket % r.task:
            return "SB145", f"{r.shown('socket')} is not a multiple of {r.shown('task')}", at("socket", "task")
        per_socket = r.socket // r.task
        known = _settle(g, "ntasks_per_socket", per_socket)
        if known is _GIVE_UP:
            return None
        if known is not _AGREES:
            return "SB145", (f"{r.shown('socket')} with {r.shown('task')} makes {per_socket}"
                             f" task{'s' if per_socket != 1 else ''} per socket, not"
                             f" `--ntasks-per-socket={known}`"), at("socket", "task")
    if (not r.job and r.task and g.tasks_from_hosts and isinstance(g.num_tasks, int)
            and isinstance(g.min_nodes, int) and g.num_tasks * r.task < g.min_nodes):
        # With -m arbitrary, --gpus-per-task becomes a job total (tasks x per task):
        # `-m arbitrary -w n[01-02] --gpus-per-task=1 -N 3` fails with "--gpus < -N".
        return "SB144", (f"{r.shown('task')} for the {g.num_tasks} listed host(s) of the arbitrary"
                         f" distribution is fewer GPUs than the {g.min_nodes} nodes the job asks for"
                         " (\"--gpus < -N\")"), at("task")
    if r.job and isinstance(g.min_nodes, int) and r.job < g.min_nodes:
        return "SB144", (f"{r.shown('job')} is fewer GPUs than the {g.min_nodes} nodes the job"
                         " asks for; every node needs at least one (\"--gpus < -N\")"), at("job")
    return None


_TAIL = {
    "SB142": "Make the total a multiple of the per-node count that fits the node count, or give only one of them",
    "SB143": "Make the counts agree (tasks × `--gpus-per-task` GPUs), or give only `--gpus-per-task` and `--ntasks`",
    "SB144": "Ask for at least one GPU per node, or use `--gpus-per-node`",
    "SB145": "Make the per-socket count divide the per-node count and give `--sockets-per-node`",
}


def check_gpu_counts(ctx: Context) -> None:
    for component in ctx.script.components:
        request = component.request
        records, complete = gpu_records(request)
        if not records or not complete:
            continue
        typed = [r for r in records if r.type is not None]
        untyped = [r for r in records if r.type is None]
        if typed and untyped:
            _report_mixed(ctx, untyped[0], typed[0])
            continue
        if len(typed) > 1 and request.get("cpus-per-gpu") is not None:
            # Two GPU types with --cpus-per-gpu: sbatch 22.05.8 printed the
            # per-record error (`--gpus-per-task=v100:1 --gres=gpu:a100:4
            # --cpus-per-gpu=1`: "--gpus-per-task used without ...") yet went on
            # to the controller; without --cpus-per-gpu the error is fatal.
            continue
        g = geometry(request, ctx.version)
        for record in records:
            found = _test_record(record, g)
            if found is None:
                continue
            code, message, where = found
            if code == "SB141":
                ctx.report(
                    "SB141", where.span,
                    f"{record.shown('task')} needs a task count, but the job has neither `--ntasks`"
                    " nor `--gpus`; sbatch refuses it (\"--gpus-per-task used without either"
                    " --gpus or -n/--ntasks is not allowed\"). Add `--ntasks` (or a fixed"
                    " `--nodes` with `--ntasks-per-node`)",
                )
            else:
                ctx.report(code, where.span, f"{message}; sbatch refuses the job. {_TAIL[code]}")
            break  # sbatch stops at the first record that fails


def _report_mixed(ctx: Context, untyped: _Record, typed: _Record) -> None:
    a = next(iter(untyped.where.values()))
    b = next(iter(typed.where.values()))
    if a is b:
        return  # one option mixes them: SB115 reports the value
    later = max(a, b, key=lambda d: d.span.start)
    other = b if later is a else a
    ctx.report(
        "SB147", later.span,
        f"`{later.raw}` and `{other.raw}` (line {other.line}) ask for GPUs both with and"
        " without a type; sbatch refuses the job (\"Invalid GRES specification (with and without"
        " type identification)\"). Name the type in every GPU option, or in none",
    )


# ------------------------------------------------------------------- SB140
def check_cpus_per_gpu(ctx: Context) -> None:
    # 22.05: client GRES check "--cpus-per-gpu is mutually exclusive with
    # --cpus-per-task" (with or without a GPU, checked against sbatch 22.05.8);
    # 23.11+: option-level fatal. 23.02+: --cpus-per-gpu needs a GPU (SB146).
    for component in ctx.script.components:
        request = component.request
        cpg, cpt = request.get("cpus-per-gpu"), request.get("cpus-per-task")
        if cpg is None or cpt is None:
            continue
        later = max(first_occurrence(cpg), first_occurrence(cpt), key=lambda d: d.span.start)
        other = first_occurrence(cpt) if later is first_occurrence(cpg) else first_occurrence(cpg)
        ctx.report(
            "SB140", later.span,
            f"`--cpus-per-gpu` and `--cpus-per-task` (line {other.line}) both set the CPUs of a"
            " task; sbatch refuses the job (\"--cpus-per-gpu is mutually exclusive with"
            " --cpus-per-task\"). Keep one of them",
        )


# ------------------------------------------------------------------- SB146
def check_per_gpu_without_gpu(ctx: Context) -> None:
    # "Requested mem_per_tres=gres:gpu:N but did not request any GPU" (all
    # versions, checked against sbatch 22.05.8); the same for cpus_per_tres from
    # 23.02 (22.05 accepts --cpus-per-gpu alone). --gpus=0 and --gres=none count
    # as no GPU.
    for component in ctx.script.components:
        request = component.request
        names = ["mem-per-gpu"] + (["cpus-per-gpu"] if ctx.version >= (23, 2) else [])
        present = [request.get(n) for n in names if request.get(n) is not None]
        if not present:
            continue
        if not gpu_records(request)[1] or requests_gpu(request):
            continue  # GPUs requested, or an invalid GPU value that other rules report
        if request.get("ntasks-per-gpu") is not None or request.get("ntasks-per-tres") is not None:
            continue  # GPUs generated from the task count (`-N 1 --ntasks-per-gpu=1` is enough)
        for setting in present:
            instead = "--mem-per-cpu" if setting.name == "mem-per-gpu" else "--cpus-per-task"
            ctx.report(
                "SB146", setting.directive.span,
                f"`--{setting.name}={setting.raw}` is given but the job requests no GPU; sbatch"
                " refuses it (\"did not request any GPU\"). Request GPUs (`--gpus`,"
                f" `--gpus-per-node`, `--gres=gpu:N`) or use `{instead}`",
            )


# ------------------------------------------------------------ SB148, SB149
def check_ntasks_per_gpu(ctx: Context) -> None:
    # slurm_opt.c:_validate_ntasks_per_gpu() (fatal, checked against sbatch
    # 22.05.8), then the GRES check: --ntasks-per-gpu/--ntasks-per-tres needs a
    # GPU count or a task count ("--ntasks-per-tres needs either a GRES GPU
    # specification or a node/ntask specification").
    for component in ctx.script.components:
        request = component.request
        npg = request.get("ntasks-per-gpu")
        npt = request.get("ntasks-per-tres")
        if (npg is not None or npt is not None) and _ntasks_per_gpu_clash(ctx, request, npg, npt):
            continue
        setting = npg if npg is not None else npt
        if setting is None or not isinstance(_count(request, setting.name), int):
            continue
        if not gpu_records(request)[1] or requests_gpu(request):
            continue
        per, ntasks = _count(request, setting.name), _count(request, "ntasks")
        g = geometry(request, ctx.version)
        explicit = g.tasks_from_hosts or g.tasks_from_layout or isinstance(ntasks, int)
        if (isinstance(per, int) and per > 0 and explicit and isinstance(g.num_tasks, int)
                and isinstance(g.min_nodes, int)):
            # The GPUs are generated as a job total, tasks / per, which then has to
            # cover the nodes (`-N 2 -n 2 --ntasks-per-gpu=2` and `-m arbitrary
            # -w n[01-02] --ntasks-per-gpu=2` fail with "--gpus < -N" on 22.05.8;
            # a count implied by -N is not checked:
            # `-N 2 --ntasks-per-gpu=2` is accepted).
            gpus = g.num_tasks // per
            if 0 < gpus < g.min_nodes:
                ctx.report(
                    "SB144", setting.directive.span,
                    f"`--{setting.name}={per}` with {g.num_tasks} tasks makes {gpus} GPU"
                    f"{'s' if gpus != 1 else ''} in total, fewer than the {g.min_nodes} nodes of the"
                    " job; sbatch refuses it (\"--gpus < -N\"). Give `--gpus-per-node` or more tasks",
                )
                continue
        if isinstance(ntasks, int):
            # Without a GPU count the GPUs come from -n, which must divide evenly
            # (`--ntasks-per-gpu=2 -n 3` fails on 22.05.8; an implied count is not checked).
            # With -n below it the generated GPU count is 0 and sbatch only logs
            # "Failed to add generated GRES gres:gpu:0" (`-n 1 --ntasks-per-gpu=2` is accepted).
            if per and ntasks >= per and ntasks % per:
                ctx.report(
                    "SB148", request.get("ntasks").directive.span,
                    f"`--ntasks={ntasks}` is not a multiple of `--{setting.name}={per}`, and no GPU"
                    " count is given to work from; sbatch refuses the job (\"-n/--ntasks has to"
                    " be a multiple of --ntasks-per-gpu\"). Make the task count a multiple, or"
                    " give `--gpus`",
                )
            continue
        if g.num_tasks is not None or _nodes_known(request):
            continue
        ctx.report(
            "SB149", setting.directive.span,
            f"`--{setting.name}={setting.raw}` needs a GPU count or a task count to work from, and"
            " the job has neither; sbatch refuses it (\"--ntasks-per-tres needs either a GRES GPU"
            " specification or a node/ntask specification\"). Add `--gpus` or `--ntasks`",
        )


def _nodes_known(request) -> bool:
    # A fixed node count is enough for --ntasks-per-gpu even when -c keeps it
    # from implying tasks: sbatch 22.05.8 accepts `-N 1 -c 1` next to
    # --ntasks-per-gpu=1, but refuses a range such as `-N 1-2`, `-N 0`, and a
    # node list without -m arbitrary.
    nodes = request.get("nodes")
    if nodes is None:
        return False
    value = nodes.value
    minimum, maximum = getattr(value, "minimum", None), getattr(value, "maximum", None)
    if not isinstance(minimum, int) or not isinstance(maximum, int):
        return True  # invalid: other rules report it
    return 0 < minimum == maximum


def _ntasks_per_gpu_clash(ctx: Context, request, npg, npt) -> bool:
    # --ntasks-per-tres sets the same field, so it clashes the same way
    # (`--gpus-per-task=1 -N 1 --ntasks-per-tres=1` fails on 22.05.8).
    mine = npg if npg is not None else npt
    for other in ("gpus-per-task", "gpus-per-socket", "ntasks-per-node"):
        setting = request.get(other)
        if setting is None:
            continue
        later = max(first_occurrence(mine), first_occurrence(setting), key=lambda d: d.span.start)
        ctx.report(
            "SB148", later.span,
            f"`--{mine.name}` cannot be combined with `--{other}`; sbatch stops with"
            f" \"--{other} is mutually exclusive with --ntasks-per-gpu\". Use one way of"
            " tying tasks to GPUs",
        )
        return True
    a, b = _count(request, "ntasks-per-gpu"), _count(request, "ntasks-per-tres")
    if npg is not None and npt is not None and _known(a, b) and a != b:
        later = max(npg.directive, npt.directive, key=lambda d: d.span.start)
        ctx.report(
            "SB148", later.span,
            f"`--ntasks-per-gpu={a}` and `--ntasks-per-tres={b}` disagree; sbatch stops with"
            " \"Inconsistent values set to --ntasks-per-gpu and --ntasks-per-tres\". Give only"
            " `--ntasks-per-gpu`",
        )
        return True
    return False


# ------------------------------------------------------------------- SB150
def check_gres_with_gpus_per_node(ctx: Context) -> None:
    # 26.05 slurm_opt.c:_validate_gres_vs_gpus_per_node() (slurm-semantics.md §4.3).
    if ctx.version < (26, 5):
        return
    for component in ctx.script.components:
        request = component.request
        gres, gpn = request.get("gres"), request.get("gpus-per-node")
        if gres is None or gpn is None or not _items(gres):
            continue
        later = max(first_occurrence(gres), first_occurrence(gpn), key=lambda d: d.span.start)
        ctx.report(
            "SB150", later.span,
            "`--gres=gpu` and `--gpus-per-node` both ask for GPUs per node; Slurm 26.05 stops"
            " with \"--gpus-per-node and --gres=gpu are mutually exclusive.\" Keep one of them",
            fix=build.drop_gres_same_as_gpus_per_node(ctx.script, gres, gpn),
        )


def _doc(what: str, why: str, bad: str, good: str, versions: str, refs: str) -> str:
    return (f"## What it does\n{what}\n\n## Why is this bad?\n{why}\n\n## Example\n```sbatch\n"
            f"#!/bin/bash\n{bad}srun ./app\n```\n\n## Use instead\n```sbatch\n#!/bin/bash\n{good}"
            f"srun ./app\n```\n\n## Slurm versions\n{versions}\n\n## References\n{refs}")


_GRES_REF = "- `man sbatch`, `--gpus`, `--gpus-per-node`, `--gpus-per-task`, `--gres`\n- slurm-semantics.md §4.3 (client-side GRES checks)"

RULES = (
    Rule("SB140", "cpus-per-gpu-with-cpus-per-task", "error", check_cpus_per_gpu, _doc(
        "Finds `--cpus-per-gpu` and `--cpus-per-task` (`-c`) in the same component.",
        "Both decide how many CPUs each task gets; sbatch refuses the pair (22.05: `--cpus-per-gpu is"
        " mutually exclusive with --cpus-per-task`; 23.11+: `--cpus-per-task, --tres-per-task=cpu:#, and"
        " --cpus-per-gpu are mutually exclusive`).",
        "#SBATCH --gpus-per-node=4\n#SBATCH --cpus-per-task=8\n#SBATCH --cpus-per-gpu=8\n",
        "#SBATCH --gpus-per-node=4\n#SBATCH --cpus-per-gpu=8\n",
        "All (22.05–23.02 in the GPU validation, 23.11+ as an option conflict).",
        "- `man sbatch`, `--cpus-per-gpu` (\"Not compatible with the --cpus-per-task option\")\n- slurm-semantics.md §4.3, §7",
    )),
    Rule("SB141", "gpus-per-task-without-tasks", "error", check_gpu_counts, _doc(
        "Finds `--gpus-per-task` in a job that has no task count: no `--ntasks`, no `--gpus`, and (on"
        " 22.05) no fixed `--nodes`/`--ntasks-per-node` that would imply one. A node range such as"
        " `-N 1-2` implies nothing.",
        "Slurm multiplies `--gpus-per-task` by the number of tasks; without one sbatch refuses the job:"
        " `--gpus-per-task used without either --gpus or -n/--ntasks is not allowed`.",
        "#SBATCH --gpus-per-task=1\n#SBATCH --cpus-per-task=8\n",
        "#SBATCH --ntasks=4\n#SBATCH --gpus-per-task=1\n#SBATCH --cpus-per-task=8\n",
        "All. On 22.05 a fixed `-N k` (times `--ntasks-per-node`) or `--ntasks-per-node` alone implies"
        " the task count; newer releases leave that to the controller, so only `--ntasks` is certain.",
        _GRES_REF,
    )),
    Rule("SB142", "gpus-per-node-inconsistent", "error", check_gpu_counts, _doc(
        "Finds `--gpus` that is not a multiple of the per-node GPU count (`--gpus-per-node` or"
        " `--gres=gpu`), a per-node count above `--gpus`, or a total whose node count"
        " (`--gpus` ÷ per-node) falls outside `--nodes`.",
        "Slurm derives the node count from the two and refuses counts that do not divide or that"
        " contradict `--nodes`: `--gpus is not multiple of --gres=gpu/--gpus-per-node`, `Failed to ensure"
        " --gpus >= --gres=gpu/--gpus-per-node >= --gpus-per-socket`, or `required nodes ... doesn't fall"
        " between min_nodes and max_nodes`.",
        "#SBATCH --nodes=2\n#SBATCH --gpus=6\n#SBATCH --gpus-per-node=4\n",
        "#SBATCH --nodes=2\n#SBATCH --gpus-per-node=4\n",
        "All.",
        _GRES_REF,
    )),
    Rule("SB143", "gpus-per-task-inconsistent", "error", check_gpu_counts, _doc(
        "Finds a `--gpus-per-task` that does not fit the other counts: more than `--gpus` or the"
        " per-node count, not a divisor of them, or a task count (`--gpus` ÷ `--gpus-per-task`) or"
        " tasks per node that differ from `--ntasks`/`--ntasks-per-node`.",
        "Slurm derives tasks from the GPU counts and refuses the job when they disagree, e.g. `Based"
        " on --gpus and --gpus-per-task number of requested tasks differ from -n/--ntasks` or"
        " `--gres=gpu/--gpus-per-node not multiple of --gpus-per-task`.",
        "#SBATCH --ntasks=2\n#SBATCH --gpus=4\n#SBATCH --gpus-per-task=1\n",
        "#SBATCH --ntasks=4\n#SBATCH --gpus-per-task=1\n",
        "All. On 22.05 a fixed `--nodes` also implies the task count it is compared with.",
        _GRES_REF,
    )),
    Rule("SB144", "gpus-fewer-than-nodes", "error", check_gpu_counts, _doc(
        "Finds a `--gpus` total smaller than the minimum node count (`--nodes`, or on 22.05 the hosts"
        " of `--nodelist`).",
        "Every node of the job must get at least one of the GPUs; sbatch refuses the job with"
        " `Failed to validate job spec, --gpus < -N`.",
        "#SBATCH --nodes=4\n#SBATCH --gpus=2\n",
        "#SBATCH --nodes=4\n#SBATCH --gpus-per-node=1\n",
        "All.",
        _GRES_REF,
    )),
    Rule("SB145", "gpus-per-socket-inconsistent", "error", check_gpu_counts, _doc(
        "Finds `--gpus-per-socket` without `--sockets-per-node` (or `-B`), or one that does not divide"
        " the per-node count, exceeds `--gpus`/the per-node count, or disagrees with"
        " `--sockets-per-node`, `--gpus-per-task` or `--ntasks-per-socket`.",
        "Slurm needs the socket count to turn a per-socket request into a per-node one, and refuses"
        " counts that contradict each other (`--gpus-per-socket option requires --sockets-per-node"
        " specification`, `--gres=gpu/--gpus-per-node not multiple of --gpus-per-socket`, ...).",
        "#SBATCH --gpus-per-socket=2\n",
        "#SBATCH --sockets-per-node=2\n#SBATCH --gpus-per-socket=2\n",
        "All.",
        _GRES_REF,
    )),
    Rule("SB146", "per-gpu-option-without-gpu", "error", check_per_gpu_without_gpu, _doc(
        "Finds `--mem-per-gpu` (and, on 23.02 and newer, `--cpus-per-gpu`) in a component that requests"
        " no GPU (`--gpus=0` and `--gres=none` request none).",
        "A per-GPU amount of nothing is refused: `Requested mem_per_tres=gres:gpu:... but did not request"
        " any GPU`. A job that meant to request GPUs would otherwise run without them.",
        "#SBATCH --ntasks=4\n#SBATCH --mem-per-gpu=16G\n",
        "#SBATCH --ntasks=4\n#SBATCH --gpus-per-task=1\n#SBATCH --mem-per-gpu=16G\n",
        "All for `--mem-per-gpu`; `--cpus-per-gpu` from 23.02 (22.05 accepts it without GPUs).",
        "- `man sbatch`, `--mem-per-gpu`, `--cpus-per-gpu`\n- slurm-semantics.md §4.3, §7",
    )),
    Rule("SB147", "gpu-typed-and-untyped", "error", check_gpu_counts, _doc(
        "Finds GPU counts requested with a type in one option and without a type in another, e.g."
        " `--gpus=a100:8` with `--gpus-per-task=1`.",
        "Slurm cannot tell whether the untyped GPUs are the typed ones or additional ones, and"
        " refuses the job: `Invalid GRES specification (with and without type identification)`.",
        "#SBATCH --ntasks=8\n#SBATCH --gpus=a100:8\n#SBATCH --gpus-per-task=1\n",
        "#SBATCH --ntasks=8\n#SBATCH --gpus=a100:8\n#SBATCH --gpus-per-task=a100:1\n",
        "All.",
        _GRES_REF,
    )),
    Rule("SB148", "ntasks-per-gpu-conflict", "error", check_ntasks_per_gpu, _doc(
        "Finds `--ntasks-per-gpu` (or `--ntasks-per-tres`) together with `--gpus-per-task`,"
        " `--gpus-per-socket` or `--ntasks-per-node`, with a different `--ntasks-per-tres`, or, when no"
        " GPU count is given, with a `--ntasks` that is not a multiple of it.",
        "These options tie tasks to GPUs in incompatible ways; sbatch stops with e.g."
        " `--ntasks-per-node is mutually exclusive with --ntasks-per-gpu and SLURM_NTASKS_PER_GPU`.",
        "#SBATCH --gpus=4\n#SBATCH --ntasks-per-gpu=2\n#SBATCH --ntasks-per-node=8\n",
        "#SBATCH --gpus=4\n#SBATCH --ntasks-per-gpu=2\n",
        "All.",
        "- `man sbatch`, `--ntasks-per-gpu`\n- slurm-semantics.md §4.3",
    )),
    Rule("SB149", "ntasks-per-gpu-without-counts", "error", check_ntasks_per_gpu, _doc(
        "Finds `--ntasks-per-gpu` (or `--ntasks-per-tres`) in a job with neither a GPU count nor a task"
        " count to derive the other from.",
        "Slurm computes GPUs from tasks or tasks from GPUs; with neither it refuses the job:"
        " `--ntasks-per-tres needs either a GRES GPU specification or a node/ntask specification`.",
        "#SBATCH --ntasks-per-gpu=2\n",
        "#SBATCH --gpus=4\n#SBATCH --ntasks-per-gpu=2\n",
        "All.",
        "- `man sbatch`, `--ntasks-per-gpu`",
    )),
    Rule("SB150", "gres-gpu-with-gpus-per-node", "error", check_gres_with_gpus_per_node, fixable=True, doc=_doc(
        "Finds `--gres=gpu...` and `--gpus-per-node` in the same component, on Slurm 26.05.",
        "Both request GPUs per node. Older releases silently used the `--gres` count; 26.05 stops with"
        " `--gpus-per-node and --gres=gpu are mutually exclusive.`",
        "#SBATCH --gres=gpu:4\n#SBATCH --gpus-per-node=4\n",
        "#SBATCH --gpus-per-node=4\n",
        "26.05 and newer (older releases: see SB214).",
        "- slurm-semantics.md §4.3, §7 (\"26.05: --gres=gpu vs --gpus-per-node\")",
    )),
)
