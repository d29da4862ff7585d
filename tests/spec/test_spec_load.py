"""Loading specs: positioned errors with did-you-mean, value checks through the script parser's value parsers."""

from __future__ import annotations

from pathlib import Path

import pytest

from slurmspec.spec import SpecError, load_spec

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "samples").glob("*.toml"))
MINIMAL = '[launch]\nkind = "plain"\nprogram = "run.sh"\n'


def problems(text: str) -> list[tuple[int, int, str]]:
    with pytest.raises(SpecError) as info:
        load_spec(text)
    return [(p.line, p.column, p.message) for p in info.value.problems]


def test_samples_load():
    assert len(SAMPLES) >= 4
    for sample in SAMPLES:
        spec = load_spec(sample.read_text())
        assert spec.section("launch") is not None


def test_minimal_spec():
    spec = load_spec(MINIMAL)
    assert spec.get("launch", "kind") == "plain"
    assert spec.section("job") is None


@pytest.mark.parametrize(("text", "line", "column", "fragment"), [
    ('[job]\nnmae = "x"\n' + MINIMAL, 2, 1, "unknown key `nmae` in [job]; did you mean `name`?"),
    ('[jobs]\nname = "x"\n' + MINIMAL, 1, 1, "unknown section `[jobs]`; did you mean `job`?"),
    ('[resources]\nnodes = 0\n' + MINIMAL, 2, 1, "`resources.nodes` must be between 1 and"),
    ('[resources]\ncpus_per_task = "4"\n' + MINIMAL, 2, 1, "must be a whole number, not a string"),
    ('[job]\n\ntime = "2h"\n' + MINIMAL, 3, 1, "`2h` is not a Slurm duration"),
    ('[job]\nname = "a\\nb"\n' + MINIMAL, 2, 1, "cannot be empty or hold line breaks"),
    ('[job]\noutput = "$HOME/x.out"\n' + MINIMAL, 2, 1, "`$HOME` would not be expanded"),
    ('[job]\nname = "$(id)"\n' + MINIMAL, 2, 1, "`$(id)` would not be expanded"),
    ('[launch]\nkind = "torchrn"\nprogram = "t.py"\n', 2, 1, "cannot be `torchrn`; did you mean `torchrun`?"),
    ('[launch]\nkind = "plain"\n', 1, 1, "[launch] needs `program`"),
    ('[launch]\nkind = "plain"\nprogram = "x"\ncontainer = { imag = "i" }\n', 4, 15, "unknown key `imag`"),
    ('[job]\nname = "x"\n', 1, 1, "a spec needs a [launch] table"),
    ('[job\nname = "x"\n', 1, 5, "invalid TOML"),
    ('[sbatch]\noptions = ["--exlude=n1"]\n' + MINIMAL, 2, 1, "no option `--exlude`; did you mean `exclude`?"),
    ('[sbatch]\noptions = ["--partition=gpu"]\n' + MINIMAL, 2, 1, "write `--partition=gpu` as `job.partition`"),
    ('[job]\npartition = "a"\n[sbatch]\noptions = ["--partition=b"]\n' + MINIMAL, 4, 1, "already set by a typed key"),
    ('[sbatch]\noptions = ["--wrap=x"]\n' + MINIMAL, 2, 1, "ignored inside #SBATCH lines"),
    ('[sbatch]\nlines = ["echo hi"]\n' + MINIMAL, 2, 1, "must start with `#`"),
    ('[env]\n"1X" = "a"\n' + MINIMAL, 2, 1, "not a shell variable name"),
    ('[resources]\ngpu_type = "a100"\n' + MINIMAL, 2, 1, "`gpu_type` needs `gpus_per_node`"),
    ('[body]\nscript = "x"\n' + MINIMAL, 1, 1, "exclude each other"),
    ('[body]\nscript = "#SBATCH -N 2\\nrun\\n"\n', 2, 1, "would read as part of the header"),
])
def test_errors_are_positioned(text, line, column, fragment):
    found = problems(text)
    assert any(fragment in message for _, _, message in found), found
    assert (line, column) in [(ln, col) for ln, col, message in found if fragment in message], found


