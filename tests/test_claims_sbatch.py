"""What real sbatch (22.05 and 24.11) does with the scripts behind issue 23's wrong claims, and what
slurmspec says of them.

Each case is run with ``sbatch --test-only`` on the throwaway cluster of each release
(tests/slurm_cluster.py): it must be accepted or refused as written, with sbatch's own words;
then slurmspec, told that release, must report exactly the codes listed (of those it is
asked about) and refuse the script exactly when sbatch does, unless the case says a site plugin
would accept it (a warning, not a refusal, where a stock sbatch refuses).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from slurmspec.lint import lint_text, refuses
from tests.slurm_cluster import SlurmCluster

pytestmark = pytest.mark.slurm


@dataclass(frozen=True)
class Claim:
    name: str
    script: str
    accepted: bool
    says: str  # in sbatch's standard error ("" for nothing to check)
    asked: tuple[str, ...]  # the codes slurmspec is checked on
    reported: tuple[str, ...]  # of those, what it reports (in order)
    plugin_site: bool = False  # refused by a stock sbatch, accepted where a plugin provides the option


CLAIMS = (
    Claim("slurm-variable-in-header", "#!/bin/bash\n#SLURM_NTASKS=4\n#SBATCH -n 1\nhostname\n",
          False, "Invalid directive found in batch script: _NTASKS=4", ("SB007", "SB201"), ("SB007",)),
    Claim("slurm-variable-after-command", "#!/bin/bash\n#SBATCH -n 1\nhostname\n#SLURM_NTASKS=4\n",
          True, "", ("SB007", "SB201"), ()),
    Claim("misspelt-directive-after-command", "#!/bin/bash\n#SBATCH -n 1\nhostname\n#SBATCH --partiton=debug\n",
          True, "", ("SB001", "SB201"), ("SB201",)),
    Claim("misspelt-directive-moved-into-header", "#!/bin/bash\n#SBATCH -n 1\n#SBATCH --partiton=debug\nhostname\n",
          False, "unrecognized option '--partiton=debug'", ("SB001",), ("SB001",)),
    Claim("memory-conflict-after-command", "#!/bin/bash\n#SBATCH --mem-per-cpu=1G\nhostname\n#SBATCH --mem=2G\n",
          True, "", ("SB125", "SB201"), ("SB201",)),
    Claim("memory-conflict-moved-into-header", "#!/bin/bash\n#SBATCH --mem-per-cpu=1G\n#SBATCH --mem=2G\nhostname\n",
          False, "mutually exclusive", ("SB125",), ("SB125",)),
    Claim("mem-per-gpu-zero-without-gpus", "#!/bin/bash\n#SBATCH --mem-per-gpu=0\nhostname\n",
          True, "", ("SB146",), ()),
    Claim("mem-per-gpu-4G-without-gpus", "#!/bin/bash\n#SBATCH --mem-per-gpu=4G\nhostname\n",
          False, "did not request any GPU", ("SB146",), ("SB146",)),
    Claim("shifter-image-with-separate-value", "#!/bin/bash\n#SBATCH --image docker:ubuntu:latest\nhostname\n",
          False, "unrecognized option '--image'", ("SB001", "SB007"), ("SB001",), plugin_site=True),
    Claim("cscs-uenv", "#!/bin/bash\n#SBATCH --uenv=prgenv-gnu/24.7:v3\n#SBATCH --view=default\nhostname\n",
          False, "unrecognized option '--uenv=prgenv-gnu/24.7:v3'", ("SB001", "SB007"), ("SB001", "SB001"),
          plugin_site=True),
)


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.name)
def test_sbatch_and_slurmspec_agree(slurm_cluster: SlurmCluster, claim: Claim) -> None:
    outcome = slurm_cluster.test_only(claim.script)
    assert outcome.accepted == claim.accepted, outcome.output
    assert claim.says in outcome.stderr, outcome.output
    found = lint_text(claim.script, version=slurm_cluster.version)
    assert [d.code for d in found if d.code in claim.asked] == list(claim.reported), found
    # SB201 never advises a move that the "moved" claim shows sbatch refusing
    assert not [d for d in found if d.code == "SB201" and "so move it" in d.message and "conflict" in claim.name], found
    # A plugin option is a warning: a stock sbatch refuses it, the plugin's site accepts it.
    assert refuses(found) == (not claim.accepted and not claim.plugin_site), found


def test_heterogeneous_step_in_one_node_job_fails(slurm_cluster: SlurmCluster, tmp_path: Path) -> None:
    """``srun -n 1 A : -n 15 B`` inside a one-task job is a heterogeneous step that cannot get its second
    component's node: srun fails it at once. SB320 (cpus-per-task not inherited) is not what is wrong
    there, so it stays silent."""
    script = ("#!/bin/bash\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=2\n"
              "srun -n 1 hostname : -n 15 hostname\necho rc=$?\n")
    job = SlurmCluster.job_id(slurm_cluster.submit(script, cwd=str(tmp_path)))
    assert slurm_cluster.wait(job, timeout=60) == "COMPLETED"
    output = tmp_path / f"slurm-{job}.out"
    deadline = time.monotonic() + 10
    while not output.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    text = output.read_text()
    assert "Allocation failure of 1 nodes" in text and "rc=1" in text, text
    found = lint_text(script, version=(22, 5))
    assert "SB320" not in {d.code for d in found}, found
