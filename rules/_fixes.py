"""Fixes for the header traps (SB2xx) that need more than one edit.

Kept out of the rule modules so each check stays readable; every function
returns a ``Fix`` (or None when no safe text can be written) and never
raises on odd input.
"""

from __future__ import annotations

import re
from typing import Sequence

from slurmspec.fix.build import delete_directives, delete_line, insert, line_text_with_newline, make_fix, replace
from slurmspec.kinds import Applicability
from slurmspec.fix.edit import Fix
from slurmspec.model.script import DirectiveLine, LineKind, Script


def _attached_comments(script: Script, dline: DirectiveLine, taken: set[int]) -> list:
    """Comment lines right above a late directive (no blank line between): they describe it."""
    block = []
    index = next(i for i, line in enumerate(script.lines) if line is dline.line)
    for line in reversed(script.lines[:index]):
        if line.kind != LineKind.COMMENT or line.span.start < script.header_end or line.number in taken:
            break
        block.append(line)
    return list(reversed(block))


def move_into_header(script: Script, late: Sequence[DirectiveLine]) -> Fix:
    """SB201: move late directive lines (with the comment lines right above them) into the
    header, after its last directive, in their order. ``late`` holds only ``movable`` lines.
    """
    header_dlines = [d for d in script.directive_lines if d.in_header]
    if header_dlines:
        last = header_dlines[-1].line
        at = last.span.end + len(last.newline)
        lead = "" if last.newline else "\n"
    elif script.shebang is not None:  # right under the `#!` line, where directives belong
        at = script.shebang.span.end + len(script.shebang.newline)
        lead = "" if script.shebang.newline else "\n"
    else:
        at, lead = script.header_end, ""
    moved_lines, taken = [], set()
    for dline in late:
        for line in (*_attached_comments(script, dline, taken), dline.line):
            if line.number not in taken:
                taken.add(line.number)
                moved_lines.append(line)
    text = lead + "".join(line_text_with_newline(line) for line in moved_lines)
    edits = [insert(script, at, text), *(delete_line(script, line) for line in moved_lines)]
    # With hetjob components the lines land in the last one; which one was meant is unknowable.
    return Fix(title="Move the directives after the first command into the header", edits=edits,
               applicability="unsafe" if len(script.components) > 1 else "safe")


def _on(directive, dline: DirectiveLine) -> bool:
    return dline.line.span.start <= directive.span.start < dline.line.span.end


def multiline_words(script: Script) -> list[tuple[int, int]]:
    """(start, end) of shell words in the body that span lines: quoted strings such as
    `echo "...\n#SBATCH ...\n"` or `python -c '...'`, whose `#SBATCH` lines are data."""
    from slurmspec.body.shell import Word, tokenize

    try:
        tokens = tokenize(script.source[script.header_end:], base=script.header_end)
    except Exception:  # the body scanner never should; then treat nothing as movable data
        return [(script.header_end, len(script.source))]
    return [(t.start, t.end) for t in tokens if isinstance(t, Word) and "\n" in t.text]


def movable(script: Script, dline: DirectiveLine, data: list[tuple[int, int]] = ()) -> bool:
    """A late line that can move into the header without a second thought: it reads cleanly
    (no parse problem, no refused value), sets only options the header does not set (else
    moving it would silently replace the header's value: which one was meant is the
    user's call; the same for two late lines setting one option), and does not start a hetjob component (that changes the job's shape)."""
    if dline.separator or any(_on_span(issue.span.start, dline) for issue in script.issues):
        return False
    if any(start < dline.line.span.start < end for start, end in data):
        return False  # inside a quoted string: data for another program, not a directive
    header = {d.option.long for d in script.directives if not d.ignored}
    elsewhere = {d.option.long for other in script.directive_lines if not other.in_header and other is not dline
                 for d in script.directives if _on(d, other)}
    if any(d.option.long in header or d.option.long in elsewhere for d in script.directives if _on(d, dline)):
        return False
    return all(d.typed is None or d.typed.ok for d in script.directives if _on(d, dline))


def _on_span(offset: int, dline: DirectiveLine) -> bool:
    return dline.line.span.start <= offset < dline.line.span.end




# Feature names (and counts) only: no `|`, `[...]`, `*N` or parentheses, whose
# precedence a plain `&` join could change (slurm-semantics.md, --constraint).
_PLAIN_AND = re.compile(r"[A-Za-z0-9_.:=-]+(?:&[A-Za-z0-9_.:=-]+)*")


def merge_constraints(script: Script, occurrences, final) -> Fix | None:
    """SB204 on ``--constraint``: one option requiring every feature, in place of the last one.

    Unsafe: the user may have meant the later line to replace the earlier one.
    """
    if final.option.long != "constraint" or final.value_span is None:
        return None
    values = [d.value for d in occurrences]
    if not all(v and _PLAIN_AND.fullmatch(v) for v in values):
        return None
    features: list[str] = []
    for value in values:
        features.extend(f for f in value.split("&") if f not in features)
    dropped = delete_directives(script, occurrences[:-1])
    if dropped is None:
        return None
    edits = [replace(script, final.value_span.start, final.value_span.end, "&".join(features)), *dropped]
    return make_fix(f"Require all the features in one `--constraint={'&'.join(features)}`", edits, Applicability.UNSAFE)










