"""Golden files: fixed fixtures -> the exact output of every ``lint --format`` (and the flags that shape it).

``tests/report/fixtures/*.sbatch`` are linted together, from this folder so
the paths in the output are relative and the same on every machine; the
output must equal ``tests/report/golden/<case>.<ext>`` byte for byte.
``python -m pytest tests/report --update-fixtures`` rewrites the golden files
from the current output (then review the diff). The slurmspec version in
SARIF is written as ``<version>`` so a release does not touch the files.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from slurmspec import __version__
from slurmspec.cli import main

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
FIXTURES = ["fixtures/broken.sbatch", "fixtures/clean.sbatch", "fixtures/unicode.sbatch"]
# Rule messages are not this test's business, but every rule family's
# severity is: error (SB0/SB1), warning (SB2), info (SB3).
# The release is given: a defaulted one depends on the machine's sbatch (and adds a line naming it).
SELECT = ["--select", "SB0,SB1,SB2,SB3", "--color", "never", "--slurm-version", "26.05"]

CASES = {
    "text.txt": ["--format", "text"],
    "text-quiet.txt": ["--format", "text", "--quiet"],
    "concise.txt": ["--format", "concise"],
    "concise-color.txt": ["--format", "concise", "--color", "always"],
    "json.json": ["--format", "json"],
    "sarif.sarif": ["--format", "sarif"],
    "github.txt": ["--format", "github"],
    "gitlab.json": ["--format", "gitlab"],
    "statistics.txt": ["--statistics"],
    "statistics.json": ["--statistics", "--format", "json"],
}


def lint_output(args: list[str], monkeypatch) -> tuple[int, str]:
    monkeypatch.chdir(HERE)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    code = main(["lint", "--no-config", *SELECT, *args, *FIXTURES])
    return code, out.getvalue().replace(f'"version": "{__version__}"', '"version": "<version>"')


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str, monkeypatch, request: pytest.FixtureRequest):
    code, output = lint_output(CASES[name], monkeypatch)
    assert code == 1  # the fixtures have errors, and no flag here changes the exit code
    golden = GOLDEN / name
    if request.config.getoption("--update-fixtures"):
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(output, encoding="utf-8")
        return
    assert golden.exists(), f"{golden} is missing; run pytest tests/report --update-fixtures"
    assert output == golden.read_text(encoding="utf-8")


def test_every_format_has_a_golden_file():
    from slurmspec.report import FORMATS

    covered = {args[args.index("--format") + 1] for args in CASES.values() if "--format" in args}
    assert covered == set(FORMATS)
