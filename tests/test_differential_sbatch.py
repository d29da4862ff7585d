"""Differential tests: slurmspec's verdict against a real ``sbatch --test-only``.

For every script, "slurmspec refuses" (``refuses(lint_text(script, version=cluster.version))``)
must equal "sbatch rejects" (``sbatch --test-only`` exits non-zero) on each
throwaway Slurm cluster of tests/slurm_cluster.py: real 22.05 and real 24.11,
slurmspec told the matching ``--slurm-version``.  The counts per release show in
the terminal summary (tests/oracle_tally.py).

Only configuration-independent answers are compared.  Every script is
submitted with ``--partition=all`` on the command line (it overrides the
script's ``--partition``, and ``all`` has every node and no time limit), the
strategies keep resources small and use known features and GRES names only,
and a rejection that comes from slurmctld's view of *this* cluster (node
fit, node counts, partition limits, accounts, QOS, ...; see
`CONFIG_DEPENDENT`, or an unknown feature name) is counted as skipped instead
of compared.  A skipped
case still has one check: sbatch got past all its client-side checks, so
slurmspec must not refuse it for a client-side reason either.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, example, given, settings

from slurmspec.lint import lint_text, refuses
from tests import oracle_tally
from tests.slurm_cluster import SbatchOutcome, SlurmCluster
from tests.strategies import sbatch_conflict_scripts, sbatch_odd_scripts, sbatch_scripts
from tests.examples import examples, least

pytestmark = pytest.mark.slurm

ARGS = ("--partition=all",)

# slurmctld answers (after "allocation failure: ") that depend on the
# cluster's nodes, partitions, limits and databases, not on the script's syntax.
CONFIG_DEPENDENT = (
    "Requested node configuration is not available",
    "Node count specification invalid",
    "Requested time limit is invalid",
    "Invalid partition name specified",
    "Invalid account",
    "Invalid qos",
    "Invalid node name specified",
    "Requested partition configuration not available now",
    "Job violates accounting/QOS policy",
    "More processors requested than permitted",
    "Requested reservation is invalid",
    "Invalid license specification",
    "Memory required by task is not available",
    "Requested more tasks than available processors",
    # 24.11.1 NEWS: "Deny jobs using the "R:" option of --signal if PreemptMode=OFF globally"
    # (this cluster has no preemption; one with PreemptMode=REQUEUE accepts it).
    "Preemption is required but is disabled on this system",
)

# Node features of the test cluster.  "Invalid feature specification" is
# slurmctld's answer both to bad syntax and to unknown names; the strategies only
# write known names, but a value taken from the next word or line can be anything.
KNOWN_FEATURES = frozenset({"v100", "a100", "ib", "skylake", "rome", "cascadelake"})

# slurmspec rules whose subject slurmctld (not sbatch) checks; every other
# refusing rule describes a client-side rejection. SB115 is both: "gpu::1" fails
# in sbatch, a GPU "type" such as "1.5" or "-1" only in slurmctld.
CTLD_SIDE_CODES = frozenset({"SB115", "SB116", "SB117", "SB121", "SB123", "SB124"})

# Module-level tally over the whole session: compared / skipped per test and release.
COUNTS: Counter[str] = Counter()


@dataclass
class Verdict:
    script: str | bytes
    release: str
    outcome: SbatchOutcome
    diagnostics: list
    slurmspec_refuses: bool
    config_dependent: str | None

    @property
    def sbatch_rejects(self) -> bool:
        return not self.outcome.accepted

    def report(self, why: str) -> str:
        diags = "\n".join(
            f"    {d.code} {d.name} [{d.family}/{d.severity}] line {d.span.line}: {d.message}"
            for d in self.diagnostics
        ) or "    (none)"
        return (
            f"{why}\n"
            f"--- script (repr) ---\n{self.script!r}\n"
            f"--- sbatch {self.release} --test-only {' '.join(ARGS)}: rc={self.outcome.returncode} ---\n"
            f"{self.outcome.stderr.rstrip() or '(no stderr)'}\n"
            f"--- slurmspec (refuses={self.slurmspec_refuses}) ---\n{diags}"
        )


def config_dependent_reason(outcome: SbatchOutcome) -> str | None:
    """The configuration-dependent slurmctld answer in sbatch's stderr, if that is why it failed."""
    if outcome.accepted:
        return None
    for m in re.finditer(r"allocation failure: (.*)", outcome.stderr):
        for text in CONFIG_DEPENDENT:
            if m.group(1).startswith(text):
                return text
    return None


