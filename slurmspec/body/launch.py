"""Recognise launch commands (srun, mpirun, torchrun, ...) and variable assignments in a script body.

Entry points: :func:`analyse_body`, :func:`find_launches`, :func:`find_env_assignments`.
All take the body text, the absolute offset where it starts in the file, and the
file's :class:`~slurmspec.span.LineIndex`; every span they return lies inside the
body.  None of them raises on any input (prior-art.md §7.1: tolerate odd shell).
"""

from __future__ import annotations

import re

import attrs

from slurmspec.body.argspec import SPECS, RawOption, read_options
from slurmspec.body.commands import Assignment, Command, CommandHeads, declarations, iter_commands, split_commands
from slurmspec.body.lexicon import Lexicon
from slurmspec.body.model import BodyInfo, EnvAssignment, Launch, LaunchOption
from slurmspec.body.tokens import Word
from slurmspec.body.typed import typed_fields
from slurmspec.body.wrappers import basename, quoted_content, unwrap
from slurmspec.frozen import frozen
from slurmspec.kinds import LaunchKind
from slurmspec.limits import MAX_LAUNCHES
from slurmspec.span import LineIndex, Span

__all__ = ["analyse_body", "find_launches", "find_env_assignments", "Launch", "LaunchOption", "BodyInfo", "EnvAssignment"]

_LAUNCHERS = {
    "srun": LaunchKind.SRUN, "torchrun": LaunchKind.TORCHRUN, "horovodrun": LaunchKind.HOROVODRUN,
    "deepspeed": LaunchKind.DEEPSPEED,
    # Open MPI (mpirun/mpiexec/orterun, prterun from 5.x), MPICH/Intel (mpiexec.hydra).
    "mpirun": LaunchKind.MPIRUN, "mpiexec": LaunchKind.MPIRUN, "orterun": LaunchKind.MPIRUN, "prterun": LaunchKind.MPIRUN,
    "mpiexec.hydra": LaunchKind.MPIRUN, "mpirun.openmpi": LaunchKind.MPIRUN, "mpirun.mpich": LaunchKind.MPIRUN,
    "mpiexec.openmpi": LaunchKind.MPIRUN, "mpiexec.mpich": LaunchKind.MPIRUN,
}
# python -m <module> forms of the launchers.
_MODULES = {
    "torch.distributed.run": LaunchKind.TORCHRUN, "torch.distributed.launch": LaunchKind.TORCHRUN,
    "accelerate.commands.launch": LaunchKind.ACCELERATE, "deepspeed.launcher.runner": LaunchKind.DEEPSPEED,
}
_PYTHON = re.compile(r"python[0-9.]*")
_SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh"})
# Launchers whose argument is itself a command that may be another launch.
_RUNS_COMMANDS = frozenset({LaunchKind.SRUN, LaunchKind.MPIRUN, LaunchKind.HOROVODRUN})
_MAX_DEPTH = 6


@frozen
class _Where:
    """Facts about the enclosing statement shared by every launch found in it."""

    index: LineIndex
    lo: int  # the body's bounds: every span is clamped into them
    hi: int
    statement: tuple[int, int]
    env: tuple[EnvAssignment, ...] = ()
    backgrounded: bool = False
    piped: bool = False
    context: tuple[str, ...] = ()

    def span(self, start: int, end: int) -> Span:
        start = min(max(start, self.lo), self.hi)
        return self.index.span(start, min(max(end, start), self.hi))


def _recognise(words: tuple[Word, ...], i: int, where: _Where, outer: tuple[str, ...], depth: int) -> Launch | None:
    """The launch that ``words[i:]`` runs, looking through wrappers; None if it is not one."""
    if depth > _MAX_DEPTH:
        return None
    u = unwrap(words, i)
    n = len(words)
    if u.index >= n:
        return None
    head = words[u.index]
    name = basename(head.value)
    kind, entry, start = _LAUNCHERS.get(name), None, u.index + 1
    options: list[RawOption] = []
    if kind is None and name == "accelerate" and start < n and words[start].value == "launch":
        kind, start = LaunchKind.ACCELERATE, start + 1
    elif kind is None and _PYTHON.fullmatch(name):
        options, start = read_options(words, start, SPECS["python"], frozenset({"module", "command"}))
        module = next((o.value for o in options if o.name == "module"), None)
        kind = _MODULES.get(module or "", LaunchKind.PYTHON)
        if kind is not LaunchKind.PYTHON:
            entry, options = module, []
    elif kind is None and (name in _SHELLS or name == "eval"):
        return _shell_string(words, u.index, where, outer, depth, u.wrappers)
    if kind is None:
        return None
    if kind is not LaunchKind.PYTHON:
        options, start = read_options(words, start, SPECS[kind])
    inner = None
    program = program_span = None
    at = -1  # index of the program word
    if kind in _RUNS_COMMANDS and start < n:
        inner = _recognise(words, start, where, outer + (kind,), depth + 1)
        at = unwrap(words, start).index
    elif kind is LaunchKind.PYTHON:
        module = next((o for o in options if o.name == "module"), None)
        if module is not None and module.value is not None:  # python -m pkg.mod: the module is the program
            program, program_span = module.value, where.span(module.value_start, module.value_end)
            at = start - 1
        elif not any(o.name == "command" for o in options):
            at = start
    else:
        at = start
    if 0 <= at < n and program is None:
        program, program_span = words[at].value, where.span(words[at].start, words[at].end)
    args = tuple(w.value for w in words[at + 1 :]) if 0 <= at < n else ()
    opts = tuple(_option(o, where) for o in options)
    env = where.env + tuple(_env(a, where, ()) for a in u.env)
    return Launch(
        kind, head.text, where.span(head.start, words[-1].end), where.span(head.start, head.end),
        where.span(*where.statement), opts, program, program_span, args, inner, entry, u.wrappers,
        u.image.value if u.image is not None else None, env, where.backgrounded, where.piped,
        where.context, outer, **typed_fields(kind, opts),
    )


