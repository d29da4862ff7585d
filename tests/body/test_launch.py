"""Tests for launch recognition in script bodies: every launcher, spelling, nesting and span."""

from __future__ import annotations

import collections
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slurmspec.body import BodyInfo, Launch, analyse_body, find_env_assignments, find_launches
from slurmspec.span import LineIndex
from tests.corpus import corpus_files
from tests.strategies import bodies_with_prefix, shell_bodies
from tests.examples import examples

HEADER = "#!/bin/bash\n#SBATCH --nodes=2\n\n"


def analyse(body: str, header: str = HEADER) -> BodyInfo:
    text = header + body
    return analyse_body(body, len(header), LineIndex(text), strict=True)


def only(body: str) -> Launch:
    launches = analyse(body).launches
    assert len(launches) == 1, launches
    return launches[0]


def check(launch: Launch, expected: dict[str, Any]) -> None:
    for key, want in expected.items():
        if key == "inner" and want is None:
            assert launch.inner is None
        elif key == "inner":
            assert launch.inner is not None, "no inner launch"
            check(launch.inner, want)
        elif key == "values":
            for name, value in want.items():
                assert launch.value(name) == value, name
        else:
            assert getattr(launch, key) == want, key


LAUNCHES = [
    # srun
    ("srun -n 8 --gpus-per-task=1 python train.py",
     dict(kind="srun", ntasks=8, gpus_per_task=1, program="python",
          inner=dict(kind="python", program="train.py", outer=("srun",), under_srun=True))),
    ("srun -N2 --ntasks-per-node=4 --gpus-per-node=a100:4 --cpus-per-task 8 ./a.out",
     dict(nodes=2, ntasks_per_node=4, gpus_per_node=4, cpus_per_task=8, program="./a.out", inner=None)),
    ("srun --ntasks=$SLURM_NTASKS --gres=gpu:4 --mpi=pmix --exact --overlap x",
     dict(ntasks=None, gres="gpu:4", mpi="pmix", exact=True, overlap=True, values={"ntasks": "$SLURM_NTASKS"})),
    ("srun --ntasks-per-n=2 --gpus ${GPUS:-8} x",  # getopt_long abbreviation
     dict(ntasks_per_node=2, gpus=None, values={"gpus": "${GPUS:-8}"})),
    ("srun --ntasks-per=2 x", dict(ntasks_per_node=None, values={"ntasks-per": "2"})),  # ambiguous: kept
    ("srun -lu -n4 hostname", dict(ntasks=4, program="hostname", values={"label": None, "unbuffered": None})),
    ("srun --container-image=nvcr.io#nvidia/pytorch:24.01 --container-mounts /a:/b python t.py",
     dict(container_image="nvcr.io#nvidia/pytorch:24.01", inner=dict(kind="python", program="t.py"))),
    ("srun --ntasks-per-node=1 torchrun --nnodes=$SLURM_NNODES \\\n  --nproc_per_node=8 \\\n  train.py --lr 1",
     dict(kind="srun", ntasks_per_node=1,
          inner=dict(kind="torchrun", nnodes=None, nproc_per_node=8, program="train.py",
                     args=("--lr", "1"), values={"nnodes": "$SLURM_NNODES"}))),
    ("srun bash -c \"torchrun --nproc-per-node 4 t.py\"",
     dict(kind="srun", program="bash", inner=dict(kind="torchrun", nproc_per_node=4, wrappers=("bash -c",)))),
    ("srun sh -c 'cd /w && python3 x.py'", dict(inner=dict(kind="python", program="x.py"))),
    ("exec srun -n 2 x", dict(kind="srun", wrappers=("exec",), ntasks=2)),
    ("NCCL_DEBUG=INFO OMP_NUM_THREADS=1 srun x",
     dict(kind="srun", program="x")),
    ("time srun --nodes=2 x", dict(wrappers=("time",), nodes=2)),
    ("srun x &", dict(backgrounded=True)),
    ("srun x | tee log", dict(piped=True)),
    # mpirun family
    ("mpirun -np 16 python x.py", dict(kind="mpirun", np=16, inner=dict(kind="python", program="x.py", outer=("mpirun",)))),
    ("mpiexec -n 4 ./a.out", dict(kind="mpirun", command="mpiexec", np=4, program="./a.out")),
    ("mpirun --np 8 -H a:4,b:4 --map-by ppr:4:node:PE=2 --mca btl ^openib -x NCCL_DEBUG=INFO ./a",
     dict(np=8, hosts="a:4,b:4", ppn=4, program="./a", values={"mca": "btl ^openib", "x": "NCCL_DEBUG=INFO"})),
    ("mpiexec.hydra -ppn 2 -genv I_MPI_DEBUG 5 -n 4 ./a", dict(kind="mpirun", ppn=2, np=4, values={"genv": "I_MPI_DEBUG 5"})),
    ("orterun -npernode 2 --map-by core ./a", dict(kind="mpirun", ppn=2)),
    ("prterun -c 4 ./a", dict(kind="mpirun", np=4)),
    ("/opt/openmpi/bin/mpirun -hostfile hosts -np $SLURM_NTASKS ./a",
     dict(command="/opt/openmpi/bin/mpirun", np=None, hostfile="hosts", values={"np": "$SLURM_NTASKS"})),
    # torchrun family
    ("torchrun --nproc_per_node=8 train.py", dict(kind="torchrun", nproc_per_node=8, program="train.py")),
    ("torchrun --nproc-per-node 8 --nnodes 1:4 --rdzv-backend=c10d --rdzv_endpoint $HEAD:29500 --rdzv_id $SLURM_JOB_ID t.py",
     dict(nproc_per_node=8, nnodes=None, nnodes_range=(1, 4), rdzv_backend="c10d", rdzv_endpoint="$HEAD:29500",
          rdzv_id="$SLURM_JOB_ID", program="t.py")),
    ("torchrun --standalone --nproc_per_node=gpu t.py",
     dict(standalone=True, nproc_per_node=None, values={"nproc-per-node": "gpu"})),
    ("torchrun --nnodes=2 --node_rank=$SLURM_NODEID --master_addr=$MASTER_ADDR --master_port=29500 t.py",
     dict(nnodes=2, nnodes_range=(2, 2), node_rank=None, master_addr="$MASTER_ADDR", master_port=29500)),
    ("python -m torch.distributed.run --nproc_per_node 4 t.py",
     dict(kind="torchrun", command="python", entry="torch.distributed.run", nproc_per_node=4, program="t.py")),
    ("python3 -u -m torch.distributed.launch --nproc_per_node=2 --use_env t.py",
     dict(kind="torchrun", entry="torch.distributed.launch", nproc_per_node=2, program="t.py")),
    ("torchrun --nproc_per_node 2 -m pkg.train --x", dict(program="pkg.train", args=("--x",))),
    # horovodrun, accelerate, deepspeed
    ("horovodrun -np 8 -H localhost:8 python t.py",
     dict(kind="horovodrun", np=8, hosts="localhost:8", inner=dict(kind="python", program="t.py"))),
    ("horovodrun --num-proc 4 --hosts a:2,b:2 --gloo python t.py", dict(np=4, hosts="a:2,b:2")),
    ("accelerate launch --num_processes 8 --num_machines 2 --machine_rank $SLURM_NODEID "
     "--main_process_ip $H --main_process_port 29500 --multi_gpu --config_file c.yaml t.py --bs 4",
     dict(kind="accelerate", num_processes=8, num_machines=2, machine_rank=None, main_process_ip="$H",
          main_process_port=29500, multi_gpu=True, config_file="c.yaml", program="t.py", args=("--bs", "4"))),
    ("accelerate launch --num-processes=4 t.py", dict(kind="accelerate", num_processes=4)),
    ("deepspeed --num_gpus 8 train.py --deepspeed ds.json",
     dict(kind="deepspeed", num_gpus=8, program="train.py", args=("--deepspeed", "ds.json"))),
    ("deepspeed --num_nodes=2 --num_gpus=4 --hostfile hf --launcher slurm --master_port 6000 t.py",
     dict(num_nodes=2, num_gpus=4, hostfile="hf", launcher="slurm", master_port=6000)),
    # python
    ("python train.py --epochs 3", dict(kind="python", program="train.py", args=("--epochs", "3"))),
    ("/env/bin/python3.11 -u -W ignore x.py", dict(kind="python", command="/env/bin/python3.11", program="x.py")),
    ("python -m pkg.main", dict(kind="python", program="pkg.main")),
    ("python -c 'import torch'", dict(kind="python", program=None)),
    # wrappers and containers
    ("apptainer exec --nv img.sif torchrun --nproc_per_node=4 t.py",
     dict(kind="torchrun", wrappers=("apptainer exec",), image="img.sif", nproc_per_node=4)),
    ("srun singularity exec --nv -B /d:/d img.sif python t.py",
     dict(kind="srun", program="python", inner=dict(kind="python", image="img.sif", wrappers=("singularity exec",)))),
    ("env NCCL_DEBUG=INFO nohup stdbuf -oL numactl --cpunodebind=0 python t.py",
     dict(kind="python", wrappers=("env", "nohup", "stdbuf", "numactl"))),
    ("eval \"srun -n 2 x\"", dict(kind="srun", ntasks=2, wrappers=("eval",))),
    ("bash -lc 'mpirun -np 2 ./a'", dict(kind="mpirun", np=2, wrappers=("bash -c",))),
]


