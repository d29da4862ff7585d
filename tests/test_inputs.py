"""Hostile inputs: special files, link loops and oversized scripts end quickly, in bounded memory, with a clear word.

Each run goes through the real CLI in a subprocess with a time limit and an
address-space limit, so a hang or a memory blow-up fails the test instead of
the machine.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

MEMORY_LIMIT = 600 * 1024 * 1024  # address space for one lint run: far below what the old parser took
TIME_LIMIT = 60  # seconds; generous for a slow CI machine, a hang never ends


def lint(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    return subprocess.run(
        [sys.executable, "-m", "slurmspec", "lint", "--no-config", "--format", "json", *args],
        input=stdin, capture_output=True, timeout=TIME_LIMIT, preexec_fn=limit,
    )


def codes(result: subprocess.CompletedProcess) -> list[str]:
    return [d["code"] for d in json.loads(result.stdout)["diagnostics"]]


GOOD = b"#!/bin/bash\n#SBATCH --time=10\nsrun hostname\n"


def test_a_fifo_in_a_folder_is_skipped_with_a_note(tmp_path: Path):
    os.mkfifo(tmp_path / "job.sbatch")  # nobody writes it: opening it would block forever
    (tmp_path / "good.sbatch").write_bytes(GOOD)
    result = lint(str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert b"job.sbatch: skipped, a FIFO is not a script file" in result.stderr
    assert codes(result) == []


def test_a_symlink_loop_in_a_folder_is_skipped_and_named_on_the_command_line_is_an_error(tmp_path: Path):
    (tmp_path / "loop.sbatch").symlink_to("loop.sbatch")
    result = lint(str(tmp_path))
    assert result.returncode == 0 and b"loop.sbatch: skipped, cannot read" in result.stderr
    result = lint(str(tmp_path / "loop.sbatch"))
    assert result.returncode == 2 and b"loop.sbatch: cannot read" in result.stderr
    assert b"Traceback" not in result.stderr


def test_a_device_named_on_the_command_line_is_read_only_up_to_the_limit():
    result = lint("/dev/zero")  # never ends: reading stops one byte past slurmctld's limit
    assert result.returncode == 1, result.stderr
    assert codes(result) == ["SB106"]


def test_a_10_mb_script_is_refused_without_being_analysed(tmp_path: Path):
    big = tmp_path / "big.sbatch"
    big.write_bytes(GOOD + b"echo " + b"x" * 64 + b"\n" * 1 + (b"echo padding line\n" * 600_000))
    assert big.stat().st_size > 10_000_000
    result = lint(str(big))
    assert result.returncode == 1, result.stderr
    found = json.loads(result.stdout)["diagnostics"]
    assert [d["code"] for d in found] == ["SB106"] and found[0]["line"] == 1
    assert "max_script_size" in found[0]["message"]


def test_a_5_mb_single_line_script_is_refused_in_bounded_memory(tmp_path: Path):
    big = tmp_path / "one-line.sbatch"
    big.write_bytes(b"#!/bin/bash\necho " + b"a" * 5_000_000 + b"\n")
    result = lint(str(big))
    assert result.returncode == 1, result.stderr
    assert codes(result) == ["SB106"]


def test_a_long_line_under_the_limit_is_analysed_in_bounded_memory(tmp_path: Path):
    # 3.9 MB on one line is a script slurmctld takes: it is linted whole (the grammar once needed
    # hundreds of bytes of regex stack per character of such a line).
    long = tmp_path / "long.sbatch"
    long.write_bytes(b"#!/bin/bash\n#SBATCH --time=10\necho " + b"a" * 3_900_000 + b"\n")
    result = lint(str(long))
    assert result.returncode == 0, result.stderr[-2000:]
    assert codes(result) == []


def test_an_oversized_script_on_standard_input_is_refused_too():
    result = lint("-", stdin=GOOD + b"#" * 5_000_000)
    assert result.returncode == 1, result.stderr
    assert codes(result) == ["SB106"]


@pytest.mark.parametrize("command", [["parse"], ["convert"]])
def test_other_commands_refuse_an_oversized_input_with_a_message(tmp_path: Path, command: list[str]):
    big = tmp_path / "big.sbatch"
    big.write_bytes(GOOD + b"#" * 5_000_000)
    result = subprocess.run([sys.executable, "-m", "slurmspec", *command, str(big)],
                            capture_output=True, timeout=TIME_LIMIT)
    assert result.returncode == 2
    assert b"larger than 4 MiB" in result.stderr and b"Traceback" not in result.stderr
