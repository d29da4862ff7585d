"""Output formats for ``slurmspec lint``: one module per format, imported only when used.

Every writer takes ``(script, diagnostics)`` pairs in file order -- any
iterable, consumed as it comes, so ``slurmspec lint`` streams: a finding is
written once its file is linted and nothing of the file is kept after (the
``script`` may be a ``report.excerpt.Excerpt``, the lines the findings point
at). SARIF alone needs the whole list before it starts (its rule table comes
first), and keeps the diagnostics, never the scripts. No format imports rich
(colour is plain ANSI, ``report/ansi.py``); only rule documentation in the terminal does.

=========  ==========================================================
text       full: ``path:line:col: CODE severity: message`` + snippet
concise    one line per finding, ``path:line:col: CODE message``
json       ``{"version": 1, "diagnostics": [...]}`` (docs/output-formats.md)
sarif      SARIF 2.1.0 with rule metadata and help links
github     GitHub Actions workflow commands (``::error file=...::``)
gitlab     GitLab Code Quality report (a JSON array)
=========  ==========================================================
"""

from __future__ import annotations

import os
from typing import IO, Iterable

FORMATS = ("text", "concise", "json", "sarif", "github", "gitlab")
COLOR_CHOICES = ("auto", "always", "never")


def _isatty(out: IO[str]) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False


def default_format(out: IO[str]) -> str:
    """``text`` for a person at a terminal, ``concise`` for pipes, files and editors (as ruff)."""
    return "text" if _isatty(out) else "concise"


def resolve_color(choice: str, out: IO[str]) -> bool:
    """``--color`` wins; under ``auto``, NO_COLOR then FORCE_COLOR (no-color.org, force-color.org), then the terminal."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return _isatty(out)


def write_report(
    format: str, results: Iterable[tuple], out: IO[str], *,
    color: bool = False, quiet: bool = False, statistics: bool = False, targets: Iterable = (),
) -> None:
    """Write ``results`` as ``format``; ``statistics`` writes counts per code instead of findings.

    ``targets``: the releases judged (``report/targets.py``), shown in text and concise summaries when
    slurmspec chose them, and always in JSON."""
    if statistics:
        from slurmspec.report.statistics import write_statistics

        write_statistics(results, out, as_json=format == "json")
    elif format == "json":
        from slurmspec.report.json import write_json

        write_json(results, out, targets)
    elif format == "concise":
        from slurmspec.report.concise import write_concise

        write_concise(results, out, color=color, quiet=quiet, targets=targets)
    elif format == "sarif":
        from slurmspec.report.sarif import write_sarif

        write_sarif(results, out)
    elif format == "github":
        from slurmspec.report.github import write_github

        write_github(results, out)
    elif format == "gitlab":
        from slurmspec.report.gitlab import write_gitlab

        write_gitlab(results, out)
    else:
        from slurmspec.report.text import write_text

        write_text(results, out, color=color, quiet=quiet, targets=targets)