@pytest.mark.parametrize(("resources", "kind", "fragment"), [
    ("nodes = 2\nntasks = 4\ngpus_per_node = 8", "torchrun", "one task per node"),
    ("nodes = 2\nntasks_per_node = 1", "torchrun", "needs the workers per node"),
    ("ntasks_per_node = 1\ngpus_per_node = 8", "srun", "one task per GPU"),
    ("ntasks_per_node = 1\ngpus_per_node = 8", "deepspeed", "ntasks_per_node = 8"),
    ("gpus_per_task = 2\nntasks = 4", "horovod", "`gpus_per_task` must be 1"),
    ("ntasks_per_node = 1\ngpus_per_node = 8\n[launch]\nprocs_per_node = 4", "accelerate", "differs from"),
])
def test_launch_geometry(resources, kind, fragment):
    text = f'[resources]\n{resources}\n'
    launch = f'kind = "{kind}"\nprogram = "t.py"\n'
    text = text.replace("[launch]\n", "[launch]\n" + launch) if "[launch]" in text else text + "[launch]\n" + launch
    assert any(fragment in message for _, _, message in problems(text))


# ------------------------------------------------------------------ layouts judged on the job model
# (kind, [resources] and extra [launch] keys of the refused spec, line:column reported, a fragment,
# the corrected twin). The loader emits the launch block and reads the job model of its step
# (slurmspec/spec/layout.py); each twin must load.
def _spec(kind: str, resources: str, extra: str = "") -> str:
    return f'[resources]\n{resources}\n[launch]\nkind = "{kind}"\nprogram = "t.py"\n{extra}'


MODEL_LAYOUTS = [
    # --gpus-per-task=1 binds one GPU to each task: local rank 1 sees only `cuda:0` (SB314's fact)
    ("horovod", "nodes = 1\nntasks_per_node = 4\ngpus_per_task = 1", "", (4, 1),
     "`resources.gpus_per_task = 1` with 4 tasks per node gives each task only its own GPU",
     "nodes = 1\nntasks_per_node = 4\ngpus_per_node = 4"),
    ("lightning", "nodes = 2\nntasks_per_node = 2\ngpus_per_task = 1\nntasks = 4", "", (4, 1),
     "local rank 1 fails",
     "nodes = 2\nntasks_per_node = 2\ngpus_per_node = 2"),
    ("srun", "nodes = 1\nntasks = 2\ngpus_per_task = 1", "", (4, 1), "handed `LOCAL_RANK`",
     "nodes = 1\nntasks = 2\ngpus_per_node = 2"),
    ("deepspeed", "nodes = 1\nntasks_per_node = 2\ngpus_per_task = 1", "", (4, 1), "`invalid device ordinal`",
     "nodes = 1\nntasks_per_node = 2\ngpus_per_node = 2"),
    # one task per GPU, counted by the model: 2 tasks (one per node without a count) for 16 GPUs
    ("srun", "nodes = 2\ngpus_per_node = 8", "", (1, 1), "starts 2 processes for 16 GPUs",
     "nodes = 2\nntasks_per_node = 8\ngpus_per_node = 8"),
    ("lightning", "nodes = 1\nntasks_per_node = 1\ngpus_per_node = 2", "", (3, 1),
     "`resources.ntasks_per_node = 2` (= the GPUs per node)", "nodes = 1\nntasks_per_node = 2\ngpus_per_node = 2"),
    ("horovod", "nodes = 2\nntasks_per_node = 1\ngpus_per_node = 4", 'launcher = "horovodrun"\n', (3, 1),
     "starts 2 processes for 8 GPUs", "nodes = 2\nntasks_per_node = 4\ngpus_per_node = 4"),
    ("deepspeed", "nodes = 2\nntasks = 2\ngpus_per_node = 2", "", (3, 1), "and drop `resources.ntasks`",
     "nodes = 2\nntasks = 4\ngpus_per_node = 2"),
    # torchrun/accelerate: one task per node, as many workers as the task sees GPUs
    ("torchrun", "nodes = 2\nntasks = 3\ngpus_per_node = 4", "", (3, 1), "starts 3 tasks on 2 nodes",
     "nodes = 2\ngpus_per_node = 4"),
    ("accelerate", "nodes = 1\nntasks_per_node = 2\ngpus_per_node = 2", "", (3, 1), "one task per node",
     "nodes = 1\nntasks_per_node = 1\ngpus_per_node = 2"),
    ("torchrun", "nodes = 2\nntasks = 2\ngpus_per_task = 2", "procs_per_node = 4\n", (8, 1),
     "torchrun starts 4 workers in each task, but each task sees 2 GPUs",
     ("nodes = 2\nntasks = 2\ngpus_per_task = 2", "procs_per_node = 2\n")),
    ("accelerate", "nodes = 2\nntasks = 2\ngpus_per_task = 4", "procs_per_node = 2\n", (8, 1),
     "set `launch.procs_per_node = 4`", ("nodes = 2\nntasks = 2\ngpus_per_task = 4", "procs_per_node = 4\n")),
]


