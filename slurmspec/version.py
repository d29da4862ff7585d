"""Slurm release versions slurmspec can target, and how to compare them."""

from __future__ import annotations

# Every major release between the oldest we model (Debian bookworm's 22.05) and
# the newest (26.05). Option availability and several semantics change at
# these boundaries (see ../shared/reference/slurm-semantics.md §7).
SUPPORTED = ("22.05", "23.02", "23.11", "24.05", "24.11", "25.05", "25.11", "26.05")
DEFAULT = SUPPORTED[-1]

Version = tuple[int, int]


def parse_version(text: str) -> Version:
    """Turn "23.02" (or "23.02.7") into (23, 2); raise ValueError if unsupported."""
    parts = text.strip().split(".")
    if len(parts) < 2 or not all(p.isdigit() for p in parts[:2]):
        raise ValueError(f"not a Slurm version: {text!r}")
    version = (int(parts[0]), int(parts[1]))
    if format_version(version) not in SUPPORTED:
        raise ValueError(
            f"unsupported Slurm version {text!r}; choose one of {', '.join(SUPPORTED)}"
        )
    return version


def format_version(version: Version) -> str:
    return f"{version[0]:02d}.{version[1]:02d}"


NEWEST: Version = parse_version(DEFAULT)
OLDEST: Version = parse_version(SUPPORTED[0])
