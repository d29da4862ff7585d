"""Small constructors rules use to make edits against a parsed ``Script``."""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter

from slurmspec.fix.edit import Edit, Fix
from slurmspec.kinds import Applicability
from slurmspec.model.syntax.memo import per_script
from slurmspec.model.syntax.script import Directive, DirectiveLine, Line, Script


def replace(script: Script, start: int, end: int, text: str) -> Edit:
    return Edit(script.span(start, end), text)


def insert(script: Script, offset: int, text: str) -> Edit:
    return Edit(script.span(offset, offset), text)


def delete_line(script: Script, line: Line) -> Edit:
    """Remove a whole physical line with its line break.

    The last line of a file without a final newline takes the previous line's
    break instead, so no blank line is left behind.
    """
    start, end = line.span.start, line.span.end + len(line.newline)
    if not line.newline and start > 0:
        start -= 1
    return Edit(script.span(start, end), "")


def line_text_with_newline(line: Line) -> str:
    return line.text + (line.newline or "\n")


def directive_line_of(script: Script, directive: Directive) -> DirectiveLine | None:
    return script.directive_line_at(directive.span.start)


def delete_directive(script: Script, directive: Directive) -> Edit | None:
    """Remove one option (with its value); see ``delete_directives``."""
    edits = delete_directives(script, [directive])
    return None if edits is None else edits[0]


# A line of at most this many words is rewritten whole, so the edit shows it as it will read.
# Past it, each removal is its own small edit: a fix per repeated option on one line of n
# options would otherwise carry the line n times, O(n²) in time and in the report.
_REWRITE_WORDS = 64


def delete_directives(script: Script, directives) -> list[Edit] | None:
    """Remove options (with their values) from their ``#SBATCH`` lines: one edit per line (per
    run of removed words on a line of over ``_REWRITE_WORDS`` words), the whole line when
    nothing else is left on it. None when one of them cannot be cut out cleanly (part of a
    bundle like ``-vN2``, or the line also starts a hetjob component).

    O(options log n) plus the words of the lines rewritten whole (at most ``_REWRITE_WORDS`` each).
    """
    by_line: dict[int, tuple[DirectiveLine, set[int]]] = {}  # line -> (its line, indexes of removed words)
    for directive in directives:
        dline = directive_line_of(script, directive)
        if dline is None:
            return None
        starts = dline.word_starts
        low, high = bisect_left(starts, directive.span.start), bisect_left(starts, directive.span.end)
        own = dline.words[low:high]
        if not own or own[0].span.start != directive.span.start or own[-1].span.end != directive.span.end:
            return None
        by_line.setdefault(dline.line.number, (dline, set()))[1].update(range(low, high))
    edits = []
    for dline, removed in by_line.values():
        words = dline.words
        if len(removed) == len(words):
            if dline.separator:
                return None
            edits.append(delete_line(script, dline.line))
        elif len(words) > _REWRITE_WORDS:
            edits.extend(_cut_runs(script, words, sorted(removed)))
        else:
            # Rewrite the stretch of words, keeping the blank that preceded each kept word.
            pieces = []
            for index, word in enumerate(words):
                if index in removed:
                    continue
                blank = script.source[words[index - 1].span.end:word.span.start] if index else ""
                pieces.append((blank if pieces else "") + script.source[word.span.start:word.span.end])
            edits.append(Edit(script.span(words[0].span.start, words[-1].span.end), "".join(pieces)))
    return edits


def _cut_runs(script: Script, words, removed: list[int]) -> list[Edit]:
    """One deletion per run of removed words, with the blank before it (after it, for a run that
    starts the line): the text the whole-line rewrite gives."""
    edits, first = [], 0
    for k in range(1, len(removed) + 1):
        if k < len(removed) and removed[k] == removed[k - 1] + 1:
            continue
        low, high = removed[first], removed[k - 1]
        start = words[low - 1].span.end if low else words[low].span.start
        end = words[high].span.end if low else words[high + 1].span.start
        edits.append(Edit(script.span(start, end), ""))
        first = k
    return edits


