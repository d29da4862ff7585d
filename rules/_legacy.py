"""TRANSITIONAL (removed when the restructure is done): the old ``Rule(...)`` call form."""

from slurmspec.kinds import Fixability, Outcome, Severity
from slurmspec.lint.context import Context  # noqa: F401
from slurmspec.lint.rule import Rule as _Rule

_OUTCOME = {"0": Outcome.REFUSED, "1": Outcome.REFUSED, "2": Outcome.WRONG, "3": Outcome.WRONG, "9": Outcome.ADVICE}


def Rule(code, name, severity, check, doc="", fixable=False):  # noqa: N802
    outcome = Outcome.ADVICE if severity == "info" else _OUTCOME[code[2]]
    return _Rule(code, name, Severity(severity), outcome, lambda ctx: ctx.shared(check), doc,
                 Fixability.SOMETIMES if fixable else Fixability.NONE)
