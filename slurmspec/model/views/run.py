"""What a view needs of the lint run that asks for it: the script, the target release, a per-script memo.

The views sit below ``slurmspec/lint`` and must not import it; a rule's ``Context``
(``slurmspec/lint/context.py``) has these members, so a rule passes ``ctx`` itself.
Facts several rules ask for are computed once per script through ``shared``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.model.syntax.script import Script
    from slurmspec.version import Version

T = TypeVar("T")


class LintRun(Protocol):
    """One script's lint run, as the views read it (``slurmspec.check.context.Context`` is one)."""

    script: "Script"
    version: "Version"

    def shared(self, compute: Callable[[Any], T]) -> T:
        """``compute(self)``, run once per script."""
        ...
