"""SB201: `#SBATCH` lines after the first command, which sbatch never reads.

sbatch reads directives only up to the first line that is not a comment or
blank (`src/sbatch/opt.c:_opt_batch_script()`); every later `#SBATCH` line is
silently ignored. Lines that are data (a here-document, a multi-line quoted
string, a Python triple-quoted string: a script this one writes or submits)
are not reported. The fix moves the lines, with the comments right above
them, into the header.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import Sequence

from slurmspec.body.index import body_index
from slurmspec.fix.build import delete_line, insert, line_text_with_newline
from slurmspec.fix.edit import Fix
from slurmspec.kinds import Applicability, Fixability, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.syntax.script import DirectiveLine, LineKind, Script
from slurmspec.rules.traps._header import clip
from slurmspec.rules.traps._moved import refused_once_moved


@rule("SB201", "directive-after-command", Severity.WARNING, Outcome.WRONG, fix=Fixability.SOMETIMES)
def directive_after_command(ctx: Context) -> None:
    """
        ## What it does
        Finds `#SBATCH` (and `#SLURM`) lines that come after the first command of the script,
        and names the command that ended the header.

        ## Why is this bad?
        sbatch reads directives only up to the first line that is not a comment or blank; every
        `#SBATCH` line after it is silently ignored. A `module load` or `export` placed above the
        directives, or a directive appended at the end, quietly drops time limits, GPUs or
        partitions. Lines inside a here-document (a script the job writes or submits) are not
        reported, nor a commented-out shell line such as `#SLURM_NTASKS=4` (sbatch reads `#SLURM`
        as a prefix, so in the header that line is refused as "Invalid directive"). A late line
        that sbatch would refuse in the header (it does not read cleanly, or it conflicts with
        the header: `--mem` beside `--mem-per-cpu`) is reported without the advice to move it as
        written, and the fix leaves it.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --job-name=train
        module load cuda
        #SBATCH --gpus-per-node=4
        srun python train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --job-name=train
        #SBATCH --gpus-per-node=4
        module load cuda
        srun python train.py
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`: "sbatch will stop processing further #SBATCH directives once the first
          non-comment non-whitespace line has been reached"
        - `src/sbatch/opt.c:_opt_batch_script()`
    """
    script = ctx.script
    first_command = None
    heredoc: set[int] | None = None
    late: list[DirectiveLine] = []
    for dline in script.directive_lines:
        if dline.in_header:
            continue
        if not dline.words and not dline.separator:
            continue  # a bare "#SBATCH" below the header asks for nothing
        if dline.glued_to_name:
            continue  # `#SLURM_NTASKS=4`: a commented-out shell line; in the header sbatch would refuse it
        if script.shebang is None:
            continue  # sbatch refuses the whole script (SB103); nothing is read at all
        if heredoc is None:
            heredoc = _data_lines(ctx)
            first_command = _command_line(script)
        if dline.line.number in heredoc:
            continue  # part of a script this one writes or submits
        late.append(dline)
    if not late:
        return
    movable_lines = movable(script, late, multiline_words(script))
    refused = _refused_if_moved(script, late)
    # a line that reads cleanly may still conflict with the header once moved (`--mem` beside `--mem-per-cpu`)
    clean = [dline for dline in late if id(dline) not in refused]
    refused.update(refused_once_moved(ctx, clean, move_into_header))
    movable_lines = [dline for dline in movable_lines if id(dline) not in refused]
    fix = move_into_header(script, movable_lines) if movable_lines else None
    moved = {id(dline) for dline in movable_lines}
    for dline in late:
        _report_late(ctx, dline, first_command, fix if id(dline) in moved else None, refused.get(id(dline)))


def _refused_if_moved(script: Script, late: Sequence[DirectiveLine]) -> dict[int, str]:
    """id(late line) -> why sbatch would refuse the script if the line were in the header (the first
    problem found when the line is read alone), for the late lines that do not read cleanly."""
    lines = {id(dline) for dline in late}
    why: dict[int, str] = {}
    for issue in script.issues:
        if issue.ignored:
            dline = script.directive_line_at(issue.span.start)
            if dline is not None and id(dline) in lines:
                why.setdefault(id(dline), issue.message)
    return why


def _report_late(ctx: Context, dline: DirectiveLine, first_command, fix, refused: str | None) -> None:
    text = dline.line.text
    above = f"above line {first_command.number}" if first_command is not None else "above the first command"
    if first_command is not None:
        where = (f"the first command (line {first_command.number}:"
                 f" `{clip(first_command.text.strip(), 40)}`)")
    else:  # pragma: no cover - a late line implies a command before it
        where = "the first command"
    # Moving a line that does not read cleanly would turn an ignored line into a refused script.
    advice = (f", so move it {above}" if refused is None else
              f"; in the header as written sbatch would refuse it ({clip(refused, 100)}), so correct it"
              f" before moving it {above}, or delete it")
    ctx.report(
        "SB201", dline.line.span,
        f"`{clip(text, 50)}` comes after {where}; sbatch stops reading directives at the"
        f" first command and silently ignores this line{advice}",
        fix=fix,
    )


