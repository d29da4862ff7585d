"""The edits behind "ignore this rule on this line" and "ignore it in this file": suppression comments.

The comments are the engine's (``slurmspec.lint.suppress``):
``# slurmspec: ignore[CODE]`` on its own line covers the next line, and
``# slurmspec: file-ignore[CODE]`` anywhere covers the file. An existing
suppression that already covers the place gains the code instead of a second
comment being stacked. A new line comment goes directly above the finding's
logical line (above the first physical line of a backslash-continued
command), indented like it.

No action is offered where a new line would change the script: above a
shebang (it must stay the first line) or the first line, inside a
here-document (its body is data), or inside a quoted string that spans lines.
The file comment goes right under the shebang (sbatch reads the ``#SBATCH``
header past comment lines, ``src/sbatch/opt.c:_opt_batch_script()``).
"""

from __future__ import annotations

from bisect import bisect_right

from slurmspec.fix.edit import Edit
from slurmspec.diagnostic import Diagnostic
from slurmspec.kinds import SuppressionKind
from slurmspec.lint.suppress import Suppression, find_suppressions, resolve
from slurmspec.model.syntax.script import Line, LineKind, Script

BOM = "\ufeff"


def _extend(script: Script, suppression: Suppression, code: str) -> Edit | None:
    """Add ``code`` to an existing suppression's list (None: it is already there)."""
    from slurmspec.lint.engine import registry

    table = registry()
    if any(resolve(item.text, table) == code for item in suppression.items):
        return None
    closing = suppression.span.end - 1  # the span ends just past "]"
    return Edit(script.span(closing, closing), f", {code}")


def _logical_line(script: Script, number: int) -> Line | None:
    lines = script.lines
    firsts = [line.span.line for line in lines]
    at = bisect_right(firsts, number) - 1
    if at < 0:
        return None
    line = lines[at]
    return line if line.span.line <= number <= max(line.span.end_line, line.span.line) else None


def _inside_data(script: Script, offset: int) -> bool:
    """True when a new line at ``offset`` would land in a here-document or a multi-line string."""
    if offset < script.header_end or offset == 0:
        return False
    from slurmspec.body.index import BodyIndex

    body = BodyIndex.build(script.source, script.header_end)
    if any(doc.start <= offset <= doc.end for doc in body.heredocs):
        return True
    return body.quote_at(offset - 1) is not None


def line_ignore(script: Script, diagnostic: Diagnostic) -> Edit | None:
    """The edit that suppresses ``diagnostic`` on its line, or None where no comment can go."""
    number = diagnostic.span.line
    for suppression in find_suppressions(script).suppressions:
        if suppression.kind is SuppressionKind.LINE and number in suppression.lines:
            return _extend(script, suppression, diagnostic.code)
    line = _logical_line(script, number)
    if line is None or line.span.line == 1 or line.kind == LineKind.SHEBANG:
        return None
    start = line.span.start
    if _inside_data(script, start):
        return None
    indent = line.text[: len(line.text) - len(line.text.lstrip(" \t"))] if line.kind == LineKind.COMMAND else ""
    return Edit(script.span(start, start), f"{indent}# slurmspec: ignore[{diagnostic.code}]\n")


def file_ignore(script: Script, code: str) -> Edit | None:
    """The edit that suppresses ``code`` in the whole file, or None when it already is."""
    for suppression in find_suppressions(script).suppressions:
        if suppression.kind is SuppressionKind.FILE:
            return _extend(script, suppression, code)
    comment = f"# slurmspec: file-ignore[{code}]"
    shebang = script.shebang
    if shebang is not None:
        if not shebang.newline:  # the file is only a shebang
            return Edit(script.span(shebang.span.end, shebang.span.end), f"\n{comment}")
        after = shebang.span.end + len(shebang.newline)
        return Edit(script.span(after, after), f"{comment}\n")
    start = 1 if script.source.startswith(BOM) else 0
    return Edit(script.span(start, start), f"{comment}\n")
