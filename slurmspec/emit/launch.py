"""Launch blocks: the command that starts the program, per ``launch.kind`` (geometries in docs/spec.md).

Fixed text (ours) is written as is; every user value goes through
``shell_template``/``shell_literal``. Where a per-task value is needed
(``$SLURM_PROCID``, ``$SLURM_NODEID`` are only known inside each task) the
task runs ``bash -c '<fixed script>' <name> <user words...>``: the user's words
arrive as ``"$@"``, so they are never parsed as shell code.
"""

from __future__ import annotations

from slurmspec.emit.quote import shell_literal, shell_template, shell_words
from slurmspec.spec.model import Section, Spec

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
          ' LOCAL_WORLD_SIZE="${SLURM_NTASKS_PER_NODE:-1}"; exec "$@"')


def program_words(launch: Section, for_torchrun: bool = False) -> list[str]:
    """The program and its arguments, already quoted; a .py file runs under python (not under torchrun)."""
    program = launch.get("program")
    args = list(launch.get("args", ()))
    words = [shell_template(program), *(shell_template(a) for a in args)]
    if program.endswith(".py") and not for_torchrun:
        words.insert(0, shell_template(launch.get("python", "python")))
    return words


def _container(launch: Section) -> tuple[list[str], list[str]]:
    """(srun options, command prefix) for the container, if any."""
    container = launch.get("container")
    if container is None:
        return [], []
    image, mounts = container.get("image"), container.get("mounts", ())
    if container.get("runtime", "pyxis") == "pyxis":
        # pyxis adds --container-* options to srun (a SPANK plugin), so the step must be an srun.
        opts = ["--container-image=" + shell_template(image)]
        if mounts:
            opts.append("--container-mounts=" + shell_template(",".join(mounts)))
        return opts, []
    prefix = ["apptainer", "exec", "--nv"]
    for mount in mounts:
        prefix += ["--bind", shell_template(mount)]
    return [], [*prefix, shell_template(image)]


def launch_command(spec: Spec) -> str:
    launch = spec.section("launch")
    assert launch is not None
    kind = launch.get("kind")
    srun_opts, inside = _container(launch)
    python = launch.get("python")
    per_node = launch.get("procs_per_node") or spec.get("resources", "gpus_per_node")
    if kind == "torchrun":
        runner = [shell_template(python), "-m", "torch.distributed.run"] if python else ["torchrun"]
        if not launch.get("program").endswith(".py"):
            runner.append("--no-python")
        cmd = [*runner, '--nnodes="$SLURM_NNODES"', f"--nproc_per_node={per_node}",
               "--rdzv_backend=c10d", '--rdzv_endpoint="$MASTER_ADDR:$MASTER_PORT"',
               '--rdzv_id="$SLURM_JOB_ID"', *program_words(launch, for_torchrun=True)]
        return _srun(srun_opts, inside + cmd)
    if kind == "accelerate":
        script = ('exec "$0" launch --multi_gpu --num_machines "$SLURM_NNODES" --machine_rank "$SLURM_NODEID"'
                  f' --num_processes "$((SLURM_NNODES * {per_node}))"'
                  ' --main_process_ip "$MASTER_ADDR" --main_process_port "$MASTER_PORT" "$@"')
        runner = ["accelerate"]
        if python:  # "$0" is the interpreter: run accelerate's launcher module with it
            script = script.replace('"$0" launch', '"$0" -m accelerate.commands.launch', 1)
            runner = [shell_template(python)]
        return _srun(srun_opts, inside + ["bash", "-c", shell_literal(script), *runner,
                                          *program_words(launch, for_torchrun=True)])
    if kind in ("srun", "deepspeed"):
        return _srun(srun_opts, inside + ["bash", "-c", shell_literal(_RANKS), "slurmspec-task",
                                          *program_words(launch)])
    if kind == "lightning":  # Lightning's SLURMEnvironment reads SLURM_PROCID/SLURM_NTASKS itself
        return _srun(srun_opts, inside + program_words(launch))
    launcher = launch.get("launcher", "srun")
    if kind == "horovod" and launcher == "horovodrun":
        slots = spec.get("resources", "ntasks_per_node") or spec.get("resources", "gpus_per_node") or 1
        hosts = (f'horovod_hosts=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | sed \'s/$/:{slots}/\''
                 " | paste -sd, -)\n")
        return hosts + " ".join(['horovodrun -np "$SLURM_NTASKS" -H "$horovod_hosts"', *inside,
                                 *program_words(launch)])
    if kind == "mpi" and launcher == "mpirun":
        return " ".join(['mpirun -np "$SLURM_NTASKS"', *inside, *program_words(launch)])
    if kind in ("mpi", "horovod"):
        mpi = launch.get("mpi")
        return _srun(([f"--mpi={shell_template(mpi)}"] if mpi else []) + srun_opts, inside + program_words(launch))
    # plain: run once in the batch step; a pyxis container still needs a (one-task) srun step.
    if srun_opts:
        return _srun(["--ntasks=1", *srun_opts], inside + program_words(launch))
    return " ".join(inside + program_words(launch))


def _srun(options: list[str], command: list[str]) -> str:
    return " ".join(["srun", *options, *command])


def needs_rendezvous(spec: Spec) -> bool:
    launch = spec.section("launch")
    return launch is not None and launch.get("kind") in NEEDS_RENDEZVOUS and launch.get("launcher") != "horovodrun"


__all__ = ["launch_command", "needs_rendezvous", "RENDEZVOUS", "shell_words"]
