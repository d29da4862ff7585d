"""Which Slurm release a run judged, and why: shown when the user did not choose it.

The target changes what the rules say (SB150 is an error on 26.05 and absent on
22.05), so a run that picked it for the user -- from the cluster profile, the
``sbatch`` on PATH, or the newest release when there is none -- says so; a
release given with ``--slurm-version`` or the configuration's ``slurm-version``
is the user's own and is not repeated back. JSON carries every target, chosen
or not (``slurm_versions``), so a tool never has to guess.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple

# Sources a user states outright; every other source is a default slurmspec chose.
_EXPLICIT = ("--slurm-version", "configuration")


class Target(NamedTuple):
    """One release judged in a run, with where it came from (``cli.common.target_version``)."""

    release: str
    source: str

    @property
    def explicit(self) -> bool:
        return self.source in _EXPLICIT

    def as_dict(self) -> dict[str, str]:
        return {"release": self.release, "source": self.source}


def target_lines(targets: Iterable[Target]) -> list[str]:
    """A line per release the run chose for the user (none when every one was given)."""
    lines = []
    for target in targets:
        if target.explicit:
            continue
        why = target.source
        if why.startswith("newest"):
            why += ", as no sbatch on PATH told its release"
        lines.append(f"Judged against Slurm {target.release} ({why}; choose with --slurm-version "
                     "or `slurm-version` in slurmspec.toml).")
    return lines
