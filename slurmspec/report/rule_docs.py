"""Rule documentation as data (JSON) and as Markdown (``docs/rules.md``); no rich import here.

``docs/rules.md`` is generated: ``python -m slurmspec rule --all --format markdown > docs/rules.md``
(``tests/test_docs_in_sync.py`` fails when it drifts from the registry).
"""

from __future__ import annotations

from typing import Any, Iterable

from slurmspec.kinds import Fixability, Severity
from slurmspec.check.rule import Rule

REGENERATE = "python -m slurmspec rule --all --format markdown > docs/rules.md"


def judged_counts(rule: Rule) -> tuple[int, int, int] | None:
    """(real, low, wrong): the rule's findings on the shared corpus as judged by hand; None if it had none."""
    from slurmspec.rules.judged import JUDGED

    return JUDGED.get(rule.code)


def selection_word(rule: Rule) -> str:
    from slurmspec.lint.engine import is_default

    return "default" if is_default(rule) else "opt-in"


def judged_text(rule: Rule) -> str:
    """The judged precision in words: ``7 real, 1 low, 0 wrong (88% real)``, or that there was nothing to judge."""
    from slurmspec.rules.judged import SCRIPTS

    counts = judged_counts(rule)
    if counts is None:
        return f"no finding on the {SCRIPTS} corpus scripts"
    real, low, wrong = counts
    return f"{real} real, {low} low, {wrong} wrong ({real / (real + low + wrong):.0%} real)"


def rule_to_dict(rule: Rule) -> dict[str, Any]:
    counts = judged_counts(rule)
    return {
        "code": rule.code,
        "name": rule.name,
        "family": rule.family,
        "severity": rule.severity,
        "outcome": rule.outcome,
        "fixable": rule.fixable,
        "fix": rule.fix,
        "default": selection_word(rule) == "default",
        "judged": None if counts is None else dict(zip(("real", "low", "wrong"), counts)),
        "summary": rule.summary,
        "doc": rule.doc,
    }


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _demote(doc: str) -> str:
    """Rule docs use ``## `` headings; under a rule's own ``## `` heading they become ``### ``."""
    lines, fenced = [], False
    for line in doc.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        lines.append("#" + line if line.startswith("#") and not fenced else line)
    return "\n".join(lines)


_FIX_WORDS = {Fixability.NONE: "no", Fixability.SOMETIMES: "sometimes", Fixability.ALWAYS: "always"}


def rule_markdown(rule: Rule, releases: str | None = None) -> str:
    applies = f" · Releases: {releases}" if releases else ""
    return (
        f"## {rule.code} {rule.name}\n\n"
        f"Family: {rule.family} · Default severity: {rule.severity} · Outcome: {rule.outcome}"
        f" · Fix: {_FIX_WORDS[rule.fix]}{applies}\n\n"
        f"Selection: {selection_word(rule)} · Judged on real scripts: {judged_text(rule)}\n\n"
        f"{_demote(rule.doc).strip()}\n"
    )


def _judged_cell(rule: Rule) -> str:
    counts = judged_counts(rule)
    return "-" if counts is None else "/".join(map(str, counts))


