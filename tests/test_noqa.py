"""SB904: a ``# noqa: SB...`` comment is reported by default, and ``--fix`` makes it a suppression."""

from __future__ import annotations

from slurmspec.cli import main
from slurmspec.kinds import Applicability, Severity
from slurmspec.lint import lint_text

SCRIPT = "#!/bin/bash\n#SBATCH --part=gpu  # noqa: SB219\n#SBATCH --time=30\nsrun ./app\n"


def test_reported_by_default_beside_the_finding_it_meant_to_silence():
    found = {d.code: d for d in lint_text(SCRIPT)}
    assert "SB219" in found  # the noqa silenced nothing
    hint = found["SB904"]
    assert hint.severity is Severity.INFO
    assert "`# slurmspec: ignore[SB219]`" in hint.message
    assert hint.fix is not None and hint.fix.applicability is Applicability.SAFE


def test_fix_rewrites_the_comment_and_the_finding_is_then_suppressed(tmp_path, capsys):
    job = tmp_path / "job.sbatch"
    job.write_text(SCRIPT)
    assert main(["lint", "--no-config", "--fix", "--format", "concise", str(job)]) == 0
    assert job.read_text() == SCRIPT.replace("# noqa: SB219", "# slurmspec: ignore[SB219]")
    out = capsys.readouterr().out
    assert "SB219" not in out and "SB904" not in out


def test_a_stale_noqa_rewritten_is_reported_as_an_unused_suppression(tmp_path, capsys):
    job = tmp_path / "job.sbatch"
    job.write_text("#!/bin/bash\n#SBATCH --partition=gpu  # noqa: SB219\n#SBATCH --time=30\nsrun ./app\n")
    # SB219 is opt-in: a suppression of a rule that did not run is never called unused.
    code = main(["lint", "--no-config", "--fix", "--format", "concise", "--extend-select", "SB219", str(job)])
    assert "# slurmspec: ignore[SB219]" in job.read_text()
    out = capsys.readouterr().out
    assert code == 1 and "SB901" in out  # the fix was not refused: the noqa was stale all along
