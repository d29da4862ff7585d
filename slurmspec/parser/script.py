"""Turn script text into a ``Script``: lines, header scan, hetjob components, options, values, body."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from slurmspec.collector import collector_paused
from slurmspec.model.job.request import JobRequest, build_request
from slurmspec.model.syntax.script import (
    Component, Directive, DirectiveLine, Line, LineKind, ParseIssue, Script, Word,
)
from slurmspec.parser.getopt import run_getopt
from slurmspec.parser.hints import Hints
from slurmspec.parser.lines import split_lines
from slurmspec.parser.templates import (
    Placeholder, TemplateInfo, has_placeholder, is_control_line, mask, placeholders_in, unmask,
)
from slurmspec.parser.words import tokenise
from slurmspec.kinds import ArgKind
from slurmspec.span import LineIndex
from slurmspec.version import NEWEST, Version

if TYPE_CHECKING:  # pragma: no cover - typing only
    from slurmspec.model.catalogue.options import OptionSpec
    from slurmspec.model.values._base import Parsed

_PREFIXES = {LineKind.DIRECTIVE: "#SBATCH", LineKind.LEGACY_DIRECTIVE: "#SLURM"}
_UNREAD = object()
_KNOWN_VALUES = 4096  # distinct (option, value) pairs remembered per script


def decode(source: str | bytes) -> tuple[str, bool]:
    """Bytes become text; bytes that are not UTF-8 survive as lone surrogates."""
    if isinstance(source, str):
        return source, False
    try:
        return source.decode("utf-8"), False
    except UnicodeDecodeError:
        return source.decode("utf-8", "surrogateescape"), True


@collector_paused
def parse_script(source: str | bytes, path: str | None = None, version: Version = NEWEST) -> Script:
    """The parsed script, in O(len(text)): the lines, each directive line tokenised once, getopt per
    component, each distinct option value read once, the requests built in one pass. The body is
    read later, when a rule first asks (``Script.body``)."""
    text, undecodable = decode(source)
    index = LineIndex(text)

    known: dict[tuple[str, str | None], Parsed | None] = {}

    def typed(option: OptionSpec, value: str | None) -> Parsed | None:
        # The same value of the same option reads the same (values are frozen): read it once.
        if placeholders and has_placeholder(value):
            return unknown_value(value)  # filled in when the template is rendered
        key = (option.long, value)
        found = known.get(key, _UNREAD)
        if found is _UNREAD:
            found = typed_value(option, value, version)
            if len(known) < _KNOWN_VALUES:
                known[key] = found
        return found

    lines = split_lines(text)
    hints = Hints()  # did-you-mean lookups, bounded per script

    header_end = len(text)
    in_header = True
    component = 0
    directive_lines: list[DirectiveLine] = []
    issues: list[ParseIssue] = []
    words_by_component: list[list[Word]] = [[]]
    late_directives: list[Directive] = []

    placeholders: list[Placeholder] = []  # of a job template (parser/templates.py), in file order
    control_lines: set[int] = set()
    for line in lines:
        if line.kind == LineKind.COMMAND:
            if line.text.lstrip()[:1] == "{" and is_control_line(line.text):
                # `{% if gpus %}`: the template's, gone from the rendered script that sbatch reads
                control_lines.add(line.number)
                continue
            placeholders.extend(placeholders_in(line.text, line.span.start, False))
        # sbatch stops reading directives at the first line whose first
        # non-blank character is not "#" (src/sbatch/opt.c:_opt_batch_script()).
        if in_header and line.kind == LineKind.COMMAND:
            in_header = False
            header_end = line.span.start
        prefix = _PREFIXES.get(line.kind)
        if prefix is None:
            continue
        base = line.span.start + len(prefix)
        after = line.text[len(prefix):]
        found = placeholders_in(after, base, True)
        # A placeholder is one word of the rendered script, whatever blanks or quotes it holds.
        tokens = tokenise(mask(after, base, found), base, version)
        if found and tokens.comment_start is not None:
            # `# Run job under project <project>` after the words is a comment, not a placeholder
            found = [p for p in found if p.start < tokens.comment_start]
        placeholders.extend(found)
        if in_header and tokens.separator:
            component += 1
            words_by_component.append([])
        words = tuple(_word(raw, text, index, bool(found)) for raw in tokens.words)
        comment = None
        if tokens.comment_start is not None:
            comment = index.span(tokens.comment_start, line.span.end)
        directive_lines.append(
            DirectiveLine(line, prefix, words, comment, in_header, component, bool(tokens.separator))
        )
        if tokens.problem is not None:
            kind, message, start, end = tokens.problem
            issues.append(
                ParseIssue(kind, message, index.span(start, end), component, ignored=not in_header)
            )
        if in_header:
            words_by_component[component].extend(words)
        elif words:
            # sbatch never reads this line; parse it alone so rules can say what it meant.
            late = run_getopt(list(words), version, component, True, index.span, text, typed, hints)
            late_directives.extend(late.directives)
            issues.extend(late.issues)

    components: list[Component] = []
    all_directives: list[Directive] = []
    previous: JobRequest | None = None
    for number, words in enumerate(words_by_component):
        result = run_getopt(words, version, number, False, index.span, text, typed, hints)
        directives = list(result.directives)
        issues.extend(result.issues)
        request = build_request(number, directives, version, inherited_from=previous)
        components.append(Component(number, directives, request))
        all_directives.extend(directives)
        previous = request
    all_directives.extend(late_directives)

    template = None
    if placeholders or control_lines:
        template = TemplateInfo(placeholders, control_lines)
        # what sbatch would say of a placeholder it is never shown: none of it is the rendered script's
        issues = [issue for issue in issues if not template.covers(issue.span.start, issue.span.end)]
    return Script(
        template=template,
        path=path,
        version=version,
        lines=lines,
        directive_lines=directive_lines,
        directives=all_directives,
        components=components,
        issues=sorted(issues, key=lambda issue: issue.span.start),
        header_end=header_end,
        index=index,
        source=text,
        had_undecodable_bytes=undecodable,
    )


def unknown_value(text: str) -> Parsed:
    """A value slurmspec cannot know yet (a template's placeholder): no problems, an ``Unknown`` value."""
    from slurmspec.model.values._base import Parsed, Unknown

    return Parsed(Unknown(text))


def _word(raw, text: str, index: LineIndex, masked: bool = False) -> Word:
    written = text[raw.start:raw.end]
    if masked:
        raw = attrs.evolve(raw, value=unmask(raw.value))
    # Most words are written as they are read: one string for both (a script may have 100,000).
    return Word(written if written == raw.value else raw.value, written, index.span(raw.start, raw.end), raw.offsets)


def _with_typed_value(directive: Directive, version: Version) -> Directive:
    typed = typed_value(directive.option, directive.value, version)
    return directive if typed is None else attrs.evolve(directive, typed=typed)


def typed_value(option: OptionSpec, value: str | None, version: Version) -> Parsed | None:
    """The typed value of ``option`` given ``value`` (None when the option has no value syntax)."""
    kind = option.kind
    if kind is None:
        return None
    from slurmspec.model.values import PARSERS

    parser = PARSERS.get(kind)
    if parser is None:
        return None
    if value is None and option.argument_in(version) is ArgKind.NONE:
        return None
    return parser(value, version)
