"""The SB401–SB415 rules: the outcome each finding carries follows the profile and the target release.

Each row is a case measured with a held-off submission (``sbatch --begin=now+1hour``)
on the throwaway clusters of tests/cluster/layouts.py, whose imported profiles are
tests/cluster/profiles/shapes-all.toml (EnforcePartLimits=ALL) and shapes-no.toml
(EnforcePartLimits=NO): "refused" where the submission failed, "pends" where it was
accepted and held on a partition limit, None where it was accepted and slurmspec must
say nothing of that code. tests/cluster/test_differential_cluster.py checks the same
against the running clusters; these rows keep the verdicts visible without Slurm.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from slurmspec.kinds import Outcome
from slurmspec.lint import lint_text
from tests.cluster.rule_profiles import profile_named

V22, V24 = (22, 5), (24, 11)
REFUSED, PENDS = Outcome.REFUSED, Outcome.PENDS

# (profile, release, #SBATCH options, code, outcome of that code's finding or None for no finding)
CASES = [
    ("shapes-all", V22, ["-p nosuch,cpu", "-t 10"], "SB401", REFUSED),
    ("shapes-no", V24, ["-p inactive", "-t 10"], "SB402", REFUSED),
    ("shapes-no", V22, ["-p cpu,inactive", "-t 10"], "SB402", None),
    ("shapes-all", V24, ["-p down", "-t 10"], "SB402", PENDS),
    ("shapes-all", V22, ["-p physics", "-A chem", "-t 10"], "SB403", REFUSED),
    ("shapes-no", V22, ["-p physics", "-A chem", "-t 10"], "SB403", PENDS),
    ("shapes-all", V22, ["-p cpu", "-t 1-00:01:00"], "SB404", REFUSED),
    ("shapes-no", V24, ["-p cpu", "-t 1-00:01:00"], "SB404", PENDS),
    ("shapes-all", V24, ["-p cpu,gpu", "-t 1-12:00:00"], "SB404", REFUSED),
    ("shapes-no", V22, ["-p cpu,gpu", "-t 1-12:00:00"], "SB404", None),
    ("shapes-all", V22, ["-p cpu,debug"], "SB404", REFUSED),
    ("shapes-all", V22, ["-p a100,debug", "--time-min=00:20:00"], "SB404", None),
    ("shapes-all", V22, ["-p down,cpu", "-t 04:01:00"], "SB404", None),
    ("shapes-no", V22, ["-p debug", "--time-min=00:10:00"], "SB405", REFUSED),
    ("shapes-no", V24, ["-p debug,a100", "--time-min=00:20:00"], "SB405", REFUSED),
    ("shapes-no", V24, ["-p a100,debug", "--time-min=00:20:00"], "SB405", None),
    ("shapes-no", V22, ["-p cpu", "--time-min=1-00:01:00", "-t 2-00:00:00"], "SB405", REFUSED),
    ("shapes-no", V22, ["-p debug,cpu", "--time-min=2:00:00", "-t 3:00:00"], "SB405", None),
    ("shapes-no", V22, ["-p gpu", "--gres=gpu:v100:5", "-t 10"], "SB406", REFUSED),
    ("shapes-no", V24, ["-p cpu", "-c 65", "-t 10"], "SB406", REFUSED),
    ("shapes-no", V24, ["-p cpu", "-c 64", "-t 10"], "SB406", None),
    ("shapes-all", V22, ["-p cpu", "-c 49", "--hint=nomultithread", "-t 10"], "SB406", REFUSED),
    ("shapes-all", V22, ["-p cpu", "-c 33", "--hint=nomultithread", "-t 10"], "SB406", None),
    ("shapes-all", V22, ["-p cpu", "--sockets-per-node=3", "-t 10"], "SB406", REFUSED),
    ("shapes-no", V22, ["-p cpu", "-N 3", "-c 40", "--sockets-per-node=3"], "SB406", None),
    ("shapes-all", V22, ["-p gpu", "--cpus-per-gpu=9", "--gpus-per-node=v100:4", "-t 10"], "SB406", REFUSED),
    ("shapes-all", V22, ["-p gpu", "--mem-per-gpu=64001", "--gpus-per-node=a100:8", "-t 10"], "SB406", REFUSED),
    ("shapes-all", V22, ["-p gpu", "--mem-per-gpu=60000", "--gpus-per-node=a100:8", "-t 10"], "SB406", None),
    ("shapes-all", V22, ["-p lowmem", "--mem=96001", "-t 10"], "SB406", REFUSED),
    ("shapes-all", V22, ["-p lowmem", "--mem=96000", "-t 10"], "SB406", None),
    ("shapes-all", V22, ["-p gpu", "--gpus=12", "-t 10"], "SB406", None),
    ("shapes-all", V22, ["-p gpu", "--gpus=17", "-N 2", "-t 10"], "SB406", REFUSED),
    ("shapes-all", V22, ["-p cpu", "-n 2", "-c 40", "-N 1", "-t 10"], "SB406", REFUSED),
    ("shapes-all", V22, ["-p cpu", "-n 2", "-c 40", "-t 10"], "SB406", None),
    ("shapes-all", V22, ["-p cpu", "-C rome*3", "-t 10"], "SB406", REFUSED),
    ("shapes-all", V22, ["-p long", "-x c48-01", "-t 10"], "SB406", REFUSED),
    ("shapes-no", V24, ["-p debug", "-n 3", "-t 10"], "SB406", REFUSED),
    ("shapes-no", V22, ["-p debug", "-n 3", "-t 10"], "SB406", None),
    ("shapes-no", V22, ["-p down", "--mem=300G", "-t 10"], "SB406", None),
    ("shapes-all", V22, ["-p gpu", "--gres=gpu:h100:1", "-t 10"], "SB407", REFUSED),
    ("shapes-no", V22, ["-p debug", "-N 3", "--gres=gpu:h100:5"], "SB407", None),
    # -B S:C with -c k counts S*C*k CPUs on 22.05: 96 over the a100 partition's 2 x MaxCPUsPerNode=32 holds
    # it under NO (PartitionConfig) before the GPU type is looked at; 24.11.5 refuses it.
    ("shapes-no", V22, ["-p a100", "-B 2:16", "-c 3", "--gres=gpu:h100:1", "-t 10"], "SB407", None),
    ("shapes-no", V24, ["-p a100", "-B 2:16", "-c 3", "--gres=gpu:h100:1", "-t 10"], "SB407", REFUSED),
    # 22.05.8 holds `-N 1 --cores-per-socket=13 -c 5` (65 CPUs) under NO; 24.11.5 refuses it
    ("shapes-no", V22, ["-p a100", "-N 1", "--cores-per-socket=13", "-c 5", "--gres=gpu:h100:1", "-t 10"], "SB407", None),
    ("shapes-no", V24, ["-p a100", "-N 1", "--cores-per-socket=13", "-c 5", "--gres=gpu:h100:1", "-t 10"], "SB407",
     REFUSED),
    # --ntasks over --ntasks-per-node is the node count MinNodes is judged on (24.11.5; 22.05.8 refuses any
    # job listing several partitions when one has MinNodes > 1)
    ("shapes-all", V24, ["-p cpu,long", "-n 2", "--ntasks-per-node=1", "-t 10"], "SB410", None),
    ("shapes-all", V24, ["-p cpu,long", "-n 3", "--ntasks-per-node=2", "-t 10"], "SB410", None),
    ("shapes-all", V24, ["-p cpu,long", "-n 4", "--ntasks-per-node=4", "-t 10"], "SB410", REFUSED),
    ("shapes-all", V24, ["-p long", "-n 1", "--ntasks-per-node=1", "-t 10"], "SB410", REFUSED),
    ("shapes-all", V22, ["-p cpu,long", "-n 2", "--ntasks-per-node=1", "-t 10"], "SB410", REFUSED),
    ("shapes-all", V22, ["-p long", "-n 1", "--ntasks-per-node=1", "-t 10"], "SB410", None),
    # a counted feature needs that many nodes: over MaxNodes it is a node check, refused under ALL and NO
    ("shapes-all", V22, ["-p gpu", "-C ib*3", "-t 10"], "SB406", REFUSED),
    ("shapes-no", V22, ["-p gpu", "-C ib*3", "-t 10"], "SB406", REFUSED),
    ("shapes-all", V24, ["-p gpu", "-C ib*3", "-t 10"], "SB406", REFUSED),
    ("shapes-no", V24, ["-p gpu", "-C ib*3", "-t 10"], "SB406", REFUSED),
    ("shapes-no", V24, ["-p gpu", "-C ib*2", "-t 10"], "SB406", None),
    ("shapes-all", V22, ["-p all", "-C ib*3", "-t 10"], "SB406", None),
    # --mem=0 is all of each node's memory, over long's MaxMemPerNode=100000 on 192000 MB nodes
    ("shapes-all", V22, ["-p long", "--mem=0", "-t 10"], "SB414", REFUSED),
    ("shapes-all", V22, ["-p long", "-n 3", "--mem=0", "-t 10"], "SB414", REFUSED),
    ("shapes-all", V24, ["-p long", "-N 2", "--mem=0", "-t 10"], "SB414", REFUSED),
    ("shapes-no", V22, ["-p long", "--mem=0", "-t 10"], "SB414", PENDS),
    ("shapes-all", V22, ["-p cpu", "--mem=0", "-t 10"], "SB414", None),
    ("shapes-all", V22, ["-p gpu", "--gres=foo:1", "-t 10"], "SB407", REFUSED),
    ("shapes-no", V22, ["-p down", "-C nosuch", "-t 10"], "SB408", REFUSED),
    ("shapes-no", V22, ["-p cpu", "-C a100", "-t 10"], "SB409", REFUSED),
    ("shapes-no", V22, ["-p cpu,gpu", "-C v100", "-t 10"], "SB409", None),
    ("shapes-all", V22, ["-p gpu", "-N 2", "-C mixed", "-t 10"], "SB409", REFUSED),
    ("shapes-all", V22, ["-p cpu", "-N 5", "-t 10"], "SB410", REFUSED),
    ("shapes-no", V22, ["-p cpu", "-N 5", "-t 10"], "SB410", PENDS),
    ("shapes-no", V24, ["-p gpu", "-N 2-3", "-t 10"], "SB410", None),
    ("shapes-all", V24, ["-p gpu", "-N 2-3", "-t 10"], "SB410", REFUSED),
    ("shapes-no", V22, ["-p long", "-N 1", "-t 10"], "SB410", PENDS),
    ("shapes-all", V24, ["-p long", "-n 3", "-t 10"], "SB410", REFUSED),
    ("shapes-all", V22, ["-p debug,long", "-t 5"], "SB410", REFUSED),
    ("shapes-all", V22, ["-p gpu", "-N 3", "-n 1", "-t 10"], "SB410", None),
    ("shapes-all", V22, ["-p cpu", "-w nonode", "-t 10"], "SB411", REFUSED),
    ("shapes-all", V22, ["-p cpu", "-w c48-[01-05]", "-t 10"], "SB411", REFUSED),
    ("shapes-all", V24, ["-p cpu", "-x nonode,c48-01", "-t 10"], "SB411", None),
    ("shapes-all", V22, ["-p cpu", "-x nonode,c48-01", "-t 10"], "SB411", REFUSED),
    ("shapes-no", V24, ["-p cpu", "-w v100-01", "-t 10"], "SB411", REFUSED),
    ("shapes-no", V22, ["-p cpu,gpu", "-w v100-01", "-t 10"], "SB411", None),
    ("shapes-all", V22, ["-p cpu,gpu", "-w v100-01", "-t 10"], "SB411", REFUSED),
    ("shapes-no", V24, ["-p cpu", "--array=51", "-t 10"], "SB412", REFUSED),
    ("shapes-all", V24, ["-p cpu", "--array=100", "-t 10"], "SB412", None),
    ("shapes-all", V22, ["-p cpu", "--array=0-101:2", "-t 10"], "SB412", REFUSED),
    ("shapes-no", V24, ["-p cpu", "--signal=RB:USR1@60", "-t 10"], "SB413", REFUSED),
    ("shapes-no", V22, ["-p cpu", "--signal=R:USR1@60", "-t 10"], "SB413", None),
    ("shapes-all", V24, ["-p long", "-N 2", "--mem=150G", "-t 10"], "SB414", REFUSED),
    ("shapes-no", V22, ["-p long", "-N 2", "--mem=150G", "-t 10"], "SB414", PENDS),
    ("shapes-all", V22, ["-p debug", "-c 3", "-t 10"], "SB415", REFUSED),
    ("shapes-no", V22, ["-p debug", "--ntasks-per-node=3", "-t 10"], "SB415", PENDS),
    ("shapes-all", V24, ["-p a100", "-N 2", "-n 65", "-t 10"], "SB415", REFUSED),
    ("shapes-no", V24, ["-p debug,cpu", "-n 3", "-t 10"], "SB415", None),
]


def _script(options: list[str]) -> str:
    return "#!/bin/bash\n" + "".join(f"#SBATCH {option}\n" for option in options) + "srun ./app\n"


@pytest.mark.parametrize(("profile", "version", "options", "code", "outcome"), CASES,
                         ids=[f"{c[3]}-{c[0]}-{c[1][0]}.{c[1][1]:02d}-{' '.join(c[2])}" for c in CASES])
def test_outcome_follows_the_cluster(profile, version, options, code, outcome) -> None:
    found = [d for d in lint_text(_script(options), cluster=profile_named(profile), version=version)
             if d.code == code]
    if outcome is None:
        assert not found, [d.message for d in found]
    else:
        assert found, f"{code} does not fire"
        assert {d.outcome for d in found} == {outcome}, [(d.outcome, d.message) for d in found]


FIXTURES = Path(__file__).resolve().parent.parent / "rules" / "fixtures"


@pytest.mark.parametrize("case", sorted(FIXTURES.glob("SB4[01]*/*.sbatch")), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_silent_without_a_profile(case: Path) -> None:
    """Every SB401–SB415 fixture: no finding of these codes without `--cluster`."""
    codes = {d.code for d in lint_text(case.read_bytes(), path=str(case), version=V24)}
    assert not {c for c in codes if c.startswith(("SB40", "SB41"))}
