"""Suppression comments: ``# slurmspec: ignore[CODE,...] reason`` and ``file-ignore``.

Where a suppression may stand, and what it covers:

- a *trailing* comment (something other than whitespace precedes it on the
  line: an ``#SBATCH`` line's arguments, a shell command) covers its own
  logical line (every physical line of a backslash-continued command);
- an *own-line* comment (only whitespace before it) covers the next line that
  is not itself an own-line suppression, so several can be stacked above one
  line;
- ``# slurmspec: file-ignore[CODE,...]`` anywhere covers the whole file.

Items are rule codes (``SB201``) or rule names (``duplicate-option``); code
prefixes are refused here (they are allowed in the configuration's
``ignore``), so an unused suppression can be reported precisely.

A diagnostic is suppressed when the first line of its span is covered. The
shell's rules decide what is a comment: after the unquoted ``#`` that ends an
``#SBATCH`` line's arguments, on a comment line, or after an unquoted ``#``
that starts a word on a command line. The marker is matched tolerantly on
whitespace and case (``#slurmspec:ignore [ SB201 ]``) but strictly on shape.
"""

from __future__ import annotations

import re
from typing import Iterator

import attrs

from slurmspec.frozen import as_tuple, frozen
from slurmspec.kinds import SuppressionKind
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.syntax.comments import line_comments
from slurmspec.model.syntax.script import LineKind, Script
from slurmspec.span import Span

# "# slurmspec:" with any spacing; anything after it must be a directive.
_MARKER = lazy_compile(r"#[ \t]*slurmspec[ \t]*:", re.IGNORECASE)
_QUICK = re.compile(r"slurmspec[ \t]*:", re.IGNORECASE)
_DIRECTIVE = lazy_compile(
    r"[ \t]*(?P<kind>file-ignore|ignore)[ \t]*\[(?P<items>[^\]\n]*)\](?P<reason>[^\n]*)",
    re.IGNORECASE,
)
_KIND_WORD = lazy_compile(r"[ \t]*(?P<word>[A-Za-z][\w-]*)")
# ShellCheck's codes: suppressed like rules when ``--shellcheck`` runs, ignored otherwise.
_SHELLCHECK_CODE = lazy_compile(r"SC\d{4}")


@frozen
class Item:
    """One entry between the brackets, with its own span for precise reports."""

    text: str
    span: Span


@frozen
class Suppression:
    kind: SuppressionKind
    span: Span  # the whole comment from the marker's "#" to the end of the directive
    items: tuple[Item, ...] = attrs.field(converter=as_tuple)
    lines: frozenset[int] = frozenset()  # physical lines covered; empty for FILE
    reason: str = ""


@frozen
class Malformed:
    span: Span
    message: str


@frozen
class Found:
    suppressions: tuple[Suppression, ...] = attrs.field(converter=as_tuple)
    malformed: tuple[Malformed, ...] = attrs.field(converter=as_tuple)


_NOTHING = Found((), ())


def find_suppressions(script: Script) -> Found:
    """Every suppression comment of ``script``, and the ones that are malformed; O(lines)."""
    source = script.source
    if not _QUICK.search(source):
        return _NOTHING
    suppressions: list[Suppression] = []
    malformed: list[Malformed] = []
    pending: list[tuple[int, Suppression]] = []  # own-line ones waiting for their line
    for line in script.lines:
        marks = list(_markers(script, line))
        own_line_only = bool(marks) and all(own for _, own in marks)
        covered = frozenset(range(line.span.line, line.span.end_line + 1))
        if pending and not own_line_only and line.kind not in (LineKind.BLANK, LineKind.EMPTY):
            for index, suppression in pending:
                suppressions[index] = attrs.evolve(suppression, lines=covered)
            pending = []
        elif pending and line.kind in (LineKind.BLANK, LineKind.EMPTY):
            pending = []  # "directly above": a blank line breaks the link
        for start, own in marks:
            parsed = _parse(script, start, _comment_end(source, start))
            if isinstance(parsed, Malformed):
                malformed.append(parsed)
                continue
            if parsed.kind is SuppressionKind.FILE:
                suppressions.append(parsed)
            elif own:
                pending.append((len(suppressions), parsed))
                suppressions.append(parsed)
            else:
                suppressions.append(attrs.evolve(parsed, lines=covered))
    return Found(suppressions, malformed)


def _comment_end(source: str, start: int) -> int:
    end = source.find("\n", start)
    end = len(source) if end == -1 else end
    # A CRLF file: the "\r" is not part of the comment's text.
    return end - 1 if end > start and source[end - 1] == "\r" else end