@pytest.mark.parametrize(("kind", "resources", "extra", "where", "fragment", "twin"), MODEL_LAYOUTS)
def test_layouts_are_judged_on_the_job_model(kind, resources, extra, where, fragment, twin):
    found = problems(_spec(kind, resources, extra))
    assert [(ln, col) for ln, col, message in found if fragment in message] == [where], found
    assert len(found) == 1, found
    twin, twin_extra = twin if isinstance(twin, tuple) else (twin, extra)
    load_spec(_spec(kind, twin, twin_extra))


def test_a_raw_gpu_binding_hiding_the_local_ranks_gpu_is_refused_on_the_raw_options():
    text = ('[resources]\nnodes = 1\nntasks_per_node = 2\ngpus_per_node = 2\n[sbatch]\n'
            'options = ["--gpu-bind=map_gpu:0,1"]\n[launch]\nkind = "horovod"\nprogram = "t.py"\n')
    assert problems(text) == [(6, 1, problems(text)[0][2])]
    assert "the GPU binding in `sbatch.options` with 2 tasks per node" in problems(text)[0][2]
    load_spec(text.replace('options = ["--gpu-bind=map_gpu:0,1"]', 'options = ["--gpu-bind=none"]'))


@pytest.mark.parametrize(("kind", "resources"), [
    # The old per-key checks refused these; the model shows the layout each launcher needs:
    ("torchrun", "nodes = 2\ngpus_per_node = 8"),  # no task count: srun starts one task per node
    ("srun", "nodes = 1\nntasks = 8\ngpus_per_node = 8"),  # 8 tasks on one node, one per GPU
    ("horovod", "nodes = 2\nntasks = 16\ngpus_per_node = 8"),
    ("torchrun", "nodes = 2\nntasks_per_node = 1\ngpus_per_task = 4\nntasks = 2"),  # each task sees 4 GPUs
    ("srun", "nodes = 2\nntasks = 2\ngpus_per_task = 1"),  # one task per node: local rank 0 sees its GPU
    ("mpi", "nodes = 1\nntasks = 4\ngpus_per_node = 1"),  # an MPI job is not one rank per GPU
    ("torchrun", 'nodes = "1-2"\nntasks_per_node = 1\ngpus_per_node = 8'),  # a node range: per node only
])
def test_layouts_the_model_accepts(kind, resources):
    extra = "procs_per_node = 4\n" if "gpus_per_task = 4" in resources else ""
    load_spec(_spec(kind, resources, extra))


def test_values_map_to_the_parsers_typed_objects():
    from slurmspec.model.values.gres import GpuRequest
    from slurmspec.model.values.time import Duration

    spec = load_spec('[job]\ntime = "1:00:00"\n[resources]\ngpus_per_node = 8\ngpu_type = "a100"\n'
                     'ntasks_per_node = 1\n' + MINIMAL)
    typed_time = spec.section("job").typed["time"]
    assert isinstance(typed_time, Duration) and typed_time.minutes == 60
    gpus = spec.section("resources").typed["gpus_per_node"]
    assert isinstance(gpus, GpuRequest) and gpus.total == 8 and gpus.types == ("a100",)


