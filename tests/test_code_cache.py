"""The code attrs writes for slurmspec's classes is compiled once and then read from the private cache
(``slurmspec/code_cache.py``), never from a file someone else could have written, and changes nothing a
run prints."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from slurmspec import code_cache

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "multinode-torchrun.sbatch"

# A cold lint in a fresh process, reporting (as JSON on stderr) which code attrs compiled for a slurmspec
# class, what the cache file holds afterwards, and the report itself on stdout.
_PROBE = r"""
import builtins, json, sys
compiled = []
original = builtins.compile
def counting(source, filename, *args, **kwargs):
    if " slurmspec." in str(filename):
        compiled.append(str(filename))
    return original(source, filename, *args, **kwargs)
builtins.compile = counting
from slurmspec.cli import main
code = main(["lint", "--no-config", "--format", "json", "--exit-zero", sys.argv[1]])
from slurmspec import code_cache
code_cache.save()
sys.stderr.write(json.dumps({"compiled": compiled, "path": code_cache.cache_path()}))
sys.exit(code)
"""


def _cold_lint(home: Path) -> tuple[str, list[str], Path]:
    env = {**os.environ, "XDG_CACHE_HOME": str(home)}
    done = subprocess.run([sys.executable, "-c", _PROBE, str(SAMPLE)], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    probe = json.loads(done.stderr[done.stderr.rindex('{"compiled"'):])
    return done.stdout, probe["compiled"], Path(probe["path"])


@pytest.fixture
def home(tmp_path) -> Path:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    return folder


def test_the_second_run_compiles_none_of_it_and_reports_the_same(home):
    first, compiled, path = _cold_lint(home)
    assert len(compiled) > 50 and path.is_file() and path.stat().st_mode & 0o777 == 0o600
    second, again, _ = _cold_lint(home)
    assert second == first
    # Only what holds a number drawn in each process: the __hash__ attrs writes for an ordered class.
    assert all("slurmspec.span.Span" in name for name in again), again


@pytest.mark.parametrize("planted", ["garbage", "not a table", "not code", "others can write it", "a link"])
def test_a_cache_file_that_is_not_ours_or_not_code_is_never_loaded(home, tmp_path, planted):
    reference, _, path = _cold_lint(home)
    real = marshal.loads(path.read_bytes())  # the keys a run looks up
    path.unlink()
    if planted == "garbage":
        path.write_bytes(b"\xe3\x00garbage")
    elif planted == "not a table":
        path.write_bytes(marshal.dumps(list(real.items())))
    elif planted == "not code":
        path.write_bytes(marshal.dumps({key: "not code" for key in real}))
    elif planted == "others can write it":
        path.write_bytes(marshal.dumps({key: compile("raise SystemExit(9)", "planted", "exec") for key in real}))
        path.chmod(0o666)
    else:
        elsewhere = tmp_path / "elsewhere.marshal"
        elsewhere.write_bytes(marshal.dumps({key: compile("raise SystemExit(9)", "planted", "exec") for key in real}))
        path.symlink_to(elsewhere)
    report, compiled, _ = _cold_lint(home)
    assert report == reference and len(compiled) > 50  # read nothing from it, and the run is as before
    if planted == "a link":
        assert path.is_symlink()  # neither followed nor written through
        return
    assert planted != "others can write it" or path.stat().st_mode & 0o777 == 0o600  # a file of ours took its place
    _, again, _ = _cold_lint(home)  # ... which the next run reads
    assert all("slurmspec.span.Span" in name for name in again), again


def test_a_cache_folder_others_can_write_is_neither_read_nor_written(tmp_path):
    home = tmp_path / "cache"
    home.mkdir(mode=0o777)
    home.chmod(0o777)  # without the sticky bit: another user could swap our folder for theirs
    _, compiled, path = _cold_lint(home)
    _, again, _ = _cold_lint(home)
    assert len(again) == len(compiled) > 50 and not path.exists()


def test_only_slurmspec_classes_are_cached(monkeypatch):
    import attrs

    monkeypatch.setattr(code_cache, "_table", {})
    monkeypatch.setattr(code_cache, "_changed", False)
    code_cache.install()

    @attrs.define
    class Elsewhere:  # this module is tests.test_code_cache, not slurmspec
        value: int

    assert Elsewhere(3).value == 3 and code_cache._table == {} and not code_cache._changed
