"""Hostile files, names and settings never crash the CLI, hang it, or reach the terminal raw (issue 21).

Each example runs ``slurmspec.cli.main([...])`` in this process, in a fresh folder, with standard
output and error as a UTF-8 terminal or pipe takes them: strict on standard output (a lone surrogate
raises there, as on Python's own stdout) and ``backslashreplace`` on standard error (as Python's).
An example fails on a traceback (anything raised out of ``main``), an exit code other than 0, 1 or 2,
a run that does not end (a watchdog alarm, far beyond any real run: not a timing assertion), output
that is not UTF-8, or a raw control character -- ESC, BEL, C1, bidi controls, line separators,
anything ``slurmspec.printable`` escapes -- in any output format. Strategies: tests/strategies.py.

The last test runs a few hostile inputs in a child process limited to ~300 MB of address space.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from slurmspec.cli import main
from slurmspec.report import FORMATS
from tests.examples import examples
from tests.strategies import (
    RAW_CONTROLS, hostile_configs, hostile_file_names, hostile_fragments, hostile_profiles, hostile_scontrol,
    hostile_scripts, hostile_specs,
)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "cluster" / "data"
# Three nodes of each form are enough to cut, corrupt and compare (and keep a failing example short).
NODE_TEXT = "".join((DATA / "2205-node.txt").read_text().splitlines(keepends=True)[:3])
NODE_JSON = json.dumps({**json.loads((DATA / "2411-node.json").read_text()),
                        "nodes": json.loads((DATA / "2411-node.json").read_text())["nodes"][:3]})
WATCHDOG_SECONDS = 60
# The colours slurmspec itself writes with --color always (report/ansi.py); nothing else may start with ESC.
OUR_SGR = re.compile(r"\x1b\[(?:0|1|2|34|1;31|1;33|1;34)m")


class Hang(Exception):
    pass


@contextmanager
def _watchdog(seconds: int):
    def ring(signum, frame):
        raise Hang(f"no answer after {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_cli(argv: list[str], folder: str, stdin: bytes = b"") -> tuple[int, bytes, bytes]:
    """``main(argv)`` in ``folder``: (exit code, standard output, standard error) as bytes."""
    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    replaced = (
        io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"),
        io.TextIOWrapper(out_bytes, encoding="utf-8", errors="strict", write_through=True),
        io.TextIOWrapper(err_bytes, encoding="utf-8", errors="backslashreplace", write_through=True),
    )
    streams = (sys.stdin, sys.stdout, sys.stderr)
    here = os.getcwd()
    sys.stdin, sys.stdout, sys.stderr = replaced
    os.chdir(folder)
    try:
        with _watchdog(WATCHDOG_SECONDS):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse: --help, usage errors
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        os.chdir(here)
        sys.stdin, sys.stdout, sys.stderr = streams
    return code, out_bytes.getvalue(), err_bytes.getvalue()


def check_output(code: int, out: bytes, err: bytes, *, data_out: bool = False) -> None:
    """The run ended as the CLI promises; ``data_out``: standard output is a file's content (emit, convert)."""
    assert code in (0, 1, 2), (code, err)
    for name, stream in (("stdout", out), ("stderr", err)):
        if name == "stdout" and data_out:  # the bytes the file holds, whatever they are
            continue
        text = stream.decode("utf-8")  # raises on output that is not UTF-8
        raw = RAW_CONTROLS.search(OUR_SGR.sub("", text))
        assert raw is None, (name, raw, text[max(0, raw.start() - 80):raw.end() + 80])
    assert b"Traceback" not in err


def _write(folder: str, name: bytes | str, data: bytes) -> str:
    """Write ``data`` to ``name`` in ``folder``; the name as the CLI gets it from argv (os.fsdecode)."""
    path = os.path.join(os.fsencode(folder), os.fsencode(name))
    with open(path, "wb") as handle:
        handle.write(data)
    return os.fsdecode(os.fsencode(name))


@st.composite
def lint_runs(draw: st.DrawFn) -> tuple[dict, list[str], bytes]:
    """(files by name, argv, standard input) for one `slurmspec lint` of hostile inputs."""
    files = {}
    name = draw(hostile_file_names())
    files[name] = draw(hostile_scripts())
    argv = ["lint", "--jobs", "1", "--format", draw(st.sampled_from(FORMATS))]
    argv += draw(st.lists(st.sampled_from(("--statistics", "--quiet", "--color=always", "--color=never",
                                           "--exit-zero", "--no-suppress", "--require-sbatch")), max_size=2))
    argv += draw(st.sampled_from(([], [], ["--fix", "--show-fixes"], ["--diff", "--unsafe-fixes"])))
    if draw(st.integers(0, 2)) == 0:
        files[b"settings.toml"] = draw(hostile_configs())
        argv += ["--config", "settings.toml"]
    else:
        argv.append("--no-config")
    if draw(st.integers(0, 3)) == 0:
        files[b"cluster.toml"] = draw(hostile_profiles())
        argv += ["--cluster", "cluster.toml"]
    if draw(st.integers(0, 5)) == 0:
        argv += ["--select", os.fsdecode(draw(hostile_fragments))]
    stdin = b""
    where = draw(st.integers(0, 3))
    if where == 0:
        argv.append(".")  # folder discovery
    elif where == 1:
        stdin = files.pop(name)
        argv += ["--stdin-filename", os.fsdecode(name), "-"]
    else:
        argv.append(os.fsdecode(name))
        if where == 3:
            argv.append(os.fsdecode(draw(hostile_file_names())))  # named, and missing
    return files, argv, stdin