def test_normalised_spellings_compare_equal():
    a = load_spec('[job]\ntime = "60"\nmail_type = "END,FAIL"\n[resources]\nconstraint = "a&b"\n'
                  'exclusive = false\n[sbatch]\noptions = ["--wckey=w", "--comment=c", "--hint=multithread"]\n' + MINIMAL)
    b = load_spec('[job]\ntime = 60\nmail_type = ["END", "FAIL"]\n[resources]\nconstraint = ["a", "b"]\n'
                  '[sbatch]\noptions = ["--comment=c", "--hint=multithread", "--wckey=w"]\n' + MINIMAL)
    assert a == b


def test_readme_spec_examples_load():
    import re

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    blocks = re.findall(r"```toml job-spec\n(.*?)```", readme, flags=re.S)
    assert blocks, "README.md shows a job spec in a ```toml job-spec block"
    for block in blocks:
        assert load_spec(block).get("launch", "kind") == "torchrun"


# ------------------------------------------------------------------ combinations sbatch refuses
# (resources of the refused spec, the key reported, its line, a fragment; the corrected twin's
# resources). tests/spec/test_spec_slurm.py submits both to the real sbatch.
REFUSED_TOGETHER = [
    ('mem = "4G"\nmem_per_gpu = "8G"\ngpus_per_node = 1\nntasks = 1', 3,
     "`resources.mem_per_gpu` cannot be combined with `resources.mem`",
     'mem_per_gpu = "8G"\ngpus_per_node = 1\nntasks = 1'),
    ('mem_per_cpu = "2G"\nntasks = 1\nmem = "4G"', 2, "`resources.mem_per_cpu` cannot be combined with `resources.mem`",
     'mem = "4G"\nntasks = 1'),
    ('gpus_per_task = 1', 2, "`resources.gpus_per_task` needs a task count", 'gpus_per_task = 1\nntasks = 2'),
    ('nodes = 1\nntasks = 16\nntasks_per_node = 2', 3, "`resources.ntasks = 16` does not fit",
     'nodes = 8\nntasks = 16\nntasks_per_node = 2'),
    ('gpus_per_node = 1\ncpus_per_task = 2\ncpus_per_gpu = 2\nntasks = 1', 4,
     "`resources.cpus_per_gpu` cannot be combined with `resources.cpus_per_task`",
     'gpus_per_node = 1\ncpus_per_gpu = 2\nntasks = 1'),
    ('mem_per_gpu = "1G"\nntasks = 1', 2, "`resources.mem_per_gpu` is an amount per GPU, but the job requests no GPU",
     'mem_per_cpu = "1G"\nntasks = 1'),
    ('gpus_per_node = 1\ngpus_per_task = 2\nntasks = 1', 3, "is more than `resources.gpus_per_node = 1`",
     'gpus_per_node = 2\ngpus_per_task = 2\nntasks = 1'),
    ('gpus_per_node = 4\ngpus_per_task = 3\nntasks = 1', 3, "`resources.gpus_per_node = 4` is not a multiple of",
     'gpus_per_node = 6\ngpus_per_task = 3\nntasks = 2'),
    ('nodes = 1\ngpus_per_node = 2\ngpus_per_task = 1\nntasks_per_node = 1', 5,
     "`resources.ntasks_per_node = 1` contradicts the GPUs: 2 GPUs per node at 1 per task make 2 tasks",
     'nodes = 1\ngpus_per_node = 2\ngpus_per_task = 1\nntasks_per_node = 2'),
    ('nodes = "1-2"\ngpus_per_task = 1', 3, "(a node range implies no task count)", 'nodes = 2\ngpus_per_task = 1'),
    ('nodes = 1\ncpus_per_task = 2\ngpus_per_task = 1', 4, "needs a task count",
     'nodes = 1\ncpus_per_task = 2\ngpus_per_task = 1\nntasks = 1'),
]
PLAIN = '[launch]\nkind = "plain"\nprogram = "hostname"\n'


