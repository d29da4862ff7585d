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
from tests.strategies import hostile_text, job_spec_data

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
     ["srun --ntasks=1 --container-image='nvcr.io#nvidia/pytorch:24.01-py3' python train.py"]),
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
if name == "srun":  # run the step command, as srun would (options dropped)
    args = sys.argv[1:]
    while args and args[0].startswith("-"):
        args.pop(0)
    if args:
        os.execvp(args[0], args)
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
           "SLURM_NNODES": "1", "SLURM_JOB_NODELIST": "node1", "HOME": str(work), "SLURM_TMPDIR": str(work / "tmp")}
    (work / "job.sbatch").write_text(script)
    subprocess.run(["bash", "job.sbatch"], cwd=work, env=env, capture_output=True, timeout=60)
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def _assert_no_canary(work: Path) -> None:
    hits = [p for p in work.rglob("*") if p.name == "CANARY"]
    assert not hits, f"hostile text ran: {hits}"


@settings(max_examples=40, suppress_health_check=list(HealthCheck), deadline=None)
@given(data=job_spec_data(), program_args=st.lists(hostile_text(), max_size=4))
def test_hostile_strings_never_run(stub_dir, tmp_path_factory, data, program_args):
    data["launch"]["args"] = program_args
    data["launch"]["program"] = "train.py"
    data["launch"].pop("python", None)  # the stub python is on PATH; /opt/venv/bin/python is not
    data.pop("chain", None)  # would call the stub sbatch only
    work = tmp_path_factory.mktemp("job")
    calls = run_hostile(emit(spec_from_data(data)), stub_dir, work)
    _assert_no_canary(work)
    env = {"SLURM_JOB_ID": "4242", "HOME": str(work), "SLURM_TMPDIR": str(work / "tmp"),
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
