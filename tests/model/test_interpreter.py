"""slurmspec.model.job.interpreter: the `#!` line split the way the Linux kernel (and env -S) splits it."""

from __future__ import annotations

import pytest

import slurmspec
from slurmspec.model.job.interpreter import interpreter


@pytest.mark.parametrize("line, path, argument, program, split, words, comment", [
    ("#!/bin/bash", "/bin/bash", None, "bash", False, (), None),
    ("#!  /bin/sh  ", "/bin/sh", None, "sh", False, (), None),
    ("#!/bin/bash -l", "/bin/bash", "-l", "bash", False, ("-l",), None),
    ("#!/bin/bash -e -x", "/bin/bash", "-e -x", "bash", False, ("-e -x",), None),
    ("#!/bin/bash   # Interpreter", "/bin/bash", "# Interpreter", "bash", False, ("# Interpreter",), 0),
    ("#!/bin/bash -l # login", "/bin/bash", "-l # login", "bash", False, ("-l # login",), 3),
    ("#!/usr/bin/env bash", "/usr/bin/env", "bash", "bash", False, (), None),
    ("#!/usr/bin/env bash -l", "/usr/bin/env", "bash -l", "bash -l", False, (), None),
    ("#!/usr/bin/env bash # c", "/usr/bin/env", "bash # c", "bash # c", False, (), 5),
    ("#!/usr/bin/env -S bash -l # c", "/usr/bin/env", "-S bash -l # c", "bash", True, ("-l",), None),
    ("#!/usr/bin/env -vS bash -l", "/usr/bin/env", "-vS bash -l", "bash", True, ("-l",), None),
    ("#!/usr/bin/env --split-string=python3 -u", "/usr/bin/env", "--split-string=python3 -u", "python3", True,
     ("-u",), None),
    ("#!/usr/bin/env -S A=1 'python3' -u", "/usr/bin/env", "-S A=1 'python3' -u", "python3", True, ("-u",), None),
    ("#!/usr/bin/env", "/usr/bin/env", None, None, False, (), None),
])
def test_split(line, path, argument, program, split, words, comment):
    found = interpreter(slurmspec.parse(line + "\necho\n"))
    assert (found.path, found.argument, found.program, found.split, found.words, found.comment) == (
        path, argument, program, split, words, comment)


def test_spans_point_at_the_path_and_the_argument():
    script = slurmspec.parse("#!/bin/bash   # Interpreter\necho\n")
    found = interpreter(script)
    assert script.source[found.path_span.start:found.path_span.end] == "/bin/bash"
    assert script.source[found.argument_span.start:found.argument_span.end] == "# Interpreter"
    assert found.name == "bash" and not found.via_env


def test_no_interpreter_without_a_shebang():
    assert interpreter(slurmspec.parse("echo\n")) is None
    assert interpreter(slurmspec.parse("#!\necho\n")) is None


@pytest.mark.parametrize("line, exit_code", [
    ("#!/bin/bash   # Interpreter", "127:0"),  # issue 11: `/bin/bash: # Interpreter: No such file or directory`
    ("#!/usr/bin/env bash # Interpreter", "127:0"),
    ("#!/bin/bash -e -x", "1:0"),  # `/bin/bash: - : invalid option`
    ("#!/usr/bin/env -S bash -l # Interpreter", "0:0"),
    ("#!/bin/bash -l", "0:0"),
])
def test_sb220_matches_what_a_real_job_does(slurm_cluster, tmp_path, line, exit_code):
    from slurmspec.lint import lint_text

    tmp_path.chmod(0o777)
    text = f"{line}\n#SBATCH -o out-%j.txt\necho ran\n"
    job = slurm_cluster.job_id(slurm_cluster.submit(text, cwd=tmp_path))
    slurm_cluster.wait(job, timeout=60)
    assert slurm_cluster.job_info(job)["ExitCode"] == exit_code
    found = [d for d in lint_text(text, version=(22, 5)) if d.code == "SB220"]
    assert len(found) == (exit_code != "0:0")
