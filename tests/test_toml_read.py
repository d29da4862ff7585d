"""Settings files nested too deeply are invalid TOML with exit 2, never a RecursionError traceback (issue 21).

For `emit` a traceback was worse than ugly: it exits 1, which means "written, with an error".
"""

from __future__ import annotations

import pytest

from slurmspec.cli import main
from slurmspec.toml_read import MAX_DEPTH, TooDeep, loads_toml

DEEP = {
    "arrays": "x = " + "[" * 5000 + "]" * 5000 + "\n",  # tomllib recursion: RecursionError
    "inline tables": "x = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n",
    "table headers": "[" + ".".join(["a"] * 5000) + "]\nx = 1\n",  # no recursion in tomllib: deep dicts
}
SCRIPT = "#!/bin/bash\n#SBATCH --time=10\nsrun true\n"


@pytest.mark.parametrize("text", DEEP.values(), ids=DEEP)
def test_too_deep_is_a_value_error(text):
    with pytest.raises(TooDeep, match=f"nested more than {MAX_DEPTH} levels deep"):
        loads_toml(text)


def test_nesting_up_to_the_limit_is_read():
    # The document is the first level, so x holds MAX_DEPTH - 1 nested arrays.
    value = loads_toml("x = " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n")["x"]
    for _ in range(MAX_DEPTH - 2):
        (value,) = value
    assert value == []
    with pytest.raises(TooDeep):
        loads_toml("x = " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    (tmp_path / "job.sbatch").write_text(SCRIPT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("form", DEEP, ids=DEEP)
def test_a_deep_configuration_is_exit_2(folder, capsys, form):
    (folder / "deep.toml").write_text(DEEP[form])
    assert main(["lint", "--jobs", "1", "--config", "deep.toml", "job.sbatch"]) == 2
    assert "slurmspec: error: deep.toml: invalid TOML: arrays or tables nested more than" in capsys.readouterr().err


def test_a_deep_configuration_found_by_search_is_exit_2(folder, capsys):
    (folder / "slurmspec.toml").write_text(DEEP["arrays"])
    assert main(["lint", "--jobs", "1", "job.sbatch"]) == 2
    assert "slurmspec.toml: invalid TOML: arrays or tables nested more than" in capsys.readouterr().err


def test_a_deep_pyproject_that_mentions_slurmspec_is_exit_2(folder, capsys):
    (folder / "pyproject.toml").write_text("# slurmspec\n" + DEEP["arrays"])
    assert main(["lint", "--jobs", "1", "job.sbatch"]) == 2
    assert "pyproject.toml: invalid TOML: arrays or tables nested more than" in capsys.readouterr().err


def test_a_deep_cluster_profile_is_exit_2(folder, capsys):
    (folder / "cluster.toml").write_text(DEEP["inline tables"])
    assert main(["lint", "--jobs", "1", "--no-config", "--cluster", "cluster.toml", "job.sbatch"]) == 2
    assert "cluster.toml: invalid TOML: arrays or tables nested more than" in capsys.readouterr().err


def test_a_deep_policy_file_is_exit_2(folder, capsys):
    (folder / "policy.toml").write_text(DEEP["table headers"])
    (folder / "settings.toml").write_text('policy = "policy.toml"\n')
    assert main(["lint", "--jobs", "1", "--config", "settings.toml", "job.sbatch"]) == 2
    assert "policy.toml is not a TOML file: arrays or tables nested more than" in capsys.readouterr().err


@pytest.mark.parametrize("form", DEEP, ids=DEEP)
def test_a_deep_emit_spec_is_exit_2_with_nothing_written(folder, capsys, form):
    (folder / "job.toml").write_text(DEEP[form])
    assert main(["emit", "--no-config", "job.toml"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("job.toml:1:1: error: invalid TOML: arrays or tables nested more than")


@pytest.mark.parametrize("exhausted", [MemoryError, RecursionError])
def test_running_out_of_memory_or_stack_is_exit_2_not_a_traceback(folder, capsys, monkeypatch, exhausted):
    def lint_that_runs_out(args, out):
        raise exhausted()

    monkeypatch.setattr("slurmspec.cli.lint_cmd.run", lint_that_runs_out)
    assert main(["lint", "--no-config", "job.sbatch"]) == 2
    assert capsys.readouterr().err.startswith("slurmspec: error: ran out of ")
