"""Launch blocks: the command that starts the program, per ``launch.kind`` (geometries in docs/spec.md).

Fixed text (ours) is written as is; every user value goes through
``shell_template``/``shell_literal``. Where a per-task value is needed
(``$SLURM_PROCID``, ``$SLURM_NODEID`` are only known inside each task) the
task runs ``bash -c '<fixed script>' <name> <user words...>``: the user's words
arrive as ``"$@"``, so they are never parsed as shell code. When the user's own
words refer to a per-task variable, they are written into the task's script
instead (still quoted by ``shell_template``), so each task expands them itself.
"""

from __future__ import annotations

from slurmspec.spec.writer import stop
from slurmspec.spec.writer.quote import command_word, shell_literal, shell_template, shell_words
from slurmspec.gates import SRUN_INHERITS_CPUS
from slurmspec.spec.launch_words import per_task, python_words, user_words
from slurmspec.spec.model import Section, Spec
from slurmspec.version import NEWEST, Version

# torchrun's c10d store, accelerate's main process and MASTER_ADDR for the
# srun-started frameworks all live on the first node of the allocation; the
# port is derived from the job id so two jobs sharing a node do not collide.
RENDEZVOUS = """\
head_node=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export MASTER_ADDR="$head_node"
export MASTER_PORT=$((20000 + SLURM_JOB_ID % 20000))"""

NEEDS_RENDEZVOUS = frozenset({"torchrun", "accelerate", "srun", "deepspeed", "lightning", "horovod"})

# torch.distributed (env://) and DeepSpeed read these; Slurm names them differently.
_RANKS = ('export RANK="$SLURM_PROCID" WORLD_SIZE="$SLURM_NTASKS" LOCAL_RANK="$SLURM_LOCALID"'
          ' LOCAL_WORLD_SIZE="${SLURM_NTASKS_PER_NODE:-1}"; ')
_TASK_NAME = "slurmspec-task"  # $0 of the bash -c wrappers


def _quoted(words) -> list[str]:
    return [shell_template(w) for w in words]


def program_words(launch: Section, for_torchrun: bool = False) -> list[str]:
    """The program and its arguments, already quoted; a .py file runs under python (not under torchrun).

    ``launch.python`` may hold options (``python -u``): each of its words is quoted on its own.
    """
    program = launch.get("program")
    words = [command_word(program), *_quoted(launch.get("args", ()))]
    if program.endswith(".py") and not for_torchrun:
        words[:0] = _python(launch)
    return words


def in_task(prefix: str, words: list[str], expand_in_task: bool) -> list[str]:
    """``bash -c '<prefix>"$@"'`` running the user's ``words`` in each task.

    ``prefix`` is fixed text. Normally the user's words arrive as arguments
    (``"$@"``), expanded once by the batch shell. When they refer to a per-task
    variable (``$SLURM_PROCID``) they are written into the script in place of
    ``"$@"``, so each task's shell expands them with its own values; they are
    quoted by ``shell_template`` (only ``$NAME``/``${NAME}`` expand), so they are
    still never run as code.
    """
    if expand_in_task:
        return ["bash", "-c", shell_literal(prefix + " ".join(words))]
    return ["bash", "-c", shell_literal(prefix + '"$@"'), _TASK_NAME, *words]


def _python(launch: Section) -> list[str]:
    words = python_words(launch) or ["python"]
    return [command_word(words[0]), *_quoted(words[1:])]


def _command(words: list[str], expand_in_task: bool) -> list[str]:
    """A command a launcher starts in each task or process (wrapped when it needs per-task values)."""
    return in_task("exec ", words, True) if expand_in_task else words


def _container(launch: Section) -> tuple[list[str], list[str]]:
    """(srun options, command prefix) for the container, if any.

    A relative program or path means the same inside the container as outside: apptainer
    binds the working folder and starts there by default; pyxis starts in the image's
    working folder, so the job's working folder is mounted at the same path and used
    (``--container-workdir``), unless ``container.workdir`` names another.
    """
    container = launch.get("container")
    if container is None:
        return [], []
    image, mounts, workdir = container.get("image"), container.get("mounts", ()), container.get("workdir")
    if container.get("runtime", "pyxis") == "pyxis":
        # pyxis adds --container-* options to srun (a SPANK plugin), so the step must be an srun.
        opts = ["--container-image=" + shell_template(image)]
        if workdir is None:
            given = shell_template(",".join(mounts)) + "," if mounts else ""
            opts += ["--container-mounts=" + given + '"$PWD:$PWD"', '--container-workdir="$PWD"']
        else:
            if mounts:
                opts.append("--container-mounts=" + shell_template(",".join(mounts)))
            opts.append("--container-workdir=" + shell_template(workdir))
        return opts, []
    prefix = ["apptainer", "exec", "--nv"]
    for mount in mounts:
        prefix += ["--bind", shell_template(mount)]
    if workdir is not None:
        prefix += ["--pwd", shell_template(workdir)]
    return [], [*prefix, shell_template(image)]