def unknown_feature_names(cluster: SlurmCluster, script: str | bytes) -> set[str]:
    """Feature names this cluster lacks in the constraints sbatch sent (asked with `sbatch -v`)."""
    verbose = cluster.test_only(script, args=(*ARGS, "-v"))
    names: set[str] = set()
    for m in re.finditer(r"^sbatch: constraint\s*: (.*)$", verbose.stderr, re.M):
        expr = re.sub(r"\*\d+", "", m.group(1))
        names.update(n for n in re.split(r"[&|\[\]()]", expr) if n)
    return names - KNOWN_FEATURES


def dependency_on_unknown_job(cluster: SlurmCluster, script: str | bytes) -> bool:
    """Whether slurmctld refused the dependency only because a job it names does not exist.

    From 23.02 (NEWS: "Prevent job submission/update with afterok/afternotok dependency set
    to an unknown jobid"; src/slurmctld/job_scheduler.c) an ``afterok``/``afternotok`` on a
    job id this cluster does not know is refused -- a fact about the queue, not the script.
    The same dependency as ``afterany`` (same syntax, no such check) tells which it was.
    """
    verbose = cluster.test_only(script, args=(*ARGS, "-v"))
    m = re.search(r"^sbatch: dependency\s*: (.*)$", verbose.stderr, re.M)
    if not m or not re.search(r"afterok|afternotok", m.group(1)):
        return False
    relaxed = re.sub(r"after(?:not)?ok", "afterany", m.group(1))
    return cluster.test_only(script, args=(*ARGS, f"--dependency={relaxed}")).accepted


def judge(cluster: SlurmCluster, script: str | bytes) -> Verdict:
    outcome = cluster.test_only(script, args=ARGS)
    diagnostics = lint_text(script, version=cluster.version)
    reason = config_dependent_reason(outcome)
    if reason is None and "allocation failure: Invalid feature specification" in outcome.stderr:
        unknown = unknown_feature_names(cluster, script)
        if unknown:
            reason = f"unknown feature name(s) {sorted(unknown)}"
    if reason is None and "allocation failure: Job dependency problem" in outcome.stderr:
        if dependency_on_unknown_job(cluster, script):
            reason = "a dependency on a job this cluster does not know"
    return Verdict(script, cluster.release, outcome, diagnostics, refuses(diagnostics), reason)


def check(cluster: SlurmCluster, script: str | bytes, tally: Counter[str], name: str) -> None:
    """Compare one script; count it; fail with a full report on disagreement."""
    v = judge(cluster, script)
    if v.config_dependent is not None:
        tally["skipped"] += 1
        COUNTS[f"{name}:{cluster.release}:skipped"] += 1
        oracle_tally.record_skipped(name, cluster.release)
        client_side = [
            d for d in v.diagnostics
            if refuses([d]) and d.code not in CTLD_SIDE_CODES
        ]
        assert not client_side, v.report(
            f"sbatch passed every client-side check (slurmctld then said {v.config_dependent!r}), "
            "but slurmspec refuses the script for a client-side reason"
        )
        return
    tally["compared"] += 1
    COUNTS[f"{name}:{cluster.release}:compared"] += 1
    assert v.slurmspec_refuses == v.sbatch_rejects, v.report(
        "slurmspec and sbatch disagree: "
        + ("sbatch rejects, slurmspec accepts" if v.sbatch_rejects else "sbatch accepts, slurmspec refuses")
    )
    tally["rejected" if v.sbatch_rejects else "accepted"] += 1
    oracle_tally.record(name, cluster.release, accepted=not v.sbatch_rejects)


