"""Rule documentation as data (JSON) and as Markdown (``docs/rules.md``); no rich import here.

``docs/rules.md`` is generated: ``python -m slurmspec rule --all --format markdown > docs/rules.md``
(``tests/test_docs_in_sync.py`` fails when it drifts from the registry).
"""

from __future__ import annotations

from typing import Any, Iterable

from slurmspec.lint.rule import Rule

REGENERATE = "python -m slurmspec rule --all --format markdown > docs/rules.md"


def rule_to_dict(rule: Rule) -> dict[str, Any]:
    return {
        "code": rule.code,
        "name": rule.name,
        "family": rule.family,
        "severity": rule.severity,
        "fixable": rule.fixable,
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


def rule_markdown(rule: Rule) -> str:
    fixable = "yes" if rule.fixable else "no"
    return (
        f"## {rule.code} {rule.name}\n\n"
        f"Family: {rule.family} · Default severity: {rule.severity} · Fixable: {fixable}\n\n"
        f"{_demote(rule.doc).strip()}\n"
    )


def rules_markdown(rules: Iterable[Rule]) -> str:
    rules = sorted(rules, key=lambda r: r.code)
    parts = [
        "# slurmspec rules\n",
        "<!-- Generated from the rule registry; do not edit by hand. Regenerate with:\n"
        f"     {REGENERATE} -->\n",
        "Families: `parse` and `reject` (SB0xx, SB1xx) mean sbatch or the controller refuses the"
        " script; `traps` (SB2xx) are accepted but misbehave; `launch` (SB3xx) compare the body's"
        " launch commands with the request; `cluster` (SB4xx) need cluster facts; `meta` (SB9xx)"
        " are about slurmspec's own suppression comments.\n",
        "| Code | Name | Family | Severity | Fixable | Summary |",
        "|---|---|---|---|---|---|",
    ]
    for rule in rules:
        anchor = f"{rule.code}-{rule.name}".lower()
        parts.append(
            f"| [{rule.code}](#{anchor}) | {rule.name} | {rule.family} | {rule.severity} | "
            f"{'yes' if rule.fixable else 'no'} | {_cell(rule.summary)} |"
        )
    parts.append("")
    for rule in rules:
        parts.append(rule_markdown(rule))
    return "\n".join(parts).rstrip("\n") + "\n"


# --- terminal output (rich, imported only here) -----------------------------

_SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold blue"}


def write_rule_doc(rule: Rule, out, color: bool | None = None) -> None:
    """One rule's documentation for the terminal. Only ``Text`` and ``Markdown``, never markup strings."""
    from rich.markdown import Markdown
    from rich.text import Text

    from slurmspec.report.text import make_console

    console = make_console(out, color)
    console.print(Text.assemble((rule.code, "bold"), " ", (rule.name, "bold cyan")))
    console.print(Text.assemble(
        "Family: ", rule.family, " · Default severity: ", (rule.severity, _SEVERITY_STYLE[rule.severity]),
        " · Fixable: ", "yes" if rule.fixable else "no",
    ))
    console.print()
    console.print(Markdown(rule.doc, code_theme="ansi_dark", inline_code_lexer=None))


def write_rule_list(rules: Iterable[Rule], out, color: bool | None = None) -> None:
    from rich.text import Text

    from slurmspec.report.text import make_console

    console = make_console(out, color)
    rules = list(rules)
    width = max((len(r.name) for r in rules), default=0)
    for rule in rules:
        console.print(Text.assemble(
            (rule.code, "bold"), "  ", (rule.name.ljust(width), "cyan"), "  ",
            (rule.severity.ljust(7), _SEVERITY_STYLE[rule.severity]), "  ", rule.summary,
        ))