def rules_markdown(rules: Iterable[Rule]) -> str:
    from slurmspec.report.rule_releases import releases_text

    rules = sorted(rules, key=lambda r: r.code)
    releases = {rule.code: releases_text(rule) for rule in rules}
    parts = [
        "# slurmspec rules\n",
        "<!-- Generated from the rule registry; do not edit by hand. Regenerate with:\n"
        f"     {REGENERATE} -->\n",
        "Families: `parse` and `reject` (SB0xx, SB1xx) mean sbatch or the controller refuses the"
        " script; `traps` (SB2xx) are accepted but misbehave; `launch` (SB3xx) compare the body's"
        " launch commands with the request; `cluster` (SB4xx) need cluster facts; `meta` (SB9xx)"
        " are about slurmspec itself (its suppression comments, a rule that failed).\n",
        "Outcome says what happens to the job when the finding is true: `refused` (sbatch or the"
        " controller refuses it at submission), `pends` (accepted, never starts), `fails` (starts,"
        " then fails), `wrong` (runs, but not as meant), `advice` (runs as meant; a better way"
        " exists). A rule whose finding means something else on another release says so in its"
        " message, and the finding carries its own outcome.\n",
        "Releases are the Slurm releases (`--slurm-version`, 22.05 to 26.05) on which the rule's own"
        " Example triggers it; its \"Slurm versions\" section says what changes between them.\n",
        "Selection: a run without `select` reports the `default` rules; the others are opt-in, by code,"
        " prefix or name, by outcome (`extend-select = [\"advice\"]`), or all with `--select ALL`. Judged"
        " (real/low/wrong) counts every finding of the rule on the shared corpus of real batch scripts,"
        " judged by hand: a real problem for the author, correct but of little value, or false; the"
        " default selection is chosen from these figures. [judged.md](judged.md) gives the criteria and"
        " the bar.\n",
        "| Code | Name | Family | Severity | Outcome | Fix | Releases | Selection | Judged | Summary |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for rule in rules:
        anchor = f"{rule.code}-{rule.name}".lower()
        parts.append(
            f"| [{rule.code}](#{anchor}) | {rule.name} | {rule.family} | {rule.severity} | {rule.outcome} | "
            f"{_FIX_WORDS[rule.fix]} | {releases[rule.code]} | {selection_word(rule)} | {_judged_cell(rule)} | "
            f"{_cell(rule.summary)} |"
        )
    parts.append("")
    for rule in rules:
        parts.append(rule_markdown(rule, releases[rule.code]))
    return "\n".join(parts).rstrip("\n") + "\n"


# --- terminal output (rich, imported only here) -----------------------------

_SEVERITY_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold blue"}


def make_console(out, color: bool | None = None):
    from rich.console import Console

    # highlight=False: rich must not restyle numbers or paths inside user text.
    return Console(file=out, highlight=False, soft_wrap=True, force_terminal=color, no_color=(color is False) or None,
                   emoji=False)


def write_rule_doc(rule: Rule, out, color: bool | None = None) -> None:
    """One rule's documentation for the terminal. Only ``Text`` and ``Markdown``, never markup strings."""
    from rich.markdown import Markdown
    from rich.text import Text


    import io

    # rich crops a list item at the console's width even with soft wrapping, and a pipe's width is
    # 80: 50 of the rules lost text in `slurmspec rule X | less`. Wrapped instead (soft_wrap off),
    # into a buffer so the padding rich adds to every line can go.
    terminal = make_console(out, color)
    buffer = io.StringIO()
    console = make_console(buffer, terminal.is_terminal if color is None else color)
    console.soft_wrap = False
    console.width = terminal.width if terminal.is_terminal else 100  # a pipe: wide enough to read, never cut
    console.print(Text.assemble((rule.code, "bold"), " ", (rule.name, "bold cyan")))
    console.print(Text.assemble(
        "Family: ", str(rule.family), " · Default severity: ", (str(rule.severity), _SEVERITY_STYLE[rule.severity]),
        " · Outcome: ", str(rule.outcome), " · Fix: ", _FIX_WORDS[rule.fix],
    ))
    console.print(Text.assemble("Selection: ", selection_word(rule), " · Judged on real scripts: ", judged_text(rule)))
    console.print()
    console.print(Markdown(rule.doc, code_theme="ansi_dark", inline_code_lexer=None))
    out.write("".join(line.rstrip(" ") + "\n" for line in buffer.getvalue().splitlines()))


def write_rule_list(rules: Iterable[Rule], out, color: bool | None = None) -> None:
    from rich.text import Text


    console = make_console(out, color)
    rules = list(rules)
    width = max((len(r.name) for r in rules), default=0)
    for rule in rules:
        # "fix" marks rules whose findings can come with a fix (`--fix`, `--unsafe-fixes`), as ruff's list does;
        # "default" the rules a run without `select` reports, "opt-in" the others.
        console.print(Text.assemble(
            (rule.code, "bold"), "  ", (rule.name.ljust(width), "cyan"), "  ",
            (str(rule.severity).ljust(7), _SEVERITY_STYLE[rule.severity]), "  ",
            ("fix" if rule.fixable else "   ", "green"), "  ", selection_word(rule).ljust(7), "  ", rule.summary,
        ))
