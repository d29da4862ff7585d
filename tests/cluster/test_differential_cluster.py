"""Differential test of the cluster rules (SB4xx): slurmspec's `refused` against real Slurm's.

For each release (22.05, 24.11) and each layout of tests/cluster/layouts.py
(EnforcePartLimits=ALL and =NO, several node shapes, MaxTime/DefaultTime,
MaxNodes/MinNodes, MaxCPUsPerNode, MaxMemPerCPU/MaxMemPerNode, a small
MaxArraySize, DOWN and INACTIVE partitions), the running cluster's own
``scontrol show node/partition/config`` output is imported as a profile
(``slurmspec.cluster.importer``), and generated scripts
(``tests/strategies.py:cluster_request_scripts``) are judged three ways:

* **slurmspec**: it refuses the script when a finding has severity ``error``
  and outcome ``refused`` (any family: a request can also break a rule of
  sbatch's own);
* **the submission** (the oracle): ``sbatch --begin=now+1hour`` really
  submits the job, so the controller runs every check it runs at submission
  (``_job_create()``, the partition limits, ``select_nodes()`` in test mode)
  without starting it; the accepted job is cancelled afterwards;
* **``sbatch --test-only``**: asked for one case in ``TEST_ONLY_EVERY``,
  tallied and printed, not compared (asked of every case, it was a second
  sbatch call per case for a figure no assertion reads). It is a will-run
  question, not a submission: it refuses jobs that a submission
  accepts and leaves pending (``EnforcePartLimits=NO`` with ``--nodes`` over
  MaxNodes, ``-N 2 -w one-node``) and accepts jobs a submission refuses (a
  ``MaxMemPerCPU`` that raises the CPUs beyond every node, ``-C a*3`` with two
  ``a`` nodes), so "refused" means refused at submission.

The two must agree on every case. Not compared (counted as skipped, by
reason, and printed; at most 15% of the cases) are the disagreements
where slurmspec's node check says it cannot judge the request (an option
whose placement it does not model, memory per CPU on hyper-threaded nodes
from 23.02, a DOWN partition), and those where only a non-cluster rule
refuses a job that a DOWN partition or, under ``EnforcePartLimits=NO``, a
broken partition limit holds before the controller gets to that check.
Every disagreement found while building the rules is kept as an
``@example``. ``SLURMSPEC_CLUSTER_CASES=N`` runs fewer cases,
``SLURMSPEC_SHOW_SKIPPED=1`` prints the skipped ones.
"""

from __future__ import annotations

import os
import re
import socket
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings

from slurmspec.cluster.fit.limits import node_check_reached
from slurmspec.cluster.fit.nodes import Kind, assessments
from slurmspec.cluster.importer import COMMANDS, import_profile
from slurmspec.kinds import Outcome, Severity
from slurmspec.lint import lint_text
from slurmspec.check.context import Context
from slurmspec.lint.engine import registry
from slurmspec.parser.script import parse_script
from tests import oracle_tally
from tests.cluster.layouts import SHAPES_ALL, SHAPES_NO
from tests.examples import examples, least
from tests.slurm_cluster import RELEASES, SlurmCluster
from tests.strategies import ClusterFacts, cluster_request_scripts

pytestmark = pytest.mark.slurm

# Per release and layout; a developer may lower it for a quick look (CI runs the full count).
CASES = int(os.environ.get("SLURMSPEC_CLUSTER_CASES", "0")) or examples(1000)
TEST_ONLY_EVERY = 10  # the --test-only tally is a sample: see the module docstring
HOST = socket.gethostname().split(".")[0]  # the throwaway cluster's one real node (tests/slurm_cluster.py)
_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]


def imported_profile(cluster: SlurmCluster):
    """The cluster's own scontrol output, imported as a profile."""
    texts = {what: (cluster.scontrol(*argv), what) for what, argv in COMMANDS.items()}
    profile, _notes = import_profile(texts["nodes"], texts["partitions"], texts["config"], name="lab")
    return profile


class Oracle:
    """Held-off submissions (cancelled in batches) and --test-only answers of one cluster."""

    def __init__(self, cluster: SlurmCluster) -> None:
        self.cluster = cluster
        self.pending: list[int] = []

    def submitted(self, script: str) -> tuple[bool, str]:
        outcome = self.cluster.submit(script, args=("--begin=now+1hour",))
        if outcome.accepted:
            self.pending.append(SlurmCluster.job_id(outcome))
            if len(self.pending) >= 200:
                self.cancel()
        return outcome.accepted, outcome.stderr.strip()

    def test_only(self, script: str) -> bool:
        return self.cluster.test_only(script).accepted

    def cancel(self) -> None:
        if self.pending:
            self.cluster.run(["scancel", *map(str, self.pending)], timeout=60)
            self.pending.clear()