def drop_directive(script: Script, directive, title: str, applicability: Applicability = Applicability.SAFE) -> Fix | None:
    edit = delete_directive(script, directive)
    return None if edit is None else make_fix(title, [edit], applicability)


def make_fix(title: str, edits, applicability: Applicability = Applicability.SAFE, *, reveals: bool = False) -> Fix | None:
    """A Fix, or None when the edits collide (two options on one line being rewritten twice)."""
    try:
        return Fix(title=title, edits=edits, applicability=applicability, reveals=reveals)
    except ValueError:
        return None


def drop_settings(script: Script, settings, title: str, applicability: Applicability = Applicability.SAFE) -> Fix | None:
    """Remove every occurrence of the given request settings (own occurrences only)."""
    directives = [d for setting in settings if not setting.inherited
                  for d in (*setting.overridden, setting.directive)]
    if not directives:
        return None
    edits = delete_directives(script, directives)
    return None if edits is None else make_fix(title, edits, applicability)


def _gpus(value) -> tuple[list, bool]:
    """(GPU items, whether they are all the items) of a typed --gres/--gpus-per-node value."""
    items = list(getattr(value, "items", None) or ())
    gpus = [item for item in items if getattr(item, "name", None) == "gpu"]
    return gpus, len(gpus) == len(items)


def drop_gres_same_as_gpus_per_node(script: Script, gres, per_node) -> Fix | None:
    """SB214/SB150: `--gres=gpu:N` beside `--gpus-per-node=N` asking for the same GPUs.

    Safe only when they are equal (same count, same types) and the `--gres`
    asks for nothing but GPUs: then dropping it changes no allocation, and
    Slurm 26.05 refuses the pair.
    """
    if gres is None or per_node is None or gres.inherited or per_node.inherited:
        return None
    gres_items, only_gpus = _gpus(gres.value)
    gpn_items, _ = _gpus(per_node.value)
    if not (gres_items and gpn_items and only_gpus):
        return None
    def shape(items):
        return sorted((getattr(i, "type", None) or "", getattr(i, "count", None)) for i in items)
    if shape(gres_items) != shape(gpn_items):
        return None
    return drop_settings(script, [gres], "Remove `--gres=gpu...`, which repeats `--gpus-per-node`")


def reads_cleanly(words: str, version, script: Script | None = None, keep: tuple[int, int] = (0, 0)) -> bool:
    """Would ``#SBATCH <words>`` be read without a parse problem or a refused value, and
    (given ``script``) without setting an option that another directive of it sets
    (outside the ``keep`` range, the text being rewritten)? Making such words count
    would silently replace one of the two values, so which one was meant is the user's call.
    O(log n) per question once the script's options are indexed (``_Options``, O(n) once).
    """
    from slurmspec.parser.script import parse_script

    probe = parse_script("#!/bin/bash\n#SBATCH " + words + "\n", None, version)
    if probe.issues or not all(d.typed is None or d.typed.ok for d in probe.directives):
        return False
    if script is None:
        return True
    options = _options_of(script)
    low, high = bisect_left(options.starts, keep[0]), bisect_left(options.starts, keep[1])
    kept = Counter(options.names[low:high])  # what the rewritten text itself sets now
    return not any(options.count[d.option.long] > kept[d.option.long] for d in probe.directives)


class _Options:
    """Every option occurrence of a script by offset, and how often each option is set: asked once per
    line a fix rewrites, so a scan of every directive per question would make those fixes O(n²)."""

    def __init__(self, script: Script) -> None:
        ordered = sorted((d.span.start, d.option.long) for d in script.directives)
        self.starts = [start for start, _ in ordered]
        self.names = [name for _, name in ordered]
        self.count = Counter(self.names)


_options_of = per_script(_Options)
