"""Differential test: the request as slurmspec merges it = the request real sbatch builds (22.05 and 24.11).

Each case is a script, sbatch arguments before it and ``SBATCH_*`` variables. The oracle is
``sbatch --test-only -v --partition=all ARGS SCRIPT`` run with those variables on the throwaway
cluster of tests/slurm_cluster.py; slurmspec lints the same script merged with
``Invocation(["-v", "--partition=all", *ARGS], VARIABLES)``. Compared:

- the verdict: slurmspec refuses exactly when sbatch rejects (answers that depend on this
  cluster's nodes and limits are skipped, as in tests/test_differential_sbatch.py);
- for an accepted one-component job, which source won: the values ``sbatch -v`` lists
  ("defined options") for the options in ``COMPARED`` equal those of slurmspec's request,
  and the flags in ``PRESENT`` are listed exactly when slurmspec's request has them;
- arguments slurmspec calls a usage error (a stray word sbatch would submit as the script)
  must not be accepted by sbatch either.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings

from slurmspec.invocation import Invocation, InvocationError
from slurmspec.lint import refuses
from slurmspec.lint.engine import lint_script
from slurmspec.parser.script import parse_script
from tests import oracle_tally
from tests.slurm_cluster import SlurmCluster
from tests.strategies import sbatch_invocations
from tests.examples import examples

pytestmark = pytest.mark.slurm

FIRST_ARGS = ("-v", "--partition=all")
# slurmctld answers about this cluster's nodes, limits and databases, not about the request's syntax.
CONFIG_DEPENDENT = (
    "Requested node configuration is not available", "Node count specification invalid",
    "Requested time limit is invalid", "Memory required by task is not available",
    "Requested more tasks than available processors", "More processors requested than permitted",
)
# Rules whose subject slurmctld checks (as in tests/test_differential_sbatch.py).
CTLD_SIDE_CODES = frozenset({"SB115", "SB116", "SB117", "SB121", "SB123", "SB124"})
_LISTED = re.compile(r"^sbatch: ([a-z-]+)\s+: (.*)$", re.M)
_UNITS = {"": 1, "K": 1 / 1024, "M": 1, "G": 1024, "T": 1024 * 1024}


def _minutes(text: str) -> int:
    days, _, clock = text.rpartition("-")
    hours, minutes, seconds = (int(part) for part in clock.split(":"))
    return (int(days) if days else 0) * 1440 + hours * 60 + minutes + (1 if seconds else 0)


def _megabytes(text: str) -> float:
    number, unit = re.fullmatch(r"([0-9.]+)([KMGT]?)", text).groups()
    return float(number) * _UNITS[unit]


# Option -> (how `sbatch -v` prints it -> comparable, how slurmspec's setting gives the same).
COMPARED = {
    "job-name": (str, lambda s: s.raw),
    "comment": (str, lambda s: s.raw),
    "time": (_minutes, lambda s: s.value.minutes),
    "mem": (_megabytes, lambda s: float(s.value.megabytes)),
    "mem-per-cpu": (_megabytes, lambda s: float(s.value.megabytes)),
    "threads-per-core": (int, lambda s: s.value.value),
    "cpus-per-task": (int, lambda s: s.value.value),
}
PRESENT = ("requeue", "no-requeue", "exclusive", "overcommit", "hold", "cpus-per-gpu", "export")


def _listing(stderr: str) -> dict[str, str]:
    listed: dict[str, str] = {}
    for name, shown in _LISTED.findall(stderr):
        listed.setdefault(name, shown.strip())
    return listed


def compare(cluster: SlurmCluster, script: str, argv: list[str], environ: dict[str, str]) -> str:
    """Run one case through both; return how it was counted; fail with a report on any difference."""
    words = [*FIRST_ARGS, *argv]
    outcome = cluster.test_only(script, args=words, env=environ)
    try:
        merged = Invocation(words, environ).apply(parse_script(script, None, cluster.version))
    except InvocationError as exc:
        # A word sbatch takes for the script (`-t --comment sc`: `sc`): a usage error for slurmspec;
        # sbatch submits that file instead, and there is none of that name here.
        assert not outcome.accepted, f"sbatch accepted what slurmspec calls a usage error: {exc}\n{outcome.stderr}"
        return "usage error"
    found = lint_script(merged)
    report = (f"--- script ---\n{script}--- sbatch --test-only {' '.join(words)} with {environ} ---\n"
              f"rc={outcome.returncode}\n{outcome.stderr.rstrip()}\n--- slurmspec ---\n"
              + "\n".join(f"  {d.path}:{d.span.line}:{d.span.column} {d.code} {d.message}" for d in found))
    ctld = re.findall(r"allocation failure: (.*)", outcome.stderr)
    if ctld and any(m.startswith(CONFIG_DEPENDENT) for m in ctld):
        # sbatch got past its own checks, so slurmspec must not refuse for a client-side reason.
        assert not [d for d in found if refuses([d]) and d.code not in CTLD_SIDE_CODES], "client side\n" + report
        return "skipped"
    assert refuses(found) == (not outcome.accepted), "verdicts differ\n" + report
    if not outcome.accepted or len(merged.components) > 1:
        return "rejected" if not outcome.accepted else "accepted"
    listed, request = _listing(outcome.stderr), merged.request
    for name, (from_sbatch, from_slurmspec) in COMPARED.items():
        setting = request.get(name)
        assert (name in listed) == (setting is not None), f"--{name} set by one side only\n" + report
        if setting is not None:
            assert from_sbatch(listed[name]) == from_slurmspec(setting), f"--{name} differs\n" + report
    for name in PRESENT:
        assert (name in listed) == request.has(name), f"--{name} set by one side only\n" + report
    return "accepted"


_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]
SH = "#!/bin/bash\n"


def test_invocations_agree_with_sbatch(slurm_cluster: SlurmCluster) -> None:
    """Generated script + arguments + SBATCH_* variables: same verdict, same winners."""
    tally: Counter[str] = Counter()

    @settings(max_examples=examples(600), deadline=None, suppress_health_check=_HEALTH)
    @given(case=sbatch_invocations())
    # Measured while building the merge (slurmspec.invocation.merge / environment):
    @example(case=(SH + "#SBATCH -t 5\ntrue\n", ["-t", "9"], {"SBATCH_TIMELIMIT": "7"}))
    @example(case=(SH + "#SBATCH --mem=1G --mem-per-cpu=1G\ntrue\n", [], {"SBATCH_MEM_PER_CPU": "2G"}))
    @example(case=(SH + "#SBATCH --mem-per-cpu=1G\ntrue\n", [], {"SBATCH_MEM_PER_NODE": "2G"}))
    @example(case=(SH + "true\n", [], {"SBATCH_MEM_PER_CPU": "2G", "SBATCH_MEM_PER_NODE": "1G"}))
    @example(case=(SH + "#SBATCH --mem=1G\ntrue\n", ["--mem-per-cpu=2G"], {}))
    @example(case=(SH + "#SBATCH --requeue\ntrue\n", [], {"SBATCH_REQUEUE": "1x"}))
    @example(case=(SH + "true\n", [], {"SBATCH_REQUEUE": "1", "SBATCH_NO_REQUEUE": "1"}))
    @example(case=(SH + "#SBATCH --threads-per-core=1\ntrue\n", [], {"SBATCH_HINT": "nomultithread"}))
    @example(case=(SH + "#SBATCH --hint=nomultithread\ntrue\n", [], {"SBATCH_THREADS_PER_CORE": "1"}))
    @example(case=(SH + "#SBATCH -c 2\ntrue\n", [], {"SBATCH_CPUS_PER_GPU": "2"}))
    @example(case=(SH + "#SBATCH -t 5\ntrue\n", [], {"SBATCH_TIMELIMIT": ""}))
    @example(case=(SH + "#SBATCH --gres=gpu:1\ntrue\n", [], {"SBATCH_GPUS_PER_NODE": "v100:2"}))
    @example(case=(SH + "#SBATCH -J a\n#SBATCH hetjob\n#SBATCH -J b\ntrue\n", ["--comment=c0", ":", "-t", "x"], {}))
    @example(case=(SH + "#SBATCH --mail-type=END --mail-user=a@b.c\ntrue\n",
                   ["--job-name=run42", "--export=NONE", "--mail-type=BEGIN", "--mail-user=me@kaust.edu.sa"], {}))
    def invocations(case: tuple[str, list[str], dict[str, str]]) -> None:
        script, argv, environ = case
        counted = compare(slurm_cluster, script, argv, environ)
        tally[counted] += 1
        if counted in ("skipped", "usage error"):
            oracle_tally.record_skipped("invocation", slurm_cluster.release)
        else:
            oracle_tally.record("invocation", slurm_cluster.release, accepted=counted == "accepted")

    invocations()
    print(f"invocations (Slurm {slurm_cluster.release}): {dict(tally)}")
    short = oracle_tally.minimums("invocation", slurm_cluster.release, accepted=150, rejected=150)
    assert short is None, short
