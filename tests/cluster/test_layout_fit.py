"""Socket/core/thread requests against node shapes (issue 23): `--threads-per-core`, `-B/--extra-node-info`,
`--sockets-per-node`, `--cores-per-socket`.

Where no node of any of the job's partitions has the layout asked for, the controller refuses the job
at submission; slurmspec says so (SB406) where the profile makes it certain and stays silent otherwise.
Each case is really submitted (held off with ``--begin``, then cancelled) on the throwaway clusters of
tests/cluster/layouts.py, 22.05 and 24.11, with EnforcePartLimits=ALL and NO, and the cluster's own
scontrol output imported as the profile.
"""

from __future__ import annotations

import pytest

from slurmspec.kinds import Outcome, Severity
from slurmspec.lint import lint_text
from tests.cluster.layouts import SHAPES_ALL, SHAPES_NO
from tests.cluster.test_differential_cluster import imported_profile
from tests.slurm_cluster import RELEASES, SlurmCluster

pytestmark = pytest.mark.slurm

# (partition, layout options, node options) -> whether slurmspec must report SB406 (under ALL, and NO on 24.11).
# debug: the local node (1 socket, 2 cores, 1 thread); gpu/a100: 2 sockets, 16-32 cores, 1 thread;
# cpu: c48 (2×24×1) and smt (2×16×2); all: every node.
CASES = (
    ("debug", "--threads-per-core=2", "", True),
    ("gpu", "--threads-per-core=2", "-N 2", True),
    ("gpu", "--threads-per-core=2 --hint=nomultithread", "", True),
    ("a100", "-B 1:1:2", "", True),
    ("gpu,debug", "-B *:*:2", "", True),
    ("debug", "-B 2", "", True),
    ("gpu", "-B 3", "", True),
    ("debug", "--sockets-per-node=2", "--exclusive", True),
    ("a100", "--cores-per-socket=33", "", True),
    ("gpu", "--cores-per-socket=33", "-N 2", True),
    ("cpu", "--cores-per-socket=33", "-N 2", True),
    ("cpu", "--threads-per-core=3", "", True),
    # one node (-N 1): sockets × cores × threads asked × -c CPUs must fit a node with the layout
    ("gpu", "--cores-per-socket=16", "-N 1 -c 5", True),
    ("a100", "--cores-per-socket=16", "-N 1 -c 3", True),
    ("gpu", "-B 2:8", "-N 1 -c 5", True),
    ("gpu", "--cores-per-socket=16", "-N 1 -c 4", False),
    ("a100", "-B 2:8", "-n 1 -c 5", False),
    # some node has the layout: not judged (silent), whatever the controller answers
    ("cpu", "--threads-per-core=2", "", False),
    ("cpu", "-B 2:16:2", "-N 2", False),
    ("all", "--threads-per-core=2", "-N 3", False),
    ("gpu", "--cores-per-socket=24", "", False),
    ("debug", "--threads-per-core=1", "", False),
)


def _script(partition: str, layout: str, nodes: str) -> str:
    lines = [f"#SBATCH -p {partition}", f"#SBATCH {layout}", *(f"#SBATCH {option}" for option in _split(nodes)),
             "#SBATCH -t 10"]
    return "#!/bin/bash\n" + "\n".join(lines) + "\nhostname\n"


def _split(options: str) -> list[str]:
    """"-N 1 -c 5" -> ["-N 1", "-c 5"]: one option a line."""
    words = options.split()
    return [" ".join(words[i:i + 2]) if i + 1 < len(words) and not words[i + 1].startswith("-") else words[i]
            for i in range(len(words)) if words[i].startswith("-")]


@pytest.mark.parametrize("layout", [SHAPES_ALL, SHAPES_NO], ids=lambda layout: layout.name)
@pytest.mark.parametrize("release", list(RELEASES))
def test_layout_no_node_has_is_refused(release: str, layout, slurm_cluster_for) -> None:
    cluster = slurm_cluster_for(release, layout)
    profile = imported_profile(cluster)
    judged = layout is SHAPES_ALL or cluster.version >= (24, 11)  # 22.05 under NO holds some such jobs instead
    held = []
    try:
        for partition, options, nodes, certain in CASES:
            script = _script(partition, options, nodes)
            outcome = cluster.submit(script, args=("--begin=now+1hour",))
            if outcome.accepted:
                held.append(SlurmCluster.job_id(outcome))
            found = lint_text(script, cluster=profile)
            refuses = any(d.severity is Severity.ERROR and d.outcome is Outcome.REFUSED for d in found)
            codes = {d.code for d in found}
            if refuses:  # slurmspec never refuses what the controller accepts
                assert not outcome.accepted, (script, found)
            if certain:
                assert not outcome.accepted, (script, outcome.output)
                if judged:  # 22.05 under NO: judged only where no partition limit may hold the job first
                    assert "SB406" in codes, (script, found)
            else:
                assert "SB406" not in codes, (script, found)
    finally:
        if held:
            cluster.run(["scancel", *map(str, held)], timeout=60)
