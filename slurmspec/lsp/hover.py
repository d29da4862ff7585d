"""Hover: on an ``#SBATCH`` option, what it is and what sbatch makes of this line; on a finding, its rule.

For an option: its meaning (``slurmspec.lsp.option_help``), the syntax it
takes, the value as sbatch reads it (typed, with any problem the parser saw),
the Slurm releases that have it, and whether sbatch acts on this line: a later
line of the same job (component) replaces it (last one wins,
``src/common/slurm_opt.c`` ``arg_set_*``), sbatch never reads it (after the
first command), or ignores it (options sbatch only reads from its own command
line). An ``SBATCH_*`` input variable set where sbatch runs beats the script
(sbatch(1), "INPUT ENVIRONMENT VARIABLES").
"""

from __future__ import annotations

from typing import Sequence

from slurmspec.diagnostic import Diagnostic
from slurmspec.kinds import ValueKind
from slurmspec.lsp.value_text import code, typed_text
from slurmspec.model.catalogue.options import OptionSpec
from slurmspec.model.syntax.script import Directive, Script
from slurmspec.printable import printable
from slurmspec.version import Version, format_version


def directive_at(script: Script, offset: int) -> Directive | None:
    """The option occurrence under ``offset``; on a directive line's prefix, the line's first option."""
    line_number = script.index.line_col(offset)[0]
    on_line = [d for d in script.directives if d.span.line == line_number]
    for directive in on_line:
        if directive.span.start <= offset <= directive.span.end:
            return directive
    for line in script.directive_lines:
        if line.line.number == line_number and offset < line.line.span.start + len(line.prefix) + 1:
            return min(on_line, key=lambda d: d.span.start, default=None)
    return None


def unknown_option_at(script: Script, offset: int) -> OptionSpec | None:
    """A catalogue option the target release lacks (getopt made no directive of it) under ``offset``."""
    from slurmspec.model.catalogue.options import lookup

    for line in script.directive_lines:
        for word in line.words:
            if word.span.start <= offset <= word.span.end and word.value.startswith("--"):
                spec = lookup(word.value[2:].split("=", 1)[0])
                return spec if spec is not None and not spec.exists_in(script.version) else None
    return None


def _versions(spec: OptionSpec, version: Version) -> str:
    since, until = format_version(spec.since), spec.until and format_version(spec.until)
    target = format_version(version)
    if not spec.exists_in(version):
        if version < spec.since:
            return f"Not in Slurm {target} (the target release): added in {since}."
        if until is not None and version >= spec.until:
            return f"Not in Slurm {target} (the target release): removed in {until}."
        return f"Not in Slurm {target} (the target release)."
    span = f"Slurm {since} to {until} (gone in {until})" if until else f"Slurm {since} and later"
    return f"In {span}; the target is {target}."


def _about(spec: OptionSpec) -> list[str]:
    from slurmspec.lsp.option_help import meaning
    from slurmspec.model.values import describe

    names = code(spec.display) + (f" ({code('-' + spec.short)})" if spec.short else "")
    parts = [f"**{names}**: {meaning(spec.long) or 'an sbatch option'}"]
    if spec.kind is not None and spec.kind is not ValueKind.STRING:
        parts.append(f"Takes {describe(spec.kind)}.")
    return parts


def _fate(directive: Directive, script: Script) -> str | None:
    """Whether sbatch acts on this occurrence, and if not, why."""
    spec = directive.option
    if directive.ignored:
        if spec.early_pass:
            return "sbatch ignores this option inside a script: it only reads it from its own command line."
        return "sbatch never reads this line: it comes after the first command of the script."
    if directive.component >= len(script.components):
        return None
    setting = script.components[directive.component].request.get(spec.long)
    if setting is None or setting.directive is directive:
        return None
    if any(earlier is directive for earlier in setting.overridden):
        last = setting.directive
        from slurmspec.model.syntax.serialize import directive_to_dict, request_to_dict  # `slurmspec parse` data

        merged = request_to_dict(script.components[directive.component].request)[spec.long]["value"]
        if spec.accumulates and merged != directive_to_dict(last)["typed"]:
            # --mail-type (up to 24.11), --signal flags, --kill-on-invalid-dep: repeats add up.
            return (f"Line {last.line} sets it again; sbatch combines the occurrences: "
                    f"{code(typed_text(spec.kind, merged))} in effect.")
        return f"Overridden: line {last.line} ({code(last.raw)}) sets it again, and the last one wins."
    return None


def option_hover(directive: Directive, script: Script) -> str:
    from slurmspec.model.syntax.serialize import directive_to_dict

    spec = directive.option
    parts = _about(spec)
    data = directive_to_dict(directive)
    if directive.value is not None:
        reading = f"Value {code(directive.value)}"
        if data["typed"] is not None:
            reading += f" is read as {code(typed_text(spec.kind, data['typed']))}"
        problems = [
            f"- {'refused by sbatch' if problem.get('rejected') else 'note'}: {printable(problem.get('message', ''))}"
            for problem in data["problems"]
        ]
        parts.append("\n".join([reading + (":" if problems else "."), *problems]))
    parts.append(_versions(spec, script.version))
    fate = _fate(directive, script)
    if fate:
        parts.append(fate)
    if directive.component:
        parts.append(f"Hetjob component {directive.component}.")
    if spec.env_var:
        parts.append(f"{code(spec.env_var)}, if set where sbatch runs, overrides this line.")
    return "\n\n".join(parts)


def finding_hover(diagnostic: Diagnostic) -> str:
    from slurmspec.report.links import rule_url

    url = rule_url(diagnostic.code, diagnostic.name)
    head = f"**{diagnostic.code}** {diagnostic.name} ({diagnostic.severity}): {printable(diagnostic.message)}"
    if diagnostic.code.startswith("SC"):
        return f"{head}\n\nShellCheck's documentation: {url}"
    from slurmspec.lint.engine import registry
    from slurmspec.report.rule_docs import rule_markdown

    rule = registry().get(diagnostic.code)
    if rule is None:
        return head
    return f"{head}\n\n---\n\n{rule_markdown(rule)}\n[{diagnostic.code} in docs/rules.md]({url})"


def hover_markdown(script: Script, diagnostics: Sequence[Diagnostic], offset: int) -> tuple[str, tuple[int, int]] | None:
    """The hover text at ``offset`` and the span it is about, or None."""
    parts, span = [], None
    directive = directive_at(script, offset)
    if directive is not None:
        parts.append(option_hover(directive, script))
        span = (directive.span.start, directive.span.end)
    else:
        missing = unknown_option_at(script, offset)
        if missing is not None:
            parts.append("\n\n".join([*_about(missing), _versions(missing, script.version)]))
    for diagnostic in diagnostics:
        if diagnostic.span.start <= offset <= diagnostic.span.end:
            parts.append(finding_hover(diagnostic))
            span = span or (diagnostic.span.start, diagnostic.span.end)
    if not parts:
        return None
    return "\n\n---\n\n".join(parts), span
