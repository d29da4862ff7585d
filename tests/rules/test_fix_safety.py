"""SB001's did-you-mean respelling is only offered when it cannot make things worse.

Regression: the guard against respelling a misspelt flag that carries ``=value``
compared ``spec.argument_in(version)`` with the string ``"NONE"`` while the
catalogue's kinds are ``ArgKind`` members spelled in lower case, so it never
fired: ``--hodl=yes`` got an unsafe fix to ``--hold=yes`` (SB006: ``--hold``
takes no argument), and ``lint --fix --unsafe-fixes`` exited 2.
"""

from __future__ import annotations

import subprocess
import sys

from slurmspec.kinds import IssueKind
from slurmspec.lint import lint_text
from slurmspec.parser.script import parse_script

FLAG_WITH_VALUE = b"#!/bin/bash\n#SBATCH --hodl=yes\nsrun ./app\n"
TWO_CANDIDATES = b"#!/bin/bash\n#SBATCH --cpu-per-task=4\nsrun ./app\n"


def _sb001(source: bytes):
    found = [d for d in lint_text(source) if d.code == "SB001"]
    assert len(found) == 1, found
    return found[0]


def test_misspelt_flag_given_a_value_gets_no_respelling():
    finding = _sb001(FLAG_WITH_VALUE)
    assert "`--hold`" in finding.message  # the did-you-mean is still shown
    assert finding.fix is None


def test_fix_run_on_misspelt_flag_with_value_exits_1_not_2():
    done = subprocess.run(
        [sys.executable, "-m", "slurmspec", "lint", "--no-config", "--fix", "--unsafe-fixes", "-"],
        input=FLAG_WITH_VALUE, capture_output=True, timeout=60,
    )
    assert done.returncode == 1, done.stderr.decode()
    assert b"please report it" not in done.stderr


def test_misspelt_option_with_one_candidate_is_respelt():
    finding = _sb001(b"#!/bin/bash\n#SBATCH --nodess=2\nsrun ./app\n")
    assert finding.fix is not None
    assert [edit.text for edit in finding.fix.edits] == ["--nodes"]


def test_no_respelling_when_the_did_you_mean_is_ambiguous():
    [issue] = [i for i in parse_script(TWO_CANDIDATES).issues if i.kind is IssueKind.UNKNOWN_OPTION]
    assert len(issue.candidates) > 1, issue.candidates
    finding = _sb001(TWO_CANDIDATES)
    assert finding.fix is None


def test_no_respelling_to_an_option_the_script_already_sets():
    # `--time` is set on line 3: respelling `--tiem` would silently replace it (SB204).
    finding = _sb001(b"#!/bin/bash\n#SBATCH --tiem=10\n#SBATCH --time=1:00:00\nsrun ./app\n")
    assert finding.fix is None
    assert _sb001(b"#!/bin/bash\n#SBATCH --tiem=10\nsrun ./app\n").fix is not None


def test_no_respelling_that_leaves_an_option_without_its_value():
    # `--nodes2` respelt `--nodes` would lack its argument (SB005): the digits were the value.
    assert _sb001(b"#!/bin/bash\n#SBATCH --nodes2\nsrun ./app\n").fix is None
