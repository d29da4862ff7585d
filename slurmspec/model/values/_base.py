"""The result type shared by every typed-value parser."""

from __future__ import annotations

from typing import Any

import attrs

from slurmspec.frozen import frozen


@frozen
class ValueProblem:
    """Something wrong with an option value.

    ``start``/``end`` are character offsets *inside the value text* (0-based,
    half-open), so the caller can map them onto the file. ``rejected`` is True
    when sbatch (or slurmctld at submission) refuses the value, False when it is
    accepted but almost surely not what the user meant. ``site_limit`` names the
    slurm.conf setting the refusal comes from when it holds only for that setting's
    default (``MaxArraySize``): a cluster profile knows the site's value, and its
    own rule judges the value against it instead.
    """

    message: str
    start: int = 0
    end: int = 0
    rejected: bool = True
    site_limit: str = ""


@frozen
class Parsed:
    """A typed value (None if it could not be understood) plus its problems."""

    value: Any
    problems: tuple[ValueProblem, ...] = ()

    @property
    def ok(self) -> bool:
        return not any(p.rejected for p in self.problems)


@frozen
class Unknown:
    """A value not known until the script is rendered: a job template's placeholder (``{{ partition }}``,
    ``<your account>``; slurmspec/parser/templates.py). Rules that need the value skip it."""

    text: str

    def __str__(self) -> str:
        return self.text
