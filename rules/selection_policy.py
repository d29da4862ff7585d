"""The default-selection policy rules/selection.py states, as code: tests/test_judged_corpus.py and
tests/corpus/judge.py check ``DEFAULT`` against it (a lint run never imports this module)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Mapping

from slurmspec.kinds import Family, Outcome

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.check.rule import Rule

BAR = Fraction(2, 3)  # the share of real problems a default rule's judged findings must reach
MIN_JUDGED = 5  # fewer judged findings than this say too little to overrule a refusal
UNJUDGED_OUTCOMES = frozenset(set(Outcome) - {Outcome.ADVICE})  # default without any judged finding

Judged = tuple[int, int, int]  # (real, low, wrong)


def share(judged: Judged) -> Fraction | None:
    """The share of real problems among judged findings; None when there are none."""
    total = sum(judged)
    return Fraction(judged[0], total) if total else None


def qualifies(rule: "Rule", judged: Mapping[str, Judged]) -> tuple[bool, str]:
    """Whether ``rule`` belongs in the default selection by the policy rules/selection.py states, and why (one phrase)."""
    counts = judged.get(rule.code, (0, 0, 0))
    real, _, wrong = counts
    if wrong:
        return False, f"{wrong} judged finding(s) wrong"
    if rule.family is Family.META:
        return True, "a meta rule"
    measured = share(counts)
    if sum(counts) >= MIN_JUDGED:
        verdict = measured >= BAR
        return verdict, f"{real} of {sum(counts)} judged findings real ({'at or above' if verdict else 'below'} {BAR})"
    if measured is not None and measured >= BAR:
        return True, f"{real} of {sum(counts)} judged findings real"
    if measured is not None and rule.outcome is Outcome.REFUSED:
        return True, f"outcome `refused`, {real} of only {sum(counts)} judged finding(s) real"
    if measured is None and rule.outcome in UNJUDGED_OUTCOMES:
        return True, f"outcome `{rule.outcome}`, no judged finding"
    if measured is None:
        return False, f"outcome `{rule.outcome}`, no judged finding"
    return False, f"{real} of only {sum(counts)} judged finding(s) real, outcome `{rule.outcome}`"
