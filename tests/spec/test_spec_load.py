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
    ("nodes = 2\ngpus_per_node = 8", "torchrun", "one task per node"),
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