def assert_enough(name: str, cluster: SlurmCluster, tally: Counter[str], *, accepted: int, rejected: int) -> None:
    print(f"{name} (Slurm {cluster.release}): {dict(tally)}")
    short = oracle_tally.minimums(name, cluster.release, accepted=accepted, rejected=rejected)
    assert short is None, short


# ------------------------------------------------------------------ property
SH = "#!/bin/bash\n"


def _s(*directives: str, body: str = "true\n") -> str:
    return SH + "".join(d + "\n" for d in directives) + body


_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]


# A cluster and worker of its own (tests/conftest.py): the long differentials mostly wait on
# slurmctld (measured in CI: 60-75 CPU seconds in 420 s for this module), so run side by side.
@pytest.mark.own_worker
def test_directives_agree_with_sbatch(slurm_cluster: SlurmCluster) -> None:
    """Generated #SBATCH headers: slurmspec refuses exactly when sbatch rejects."""
    tally: Counter[str] = Counter()

    @settings(max_examples=examples(1500), deadline=None, suppress_health_check=_HEALTH)
    @given(script=sbatch_scripts())
    # Disagreements found by this test (slurmspec to fix; see the module docstring):
    # an invalid value that a later repeat of the option overrides (sbatch and
    # slurmctld only ever see the last one) ...
    @example(script=_s("#SBATCH --propagate=FOO --propagate"))
    @example(script=_s("#SBATCH --hint=foo --hint=multithread"))
    @example(script=_s("#SBATCH --array=a --array=1-3"))
    @example(script=_s("#SBATCH -d foo:1 -d singleton"))
    @example(script=_s("#SBATCH -C a100&&ib -C v100"))
    @example(script=_s("#SBATCH --gres=gpu::1 --gres=gpu:1"))
    # ... values sbatch/slurmctld accept but slurmspec refuses ...
    @example(script=_s("#SBATCH --constraint=v100&"))
    @example(script=_s("#SBATCH --constraint=v100|"))
    @example(script=_s("#SBATCH --array=1%2%3"))
    @example(script=_s("#SBATCH --array="))
    @example(script=_s("#SBATCH --dependency="))
    @example(script=_s("#SBATCH --switches=1@1h"))
    # ... and values they refuse but slurmspec accepts.
    @example(script=_s("#SBATCH --time-min=0"))
    @example(script=_s("#SBATCH --time-min=UNLIMITED"))
    @example(script=_s("#SBATCH --gres=gpu:1.5"))
    @example(script=_s("#SBATCH --gres=gpu:2x"))
    @example(script=_s("#SBATCH --gpus=1.5"))
    @example(script=_s("#SBATCH --gres=''"))
    @example(script=_s("#SBATCH --cpu-freq=0"))
    @example(script=_s("#SBATCH --cpu-freq=low-0"))
    @example(script=_s("#SBATCH --array=1-3", "#SBATCH hetjob", "#SBATCH -n 1"))
    # --hint is dropped unvalidated next to --ntasks-per-core/--threads-per-core/-B.
    @example(script=_s("#SBATCH --ntasks-per-core=1 --hint=foo"))
    # Found against 24.11 (and the first against 22.05 too): --get-user-env leaves --propagate unread ...
    @example(script=_s("#SBATCH -Qt 2- --get-user-env=10 --propag=as,nofile"))
    # ... a --cpu-freq range needs a governor from 23.11, --gpu-bind is checked from 23.02 ...
    @example(script=_s("#SBATCH --cpu-freq=low-high"))
    @example(script=_s("#SBATCH --cpu-freq=low-high:performance"))
    @example(script=_s("#SBATCH --gpu-bind=map_gpu:x"))
    @example(script=_s("#SBATCH --gpu-bind=map:0,1"))
    @example(script=_s("#SBATCH --gpu-bind=c"))
    @example(script=_s("#SBATCH --gpu-bind=closest,verbose"))
    # ... an empty --gres item is refused by 22.05 only, --tres-per-task reads `:count` items on 24.11 ...
    @example(script=_s("#SBATCH --gres=gpu:1,"))
    @example(script=_s("#SBATCH --tres-per-task=gres/gpu:1 -n 1"))
    @example(script=_s("#SBATCH --tres-per-task=gres:gpu:1 --cpus-per-gpu=2 -n 1"))
    @example(script=_s("#SBATCH --tres-per-task=gpu=1 -n 1"))
    # ... and answers of this cluster's state and configuration (skipped, never refused by slurmspec).
    @example(script=_s("#SBATCH --dependency=afterok:1_*"))
    @example(script=_s("#SBATCH --signal=R:TERM@30"))
    def directives(script: str) -> None:
        check(slurm_cluster, script, tally, "directives")

    directives()
    COUNTS[f"directives:{slurm_cluster.release}:finished"] = 1
    assert_enough("directives", slurm_cluster, tally, accepted=250, rejected=250)
    # No comparison may have been skipped wholesale: checked here, where the counts are (an
    # xdist run keeps each worker's counts apart, so a later summary test could not see them).
    compared = COUNTS[f"directives:{slurm_cluster.release}:compared"]
    assert compared >= least(500), dict(COUNTS)