@pytest.mark.parametrize(("body", "expected"), LAUNCHES, ids=[b[:40] for b, _ in LAUNCHES])
def test_launch_table(body: str, expected: dict[str, Any]) -> None:
    check(only(body), expected)


@pytest.mark.parametrize(
    "body",
    [
        "echo srun -n 2", "lightning run model", "srun=1", "# srun x", "cat <<EOF\nsrun x\nEOF",
        "x=$(srun hostname)", "accelerate config", "command -v srun", "'srun' && echo",
    ],
)
def test_not_a_launch(body: str) -> None:
    launches = analyse(body).launches
    assert all(launch.kind != "srun" or body == "'srun' && echo" for launch in launches)
    if body != "'srun' && echo":
        assert launches == ()


def test_env_prefix_and_exports() -> None:
    info = analyse("export CUDA_VISIBLE_DEVICES=0,1\nSRUN_CPUS_PER_TASK=$SLURM_CPUS_PER_TASK\n"
                   "if true; then export MASTER_ADDR=$(hostname); fi\nNCCL_DEBUG=INFO srun x\n")
    got = [(a.name, a.value, a.kind, a.context) for a in info.exports]
    assert got == [
        ("CUDA_VISIBLE_DEVICES", "0,1", "export", ()),
        ("SRUN_CPUS_PER_TASK", "$SLURM_CPUS_PER_TASK", "shell", ()),
        ("MASTER_ADDR", "$(hostname)", "export", ("if",)),
        ("NCCL_DEBUG", "INFO", "prefix", ()),
    ]
    (launch,) = info.launches
    assert [a.name for a in launch.env] == ["NCCL_DEBUG"]
    assert info.assignments_of("MASTER_ADDR")[0].exported