def srun_cpus(spec: Spec, version: Version) -> list[str]:
    """``--cpus-per-task`` for the launch step where srun does not inherit it (22.05, 23.02: gate
    ``SRUN_INHERITS_CPUS``); without it each task of the step gets one CPU (rule SB320)."""
    cpus = spec.get("resources", "cpus_per_task")
    if version >= SRUN_INHERITS_CPUS or not isinstance(cpus, int) or cpus < 2:
        return []
    return ['--cpus-per-task="$SLURM_CPUS_PER_TASK"']


def job_shape(spec: Spec, version: Version = NEWEST):
    """The job model's view of the spec's request (its first component): the numbers the
    launch line needs come from the same model the rules and the loader judge it with."""
    from slurmspec.spec.writer.header import header_lines
    from slurmspec.model.job.model import job_model
    from slurmspec.parser.script import parse_script

    return job_model(parse_script("\n".join(header_lines(spec)) + "\n", None, version)).component(0)


def launch_command(spec: Spec, version: Version = NEWEST) -> str:
    launch = spec.section("launch")
    assert launch is not None
    kind = launch.get("kind")
    container_opts, inside = _container(launch)
    srun_opts = srun_cpus(spec, version) + container_opts
    python = launch.get("python")
    shape = job_shape(spec, version)
    per_node = launch.get("procs_per_node") or spec.get("resources", "gpus_per_node") or (
        shape.gpus_per_node if shape is not None else None)
    per_task = uses_per_task_values(launch)
    program_is_python = launch.get("program").endswith(".py")
    signal = stop.signal_name(spec)
    # torchrun and accelerate must not die of the stop signal their workers handle (stop.ignoring).
    ignore = stop.ignoring(signal) if signal is not None else ""
    if kind == "torchrun":
        runner = [*_python(launch), "-m", "torch.distributed.run"] if python else ["torchrun"]
        if not program_is_python:
            runner.append("--no-python")
        cmd = [*runner, '--nnodes="$SLURM_NNODES"', f"--nproc_per_node={per_node}",
               "--rdzv_backend=c10d", '--rdzv_endpoint="$MASTER_ADDR:$MASTER_PORT"',
               '--rdzv_id="$SLURM_JOB_ID"', *program_words(launch, for_torchrun=True)]
        if ignore:  # written into the task's script, where the rules still see the torchrun command
            return _srun(srun_opts, inside + in_task(ignore + "exec ", cmd, True))
        return _srun(srun_opts, inside + _command(cmd, per_task))
    if kind == "accelerate":
        # The launcher's own words are fixed text (the interpreter is quoted by shell_template).
        runner = ([*_python(launch), "-m", "accelerate.commands.launch"] if python
                  else ["accelerate", "launch"])
        script = (f'{ignore}exec {" ".join(runner)} --multi_gpu --num_machines "$SLURM_NNODES"'
                  f' --machine_rank "$SLURM_NODEID" --num_processes "$((SLURM_NNODES * {per_node}))"'
                  ' --main_process_ip "$MASTER_ADDR" --main_process_port "$MASTER_PORT"'
                  + ("" if program_is_python else " --no_python") + " ")
        return _srun(srun_opts, inside + in_task(script, program_words(launch, for_torchrun=True), per_task))
    if kind in ("srun", "deepspeed"):
        return _srun(srun_opts, inside + in_task(_RANKS + "exec ", program_words(launch), per_task))
    command = _command(program_words(launch), per_task)
    if kind == "lightning":  # Lightning's SLURMEnvironment reads SLURM_PROCID/SLURM_NTASKS itself
        return _srun(srun_opts, inside + command)
    launcher = launch.get("launcher", "srun")
    if kind == "horovod" and launcher == "horovodrun":
        # One slot per task of a node, where the model knows it (`-N 2 -n 4` may place 3 + 1: unknown).
        slots = (shape.tasks_per_node if shape is not None else None) or spec.get("resources", "gpus_per_node") or 1
        hosts = (f'horovod_hosts=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | sed \'s/$/:{slots}/\''
                 " | paste -sd, -)\n")
        return hosts + " ".join(['horovodrun -np "$SLURM_NTASKS" -H "$horovod_hosts"', *inside, *command])
    if kind == "mpi" and launcher == "mpirun":
        return " ".join(['mpirun -np "$SLURM_NTASKS"', *inside, *command])
    if kind in ("mpi", "horovod"):
        mpi = launch.get("mpi")
        return _srun(([f"--mpi={shell_template(mpi)}"] if mpi else []) + srun_opts, inside + command)
    # plain: run once in the batch step, whose per-task values are those of its one task;
    # a pyxis container still needs a (one-task) srun step.
    if container_opts:
        return _srun(["--ntasks=1", *srun_opts], inside + command)
    return " ".join(inside + program_words(launch))


def uses_per_task_values(launch: Section) -> bool:
    """Does the launched command refer to a per-task variable (``$SLURM_PROCID``...)?"""
    return per_task(user_words(launch))


def _srun(options: list[str], command: list[str]) -> str:
    return " ".join(["srun", *options, *command])


def needs_rendezvous(spec: Spec) -> bool:
    launch = spec.section("launch")
    return launch is not None and launch.get("kind") in NEEDS_RENDEZVOUS and launch.get("launcher") != "horovodrun"


__all__ = ["launch_command", "needs_rendezvous", "RENDEZVOUS", "shell_words"]