@pytest.mark.own_worker
def test_script_level_agrees_with_sbatch(slurm_cluster: SlurmCluster) -> None:
    """Generated script-level oddities (empty, BOM, NUL, CRLF, #SLURM, late directives)."""
    tally: Counter[str] = Counter()

    @settings(max_examples=examples(300), deadline=None, suppress_health_check=_HEALTH)
    @given(script=sbatch_odd_scripts())
    def odd(script: str | bytes) -> None:
        check(slurm_cluster, script, tally, "script")

    odd()
    assert_enough("script", slurm_cluster, tally, accepted=50, rejected=50)


@pytest.mark.own_worker
def test_conflicts_agree_with_sbatch(slurm_cluster: SlurmCluster) -> None:
    """Headers mixing the options sbatch checks against each other (rules/reject/)."""
    tally: Counter[str] = Counter()

    @settings(max_examples=examples(1200), deadline=None, suppress_health_check=_HEALTH)
    @given(script=sbatch_conflict_scripts())
    # Disagreements found by this test (fixed in rules/reject/, the GPU ones in slurmspec/model/views/sbatch_*.py):
    # which options imply a task count for the GPU checks on 22.05 ...
    @example(script=_s("#SBATCH --gpus=0", "#SBATCH --gpus-per-node=0", "#SBATCH --gpus-per-task=1",
                       "#SBATCH -B 2:1:1", "#SBATCH -w v100-01"))
    @example(script=_s("#SBATCH -w v100-[01-03] --gpus-per-task=1"))
    @example(script=_s("#SBATCH --gpus-per-task=1 -N 0"))
    @example(script=_s("#SBATCH --gpus-per-task=1", "#SBATCH -N 1", "#SBATCH -c 1"))
    @example(script=_s("#SBATCH -w v100-[01-03] --gpus-per-task=1 -N 2-3"))
    @example(script=_s("#SBATCH --gpus-per-task=1", "#SBATCH -N 1-2", "#SBATCH -B 2:1:1"))
    @example(script=_s("#SBATCH --gpus=1 --gpus-per-task=1 -B 2:1:1"))
    @example(script=_s("#SBATCH --gpus=2 --gpus-per-task=1 -B 1"))
    @example(script=_s("#SBATCH --gpus=2 --gpus-per-task=1 -c 1 -B 1"))
    @example(script=_s("#SBATCH --gpus=1 -N 1 --gpus-per-task=1 --sockets-per-node=2"))
    @example(script=_s("#SBATCH --gpus=4 --gpus-per-task=1 -B 2:1:1 --threads-per-core=2"))
    @example(script=_s("#SBATCH --gpus-per-task=1", "#SBATCH -N 1 -N 1", "#SBATCH --gpus=1 --mem=1G",
                       "#SBATCH -B 2:1:1 --exclusive --sockets-per-node=2"))
    @example(script=_s("#SBATCH -w v100-01", "#SBATCH --threads-per-core=1", "#SBATCH -m arbitrary",
                       "#SBATCH -w v100-01 --mem=1G --ntasks-per-gpu=2", "#SBATCH --mem=1G -N 2 -v"))
    @example(script=_s("#SBATCH -w v100-01", "#SBATCH -N 2", "#SBATCH -m arbitrary", "#SBATCH -w v100-01",
                       "#SBATCH --mem=1G", "#SBATCH --ntasks-per-gpu=1 --threads-per-core=1 -v"))
    @example(script=_s("#SBATCH -w v100-01 --ntasks-per-gpu=2 --threads-per-core=1 -N 2"))
    @example(script=_s("#SBATCH --gpus-per-task=1 --time-min=2:00:00", "#SBATCH --deadline=now+3hours --mem=1G -N 1",
                       "#SBATCH --mem=1G --mem=1G --begin=now+2hours"))
    @example(script=_s("#SBATCH -m block", "#SBATCH -w v100-[01-02]", "#SBATCH --mem=1G",
                       "#SBATCH --sockets-per-node=1", "#SBATCH --core-spec=1 --bbf=/etc/passwd --ntasks-per-gpu=2"))
    @example(script=_s("#SBATCH --sockets-per-node=2", "#SBATCH -w v100-[01-02]", "#SBATCH --mem=1G",
                       "#SBATCH -m arbitrary", "#SBATCH --core-spec=1 --bbf=/etc/passwd --ntasks-per-gpu=2"))
    @example(script=_s("#SBATCH --gpus=2", "#SBATCH --gpus-per-task=1 -N 1 --ntasks-per-core=1"))
    @example(script=_s("#SBATCH --gpus-per-task=1 -N 1 -c 1 --gpus-per-socket=2 --sockets-per-node=1"))
    @example(script=_s("#SBATCH -m arbitrary -w v100-[01-02] --gpus-per-task=1 -N 3"))
    @example(script=_s("#SBATCH --gpus-per-task=1 -m arbitrary -w v100-01 -N 2 --ntasks-per-node=1"))
    # ... --ntasks-per-gpu/--ntasks-per-tres ...
    @example(script=_s("#SBATCH --gpus-per-task=1", "#SBATCH -N 1", "#SBATCH --ntasks-per-tres=1"))
    @example(script=_s("#SBATCH --ntasks-per-gpu=1 --ntasks-per-tres=1 -m arbitrary -w v100-01"))
    @example(script=_s("#SBATCH --ntasks-per-gpu=1 -w v100-01 --threads-per-core=1"))
    @example(script=_s("#SBATCH --ntasks-per-gpu=1 -w v100-01 --ntasks-per-core=1"))
    @example(script=_s("#SBATCH --gpus-per-task=1 --sockets-per-node=1 -w v100-01"))
    @example(script=_s("#SBATCH --gpus=2 --gpus-per-task=1 --sockets-per-node=1 -w v100-01"))
    @example(script=_s("#SBATCH --ntasks-per-gpu=2 -m arbitrary -w v100-01 -n 3"))
    @example(script=_s("#SBATCH -m arbitrary -w v100-01 -n 1 --ntasks-per-gpu=2"))
    @example(script=_s("#SBATCH -m arbitrary -w v100-[01-02] --ntasks-per-gpu=2"))
    @example(script=_s("#SBATCH -N 2 --ntasks-per-gpu=2"))
    @example(script=_s("#SBATCH -N 2 -n 2 --ntasks-per-gpu=2"))
    @example(script=_s("#SBATCH -n 1 --gpus-per-node=1 -w v100-[01-02] --gpus=2"))
    @example(script=_s("#SBATCH --gpus=0 -N 1 --mem-per-gpu=1G --ntasks-per-gpu=1"))
    @example(script=_s("#SBATCH --cpus-per-gpu=1 --gpus-per-task=v100:1 --gres=gpu:a100:4"))
    @example(script=_s("#SBATCH --gpus=v100:2 --gpus-per-task=a100:2"))
    @example(script=_s("#SBATCH --gpus-per-task=1 --gpus=1 -N 1 --threads-per-core=2"))
    @example(script=_s("#SBATCH --gpus-per-task=1 --gpus=2 -N 1 --threads-per-core=2"))
    # ... and hetjob inheritance and clocks.
    @example(script=_s("#SBATCH --time-min=2:00:00", "#SBATCH hetjob", "#SBATCH -t 10"))
    @example(script=_s("#SBATCH --deadline=now+90minutes --time-min=2:00:00"))
    @example(script=_s("#SBATCH --bbf=/etc/passwd", "#SBATCH hetjob", "#SBATCH --bb=capacity=1G"))
    @example(script=_s("#SBATCH --begin=2031-01-02", "#SBATCH hetjob", "#SBATCH --deadline=2031-01-01"))
    @example(script=_s("#SBATCH --begin=2031-01-02", "#SBATCH --deadline=now+90minutes"))
    # Found against 24.11: the task count 23.02+ imply for a per-task GPU count (a fixed -N only) ...
    @example(script=_s("#SBATCH -N1-2", "#SBATCH --gpus-per-task 2 --exclusive", "#SBATCH --ntasks-per-node 2",
                       "#SBATCH -wa100-[01-02],a100-03"))
    @example(script=_s("#SBATCH -N1-4 --gpus-per-task=v100:1", "#SBATCH --mem=500M -N 1-4 -wa100-[01-02],a100-03"))
    @example(script=_s("#SBATCH --gpus-per-task=1 -w v100-[01-02] -N 1-2"))
    @example(script=_s("#SBATCH --gpus-per-task=1 --ntasks-per-node=2"))
    @example(script=_s("#SBATCH --gpus-per-task=1 -N 2 -c 2"))
    @example(script=_s("#SBATCH --gpus-per-task=1 -N 2 -w v100-[01-03]"))
    @example(script=_s("#SBATCH --gpus=1 --gpus-per-task=1 -N 2"))
    @example(script=_s("#SBATCH -N 2-3 --ntasks-per-gpu=2", "#SBATCH --ntasks-per-tres=3",
                       "#SBATCH --ntasks-per-gpu 1", "#SBATCH --ntasks-per-tres=1"))
    @example(script=_s("#SBATCH --tres-per-task=gres/gpu=1 -N 1-2"))
    @example(script=_s("#SBATCH --tres-per-task=gres/gpu:2 --gpus=3"))
    @example(script=_s("#SBATCH --cpus-per-gpu=2 --exclusive"))
    # ... -B's thread count after --threads-per-core, and --deadline counted from --begin from 23.02.
    @example(script=_s("#SBATCH --ntasks-per-core=2", "#SBATCH --gpus-per-task=1",
                       "#SBATCH --threads-per-core=2 -N 1 --gpus-per-task=1", "#SBATCH -N 1 --mem=1G --mem=1G",
                       "#SBATCH -B 2:1:1 -v -J conflicts"))
    @example(script=_s("#SBATCH --time-min=2:00:00 --deadline=now+3hours --begin=now+2hours"))
    def conflicts(script: str) -> None:
        check(slurm_cluster, script, tally, "conflicts")

    conflicts()
    COUNTS[f"conflicts:{slurm_cluster.release}:finished"] = 1
    assert_enough("conflicts", slurm_cluster, tally, accepted=250, rejected=250)


