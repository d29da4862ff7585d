"""Emitted scripts: the launch block of every kind, and hostile strings that must never run.

The hostile test runs the *whole* emitted script under bash with stub
commands (srun strips its options and runs the step command, so the
``bash -c`` wrappers run too; the launchers record their argv), then checks
that no canary file appeared and that the program received its arguments
intact (only ``$NAME``/``${NAME}`` references expanded).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slurmspec.emit import emit
from slurmspec.lint import lint_text
from slurmspec import parse
from slurmspec.spec import SpecError, load_spec, spec_from_data
from tests.spec.spec_data import spec_data
from tests.strategies import hostile_text
from tests.examples import examples

KINDS = ("torchrun", "srun", "horovod", "lightning", "accelerate", "deepspeed", "mpi", "plain")


def geometry(kind: str) -> str:
    if kind == "plain":  # one process: with 8 GPUs it would leave 7 idle (rule SB310)
        return "nodes = 1\nntasks = 1\ngpus_per_node = 1\n"
    per_node = 1 if kind in ("torchrun", "accelerate") else 8
    return f"nodes = 2\nntasks_per_node = {per_node}\ngpus_per_node = 8\ngpu_type = \"v100\"\n"


def kind_spec(kind: str, extra: str = "") -> str:
    return (f'[job]\nname = "{kind}"\npartition = "gpu"\ntime = "10:00"\n[resources]\n{geometry(kind)}'
            f'[launch]\nkind = "{kind}"\nprogram = "train.py"\nargs = ["--epochs", "1"]\n{extra}')


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_lints_clean_and_parses_in_bash(kind):
    script = emit(load_spec(kind_spec(kind)))
    assert not [d for d in lint_text(script) if d.severity in ("warning", "error")]
    assert subprocess.run(["bash", "-n"], input=script.encode(), capture_output=True).returncode == 0


@pytest.mark.parametrize(("kind", "extra", "expected"), [
    ("torchrun", "", ['srun torchrun --nnodes="$SLURM_NNODES" --nproc_per_node=8 --rdzv_backend=c10d',
                      '--rdzv_endpoint="$MASTER_ADDR:$MASTER_PORT" --rdzv_id="$SLURM_JOB_ID" train.py',
                      'head_node=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)',
                      "export MASTER_PORT=$((20000 + SLURM_JOB_ID % 20000))"]),
    ("torchrun", 'python = "/opt/py/bin/python"\n', ["srun /opt/py/bin/python -m torch.distributed.run"]),
    ("srun", "", ['RANK="$SLURM_PROCID" WORLD_SIZE="$SLURM_NTASKS" LOCAL_RANK="$SLURM_LOCALID"',
                  "export MASTER_ADDR="]),
    ("deepspeed", "", ['RANK="$SLURM_PROCID"']),
    ("lightning", "", ["srun python train.py --epochs 1"]),
    ("horovod", 'mpi = "pmix"\n', ["srun --mpi=pmix python train.py"]),
    ("horovod", 'launcher = "horovodrun"\n', ['horovodrun -np "$SLURM_NTASKS" -H "$horovod_hosts" python train.py',
                                             "sed 's/$/:8/'"]),
    ("accelerate", "", ['--machine_rank "$SLURM_NODEID"', '--num_processes "$((SLURM_NNODES * 8))"']),
    ("mpi", 'launcher = "mpirun"\n', ['mpirun -np "$SLURM_NTASKS" python train.py']),
    ("mpi", "", ["srun python train.py"]),
    ("plain", "", ["\npython train.py --epochs 1\n"]),
    ("plain", 'container = { image = "nvcr.io#nvidia/pytorch:24.01-py3" }\n',
     ["srun --ntasks=1 --container-image='nvcr.io#nvidia/pytorch:24.01-py3' --container-mounts=\"$PWD:$PWD\""
      ' --container-workdir="$PWD" python train.py']),
    ("plain", 'container = { image = "img", mounts = ["/d:/w"], workdir = "/w" }\n',
     ["srun --ntasks=1 --container-image=img --container-mounts=/d:/w --container-workdir=/w python train.py"]),
    ("plain", 'container = { image = "img", mounts = ["/d:/w"] }\n',
     ['--container-mounts=/d:/w,"$PWD:$PWD" --container-workdir="$PWD" python train.py']),
    ("plain", 'container = { image = "i.sif", runtime = "apptainer", workdir = "/w" }\n',
     ["\napptainer exec --nv --pwd /w i.sif python train.py --epochs 1\n"]),
    ("srun", 'container = { image = "img.sif", runtime = "apptainer", mounts = ["/d:/d"] }\n',
     ["srun apptainer exec --nv --bind /d:/d img.sif bash -c", "slurmspec-task python train.py"]),
])
def test_launch_blocks(kind, extra, expected):
    script = emit(load_spec(kind_spec(kind, extra)))
    for fragment in expected:
        assert fragment in script


# ------------------------------------------------------------------ hostile
_STUB = """#!{python}
import json, os, sys
name = os.path.basename(sys.argv[0])
with open(os.environ["STUB_LOG"], "a") as log:
    log.write(json.dumps(sys.argv) + "\\n")