def _command_line(script: Script):
    """The line that ended the header (the first command), or None."""
    for line in script.lines:
        if line.span.start == script.header_end and line.kind == LineKind.COMMAND:
            return line
    return None


# --------------------------------------------------------------------------- data lines

_SHELLS = lazy_compile(r"\b(?:ba|z|k|c|tc|da|fi)?sh\b")


def _data_lines(ctx: Context) -> set[int]:
    """Body lines that are data, not code: here-documents of a shell script (from the body
    index), or the triple-quoted strings of a Python one. Their #SBATCH lines belong to a
    script this one writes or submits."""
    shebang = ctx.script.shebang
    if shebang is not None and not _SHELLS.search(shebang.text):
        return _string_lines(ctx.script)
    return {number for doc in ctx.shared(body_index).heredocs
            for number in range(doc.first_line, doc.last_line + 1)}


def _string_lines(script: Script) -> set[int]:
    inside: set[int] = set()
    quote = None
    for line in script.lines:
        if quote is not None:
            inside.add(line.number)
        for match in re.finditer(r"\'\'\'|\"\"\"", line.text):
            if quote is None:
                quote = match.group()
            elif match.group() == quote:
                quote = None
    return inside


def multiline_words(script: Script) -> list[tuple[int, int]]:
    """(start, end) of shell words in the body that span lines: quoted strings such as
    `echo "...\n#SBATCH ...\n"` or `python -c '...'`, whose `#SBATCH` lines are data."""
    from slurmspec.body.shell import iter_tokens
    from slurmspec.body.tokens import Word

    try:  # one token at a time: only the few words that span lines are kept
        tokens = iter_tokens(script.source[script.header_end:], base=script.header_end)
        return [(t.start, t.end) for t in tokens if isinstance(t, Word) and "\n" in t.text]
    except Exception:  # the body scanner never should; then treat nothing as movable data
        return [(script.header_end, len(script.source))]


# --------------------------------------------------------------------------- the fix


def movable(script: Script, late: Sequence[DirectiveLine], data: Sequence[tuple[int, int]] = ()) -> list[DirectiveLine]:
    """The late lines that can move into the header without a second thought: each reads cleanly
    (no parse problem, no refused value), sets only options the header does not set (else
    moving it would silently replace the header's value: which one was meant is the
    user's call; the same for two late lines setting one option), and does not start a
    hetjob component (that changes the job's shape).

    O((directives + issues + lines) log n): each directive, issue and line is placed once by
    bisection (asking every late line about every directive was O(n²) per line).
    """
    on_line: dict[int, list] = {}  # id(directive line) -> the directives written on it
    for directive in script.directives:
        dline = script.directive_line_at(directive.span.start)
        if dline is not None:
            on_line.setdefault(id(dline), []).append(directive)
    troubled = {id(script.directive_line_at(issue.span.start)) for issue in script.issues}
    header = {d.option.long for d in script.directives if not d.ignored}
    late_lines_with: dict[str, int] = {}  # option -> how many late lines set it
    for other in script.directive_lines:
        if not other.in_header:
            for name in {d.option.long for d in on_line.get(id(other), ())}:
                late_lines_with[name] = late_lines_with.get(name, 0) + 1
    data_starts = [start for start, _ in data]  # words in file order: they do not overlap
    found = []
    for dline in late:
        if dline.separator or id(dline) in troubled:
            continue
        at = dline.line.span.start
        i = bisect_left(data_starts, at) - 1
        if i >= 0 and at < data[i][1]:
            continue  # inside a quoted string: data for another program, not a directive
        own = on_line.get(id(dline), ())
        if any(d.option.long in header or late_lines_with[d.option.long] > 1 for d in own):
            continue
        if all(d.typed is None or d.typed.ok for d in own):
            found.append(dline)
    return found


def _attached_comments(script: Script, index: int, taken: set[int]) -> list:
    """Comment lines right above the late directive at ``script.lines[index]`` (no blank line
    between): they describe it."""
    block = []
    lines = script.lines
    for i in range(index - 1, -1, -1):
        line = lines[i]
        if line.kind != LineKind.COMMENT or line.span.start < script.header_end or line.number in taken:
            break
        block.append(line)
    return list(reversed(block))


def move_into_header(script: Script, late: Sequence[DirectiveLine]) -> Fix:
    """Move late directive lines (with the comment lines right above them) into the
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
    position = {id(line): i for i, line in enumerate(script.lines)}
    for dline in late:
        for line in (*_attached_comments(script, position[id(dline.line)], taken), dline.line):
            if line.number not in taken:
                taken.add(line.number)
                moved_lines.append(line)
    text = lead + "".join(line_text_with_newline(line) for line in moved_lines)
    edits = [insert(script, at, text), *(delete_line(script, line) for line in moved_lines)]
    # With hetjob components the lines land in the last one; which one was meant is unknowable.
    # The moved lines are the user's: a problem in them is revealed, not introduced (reveals=True).
    return Fix(title="Move the directives after the first command into the header", edits=edits,
               applicability=Applicability.UNSAFE if len(script.components) > 1 else Applicability.SAFE,
               reveals=True)