def slurmspec_verdict(script: str, profile) -> tuple[bool, list, str]:
    """(refuses?, its findings, why the node check cannot judge a partition of it, or "")."""
    found = lint_text(script, cluster=profile)
    refuses = any(d.severity is Severity.ERROR and d.outcome is Outcome.REFUSED for d in found)
    ctx = Context(parse_script(script, None, profile.version), registry(), cluster=profile)
    unsure = ""
    for assessment in assessments(ctx):
        if any(f.kind is Kind.UNKNOWN for f in assessment.fits):
            if assessment.need.unsure:
                unsure = assessment.need.unsure[0]
            else:
                unsure = "a DOWN partition" if assessment.placement.down else "the node check"
    return refuses, found, unsure


def _held_first(script: str, profile, found: list) -> str:
    """Why the controller never reaches the check a non-cluster rule refuses the job for, or "".

    A DOWN partition makes the controller skip checks at submission, and under
    ``EnforcePartLimits=NO`` a broken partition limit holds the job before its
    nodes are looked at (slurmspec/cluster/fit/where.py ``Placement.down``,
    ``_limits.node_check_reached``): 24.11.5 accepts `-p down -N 3 -n 65
    --ntasks-per-node=10`, and 22.05.8 `-p debug -N 3 -n 65 --ntasks-per-node=10`
    under NO, which an UP partition without limits refuses and SB216 reports.
    """
    refusing = [d for d in found if d.severity is Severity.ERROR and d.outcome is Outcome.REFUSED]
    if any(d.code.startswith("SB4") for d in refusing):
        return ""
    ctx = Context(parse_script(script, None, profile.version), registry(), cluster=profile)
    for assessment in assessments(ctx):
        if assessment.placement.down:
            return "a DOWN partition (a non-cluster rule refuses)"
        if node_check_reached(ctx, assessment.placement, assessment.need) is False:
            return "a partition limit holds the job (a non-cluster rule refuses)"
    return ""


def _report(why: str, script: str, stderr: str, found: list) -> str:
    diags = "\n".join(f"    {d.code} [{d.outcome}/{d.severity}] {d.message}" for d in found) or "    (none)"
    return f"{why}\n--- script ---\n{script}--- sbatch --begin=now+1hour ---\n{stderr or '(accepted)'}\n" \
           f"--- slurmspec ---\n{diags}"


def _s(*lines: str) -> str:
    return "#!/bin/bash\n" + "".join(f"#SBATCH {line}\n" for line in lines) + "true\n"


