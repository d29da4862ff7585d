"""Slurm release versions slurmspec can target, and how to compare them."""

from __future__ import annotations

from slurmspec.lazy_regex import lazy_compile

# Every major release between the oldest we model (Debian bookworm's 22.05) and
# the newest (26.05). Option availability and several semantics change at
# these boundaries (see the named gates in slurmspec/gates.py).
SUPPORTED = ("22.05", "23.02", "23.11", "24.05", "24.11", "25.05", "25.11", "26.05")
DEFAULT = SUPPORTED[-1]

Version = tuple[int, int]

# "24.11", "24.11.5" (what `sbatch --version` and `scontrol show config` print after "slurm "),
# "23.2". A patch number names a build of its release: slurmspec models each release X.Y as
# its latest patch, so the patch is checked for form and otherwise ignored.
_VERSION = lazy_compile(r"(\d{1,3})\.(\d{1,2})(?:\.(\d{1,3}))?")


def parse_version(text: str) -> Version:
    """Turn "23.02" (or "23.02.7", "23.2") into (23, 2); raise ValueError if malformed or unsupported."""
    m = _VERSION.fullmatch(text.strip())
    if not m:
        raise ValueError(f"not a Slurm version: {text!r}; write X.Y or X.Y.Z, e.g. 24.11 or 24.11.5")
    version = (int(m.group(1)), int(m.group(2)))
    if format_version(version) not in SUPPORTED:
        raise ValueError(
            f"unsupported Slurm version {text.strip()!r}; choose one of {', '.join(SUPPORTED)}"
            " (a patch version such as 24.11.5 also works)"
        )
    return version


def format_version(version: Version) -> str:
    return f"{version[0]:02d}.{version[1]:02d}"


NEWEST: Version = parse_version(DEFAULT)
OLDEST: Version = parse_version(SUPPORTED[0])
