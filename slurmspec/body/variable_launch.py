"""`srun` hidden in a variable: `RUN="srun --mpi=pmix"` then `$RUN ./app`.

The launch analysis reads launchers by their name, and a command whose first
word is `$RUN` has none. Where the variable's value is certain, the command is
an `srun` all the same: found here, and only then. Certain means: one
assignment of the variable in the whole script, outside any `if`/loop/function,
before the command, of a literal value (no `$`, no backquote) whose first word
is `srun`; and the command starts with the bare `$RUN`/`${RUN}` (quoted, bash
would look for a program named `srun --mpi=pmix`). Anything else: nothing found.

O(assignments + commands).
"""

from __future__ import annotations

import os

from slurmspec.body.model import BodyInfo, EnvAssignment
from slurmspec.frozen import frozen
from slurmspec.kinds import AssignmentKind
from slurmspec.lazy_regex import lazy_compile
from slurmspec.span import Span

_BARE_REF = lazy_compile(r"\$(?:\{(\w+)\}|(\w+))(?=[ \t]|$)")


@frozen
class VariableLaunch:
    """A command ``$NAME ...`` whose variable certainly holds ``srun [options]``."""

    assignment: EnvAssignment
    words: tuple[str, ...]  # the value's words: "srun", "--mpi=pmix"
    span: Span  # the `$NAME` word of the command
    rest: str  # the command's text after `$NAME`

    @property
    def name(self) -> str:
        return self.assignment.name


def variable_sruns(source: str, body: BodyInfo, span_of) -> tuple[VariableLaunch, ...]:
    """Every command of ``body`` that runs `srun` through a variable of certain value, in file order.

    ``span_of(start, end)`` makes a ``Span`` (``Script.span``).
    """
    heads = body.heads
    if heads is None:
        return ()
    counts: dict[str, int] = {}
    for assignment in body.exports:
        counts[assignment.name] = counts.get(assignment.name, 0) + 1
    known: dict[str, EnvAssignment] = {}
    for assignment in body.exports:
        value = assignment.value
        if (counts[assignment.name] == 1 and assignment.kind is not AssignmentKind.PREFIX and not assignment.context
                and not assignment.append and value.split() and "$" not in value and "`" not in value
                and os.path.basename(value.split()[0]) == "srun"):  # value.split(): `X=" "` has no word
            known[assignment.name] = assignment
    if not known:
        return ()
    found = []
    for start, end, name in zip(heads.starts, heads.ends, heads.names):
        if not name.startswith("$"):
            continue
        match = _BARE_REF.match(source, start, end)
        if match is None:
            continue
        assignment = known.get(match.group(1) or match.group(2))
        if assignment is None or assignment.span.end > start:
            continue
        found.append(VariableLaunch(assignment, tuple(assignment.value.split()),
                                    span_of(start, match.end()), source[match.end():end]))
    return tuple(found)
