"""Differential test for ``--fix``: a header real sbatch accepts, broken only in ways slurmspec can fix,
is rejected by ``sbatch --test-only`` before ``fix_text(..., unsafe=True)`` and accepted after it; on
each release of the ``slurm_cluster`` fixture (22.05 and 24.11), slurmspec told the same release.

The headers come from `valid_header_lines()` (tests/strategies.py); the mutations
from `fixable_cases(valid=True)`: each case has at least one problem sbatch
rejects (`FIX_KINDS_REJECTED`: CRLF, a missing or indented `#!`, a misspelt
option, `--mem` beside `--mem-per-gpu`) and may have others sbatch accepts
(late and duplicate directives, near-misses, `--constraint` twice, ...), whose
fixes must not break the script either. Scripts are submitted with
``--partition=all`` as in tests/test_differential_sbatch.py.

A case whose fixing fails (the loop refuses, see slurmspec/fix/loop.py) fails
the test. A fix that reveals a problem the script had all along (a late
directive moved into the header that conflicts with another) leaves a script
sbatch may still refuse, and so does one whose fix is withheld (a misspelt
option whose right name is set elsewhere): then slurmspec must say so too (its
verdict on the fixed script equals sbatch's). At least 300 cases must reach
sbatch twice.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings

from slurmspec.lint import lint_text, refuses
from tests.fix.support import describe, fix
from tests import oracle_tally
from tests.slurm_cluster import SlurmCluster
from tests.strategies import FIX_KINDS, FIX_KINDS_REJECTED, fixable_cases
from tests.examples import examples, least, profile_name

pytestmark = pytest.mark.slurm

ARGS = ("--partition=all",)
MIN_CASES = 300
_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]


def _report(why: str, case, outcome, before, after) -> str:
    return (f"{why}\nmutations: {case[1]}\n{describe(outcome)}\n"
            f"--- sbatch before: rc={before.returncode} ---\n{before.stderr.rstrip()}\n"
            f"--- sbatch after: rc={after.returncode if after else '-'} ---\n"
            f"{after.stderr.rstrip() if after else ''}")


@pytest.mark.own_worker  # a cluster of its own: it mostly waits on slurmctld (tests/conftest.py)
def test_fixed_scripts_are_accepted_by_sbatch(slurm_cluster: SlurmCluster) -> None:
    tally: Counter[str] = Counter()
    version, release = slurm_cluster.version, slurm_cluster.release

    @settings(max_examples=examples(450), deadline=None, suppress_health_check=_HEALTH)
    @given(case=fixable_cases(valid=True, kinds=FIX_KINDS, required=FIX_KINDS_REJECTED))
    @example(case=("#!/bin/bash\r\n#SBATCH -t 10\r\nsrun hostname\r\n", ("crlf",)))
    @example(case=("#SBATCH -t 10 --mem=1G\nsrun hostname\n", ("no-shebang",)))
    @example(case=(" #!/bin/bash\n#SBATCH -t 10\ntrue\n", ("indented-shebang",)))
    @example(case=("\ufeff#!/bin/bash\n#SBATCH -t 10\ntrue\n", ("indented-shebang",)))
    @example(case=("\n#!/bin/bash\r\n#SBATCH -t 10\r\ntrue\r\n", ("indented-shebang", "crlf")))
    @example(case=("#!/bin/bash\n#SBATCH -t 10\n#SBATCH --tiem=10\ntrue\n", ("misspelt",)))
    @example(case=("#!/bin/bash\n#SBATCH -t 10\n#SBATCH --gpus-per-node=1\n#SBATCH --mem=1G\n"
                   "#SBATCH --mem-per-gpu=4G\nsrun hostname\n", ("mem-gpu",)))
    def cases(case) -> None:
        script, kinds = case
        before = slurm_cluster.test_only(script, args=ARGS)
        outcome = fix(script, unsafe=True, version=version)
        assert outcome.failure is None, _report("fixing failed", case, outcome, before, None)
        assert not before.accepted, _report("sbatch accepts the broken script: the strategy is wrong",
                                            case, outcome, before, None)
        assert refuses(lint_text(script, version=version)), _report(
            "sbatch rejects the broken script, slurmspec accepts it", case, outcome, before, None)
        oracle_tally.record("fix", release, accepted=False)  # the broken script
        after = slurm_cluster.test_only(outcome.text, args=ARGS)
        found = lint_text(outcome.text, version=version)
        if refuses(found):
            # A fix revealed a real refusal (a moved line conflicts with another), or was withheld
            # (the respelt option is set elsewhere): sbatch must refuse the result too.
            assert not after.accepted, _report("sbatch accepts what slurmspec still refuses", case, outcome,
                                               before, after)
            tally["revealed a refusal" if refuses(outcome.revealed) else "a fix withheld"] += 1
            oracle_tally.record("fix", release, accepted=False)  # the fixed script, still refused by both
            return
        assert after.accepted, _report("sbatch rejects the fixed script", case, outcome, before, after)
        oracle_tally.record("fix", release, accepted=True)
        tally["checked"] += 1
        tally.update(f"kind:{kind}" for kind in kinds)
        tally.update(f"fixed:{a.code}" for a in outcome.applied)

    cases()
    print(f"fix differential (Slurm {release}): {dict(sorted(tally.items()))}")
    short = oracle_tally.minimums("fix", release, accepted=MIN_CASES, rejected=MIN_CASES)
    assert short is None, short
    assert tally["checked"] >= least(MIN_CASES), f"too few cases reached sbatch before and after fixing: {dict(tally)}"
    # Every kind was exercised, so a kind that stopped being generated is noticed. Only at the
    # full count ("ci", "thorough": the same 450 examples every CI run): a fifth of it ("dev") does
    # not always draw every kind into a case that reaches sbatch.
    missing = {k for k in FIX_KINDS if not tally[f"kind:{k}"]}
    if profile_name() != "dev":
        assert not missing, dict(tally)
    elif missing:
        print(f"fix differential: kinds not drawn at the dev count: {sorted(missing)}")