def test_exact_spans() -> None:
    body = "module load x\n\nsrun --ntasks-per-node=1 \\\n    torchrun --nproc_per_node 8 train.py\n"
    text = HEADER + body
    (srun,) = analyse(body).launches
    # HEADER is 3 lines, so the srun line is line 6.
    assert (srun.span.line, srun.span.column) == (6, 1)
    assert (srun.span.end_line, srun.span.end_column) == (7, len("    torchrun --nproc_per_node 8 train.py") + 1)
    opt = srun.option("ntasks-per-node")
    assert opt is not None and opt.value_span is not None
    assert text[opt.value_span.start : opt.value_span.end] == "1"
    assert (opt.value_span.line, opt.value_span.column) == (6, len("srun --ntasks-per-node=") + 1)
    torch = srun.inner
    assert torch is not None and torch.kind == "torchrun"
    assert (torch.command_span.line, torch.command_span.column) == (7, 5)
    nproc = torch.option("nproc-per-node")
    assert nproc is not None and nproc.raw == "--nproc_per_node" and nproc.value_span is not None
    assert text[nproc.span.start : nproc.span.end] == "--nproc_per_node 8"
    assert (nproc.value_span.line, nproc.value_span.column) == (7, len("    torchrun --nproc_per_node ") + 1)
    assert torch.program_span is not None and text[torch.program_span.start : torch.program_span.end] == "train.py"