@pytest.mark.parametrize("layout", [SHAPES_ALL, SHAPES_NO], ids=lambda layout: layout.name)
@pytest.mark.parametrize("release", list(RELEASES))
def test_cluster_rules_agree_with_a_submission(release: str, layout, slurm_cluster_for) -> None:
    cluster = slurm_cluster_for(release, layout)
    profile = imported_profile(cluster)
    assert profile.version == cluster.version
    oracle = Oracle(cluster)
    tally: Counter[str] = Counter()
    name = f"cluster-rules[{layout.name}]"

    def check(script: str) -> None:
        accepted, stderr = oracle.submitted(script)
        refuses, found, unsure = slurmspec_verdict(script, profile)
        tally["cases"] += 1
        if tally["cases"] % TEST_ONLY_EVERY == 1:
            tally[f"test-only {'accepts' if oracle.test_only(script) else 'refuses'},"
                  f" submission {'accepts' if accepted else 'refuses'} (1 case in {TEST_ONLY_EVERY})"] += 1
        if refuses == (not accepted):
            tally["accepted" if accepted else "refused"] += 1
            oracle_tally.record(name, release, accepted)
            return
        held = _held_first(script, profile, found) if refuses and accepted else ""
        if held or (unsure and not refuses):
            unsure = held or unsure
            tally["skipped"] += 1
            tally[f"skipped: {unsure}"] += 1
            if os.environ.get("SLURMSPEC_SHOW_SKIPPED"):
                print(f"--- skipped ({unsure}): {stderr or 'accepted'}\n{script}", end="")
            oracle_tally.record_skipped(name, release)
            return
        why = "the controller refuses it, slurmspec does not" if refuses is False else \
            "the controller accepts it, slurmspec says it is refused"
        raise AssertionError(_report(f"Slurm {release}, layout {layout.name}: {why}", script, stderr, found))

    @settings(max_examples=CASES, deadline=None, suppress_health_check=_HEALTH, database=None)
    @given(script=cluster_request_scripts(ClusterFacts(profile)))
    # Found while building the rules (each once a disagreement):
    # tasks and memory per CPU on the 2-thread nodes (22.05 charges whole cores) ...
    @example(script=_s("--partition=cpu", "--nodelist=smt-01", "--cpus-per-task=3", "--mem-per-cpu=64001"))
    @example(script=_s("--partition=cpu", "--nodelist=smt-01", "--ntasks-per-node=3", "--mem-per-cpu=64001"))
    # ... MaxMemPerCPU raising the CPUs beyond a node (--test-only accepts these) ...
    @example(script=_s("--partition=lowmem", "--mem-per-cpu=4000", "--cpus-per-task=25"))
    @example(script=_s("--partition=lowmem", "--mem=96001"))
    # ... the first partition's DefaultTime against a second partition's MaxTime ...
    @example(script=_s("--partition=cpu,debug"))
    @example(script=_s("--partition=debug,a100", "--time-min=00:20:00"))
    # ... counted features, node lists, GPUs spread over MaxNodes nodes.
    @example(script=_s("--partition=cpu", "--constraint=rome*3"))
    @example(script=_s("--partition=cpu", "--nodes=2", "--nodelist=c48-01"))
    @example(script=_s("--partition=gpu", "--gpus=v100:9"))
    @example(script=_s("--partition=cpu,gpu", "--nodelist=v100-01"))
    # ... partition limits that hold a job before its nodes are looked at (EnforcePartLimits=NO) ...
    @example(script=_s("--partition=gpu", "--nodes=2-3", "--gres=gpu:h100:5", "--constraint=a100"))
    @example(script=_s("--partition=debug", "--ntasks=3", "--time=00:10:00"))
    @example(script=_s("--partition=a100,cpu", "--time-min=12:01:00"))
    @example(script=_s("--partition=long", "--exclude=c48-01", "--time=00:10:00"))
    # ... DOWN partitions, and layouts asked of several nodes.
    @example(script=_s("--partition=down", "--time=04:01:00", "--time-min=00:05:00"))
    @example(script=_s("--partition=down,cpu", "--mem=300G"))
    @example(script=_s("--partition=cpu", "--nodes=3", "--cpus-per-task=40", "--sockets-per-node=3"))
    @example(script=_s("--partition=gpu", "--nodes=1", "--nodelist=a100-01,a100-02,c48-01"))
    @example(script=_s("--nodes=1", f"--nodelist={HOST},a100-01,a100-02"))
    @example(script=_s("--partition=all", "--nodes=3", "--constraint=[a100|skylake]", "--exclude=a100-01"))
    @example(script=_s("--partition=a100", "--mincpus=64"))
    @example(script=_s("--partition=inactive,cpu", "--time-min=01:01:00"))
    @example(script=_s("--partition=cpu,gpu", "--nodes=2-3", "--ntasks=2"))
    @example(script=_s("--partition=long", "--cpus-per-task=49", "--mem=150G"))
    # ... and -B raising the CPU count past a partition's MaxCPUsPerNode on 22.05 (held there under NO).
    @example(script=_s("--partition=a100", "--gres=gpu:h100:5", "--cpus-per-task=3", "--extra-node-info=2:16:2"))
    @example(script=_s("--partition=a100", "--gres=gpu:h100:1", "--cpus-per-task=2", "--extra-node-info=2:16"))
    @example(script=_s("--partition=a100", "--nodes=1", "--gres=gpu:h100:5", "--cpus-per-task=3", "--mem=96001",
                       "--constraint=a100", "--cores-per-socket=25", "--exclude=a100-01"))
    # ... and --ntasks over --ntasks-per-node as the node count MinNodes is judged on (24.11).
    @example(script=_s("--partition=cpu,long", "--ntasks=2", "--ntasks-per-node=1"))
    # ... and a node range whose maximum the job's GPU count lowers (MaxNodes=2: accepted, refused).
    @example(script=_s("--partition=gpu", "--nodes=1-3", "--gpus=1", "--hint=nomultithread"))
    @example(script=_s("--partition=gpu", "--nodes=1-3", "--gpus=4"))
    def case(script: str) -> None:
        check(script)

    try:
        case()
    finally:
        oracle.cancel()
    print(f"{name} on {release}: compared={tally['accepted'] + tally['refused']} accepted={tally['accepted']}"
          f" refused={tally['refused']} skipped={tally['skipped']}; "
          + "; ".join(f"{k}: {v}" for k, v in sorted(tally.items()) if k.startswith(("test-only", "skipped:"))))
    assert tally["accepted"] >= least(100) and tally["refused"] >= least(100), dict(tally)
    assert tally["skipped"] <= CASES * 15 // 100, f"too many cases slurmspec cannot judge: {dict(tally)}"


def test_oracle_sees_the_layout(slurm_cluster_for) -> None:
    """The layouts are what the rules are tested on: their limits must reach the imported profile."""
    cluster = slurm_cluster_for(next(iter(RELEASES)), SHAPES_NO)
    profile = imported_profile(cluster)
    assert profile.config.enforce_part_limits.value == "NO"
    assert profile.config.max_array_size == 51
    assert {p.name: p.max_nodes for p in profile.partitions}["gpu"] == 2
    assert re.fullmatch(r"\d+\.\d+\.\d+", profile.config.slurm_version)
