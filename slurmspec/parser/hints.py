"""Did-you-mean candidates for misspelt ``#SBATCH`` option names, bounded per script."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only
    from slurmspec.model.catalogue.options import OptionSpec


def _did_you_mean(name: str, table: dict[str, OptionSpec]) -> list[str]:
    from slurmspec.hints import STRICT, closest

    return closest(name, table, n=2, cutoff=STRICT)


# Misspelt names given a "did you mean" in one script: each is compared with every option
# (difflib, about a millisecond), so a script of 100,000 made-up options would take minutes.
MAX_HINTS = 64


class Hints:
    """The did-you-mean candidates of one script's misspelt option names, shared by its getopt runs:
    each name is looked up once; past ``MAX_HINTS`` distinct names the rest get none."""

    def __init__(self) -> None:
        self._known: dict[str, list[str]] = {}

    def of(self, name: str, table: dict[str, OptionSpec]) -> list[str]:
        found = self._known.get(name)
        if found is None:
            found = self._known[name] = _did_you_mean(name, table) if len(self._known) < MAX_HINTS else []
        return found
