"""Folder discovery leaves out what ``exclude``/``extend-exclude`` name and what git ignores, as ruff does."""

from __future__ import annotations

import os

import pytest

from slurmspec.cli import main
from slurmspec.cli.gitignore import ignored, parse

JOB = "#!/bin/bash\n#SBATCH --time=10\nsrun ./app\n"


def _tree(root, *names):
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(JOB)


def _linted(capsys, *argv) -> set[str]:
    code = main(["lint", "--format", "json", "--select", "SB219", "-j", "1", *argv])
    out = capsys.readouterr()
    assert code == 0, out.err
    import json

    return {os.path.relpath(d["path"]) for d in json.loads(out.out)["diagnostics"]}


def _found(capsys, monkeypatch, tmp_path, *argv) -> list[str]:
    """The files lint reads (each gets one SB219 finding from `--part`)."""
    monkeypatch.chdir(tmp_path)
    for path in tmp_path.rglob("*.sbatch"):
        path.write_text("#!/bin/bash\n#SBATCH --part=gpu\nsrun ./app\n")
    return sorted(_linted(capsys, *argv))


def test_default_list_skips_environments_and_build_output(tmp_path, capsys, monkeypatch):
    _tree(tmp_path, "jobs/a.sbatch", "venv/b.sbatch", "build/c.sbatch", "node_modules/x/d.sbatch",
          "dist/e.sbatch", "jobs/__pycache__/f.sbatch")
    assert _found(capsys, monkeypatch, tmp_path, ".") == ["jobs/a.sbatch"]


def test_exclude_replaces_the_default_and_extend_exclude_adds(tmp_path, capsys, monkeypatch):
    _tree(tmp_path, "jobs/a.sbatch", "jobs/old/b.sbatch", "venv/c.sbatch", "jobs/d.tmp.sbatch")
    (tmp_path / "slurmspec.toml").write_text('exclude = ["old/"]\nextend-exclude = ["*.tmp.sbatch"]\n')
    assert _found(capsys, monkeypatch, tmp_path, ".") == ["jobs/a.sbatch", "venv/c.sbatch"]
    assert _found(capsys, monkeypatch, tmp_path, "--exclude", "jobs/a.sbatch", ".") == [
        "jobs/old/b.sbatch", "venv/c.sbatch"]  # the flag replaces the setting; extend-exclude stays
    assert _found(capsys, monkeypatch, tmp_path, "--extend-exclude", "venv,a.*", ".") == []


def test_a_pattern_with_a_slash_is_relative_to_the_configuration(tmp_path, capsys, monkeypatch):
    _tree(tmp_path, "jobs/gen/a.sbatch", "other/jobs/gen/b.sbatch")
    (tmp_path / "slurmspec.toml").write_text('extend-exclude = ["/jobs/gen"]\n')
    assert _found(capsys, monkeypatch, tmp_path, ".") == ["other/jobs/gen/b.sbatch"]


def test_a_named_path_is_linted_unless_force_exclude(tmp_path, capsys, monkeypatch):
    _tree(tmp_path, "build/a.sbatch", "build/b.sbatch")
    assert _found(capsys, monkeypatch, tmp_path, "build/a.sbatch") == ["build/a.sbatch"]
    assert _found(capsys, monkeypatch, tmp_path, "build") == ["build/a.sbatch", "build/b.sbatch"]
    assert _found(capsys, monkeypatch, tmp_path, "--force-exclude", "build/a.sbatch", "build") == []


def test_an_excluded_folder_is_silent_but_an_empty_run_still_warns(tmp_path, capsys, monkeypatch):
    _tree(tmp_path, "venv/a.sbatch")
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "-j", "1", "."]) == 0
    err = capsys.readouterr().err
    assert "venv" not in err and "no batch scripts found in ." in err


def test_gitignore_respected_by_default_and_nested_files_apply_to_their_subtree(tmp_path, capsys, monkeypatch):
    (tmp_path / ".git" / "info").mkdir(parents=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("private.sbatch\n")
    (tmp_path / ".gitignore").write_text("# generated\nout/\n*.gen.sbatch\n!keep.gen.sbatch\n/top.sbatch\n")
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / ".gitignore").write_text("local-*.sbatch\n!local-shared.sbatch\n")
    _tree(tmp_path, "a.sbatch", "top.sbatch", "jobs/top.sbatch", "out/b.sbatch", "jobs/out/c.sbatch",
          "x.gen.sbatch", "keep.gen.sbatch", "jobs/local-me.sbatch", "jobs/local-shared.sbatch",
          "local-me.sbatch", "private.sbatch", "jobs/private.sbatch")
    assert _found(capsys, monkeypatch, tmp_path, ".") == [
        "a.sbatch", "jobs/local-shared.sbatch", "jobs/top.sbatch", "keep.gen.sbatch", "local-me.sbatch"]
    # Walking a subfolder still applies the repository's files above it.
    assert _found(capsys, monkeypatch, tmp_path, "jobs") == ["jobs/local-shared.sbatch", "jobs/top.sbatch"]
    assert len(_found(capsys, monkeypatch, tmp_path, "--no-respect-gitignore", ".")) == 12
    (tmp_path / "slurmspec.toml").write_text("respect-gitignore = false\n")
    assert len(_found(capsys, monkeypatch, tmp_path, ".")) == 12


@pytest.mark.parametrize(("pattern", "path", "is_folder", "expected"), [
    ("*.sbatch", "a/b/c.sbatch", False, True),
    ("logs/", "a/logs", True, True),
    ("logs/", "a/logs", False, False),  # a trailing slash: folders only
    ("/a.sbatch", "a.sbatch", False, True),
    ("/a.sbatch", "sub/a.sbatch", False, False),  # a leading slash anchors
    ("sub/a.sbatch", "x/sub/a.sbatch", False, False),  # so does a slash in the middle
    ("**/gen", "x/y/gen", True, True),
    ("a/**/b.sbatch", "a/b.sbatch", False, True),
    ("a/**/b.sbatch", "a/x/y/b.sbatch", False, True),
    ("a/**", "a/x/y.sbatch", False, True),
    ("\\#x.sbatch", "#x.sbatch", False, True),
    ("j?b.sbatch", "job.sbatch", False, True),
    ("j[!o]b.sbatch", "job.sbatch", False, False),
])
def test_gitignore_patterns(tmp_path, pattern, path, is_folder, expected):
    base = str(tmp_path)
    assert ignored(parse(pattern + "\n", base), os.path.join(base, path), is_folder) is expected


def test_gitignore_last_match_wins():
    patterns = parse("*.sbatch\n!keep.sbatch\n", "/r")
    assert ignored(patterns, "/r/x.sbatch", False) and not ignored(patterns, "/r/keep.sbatch", False)
    assert ignored(parse("!keep.sbatch\n*.sbatch\n", "/r"), "/r/keep.sbatch", False)


def test_configuration_values_are_checked(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "slurmspec.toml").write_text('exclude = "old"\n')
    assert main(["lint", "."]) == 2
    assert "`exclude`: must be a list of globs" in capsys.readouterr().err
    (tmp_path / "slurmspec.toml").write_text('respect-gitignore = "no"\n')
    assert main(["lint", "."]) == 2
    assert "`respect-gitignore`: must be true or false" in capsys.readouterr().err
