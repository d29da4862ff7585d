"""What a cold ``slurmspec`` run loads and how it ends (``benchmarks/bench_lint.py`` times it).

Only the invoked command's arguments are built and its module imported; the
ShellCheck bridge only when ShellCheck runs; the program flushes its output and
leaves without tearing the interpreter down, which must lose nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from slurmspec.cli import COMMANDS

FIXTURES = Path(__file__).resolve().parent / "rules" / "fixtures"
SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "multinode-torchrun.sbatch"


def _modules_after(argv: list[str]) -> set[str]:
    code = (
        "import io, sys\nfrom slurmspec.cli import main\n"
        f"sys.stdout = io.StringIO()\nmain({argv!r})\nsys.stdout = sys.__stdout__\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def test_lint_loads_no_other_command_nor_the_shellcheck_bridge():
    loaded = _modules_after(["lint", "--no-config", "--format", "json", str(SAMPLE)])
    others = {f"slurmspec.cli.{module}" for name, module in COMMANDS.items() if name != "lint"}
    assert not loaded & others
    assert "slurmspec.cli.lint_cmd" in loaded
    assert not loaded & {"slurmspec.lint.shellcheck", "lark", "pickle", "rich", "multiprocessing"}


def test_lint_without_a_cluster_profile_builds_none_of_the_fitting_code():
    # rules/cluster/ import the fitting views after the no-profile return (rules/cluster/__init__.py)
    loaded = _modules_after(["lint", "--no-config", "--format", "json", str(SAMPLE)])
    fitting = {f"slurmspec.cluster.fit.{name}" for name in ("need", "nodes", "where", "waste", "limits", "shape")}
    assert not loaded & (fitting | {"slurmspec.cluster.profile", "slurmspec.spec.load"})


def test_help_and_mistakes_still_list_every_command():
    done = subprocess.run([sys.executable, "-m", "slurmspec", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and all(name in done.stdout for name in COMMANDS)
    done = subprocess.run([sys.executable, "-m", "slurmspec", "lnt"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and all(repr(name) in done.stderr for name in COMMANDS)


def test_the_program_ends_with_all_its_output_and_its_exit_code():
    done = subprocess.run([sys.executable, "-m", "slurmspec", "lint", "--no-config", "--format", "json", str(FIXTURES)],
                          capture_output=True, timeout=300)
    assert done.returncode == 1, done.stderr
    assert len(json.loads(done.stdout)["diagnostics"]) > 100  # large enough to fill a pipe many times


def test_a_reader_that_stops_early_gets_no_traceback():
    process = subprocess.Popen([sys.executable, "-m", "slurmspec", "lint", "--no-config", "--format", "json",
                                str(FIXTURES)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.read(100)
    process.stdout.close()
    stderr = process.stderr.read()
    process.wait(timeout=300)
    assert b"Traceback" not in stderr and b"Exception ignored" not in stderr, stderr.decode()