@st.composite
def other_runs(draw: st.DrawFn) -> tuple[dict, list[str], bytes, bool]:
    """(files, argv, stdin, whether stdout is file content) for parse, convert, emit, cluster import, rule."""
    command = draw(st.sampled_from(("parse", "convert", "emit", "cluster", "rule")))
    if command in ("parse", "convert"):
        name = draw(hostile_file_names())
        return {name: draw(hostile_scripts())}, [command, "--no-config", os.fsdecode(name)], b"", command == "convert"
    if command == "emit":
        return {b"job.toml": draw(hostile_specs())}, ["emit", "--no-config", "job.toml"], b"", True
    if command == "rule":
        return {}, ["rule", os.fsdecode(draw(hostile_fragments))], b"", False
    files = {b"n": draw(hostile_scontrol(NODE_TEXT, NODE_JSON)), b"p": (DATA / "2205-partition.txt").read_bytes(),
             b"c": (DATA / "2205-config.txt").read_bytes()}
    return files, ["cluster", "import", "--nodes", "n", "--partitions", "p", "--config", "c"], b"", False


def _run_in_fresh_folder(files: dict, argv: list[str], stdin: bytes) -> tuple[int, bytes, bytes]:
    with tempfile.TemporaryDirectory(prefix="slurmspec-hostile-") as folder:
        for name, data in files.items():
            _write(folder, name, data)
        return run_cli(argv, folder, stdin)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(run=lint_runs())
@example(run=({b"j.sbatch": b"#!/bin/bash\n#SBATCH --time=\x1b[2J\x07\n"}, ["lint", "--jobs", "1", "--no-config",
              "--format", "concise", "j.sbatch"], b""))
@example(run=({b"\x1b]0;x\x07\xff\xe2\x80\xae.sbatch": b"#!bash \x0b\n#SBATCH -p \xff\n"},
              ["lint", "--jobs", "1", "--no-config", "--format", "sarif", "."], b""))
@example(run=({b"\xff.sbatch": b"\x00"}, ["lint", "--jobs", "1", "--no-config", "--diff", "--unsafe-fixes", "."],
              b""))  # the diff of a file named in bytes that are not UTF-8 raised on a strict standard output
def test_lint_survives_hostile_files_names_and_settings(run):
    files, argv, stdin = run
    code, out, err = _run_in_fresh_folder(files, argv, stdin)
    # A diff, and a fixed script from standard input, are the file's own bytes (as `git diff` shows them).
    check_output(code, out, err, data_out="--diff" in argv or ("--fix" in argv and "-" in argv))


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(run=other_runs())
def test_other_commands_survive_hostile_input(run):
    files, argv, stdin, data_out = run
    code, out, err = _run_in_fresh_folder(files, argv, stdin)
    check_output(code, out, err, data_out=data_out)


# ---------------------------------------------------------------- bounded memory, in a child process
_LIMITED = """
import resource, sys
limit = 300 * 1024 * 1024
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from slurmspec.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _hostile_files(folder: Path) -> dict[str, list[str]]:
    """A few inputs that cost the most: the cases below, by name."""
    long_line = b"#!/bin/bash\n#SBATCH --job-name=" + b"\x1b[2J" * (1024 * 1024) + b"\n"  # 4 MiB: the size limit
    (folder / "long.sbatch").write_bytes(long_line)
    many = b"#!/bin/bash\n" + b"#SBATCH --time=\x07\xff\n" * 20_000  # each a finding to escape
    (folder / "many.sbatch").write_bytes(many)
    (folder / "deep.toml").write_bytes(b"x = " + b"[" * 100_000 + b"]" * 100_000 + b"\n")
    (folder / "deep.json").write_bytes(b'{"nodes": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    (folder / "p.txt").write_bytes((DATA / "2205-partition.txt").read_bytes())
    return {
        "long line": ["lint", "--jobs", "1", "--no-config", "--format", "json", "long.sbatch"],
        "many directives": ["lint", "--jobs", "1", "--no-config", "--format", "text", "many.sbatch"],
        "/dev/zero": ["lint", "--jobs", "1", "--no-config", "/dev/zero"],
        "deep config": ["lint", "--jobs", "1", "--config", "deep.toml", "long.sbatch"],
        "deep spec": ["emit", "--no-config", "deep.toml"],
        "deep JSON": ["cluster", "import", "--nodes", "deep.json", "--partitions", "p.txt"],
    }


def test_hostile_inputs_in_300_mb_of_address_space(tmp_path):
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    failures = {}
    for case, argv in _hostile_files(tmp_path).items():
        try:
            done = subprocess.run([sys.executable, "-c", _LIMITED, *argv], cwd=tmp_path, env=environment,
                                  capture_output=True, timeout=300, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            failures[case] = "no answer in 300 s"
            continue
        try:
            check_output(done.returncode, done.stdout, done.stderr)
        except (AssertionError, UnicodeDecodeError) as exc:
            failures[case] = f"exit {done.returncode}: {exc!r:.300} {done.stderr[-600:]!r}"
    assert failures == {}