# ------------------------------------------------------------------- table
# (id, script, sbatch accepts?)  Facts from slurm-semantics.md §1, §2, §3, §5.  Where the
# releases differ the answer is a dict by release; None there means slurmctld refuses it for
# a reason of this cluster's configuration (see CONFIG_DEPENDENT).
TABLE: list[tuple[str, str | bytes, bool | dict[str, bool | None]]] = [
    # §1 optional arguments, abbreviations, srun-only options
    ("exclusive-sep-user", _s("#SBATCH --exclusive user"), False),
    ("exclusive-eq-user", _s("#SBATCH --exclusive=user"), True),
    ("exclusive-bare", _s("#SBATCH --exclusive"), True),
    ("exclusive-bogus", _s("#SBATCH --exclusive=bogus"), False),
    ("no-kill-glued-off", _s("#SBATCH -koff"), True),
    ("nice-eq", _s("#SBATCH --nice=5"), True),
    ("nice-sep", _s("#SBATCH --nice 5"), False),
    ("abbrev-unique", _s("#SBATCH --part=debug --ntasks-per-n=2"), True),
    ("abbrev-ambiguous-nod", _s("#SBATCH --nod=2"), False),
    ("mpi-srun-only", _s("#SBATCH --mpi=pmix"), False),
    ("cpu-bind-srun-only", _s("#SBATCH --cpu-bind=cores"), False),
    ("unknown-long", _s("#SBATCH --foo=1"), False),
    ("bad-short", _s("#SBATCH -y"), False),
    ("missing-arg", _s("#SBATCH --time"), False),
    ("flag-with-value", _s("#SBATCH --hold=yes"), False),
    ("bundled-short", _s("#SBATCH -Hn3"), True),
    ("counts-zero", _s("#SBATCH -n 0"), False),
    ("counts-trailing", _s("#SBATCH -c 4x"), False),
    ("nodes-k-suffix-range-bad", _s("#SBATCH -N 3-1"), False),
    ("mail-type-partly-bogus", _s("#SBATCH --mail-type=BEGIN,BOGUS"), True),
    ("mail-type-all-bogus", _s("#SBATCH --mail-type=BOGUS"), False),
    ("open-mode-apple", _s("#SBATCH --open-mode=apple"), True),
    # 23.02 NEWS: "Validate --gpu-bind options more strictly" (src/common/tres_bind.c)
    ("gpu-bind-cheese", _s("#SBATCH --gpu-bind=cheese"), {"22.05": True, "24.11": False}),
    ("signal-B-FOO", _s("#SBATCH --signal=B:FOO"), False),
    ("signal-at-abc", _s("#SBATCH --signal=USR1@abc"), False),
    ("signal-zero", _s("#SBATCH --signal=0"), False),
    ("signal-ok", _s("#SBATCH --signal=B:TERM@30"), True),
    # 24.11.1 NEWS: --signal=R: is denied when PreemptMode=OFF (this cluster's)
    ("signal-R-needs-preemption", _s("#SBATCH --signal=R:TERM@30"), {"22.05": True, "24.11": None}),
    # 24.11's sbatch passes an empty type on; no node has one
    ("gres-double-colon", _s("#SBATCH --gres=gpu::1"), {"22.05": False, "24.11": None}),
    ("gres-trailing-colon", _s("#SBATCH --gres=gpu:"), False),
    ("gres-typed", _s("#SBATCH --gres=gpu:v100:2"), True),
    ("array-reversed", _s("#SBATCH --array=10-1"), False),
    ("array-step-zero", _s("#SBATCH --array=1-10:0"), False),
    ("array-throttle", _s("#SBATCH --array=0-15%4"), True),
    ("dependency-abc", _s("#SBATCH --dependency=afterok:abc"), False),
    ("dependency-singleton", _s("#SBATCH --dependency=singleton"), True),
    ("constraint-double-amp", _s("#SBATCH --constraint=a100&&ib"), False),
    ("constraint-trailing-op", _s("#SBATCH --constraint=v100&"), True),
    ("constraint-unclosed", _s("#SBATCH --constraint=[a100"), False),
    ("constraint-comma-is-and", _s("#SBATCH --constraint=a100,ib"), True),
    # §2 durations and datetimes
    ("time-1h", _s("#SBATCH --time=1h"), False),
    ("time-2-", _s("#SBATCH --time=2-"), True),
    ("time-minus-5", _s("#SBATCH --time=-5"), True),
    ("time-four-fields", _s("#SBATCH --time=1:2:3:4"), False),
    ("time-unlimited", _s("#SBATCH --time=UNLIMITED"), True),
    ("begin-now-5min", _s("#SBATCH --begin=now+5min"), False),
    ("begin-now-1hour", _s("#SBATCH --begin=now+1hour"), True),
    ("begin-4pm", _s("#SBATCH --begin=4pm"), False),
    ("begin-month-13", _s("#SBATCH --begin=2030-13-01"), False),
    # §3 memory
    ("mem-1gb", _s("#SBATCH --mem=1gb"), True),
    ("mem-1.5G", _s("#SBATCH --mem=1.5G"), False),
    ("mem-GiB", _s("#SBATCH --mem=1GiB"), False),
    ("mem-1P", _s("#SBATCH --mem-per-cpu=1P"), False),
    ("mem-and-mem-per-cpu", _s("#SBATCH --mem=1G", "#SBATCH --mem-per-cpu=1G"), False),
    ("gpus-fewer-than-nodes", _s("#SBATCH -N 2 --gpus=1"), False),
    # §5 directive reading
    ("escaped-space", _s("#SBATCH -J a\\ b"), {"22.05": False, "24.11": True}),  # 24.05 NEWS: "\\ " joins
    ("quotes-mid-word", _s('#SBATCH -J a"b c"d'), True),
    ("hash-in-value", _s("#SBATCH -J run#1 --time=1h"), True),
    ("trailing-comment", _s("#SBATCH --time=5 # ten minutes"), True),
    ("hetjob-as-value", _s("#SBATCH -J hetjob"), False),
    ("hetjob-separator", _s("#SBATCH -J a", "#SBATCH hetjob", "#SBATCH -J b"), True),
    ("sbatchfoo", _s("#SBATCHFOO"), False),
    ("no-space-after-magic", _s("#SBATCH--time=5"), True),
    ("stray-word", _s("#SBATCH --time=10 extra"), False),
    ("double-dash", _s("#SBATCH -- --time=10"), False),
    ("leading-colon", _s("#SBATCH :"), False),
    ("unmatched-quote", _s('#SBATCH -J "abc'), False),
    ("value-on-next-line", _s("#SBATCH -J", "#SBATCH name"), True),
    ("empty-word-ends-line", _s('#SBATCH -J x "" --bogus'), True),
    ("empty-word-then-next-line", _s('#SBATCH -J "" x', "#SBATCH y"), True),
    ("wrap-ignored", _s('#SBATCH --wrap="echo hi"'), True),
    ("verbose-ignored", _s("#SBATCH -v"), True),
    ("lowercase-ignored", _s("#sbatch --bogus"), True),
    ("space-ignored", _s("# SBATCH --bogus"), True),
    ("indented-ignored", _s("  #SBATCH --bogus"), True),
    ("slurm-honoured", _s("#SLURM --bogus"), False),
    ("after-command-ignored", SH + "echo hi\n#SBATCH --bogus\n", True),
    # §5 script sanity checks
    ("empty", "", False),
    ("whitespace-only", " \n\t\n", False),
    ("no-shebang", "echo hi\n", False),
    ("bom", "\ufeff#!/bin/bash\ntrue\n", False),
    ("indented-shebang", " #!/bin/bash\ntrue\n", False),
    ("nul-byte", SH + "echo a\x00b\n", False),
    ("crlf", SH + "true\r\n", False),
    ("lone-cr", SH + "true\rfalse\n", True),
]

# Cases sbatch decides with a check slurmspec does not implement yet.
PENDING_RULES: set[str] = set()


def _table_params():
    for case_id, script, accepted in TABLE:
        marks = []
        if case_id in PENDING_RULES:
            marks.append(pytest.mark.xfail(strict=True, reason="rule comes with the rules issue"))
        yield pytest.param(script, accepted, id=case_id, marks=marks)


@pytest.mark.parametrize(("script", "accepted"), list(_table_params()))
def test_table_against_sbatch(slurm_cluster: SlurmCluster, script: str | bytes,
                              accepted: bool | dict[str, bool | None]) -> None:
    if isinstance(accepted, dict):
        accepted = accepted[slurm_cluster.release]
    v = judge(slurm_cluster, script)
    if accepted is None:
        assert v.config_dependent is not None, v.report("expected an answer of this cluster's configuration")
        return
    assert v.config_dependent is None, v.report("table case hit a configuration-dependent answer")
    assert v.outcome.accepted == accepted, v.report(f"sbatch no longer behaves as documented (accepts={accepted})")
    assert v.slurmspec_refuses == v.sbatch_rejects, v.report("slurmspec and sbatch disagree")
    oracle_tally.record("table", slurm_cluster.release, accepted=accepted)