def reads_cleanly(words: str, version, script: Script | None = None, keep: tuple[int, int] = (0, 0)) -> bool:
    """Would ``#SBATCH <words>`` be read without a parse problem or a refused value, and
    (given ``script``) without setting an option that another directive of it sets
    (outside the ``keep`` range, the text being rewritten)? Making such words count
    would silently replace one of the two values, so which one was meant is the user's call.
    """
    from slurmspec.parser.script import parse_script

    probe = parse_script("#!/bin/bash\n#SBATCH " + words + "\n", None, version)
    if probe.issues or not all(d.typed is None or d.typed.ok for d in probe.directives):
        return False
    if script is None:
        return True
    others = {d.option.long for d in script.directives if not keep[0] <= d.span.start < keep[1]}
    return not any(d.option.long in others for d in probe.directives)


def near_miss_to_directive(script: Script, line, prefix_end: int, rest: str) -> Fix | None:
    """SB202: write `#SBATCH` at column 1 in place of `# SBATCH`, `#sbatch`, an indented one.

    Unsafe: the line may have been disabled on purpose (the rule already leaves
    `##SBATCH` alone), and it starts asking for what it says.
    """
    if not reads_cleanly(rest, script.version, script, (line.span.start, line.span.end)):
        return None
    return make_fix("Make it a directive: `#SBATCH` at the start of the line",
                [replace(script, line.span.start, prefix_end, "#SBATCH")], Applicability.UNSAFE)


def escape_hash(script: Script, at: int, line) -> Fix | None:
    """SB206: `\\#` keeps the `#` and what follows as part of the directive (sbatch's
    get_argument() takes a backslash-escaped character literally). Unsafe: the words
    after it start to count."""
    start = line.span.start + len("#SBATCH")
    escaped = script.source[start:at] + "\\" + script.source[at:line.span.end]
    if not reads_cleanly(escaped, script.version, script, (line.span.start, line.span.end)):
        return None
    return make_fix("Escape the `#` as `\\#` so the rest of the line is read", [insert(script, at, "\\")], Applicability.UNSAFE)


# Job variables in a file name and the `%` pattern sbatch expands to the same value
# (man sbatch, "filename pattern"); everything else has no pattern.
_PATTERNS = {
    "SLURM_JOB_ID": "%j", "SLURM_JOBID": "%j", "SLURM_ARRAY_JOB_ID": "%A", "SLURM_ARRAY_TASK_ID": "%a",
    "USER": "%u", "SLURM_JOB_USER": "%u", "SLURM_JOB_NAME": "%x",
}
_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


def expansion_to_pattern(script: Script, directive, path_option: bool) -> Fix:
    """SB207: in `--output`/`--error`/`--input`, job variables become `%` patterns (safe: the
    same file name sbatch would have got from a shell); anything else is display-only."""
    value, span = directive.value or "", directive.value_span
    raw = script.source[span.start:span.end] if span is not None else ""
    if path_option and span is not None and raw == value:
        matches = list(_VARIABLE.finditer(value))
        names = [m.group(1) or m.group(2) for m in matches]
        leftover = _VARIABLE.sub("", value)
        if matches and all(n in _PATTERNS for n in names) and "$" not in leftover and "`" not in leftover:
            edits = [replace(script, span.start + m.start(), span.start + m.end(), _PATTERNS[n])
                     for m, n in zip(matches, names)]
            return Fix(title="Use sbatch's own patterns (" + ", ".join(
                f"`{m.group()}` → `{_PATTERNS[n]}`" for m, n in zip(matches, names)) + ")", edits=edits)
    return Fix(title="Write the value out, or give the option on the sbatch command line where the shell"
                     " expands it: sbatch does not expand `#SBATCH` values", edits=(),
               applicability="display-only")


_TASKS_PER_NODE = ("ntasks-per-node", "tasks-per-node")


def set_tasks_per_node(script: Script, srun, count: int, why: str) -> Fix | None:
    """SB301/SB311: give the step ``count`` tasks per node (1 under torchrun and friends,
    one per GPU for DDP/Horovod/DeepSpeed/Lightning under srun).

    Edits where the count comes from: the `srun` line's own `--ntasks-per-node`, else the
    header's (a header `--ntasks` becomes `--ntasks-per-node`, since with a task count per
    node the total follows from the nodes). Unsafe: it changes the job's shape.
    """
    options = getattr(srun, "options", ()) if srun is not None else ()
    if any(o.name == "ntasks" for o in options):
        return None  # `srun -n N`: the step's own total; which count was meant is unclear
    title = f"Run {count} task{'s' if count != 1 else ''} per node ({why})"
    own = [o for o in options if o.name in _TASKS_PER_NODE]
    if own:
        span = own[-1].value_span
        return None if span is None else make_fix(title, [replace(script, span.start, span.end, str(count))], Applicability.UNSAFE)
    request = script.components[0].request if len(script.components) == 1 else None
    if request is None:
        return None
    per_node, tasks = request.get("ntasks-per-node"), request.get("ntasks")
    if per_node is not None and not per_node.inherited and per_node.directive.value_span is not None:
        span = per_node.directive.value_span
        edits = [replace(script, span.start, span.end, str(count))]
        if tasks is not None:
            dropped = delete_directives(script, [*tasks.overridden, tasks.directive])
            if dropped is None:
                return None
            edits.extend(dropped)
        return make_fix(title, edits, Applicability.UNSAFE)
    if tasks is not None and not tasks.overridden and tasks.directive.span is not None:
        span = tasks.directive.span
        if script.source[span.start:span.start + 1] != "-":
            return None
        return make_fix(title, [replace(script, span.start, span.end, f"--ntasks-per-node={count}")], Applicability.UNSAFE)
    return None