def _markers(script: Script, line) -> Iterator[tuple[int, bool]]:
    """(offset of each marker "#", whether only whitespace precedes it on its physical line)."""
    source = script.source
    start, end = line.span.start, line.span.end
    if not _QUICK.search(source, start, end):
        return
    for region_start, region_end in line_comments(script, line):
        match = _MARKER.search(source, region_start, region_end)
        if match is None:
            continue
        at = match.start()
        line_start = source.rfind("\n", 0, at) + 1
        yield at, not source[line_start:at].strip()


def _parse(script: Script, start: int, end: int) -> Suppression | Malformed:
    source = script.source
    marker = _MARKER.match(source, start, end)
    assert marker is not None
    match = _DIRECTIVE.match(source, marker.end(), end)
    if match is None:
        return Malformed(script.span(start, _rstrip(source, start, end)), _malformed_message(source, marker.end(), end))
    kind = SuppressionKind.FILE if match.group("kind").lower() == "file-ignore" else SuppressionKind.LINE
    items = []
    base = match.start("items")
    for part in re.finditer(r"[^,]+", match.group("items")):
        text = part.group().strip()
        if not text:
            continue
        offset = base + part.start() + (len(part.group()) - len(part.group().lstrip()))
        items.append(Item(text, script.span(offset, offset + len(text))))
    stop = match.end("items") + 1
    span = script.span(start, stop)
    if not items:
        return Malformed(span, "Suppression lists no rule; name the codes it silences, as in `ignore[SB201]`")
    return Suppression(kind, span, items, reason=match.group("reason").strip())


def _rstrip(source: str, start: int, end: int) -> int:
    while end > start and source[end - 1] in " \t":
        end -= 1
    return end


def _malformed_message(source: str, after: int, end: int) -> str:
    rest = source[after:end].strip()
    word = _KIND_WORD.match(source, after, end)
    expected = "write `# slurmspec: ignore[CODE,...] reason` or `# slurmspec: file-ignore[CODE,...]`"
    if not rest:
        return f"Suppression comment says nothing after `slurmspec:`; {expected}"
    if word is None:
        return f"Suppression comment is not understood; {expected}"
    name = word.group("word").lower()
    if name in ("ignore", "file-ignore"):
        after_word = source[word.end():end].lstrip(" \t")
        if not after_word.startswith("["):
            return f"`{word.group('word')}` needs its codes in brackets, as in `{name}[SB201]`; nothing is suppressed"
        return f"Unclosed `[` in the suppression; close the list, as in `{name}[SB201]`; nothing is suppressed"
    from slurmspec.hints import did_you_mean

    hint = did_you_mean(name, ("ignore", "file-ignore"))
    return f"Unknown suppression `{word.group('word')}`{hint} {expected}"


# --- applying suppressions -------------------------------------------------

def meta_codes() -> tuple[str, str, str]:
    """The codes of the rules about suppressions: (unused, unknown code, malformed)."""
    from slurmspec.kinds import Role
    from slurmspec.lint.engine import code_of

    return (code_of(Role.UNUSED_SUPPRESSION), code_of(Role.UNKNOWN_SUPPRESSION),
            code_of(Role.MALFORMED_SUPPRESSION))


def resolve(text: str, table: dict) -> str | None:
    """The rule code an item names (a code in any case, a ShellCheck code, or a rule name), or None."""
    upper = text.upper()
    if upper in table or _SHELLCHECK_CODE.fullmatch(upper):
        return upper
    lower = text.lower()
    for code, rule in table.items():
        if rule.name == lower:
            return code
    return None


def unknown_item_message(text: str, table: dict) -> str:
    if re.fullmatch(r"SB\d{0,2}", text, re.IGNORECASE):
        return (
            f"`{text}` is a code prefix; a suppression comment names whole codes or rule names "
            "(prefixes work in the configuration's `ignore`), so it suppresses nothing"
        )
    from slurmspec.lint.engine import suggest_rule

    close = suggest_rule(text)
    hint = f"; did you mean `{close}`?" if close else "; see `slurmspec rule --all`"
    return f"`{text}` is not a rule code or name, so it suppresses nothing{hint}"


