"""Round trip and robustness: every input parses, reproduces itself, and lints without raising."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings

import slurmspec
from slurmspec.lint import lint_text
from slurmspec.version import SUPPORTED
from tests.corpus import corpus_files
from tests.strategies import script_bytes, script_texts
from tests.examples import examples



def test_every_corpus_script_round_trips_and_lints():
    """Figures: all corpus files parse, reproduce their bytes exactly, and lint without a crash."""
    mismatched, crashed = [], []
    for path in corpus_files():
        data = path.read_bytes()
        try:
            script = slurmspec.parse(data, path=str(path))
            if script.to_bytes() != data:
                mismatched.append(path.name)
            lint_text(data, path=str(path))
        except Exception as exc:  # report every failure, not just the first
            crashed.append(f"{path.name}: {exc!r}")
    assert crashed == []
    assert mismatched == []


@given(script_texts())
@example("")
@example("#!/bin/bash\n#SBATCH -J 'unterminated\nsrun x \\\n")
@example("\ufeff#!/bin/sh\r\n#SBATCH --time=5\r\n")
def test_text_round_trips(text):
    assert slurmspec.parse(text).to_text() == text


@given(script_bytes)
@example(b"#!/bin/bash\n#SBATCH -J \xff\xfe\n\x00")
def test_bytes_round_trip_and_lint_never_raises(data):
    script = slurmspec.parse(data)
    assert script.to_bytes() == data
    lint_text(data)


@settings(max_examples=examples(40))
@given(script_texts())
def test_every_target_version_parses(text):
    for version in SUPPORTED:
        lint_text(text, version=tuple(int(p) for p in version.split(".")))


def test_lines_cover_the_text_exactly():
    text = "#!/bin/bash\n#SBATCH -N 2\n\n   \nsrun a \\\n  b\n# end"
    script = slurmspec.parse(text)
    kinds = [line.kind for line in script.lines]
    assert kinds == ["shebang", "directive", "empty", "blank", "command", "comment"]
    assert script.lines[4].text == "srun a \\\n  b"
    assert [line.number for line in script.lines] == [1, 2, 3, 4, 5, 7]


@pytest.mark.parametrize("text", ["", "x", "#!", "\n", "\\", "\r\n", "#SBATCH"])
def test_tiny_inputs(text):
    assert slurmspec.parse(text).to_text() == text