@pytest.mark.parametrize(("refused", "line", "fragment", "twin"), REFUSED_TOGETHER)
def test_combinations_sbatch_refuses_are_refused_on_the_key(refused, line, fragment, twin):
    with pytest.raises(SpecError) as info:
        load_spec(f"[resources]\n{refused}\n{PLAIN}", (22, 5))
    found = [(p.line, p.column, p.message) for p in info.value.problems]
    assert [(ln, col) for ln, col, message in found if fragment in message] == [(line, 1)], found
    assert len(found) == 1, found
    load_spec(f"[resources]\n{twin}\n{PLAIN}", (22, 5))  # the corrected twin loads


@pytest.mark.parametrize("resources", [
    'nodes = "1-2"\ngpus_per_task = 1',  # 23.02+ leave the task count to the controller
    'nodes = 1\ncpus_per_task = 2\ngpus_per_task = 1',
    'ntasks_per_node = 2\ngpus_per_task = 1',
])
def test_task_counts_only_22_05_refuses_are_left_to_the_rules_later(resources):
    load_spec(f"[resources]\n{resources}\n{PLAIN}", (23, 2))


def test_cpus_per_gpu_without_gpus_is_refused_from_23_02():
    text = f'[resources]\ncpus_per_gpu = 2\nntasks = 1\n{PLAIN}'
    load_spec(text, (22, 5))
    with pytest.raises(SpecError, match="`resources.cpus_per_gpu` is an amount per GPU"):
        load_spec(text, (23, 2))


@pytest.mark.parametrize("raw", ["--gpus=2", "--gres=gpu:2", "--nodelist=n1"])
def test_raw_options_that_may_change_the_counts_leave_the_job_to_the_rules(raw):
    load_spec(f'[resources]\ngpus_per_task = 1\n[sbatch]\noptions = ["{raw}"]\n{PLAIN}', (22, 5))


def test_a_raw_memory_option_beside_a_typed_one_is_the_pair_not_a_spelling():
    found = problems(f'[resources]\nmem = "4G"\nntasks = 1\n[sbatch]\noptions = ["--mem-per-cpu=1G"]\n{PLAIN}')
    assert [m for _, _, m in found] == [
        "`resources.mem` cannot be combined with `--mem-per-cpu` in `sbatch.options`: sbatch refuses two memory"
        " requests (\"--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive\"). Keep one: `mem` is memory"
        " per node, `mem_per_cpu` is memory per CPU"]


@pytest.mark.parametrize(("refused", "line", "fragment", "twin"), REFUSED_TOGETHER)
def test_convert_keeps_a_refused_combination_verbatim(refused, line, fragment, twin):
    from slurmspec import parse
    from slurmspec.emit import emit
    from slurmspec.emit.convert import convert_script
    from slurmspec.spec.model import Section, Spec

    import tomllib

    values = tomllib.loads(refused)
    spec = Spec([Section("resources", tuple(values.items())), Section("launch", (("kind", "plain"),
                                                                                 ("program", "hostname")))])
    script = emit(spec, version=(22, 5))  # what the spec would have asked for, unchecked
    back = convert_script(parse(script, version="22.05"))
    assert back.section("resources") is None
    assert [line for line in back.get("sbatch", "lines") if line.startswith("#SBATCH")] == \
        [line for line in script.splitlines() if line.startswith("#SBATCH")]


@pytest.mark.parametrize(("launch", "line", "column", "fragment"), [
    ('program = "-m"\nargs = ["pkg.train", "--lr", "1"]', 3, 1,
     '`launch.program = "-m"` starts with `-`, so the launcher would read it as one of its own options (`srun -m`'
     ' is srun\'s `--distribution`, not a module); to run a module, name the interpreter as the program: `program ='
     ' "python"`, `args = ["-m", "pkg.train", ...]`'),
    ('program = "-m"\npython = "python3 -u"', 3, 1, '`program = "python3"`, `args = ["-u", "-m", "package.module", ...]`'),
    ('program = "--version"', 3, 1, "a file whose name starts with `-` is written `./--version`"),
    ('program = "t.py"\npython = "python \'-u"', 4, 1, "`launch.python` cannot be split into words"),
])
def test_launch_words_are_refused_with_their_position(launch, line, column, fragment):
    found = problems(f'[launch]\nkind = "srun"\n{launch}\n')
    assert any(fragment in m and (ln, col) == (line, column) for ln, col, m in found), found
