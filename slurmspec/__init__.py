"""slurmspec: parse, lint and fix Slurm batch scripts before they reach the queue.

Importing this package is cheap: lark is never imported at run time (the parser
tables are generated), and rich only to show rule documentation in a terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = ["parse", "Script", "__version__"]
__version__ = "0.1.0"

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.model.syntax.script import Script
    from slurmspec.version import Version


def parse(source: str | bytes, path: str | None = None, version: "str | Version | None" = None) -> "Script":
    """Parse a batch script (text or bytes) into a ``Script``; never raises on content.

    ``version`` is the target Slurm release ("22.05" ... "26.05", default newest);
    it decides which options exist and how some values are read.
    """
    from slurmspec.parser.script import parse_script
    from slurmspec.version import NEWEST, parse_version

    if version is None:
        target = NEWEST
    elif isinstance(version, str):
        target = parse_version(version)
    else:
        target = version
    return parse_script(source, path, target)


def __getattr__(name: str):
    if name == "Script":
        from slurmspec.model.syntax.script import Script

        return Script
    raise AttributeError(name)
