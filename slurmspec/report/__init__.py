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
from importlib import import_module
from typing import IO, Callable, Iterable

from slurmspec.kinds import OutputFormat

FORMATS = tuple(format.value for format in OutputFormat)  # plain strings: argparse shows their repr
COLOR_CHOICES = ("auto", "always", "never")

# format -> (its module in slurmspec.report, the writer, the options of write_report it takes).
# A module is imported when its format is asked for: `slurmspec lint` loads one writer.
_WRITERS: dict[OutputFormat, tuple[str, str, tuple[str, ...]]] = {
    OutputFormat.TEXT: ("text", "write_text", ("color", "quiet", "targets", "incomplete")),
    OutputFormat.CONCISE: ("concise", "write_concise", ("color", "quiet", "targets", "incomplete")),
    OutputFormat.JSON: ("json", "write_json", ("targets",)),
    OutputFormat.SARIF: ("sarif", "write_sarif", ()),
    OutputFormat.GITHUB: ("github", "write_github", ()),
    OutputFormat.GITLAB: ("gitlab", "write_gitlab", ()),
}


def _isatty(out: IO[str]) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False


def default_format(out: IO[str]) -> OutputFormat:
    """``text`` for a person at a terminal, ``concise`` for pipes, files and editors (as ruff)."""
    return OutputFormat.TEXT if _isatty(out) else OutputFormat.CONCISE


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
    format: OutputFormat | str, results: Iterable[tuple], out: IO[str], *,
    color: bool = False, quiet: bool = False, statistics: bool = False, targets: Iterable = (),
    incomplete: Callable[[], bool] = bool,
) -> None:
    """Write ``results`` as ``format``; ``statistics`` writes counts per code instead of findings.

    ``targets``: the releases judged (``report/targets.py``), shown in text and concise summaries when
    slurmspec chose them, and always in JSON. ``incomplete``: asked after the last result, true when a
    path could not be read or a rule failed, so the text summaries never say the checks passed."""
    format = OutputFormat(format)
    if statistics:
        from slurmspec.report.statistics import write_statistics

        write_statistics(results, out, as_json=format is OutputFormat.JSON)
        return
    module, name, takes = _WRITERS[format]
    writer = getattr(import_module(f"{__name__}.{module}"), name)
    options = {"color": color, "quiet": quiet, "targets": targets, "incomplete": incomplete}
    writer(results, out, **{option: options[option] for option in takes})
