"""SB905: a script past what slurmspec analyses (lines, #SBATCH options) is reported, not analysed."""

from __future__ import annotations

import subprocess
import sys

from slurmspec.limits import MAX_DIRECTIVE_OPTIONS, MAX_SCRIPT_LINES


def _lint(tmp_path, text: str) -> subprocess.CompletedProcess:
    path = tmp_path / "long.sbatch"
    path.write_text(text)
    return subprocess.run([sys.executable, "-m", "slurmspec", "lint", "--no-config", "--format", "concise",
                           "--slurm-version", "22.05", str(path)], capture_output=True, text=True, timeout=300)


def test_more_lines_than_analysed_is_sb905_alone(tmp_path):
    text = "#!/bin/bash\n#SBATCH --tme=10\n" + "srun ./step\n" * MAX_SCRIPT_LINES
    done = _lint(tmp_path, text)
    codes = [line.split()[1] for line in done.stdout.splitlines() if ":1:" in line or ":2:" in line]
    assert codes == ["SB905"], done.stdout[-2000:]  # the misspelt option on line 2 is not analysed
    assert done.returncode == 1 and "Traceback" not in done.stderr


def test_more_options_than_analysed_is_sb905(tmp_path):
    text = "#!/bin/bash\n" + "#SBATCH -H\n" * (MAX_DIRECTIVE_OPTIONS + 1) + "srun ./step\n"
    done = _lint(tmp_path, text)
    assert "SB905" in done.stdout and "Traceback" not in done.stderr, done.stdout[-2000:]


def test_just_under_the_limits_is_analysed(tmp_path):
    text = "#!/bin/bash\n#SBATCH --tme=10\n" + "srun ./step\n" * 1000
    done = _lint(tmp_path, text)
    assert "SB905" not in done.stdout and "SB001" in done.stdout, done.stdout[-2000:]
