"""The waste rules (SB450–SB454): what they say on the real corpus, and that their advice never contradicts itself.

The per-rule cases are fixtures (tests/rules/fixtures/SB45*); here: the corpus
findings with the lab profile, each read and judged when the thresholds were
set (a change in them is a change in judgement, so the list is pinned), the
rules' silence without a profile, hetjob components, and a property: SB451
(too much memory for the GPUs' share) and SB454 (too little for the GPUs'
memory) never both fire on one job.
"""

from __future__ import annotations

import textwrap

from hypothesis import given, strategies as st

from slurmspec.lint import lint_text
from tests.cluster.rule_profiles import profile_named
from tests.corpus import corpus_files

WASTE = ("SB450", "SB451", "SB452", "SB453", "SB454")

# Read one by one; each is true on the lab's hardware. The v100 nodes have
# 4 CPUs and 23G per GPU, so 24 CPUs (0443) or 50-64G (0013, 0176, 0325) for one GPU hold 2-6 GPUs' share;
# with the GPUs' memory recorded, 50-64G is within twice a 32G V100's memory and no longer reported,
# while 8G for one and 5G for two V100s (0376, 0412: torchrun training) are below it.
CORPUS_LAB = [("0013", 7, "SB451"), ("0176", 6, "SB451"), ("0325", 6, "SB451"), ("0443", 5, "SB450")]
CORPUS_LAB_GPU_MEMORY = [("0376", 8, "SB454"), ("0412", 6, "SB454"), ("0443", 5, "SB450")]


def _waste(text: str, profile) -> list[tuple[str, int]]:
    return [(d.code, d.span.line) for d in lint_text(textwrap.dedent(text), cluster=profile) if d.code in WASTE]


def _corpus(profile) -> list[tuple[str, int, str]]:
    found = []
    for path in corpus_files():
        for d in lint_text(path.read_bytes(), path=str(path), cluster=profile):
            if d.code in WASTE:
                found.append((path.stem, d.span.line, d.code))
    return found


def test_corpus_findings_with_the_lab_profile():
    assert _corpus(profile_named("lab")) == CORPUS_LAB


def test_corpus_findings_with_the_gpus_memory_known():
    assert _corpus(profile_named("lab+gpu-memory")) == CORPUS_LAB_GPU_MEMORY


def test_without_a_profile_nothing_is_waste():
    script = """\
        #!/bin/bash
        #SBATCH --partition=gpu
        #SBATCH --exclusive
        #SBATCH --nodes=4
        #SBATCH --gpus-per-node=1
        #SBATCH --cpus-per-task=24
        #SBATCH --mem=0
        srun python train.py
    """
    assert _waste(script, None) == []
    assert _waste(script, profile_named("lab")) == [("SB453", 3)]


def test_each_hetjob_component_is_judged_on_its_own():
    script = """\
        #!/bin/bash
        #SBATCH --partition=cpu
        #SBATCH --ntasks=4
        #SBATCH hetjob
        #SBATCH --partition=gpu
        #SBATCH --gres=gpu:1
        #SBATCH --cpus-per-task=24
        srun python train.py
    """
    assert _waste(script, profile_named("lab")) == [("SB450", 7)]


@given(
    gpus=st.integers(1, 8),
    memory_gb=st.integers(1, 600),
    option=st.sampled_from(["mem", "mem-per-gpu"]),
    partition=st.sampled_from(["gpu", "a100", "all"]),
)
def test_memory_advice_never_contradicts_itself(gpus, memory_gb, option, partition):
    script = (f"#!/bin/bash\n#SBATCH --partition={partition}\n#SBATCH --gpus-per-node={gpus}\n"
              f"#SBATCH --{option}={memory_gb}G\npython train.py\n")
    codes = {code for code, _ in _waste(script, profile_named("lab+gpu-memory"))}
    assert not {"SB451", "SB454"} <= codes