if name in ("srun", "mpirun", "horovodrun"):  # run the command in a "task", as they would
    args = sys.argv[1:]
    if name == "srun":  # options dropped
        while args and args[0].startswith("-"):
            args.pop(0)
    else:  # -np N [-H hosts]
        args = args[2 if name == "mpirun" else 4:]
    os.environ["SLURM_PROCID"] = os.environ["OMPI_COMM_WORLD_RANK"] = "7"  # a task's own rank
    if args:
        os.execvp(args[0], args)
elif name == "apptainer":  # exec --nv [--bind M]... IMAGE command...
    args = sys.argv[3:]
    while args[:1] == ["--bind"]:
        args = args[2:]
    if len(args) > 1:
        os.execvp(args[1], args[1:])
elif name == "scontrol":
    print("node1")
"""
_STUBS = ("srun", "scontrol", "sbatch", "nvidia-smi", "tensorboard", "torchrun", "python", "python3",
          "accelerate", "horovodrun", "mpirun", "apptainer", "sleep")
_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


def _expand(text: str, env: dict[str, str]) -> str:
    return _VAR.sub(lambda m: env.get(m.group(1) or m.group(2), ""), text)


@pytest.fixture(scope="module")
def stub_dir(tmp_path_factory) -> Path:
    if shutil.which("bash") is None:  # pragma: no cover
        pytest.skip("bash is not installed")
    folder = tmp_path_factory.mktemp("stubs")
    for name in _STUBS:
        path = folder / name
        path.write_text(_STUB.format(python=sys.executable))
        path.chmod(0o755)
    return folder


def run_hostile(script: str, stub_dir: Path, work: Path) -> list[list[str]]:
    log = work / "stub.log"
    env = {"PATH": f"{stub_dir}:/usr/bin:/bin", "STUB_LOG": str(log), "SLURM_JOB_ID": "4242",
           "SLURM_NNODES": "1", "SLURM_JOB_NODELIST": "node1", "HOME": str(work), "SLURM_TMPDIR": str(work / "tmp"),
           # the `${X}` of tests/strategies._HOSTILE: set, so a folder spelt `${X}` is one (unset, it
           # is "", and the job rightly stops at `mkdir -p -- ""` before its launch)
           "X": "x"}
    (work / "job.sbatch").write_text(script)
    (work / "tmp").mkdir(exist_ok=True)  # $SLURM_TMPDIR, where the private node-local folders are made
    subprocess.run(["bash", "job.sbatch"], cwd=work, env=env, capture_output=True, timeout=60)
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def _assert_no_canary(work: Path) -> None:
    hits = [p for p in work.rglob("*") if p.name == "CANARY"]
    assert not hits, f"hostile text ran: {hits}"


@settings(max_examples=examples(40), suppress_health_check=list(HealthCheck), deadline=None)
@given(data=spec_data(), program_args=st.lists(hostile_text(), max_size=4))
def test_hostile_strings_never_run(stub_dir, tmp_path_factory, data, program_args):
    data["launch"]["args"] = program_args
    data["launch"]["program"] = "train.py"
    data["launch"].pop("python", None)  # the stub python is on PATH; /opt/venv/bin/python is not
    data.pop("chain", None)  # would call the stub sbatch only
    work = tmp_path_factory.mktemp("job")
    calls = run_hostile(emit(spec_from_data(data)), stub_dir, work)
    _assert_no_canary(work)
    env = {"SLURM_JOB_ID": "4242", "HOME": str(work), "SLURM_TMPDIR": str(work / "tmp"), "X": "x",
           **{k: "" for k in data.get("env", {})}}
    if data.get("env"):
        return  # env values may be referenced by the arguments; the canary check is what matters
    expected = [_expand(a, env) for a in program_args]
    program_calls = [c for c in calls if "train.py" in c]
    assert program_calls, calls
    for call in program_calls:
        assert call[call.index("train.py") + 1:] == expected


def test_hostile_header_values_are_refused_or_inert(stub_dir, tmp_path):
    hostile = "x'; touch CANARY; echo \"a b\" # c \\"
    backticks = "`touch CANARY` $(touch CANARY)"
    with pytest.raises(SpecError, match="would not be expanded"):
        load_spec(f'[job]\nname = {json.dumps(backticks)}\n[launch]\nkind = "plain"\nprogram = "t.py"\n')
    spec = load_spec(f'[job]\nname = {json.dumps(hostile)}\n'
                     f'[sbatch]\nlines = [{json.dumps("# " + backticks)}]\n'
                     f'options = [{json.dumps("--comment=" + hostile + backticks)}]\n'
                     '[launch]\nkind = "plain"\nprogram = "train.py"\n'
                     f'[env]\nA = {json.dumps(hostile + backticks)}\n')
    script = emit(spec)
    assert parse(script).request.job_name == hostile  # sbatch reads the name back exactly
    run_hostile(script, stub_dir, tmp_path)
    _assert_no_canary(tmp_path)
    assert (tmp_path / "stub.log").exists()


# ------------------------------------------------------------------ the launched command
def _launch_line(script: str) -> str:
    return script.split("\nstatus=$?")[0].rsplit("\n", 1)[-1]


@pytest.mark.parametrize(("kind", "extra", "expected"), [
    ("lightning", 'python = "python -u"\n', "srun python -u train.py --epochs 1"),
    ("torchrun", 'python = "/opt/py/bin/python -u"\n', "srun /opt/py/bin/python -u -m torch.distributed.run --nnodes="),
    ("accelerate", 'python = "python3 -X dev"\n', "bash -c 'exec python3 -X dev -m accelerate.commands.launch --multi_gpu"),
    ("srun", 'python = "\'/opt/my env/python\' -u"\n', "slurmspec-task '/opt/my env/python' -u train.py"),
])
def test_python_with_options_is_split_into_words(kind, extra, expected):
    assert expected in _launch_line(emit(load_spec(kind_spec(kind, extra))))


@pytest.mark.parametrize(("python", "fragment"), [
    ('"python \'-u"', "cannot be split into words"),
    ('""', "`launch.python` is empty"),
    ('"-u"', "starts with `-u`, an option"),
])
def test_python_that_is_not_a_command_is_refused(python, fragment):
    with pytest.raises(SpecError, match=re.escape(fragment)):
        load_spec(kind_spec("lightning", f"python = {python}\n"))


def test_accelerate_runs_a_program_that_is_not_python_without_python():
    line = _launch_line(emit(load_spec(kind_spec("accelerate").replace('"train.py"', '"./train.sh"'))))
    assert '--main_process_port "$MASTER_PORT" --no_python "$@"\' slurmspec-task ./train.sh --epochs 1' in line
    line = _launch_line(emit(load_spec(kind_spec("accelerate"))))
    assert "--no_python" not in line and line.endswith("slurmspec-task train.py --epochs 1")


@pytest.mark.parametrize(("program", "expected"), [("A=b", "'A=b' --epochs 1"), ("time", "'time' --epochs 1"),
                                                   ("timer", "\ntimer --epochs 1\n")])
def test_program_is_never_an_assignment_or_a_keyword(program, expected):
    script = emit(load_spec(kind_spec("plain").replace('"train.py"', f'"{program}"')))
    assert expected in script


PER_TASK_LINES = {  # args = ["--rank", "$SLURM_PROCID"]
    "srun": ("srun bash -c 'export RANK=\"$SLURM_PROCID\" WORLD_SIZE=\"$SLURM_NTASKS\" LOCAL_RANK=\"$SLURM_LOCALID\""
             " LOCAL_WORLD_SIZE=\"${SLURM_NTASKS_PER_NODE:-1}\"; exec python train.py --rank \"${SLURM_PROCID}\"'"),
    "lightning": "srun bash -c 'exec python train.py --rank \"${SLURM_PROCID}\"'",
    "mpi": "srun bash -c 'exec python train.py --rank \"${SLURM_PROCID}\"'",
    "torchrun": "srun bash -c 'exec torchrun --nnodes=\"$SLURM_NNODES\" --nproc_per_node=8",
    "accelerate": "--main_process_port \"$MASTER_PORT\" train.py --rank \"${SLURM_PROCID}\"'",
    "plain": "\npython train.py --rank \"${SLURM_PROCID}\"\n",  # the batch step is the one task
}


@pytest.mark.parametrize("kind", sorted(PER_TASK_LINES))
def test_per_task_variables_expand_in_each_task(kind):
    text = kind_spec(kind).replace('args = ["--epochs", "1"]', 'args = ["--rank", "$SLURM_PROCID"]')
    script = emit(load_spec(text))
    assert PER_TASK_LINES[kind] in script
    assert not [d for d in lint_text(script) if d.severity in ("warning", "error")]


def test_words_without_per_task_variables_stay_arguments():
    text = kind_spec("mpi").replace('args = ["--epochs", "1"]', 'args = ["--job", "$SLURM_JOB_ID", "$SLURM_PROCIDX"]')
    assert _launch_line(emit(load_spec(text))) == 'srun python train.py --job "${SLURM_JOB_ID}" "${SLURM_PROCIDX}"'


@pytest.mark.parametrize("kind", ("torchrun", "accelerate"))
def test_worker_variables_in_torchrun_arguments_are_refused(kind):
    text = kind_spec(kind).replace('args = ["--epochs", "1"]', 'args = ["--local-rank=${LOCAL_RANK}"]')
    with pytest.raises(SpecError, match=r"`launch.args\[0\]` uses `\$LOCAL_RANK`, which .* sets in each worker"):
        load_spec(text)


@pytest.mark.parametrize("kind", KINDS)
def test_srun_gets_cpus_per_task_where_it_does_not_inherit_it(kind):
    extra = 'container = { image = "img" }\n' if kind == "plain" else ""
    spec = load_spec(kind_spec(kind, extra).replace("[launch]", "cpus_per_task = 4\n[launch]"))
    for version in ((22, 5), (23, 2), (23, 11), (26, 5)):
        script = emit(spec, version=version)
        srun_lines = [line for line in script.splitlines() if line.startswith("srun ")]
        assert srun_lines, script  # every kind of kind_spec() launches with srun (plain: in a container)
        assert all(('--cpus-per-task="$SLURM_CPUS_PER_TASK"' in line) == (version < (23, 11)) for line in srun_lines)
        findings = [d for d in lint_text(script, None, version) if d.severity in ("warning", "error")]
        assert not findings, [(d.code, d.message) for d in findings]  # SB320 among them


def test_cpus_per_task_of_one_needs_nothing():
    spec = load_spec(kind_spec("mpi").replace("[launch]", "cpus_per_task = 1\n[launch]"))
    assert _launch_line(emit(spec, version=(22, 5))) == "srun python train.py --epochs 1"


@settings(max_examples=examples(25), suppress_health_check=list(HealthCheck), deadline=None)
@given(data=spec_data(), args=st.lists(st.one_of(hostile_text(), st.sampled_from(
    ["$SLURM_PROCID", "r${SLURM_PROCID}'x", "--rank=$OMPI_COMM_WORLD_RANK", "$SLURM_JOB_ID/$SLURM_PROCID"])),
    min_size=1, max_size=4))
def test_hostile_per_task_words_never_run_and_get_the_tasks_value(stub_dir, tmp_path_factory, data, args):
    """Words with per-task variables are written into the task's script: still inert, expanded in the task."""
    data["launch"].update(program="train.py", args=args)
    data["launch"].pop("python", None)
    for key in ("chain", "env"):
        data.pop(key, None)
    work = tmp_path_factory.mktemp("job")
    script = emit(spec_from_data(data))
    calls = run_hostile(script, stub_dir, work)
    _assert_no_canary(work)
    # A plain launch runs in the batch step, also inside apptainer; a pyxis container needs an srun step
    # (its --container-* options belong to srun), whose one task gets the task's values.
    container = data["launch"].get("container")
    in_batch_step = data["launch"]["kind"] == "plain" and (
        container is None or container.get("runtime", "pyxis") != "pyxis")
    env = {"SLURM_JOB_ID": "4242", "HOME": str(work), "SLURM_TMPDIR": str(work / "tmp"), "X": "x"}
    per_task_env = {**env, "SLURM_PROCID": "" if in_batch_step else "7",
                    "OMPI_COMM_WORLD_RANK": "" if in_batch_step else "7"}
    uses = any(v in a for a in args for v in ("SLURM_PROCID", "OMPI_COMM_WORLD_RANK"))
    expected = [_expand(a, per_task_env if uses else env) for a in args]
    program_calls = [c for c in calls if "train.py" in c]
    assert program_calls, (script, calls)
    for call in program_calls:
        assert call[call.index("train.py") + 1:] == expected, script



def test_horovodrun_hosts_get_as_many_slots_as_the_model_puts_tasks_on_a_node():
    from slurmspec.spec import load_spec

    spec = load_spec('[job]\nname = "hvd"\ntime = "10"\n[resources]\nnodes = 2\nntasks_per_node = 3\n'
                     '[launch]\nkind = "horovod"\nlauncher = "horovodrun"\nprogram = "train.py"\n')
    assert "sed 's/$/:3/'" in emit(spec)