def apply(script: Script, found: list, table: dict, enabled: frozenset[str], report) -> list:
    """Drop the diagnostics suppressions cover and add the meta findings about the suppressions.

    ``report(code, span, message)`` makes a diagnostic; meta codes outside
    ``enabled`` are never reported, and unused-suppression is only reported
    for codes that are enabled (an ignored rule cannot use its suppression).
    Line suppressions also silence meta findings about themselves
    (``ignore[SB201, unused-suppression]`` keeps a suppression needed only on
    another Slurm version quiet); malformed suppressions can be silenced by a
    suppression covering their line, ``file-ignore`` or the configuration.

    O(findings + items + covered lines): the items are indexed by (line, code) once,
    so a finding looks up the few that can silence it instead of every suppression.
    """
    result = find_suppressions(script)
    if not result.suppressions and not result.malformed:
        return found
    sups = result.suppressions
    resolved: dict[str, str | None] = {}
    codes = [[_resolved(item.text, table, resolved) for item in s.items] for s in sups]
    # The covered lines of a line suppression are one logical line: physical line -> its first line.
    first_of: dict[int, int] = {}
    seen: set[int] = set()
    for sup in sups:
        if sup.kind is SuppressionKind.LINE and sup.lines and id(sup.lines) not in seen:
            seen.add(id(sup.lines))
            first = min(sup.lines)
            first_of.update((number, first) for number in sup.lines)
    # Who can silence a finding: (FILE, code), (first line, code), and (si, code) for the
    # suppression a meta finding is about; each key -> the (suppression, item) pairs it names.
    index: dict[tuple, list[tuple[int, int]]] = {}
    for si, sup in enumerate(sups):
        if sup.kind is SuppressionKind.FILE:
            where: tuple = (SuppressionKind.FILE,)
        else:
            where = (first_of[next(iter(sup.lines))],) if sup.lines else ()
        for ii, code in enumerate(codes[si]):
            if code is None:
                continue
            for key in ((*where, code), (si, code)) if where else ((si, code),):
                index.setdefault(key, []).append((si, ii))
    used: set[tuple[int, int]] = set()
    marked: set[tuple] = set()  # keys whose items are all in ``used`` already

    def silenced(diagnostic, origin: int | None = None) -> bool:
        code = diagnostic.code
        keys = [(SuppressionKind.FILE, code)]
        first = first_of.get(diagnostic.span.line)
        if first is not None:
            keys.append((first, code))
        if origin is not None:
            keys.append((origin, code))
        hit = False
        for key in keys:
            items = index.get(key)
            if items:
                hit = True
                if key not in marked:
                    marked.add(key)
                    used.update(items)
        return hit

    kept = [d for d in found if not silenced(d)]
    unused, unknown, malformed = meta = meta_codes()

    def emit(code: str, span: Span, message: str, origin: int | None) -> None:
        if code not in enabled:
            return
        diagnostic = report(code, span, message)
        if not silenced(diagnostic, origin):
            kept.append(diagnostic)

    for bad in result.malformed:
        emit(malformed, bad.span, bad.message, None)
    hints: dict[str, str] = {}
    for si, sup in enumerate(sups):
        for ii, item in enumerate(sup.items):
            if codes[si][ii] is None:
                emit(unknown, item.span, _unknown_message(item.text, table, hints), si)
    # Unused items: first the ordinary rules, then meta codes that silenced nothing.
    bounds = _LineBounds()
    for meta_pass in (False, True):
        for si, sup in enumerate(sups):
            for ii, item in enumerate(sup.items):
                code = codes[si][ii]
                if code is None or (si, ii) in used or code not in enabled:
                    continue
                if (code in meta) != meta_pass or code == unused:
                    continue
                emit(unused, item.span, _unused_message(item.text, code, sup, bounds), si)
    return kept


def _resolved(text: str, table: dict, known: dict[str, str | None]) -> str | None:
    if text not in known:
        known[text] = resolve(text, table)
    return known[text]


# Mistyped items given a "did you mean" each (difflib against every rule, ~1 ms); past this
# many distinct ones in a script, the hint points at `slurmspec rule --all` instead.
MAX_HINTS = 64


def _unknown_message(text: str, table: dict, hints: dict[str, str]) -> str:
    if text not in hints:
        hints[text] = unknown_item_message(text, table) if len(hints) < MAX_HINTS else (
            f"`{text}` is not a rule code or name, so it suppresses nothing; see `slurmspec rule --all`")
    return hints[text]


class _LineBounds(dict):
    """(first, last) line of a suppression's covered lines, worked out once per set of lines."""

    def of(self, lines: frozenset[int]) -> tuple[int, int]:
        if id(lines) not in self:
            self[id(lines)] = (lines, min(lines), max(lines))  # keeps ``lines`` alive: its id stays its own
        return self[id(lines)][1:]


def _unused_message(text: str, code: str, sup: Suppression, bounds: _LineBounds) -> str:
    shown = f"`{text}`" if text.upper() == code else f"`{text}` ({code})"
    if sup.kind is SuppressionKind.FILE:
        return f"{shown} is suppressed for the whole file but nothing in it reports it; remove it from the suppression"
    if not sup.lines:
        return f"{shown} is suppressed but the comment covers no line (nothing follows it); remove the suppression"
    first, last = bounds.of(sup.lines)
    where = f"line {first}" if len(sup.lines) == 1 else f"lines {first}-{last}"
    return f"{shown} is suppressed on {where} but nothing there reports it; remove it from the suppression"
