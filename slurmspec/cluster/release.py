"""Which supported release to target for a cluster's Slurm version (kept apart from the attrs model: the lint path asks it)."""

from __future__ import annotations

from slurmspec.version import OLDEST, SUPPORTED, Version, format_version, parse_version


def target_release(slurm_version: str) -> Version:
    """``"22.05.8"`` -> (22, 5): the newest supported release at or below a version; ValueError below the oldest.

    Slurm's own releases since 22.05 are exactly the supported ones; a newer
    one than slurmspec knows is checked as the newest it knows.
    """
    parts = slurm_version.split(".")
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
        raise ValueError(f"not a Slurm version: {slurm_version!r}")
    wanted = (int(parts[0]), int(parts[1]))
    below = [parse_version(v) for v in SUPPORTED if parse_version(v) <= wanted]
    if not below:
        raise ValueError(f"Slurm {slurm_version} is older than {format_version(OLDEST)}, the oldest release slurmspec models")
    return below[-1]