def _shell_string(words: tuple[Word, ...], i: int, where: _Where, outer: tuple[str, ...], depth: int,
                  wrappers: tuple[str, ...]) -> Launch | None:
    """``bash -c 'cmd ...'`` or ``eval 'cmd ...'``: the first launch inside a literal command string."""
    j, has_c, n = i + 1, False, len(words)
    name = basename(words[i].value)
    if name == "eval":
        has_c = j == n - 1  # only a single string argument is read
    while j < n and words[j].value[:1] in "-+" and len(words[j].value) > 1 and name != "eval":
        has_c = has_c or "c" in words[j].value[1:] and not words[j].value.startswith("--")
        j += 2 if words[j].value in ("-o", "+o", "-O", "+O") else 1
    if not has_c or j >= n:
        return None
    word = words[j]
    content = quoted_content(word)
    if content is None:
        if not word.plain:
            return None  # "$CMD" or a mix of quoting: opaque
        content = (word.value, list(range(word.start, word.end)))
    text, offsets = content
    for cmd in split_commands(text, word.start, offsets):
        found = _recognise(cmd.words, 0, where, outer, depth + 1) if cmd.words else None
        if found is not None:
            label = name if name == "eval" else f"{name} -c"
            return attrs.evolve(found, wrappers=wrappers + (label,) + found.wrappers)
    return None


def _option(o: RawOption, where: _Where) -> LaunchOption:
    vspan = where.span(o.value_start, o.value_end) if o.value_start >= 0 else None
    return LaunchOption(o.name, o.raw, o.value, where.span(o.start, o.end), vspan)


def _env(a: Assignment, where: _Where, context: tuple[str, ...]) -> EnvAssignment:
    vspan = where.span(a.value_start, a.end) if a.value is not None else None
    return EnvAssignment(a.name, a.value, a.raw, where.span(a.start, a.end), vspan, a.kind, context, a.append)


def _where(cmd: Command, index: LineIndex, lo: int, hi: int) -> _Where:
    statement = (cmd.start, cmd.end)
    env: tuple[EnvAssignment, ...] = ()
    if cmd.assignments:  # they need only the bounds: a plain second construction beats attrs.evolve
        base = _Where(index, lo, hi, statement)
        env = tuple(_env(a, base, cmd.context) for a in cmd.assignments)
    return _Where(index, lo, hi, statement, env, cmd.background, cmd.piped, cmd.context)


def analyse_body(body: str, offset: int, index: LineIndex, *, strict: bool = False) -> BodyInfo:
    """Launches and variable assignments of ``body``, which starts at ``offset`` in the file.

    O(len(body)): the commands stream past one at a time (``iter_commands``) and only the
    launches, the assignments and each command's span and name (``CommandHeads``) are kept; of
    the launches, the first ``MAX_LAUNCHES`` (memory stays bounded: ``slurmspec/limits.py``).

    Internal errors are swallowed (the statement is skipped) so the header is
    always checked; ``strict=True`` re-raises them, for tests.
    """
    lo, hi = offset, offset + len(body)
    launches: list[Launch] = []
    exports: list[EnvAssignment] = []
    heads = CommandHeads()
    lexicon = Lexicon()  # the references, quotes and here-documents, read in the same pass
    unmodelled = None
    commands = iter_commands(body, offset, None, lexicon)  # one at a time: only launches and assignments are kept
    while True:
        try:
            cmd = next(commands, None)
        except Exception:  # pragma: no cover - a last line of defence: the header must still be checked
            if strict:
                raise
            return BodyInfo()
        if cmd is None:
            break
        heads.add(cmd)
        try:
            where = _where(cmd, index, lo, hi)
            exports.extend(where.env)
            exports.extend(_env(a, where, cmd.context) for a in declarations(cmd))
            if cmd.words:
                exports.extend(_env(a, where, cmd.context) for a in unwrap(cmd.words).env)
                found = None if unmodelled is not None else _recognise(cmd.words, 0, where, (), 0)
                if found is not None and len(launches) < MAX_LAUNCHES:
                    launches.append(found)
                elif found is not None:
                    unmodelled = found.span  # the first past the limit: the rest are not even recognised
        except Exception:  # pragma: no cover - skip what we cannot read, keep the rest
            if strict:
                raise
            continue
    exports.sort(key=lambda a: a.span.start)
    return BodyInfo(tuple(launches), tuple(exports), heads, unmodelled, lexicon)


def find_launches(body: str, offset: int, index: LineIndex) -> tuple[Launch, ...]:
    """The outermost launches of ``body`` in file order (nested ones hang off ``inner``)."""
    return analyse_body(body, offset, index).launches


def find_env_assignments(body: str, offset: int, index: LineIndex) -> tuple[EnvAssignment, ...]:
    """Every ``export``/assignment/prefix assignment of ``body`` in file order."""
    return analyse_body(body, offset, index).exports