def test_spans_inside_bash_c_string_are_absolute() -> None:
    body = "srun bash -c \"torchrun --nnodes=2 t.py\""
    text = HEADER + body
    inner = only(body).inner
    assert inner is not None
    assert text[inner.command_span.start : inner.command_span.end] == "torchrun"
    opt = inner.option("nnodes")
    assert opt is not None and opt.value_span is not None
    assert text[opt.value_span.start : opt.value_span.end] == "2"


def test_context_loop_function_and_background() -> None:
    body = ("train() {\n  srun python a.py\n}\nfor s in 1 2; do\n  srun -n1 python b.py $s &\ndone\nwait\n"
            "if [ -n \"$X\" ]; then\n  mpirun -np 2 ./c\nfi\n")
    launches = analyse(body).launches
    assert [(launch.kind, launch.context, launch.backgrounded) for launch in launches] == [
        ("srun", ("function",), False), ("srun", ("for",), True), ("mpirun", ("if",), False),
    ]


def test_find_helpers_agree_with_analyse_body() -> None:
    body = "export A=1\nsrun x\n"
    text = HEADER + body
    index = LineIndex(text)
    assert find_launches(body, len(HEADER), index) == analyse(body).launches
    assert find_env_assignments(body, len(HEADER), index) == analyse(body).exports


def test_all_launches_walks_nesting() -> None:
    info = analyse("srun apptainer exec img torchrun t.py\nmpirun -np 2 python x.py\n")
    assert [(launch.kind, launch.outer) for launch in info.all_launches()] == [
        ("srun", ()), ("torchrun", ("srun",)), ("mpirun", ()), ("python", ("mpirun",)),
    ]


def _spans_of(launch: Launch):
    yield launch.span
    yield launch.command_span
    yield launch.statement_span
    if launch.program_span is not None:
        yield launch.program_span
    for opt in launch.options:
        yield opt.span
        if opt.value_span is not None:
            yield opt.value_span


@settings(max_examples=examples(300))
@given(bodies_with_prefix())
def test_never_raises_and_spans_stay_in_body(case: tuple[str, str]) -> None:
    prefix, body = case
    text = prefix + body
    info = analyse_body(body, len(prefix), LineIndex(text), strict=True)
    lo, hi = len(prefix), len(text)
    for launch in info.all_launches():
        for span in _spans_of(launch):
            assert lo <= span.start <= span.end <= hi
        for opt in launch.options:
            # Options of a launch lie within that launch's span.
            assert launch.span.start <= opt.span.start <= opt.span.end <= launch.span.end
    for assignment in info.exports:
        assert lo <= assignment.span.start <= assignment.span.end <= hi


@settings(max_examples=examples(200))
@given(st.text())
def test_arbitrary_text_never_raises(body: str) -> None:
    analyse(body)


@settings(max_examples=examples(200))
@given(shell_bodies())
def test_nested_launch_lies_inside_outer_statement(body: str) -> None:
    for launch in analyse(body, "").all_launches():
        if launch.inner is not None:
            assert launch.statement_span.start <= launch.inner.span.start <= launch.inner.span.end <= launch.statement_span.end


def _body_start(text: str) -> int:
    """A stand-in header splitter: the body starts at the first non-blank line not starting with '#'."""
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return offset
        offset += len(line)
    return len(text)


def test_real_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    files = corpus_files()
    kinds: collections.Counter[str] = collections.Counter()
    with_launch = 0
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        start = _body_start(text)
        info = analyse_body(text[start:], start, LineIndex(text), strict=True)
        with_launch += bool(info.launches)
        for launch in info.all_launches():
            kinds[launch.kind] += 1
            assert start <= launch.span.start <= launch.span.end <= len(text)
    with capsys.disabled():
        print(f"\ncorpus: {len(files)} files, {with_launch} with a launch; kinds: {dict(kinds.most_common())}")
    assert with_launch >= 0.5 * len(files)
    assert kinds["srun"] > 0 and kinds["mpirun"] > 0 and kinds["torchrun"] > 0
