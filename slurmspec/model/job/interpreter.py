"""Which program runs the batch script: the `#!` line as the Linux kernel reads it.

slurmstepd runs the batch script with ``execve()`` (``src/slurmd/slurmstepd/task.c``,
``exec_task()``), so the kernel's rules for the `#!` line apply
(``fs/binfmt_script.c``, ``load_script()``; Linux ``execve(2)``: "#!interpreter
[optional-arg]"): after `#!`, blanks are skipped, the interpreter path runs to the
next space or tab, and everything after it, minus the blanks around it, is **one**
argument. ``#!/bin/bash -e -x`` gives bash the single word ``-e -x``; a trailing
``# comment`` is passed along too, since the `#!` line has no comments. Only
``env -S`` (GNU coreutils 8.30) splits its argument into words again, and it
drops a ``#`` word and what follows.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

import attrs

from slurmspec.frozen import as_tuple, frozen
from slurmspec.span import Span

if TYPE_CHECKING:  # pragma: no cover - typing only
    from slurmspec.model.syntax.script import Script

_BLANKS = " \t"
# env options that take a value in the next word (coreutils env: -u NAME, -C DIR, -P PATH, -S STRING).
_ENV_VALUED = frozenset("uCPS")


@frozen
class Interpreter:
    """The `#!` line of a script, split as the kernel splits it.

    ``path`` is the interpreter the kernel runs (``/bin/bash``, ``/usr/bin/env``);
    ``argument`` the one optional argument it gets (None without one), exactly as
    passed: ``"-e -x"``, ``"bash # Interpreter"``. ``program`` is the name of the
    program that finally reads the script (``bash`` for ``/bin/bash`` and for
    ``/usr/bin/env bash``; ``"bash -l"`` for ``/usr/bin/env bash -l``, which env
    looks up as one name), None when env names none. ``split`` is True for
    ``env -S``, whose argument env splits into ``words`` itself; ``words`` are then
    the words env passes on after the program (otherwise ``(argument,)`` for a
    direct interpreter, ``()`` for env).
    """

    path: str
    argument: str | None
    path_span: Span
    argument_span: Span | None
    program: str | None
    split: bool = False
    words: tuple[str, ...] = attrs.field(default=(), converter=as_tuple)
    comment: int | None = None  # offset in ``argument`` of a `#` word, which the kernel passes on

    @property
    def name(self) -> str:
        """The interpreter's file name: ``bash`` for ``/bin/bash``, ``env`` for ``/usr/bin/env``."""
        return posixpath.basename(self.path)

    @property
    def via_env(self) -> bool:
        return self.name == "env"


def interpreter(script: "Script") -> Interpreter | None:
    """The interpreter that runs ``script``, or None without a `#!` line (sbatch refuses it)."""
    line = script.shebang
    if line is None:
        return None
    text = line.text.removesuffix("\r")  # a DOS line break (SB105) is not part of the argument here
    start = line.span.start
    at = 2
    while at < len(text) and text[at] in _BLANKS:
        at += 1
    end = at
    while end < len(text) and text[end] not in _BLANKS:
        end += 1
    if end == at:
        return None
    path = text[at:end]
    rest = text[end:].strip(_BLANKS)
    if not rest:
        program = None if posixpath.basename(path) == "env" else posixpath.basename(path)
        return Interpreter(path, None, script.span(start + at, start + end), None, program)
    arg_at = text.index(rest, end)
    argument_span = script.span(start + arg_at, start + arg_at + len(rest))
    comment = _comment_in(rest)
    if posixpath.basename(path) != "env":
        return Interpreter(path, rest, script.span(start + at, start + end), argument_span,
                           posixpath.basename(path), words=(rest,), comment=comment)
    split = _env_split_string(rest)
    if split is None:
        return Interpreter(path, rest, script.span(start + at, start + end), argument_span,
                           rest, comment=comment)
    program, words = _env_program(split)
    return Interpreter(path, rest, script.span(start + at, start + end), argument_span,
                       program, split=True, words=words)


def _comment_in(argument: str) -> int | None:
    """Offset of the first `#` that starts a word of ``argument`` (what a reader takes for a comment)."""
    for index, char in enumerate(argument):
        if char == "#" and (index == 0 or argument[index - 1] in _BLANKS):
            return index
    return None


def _env_split_string(argument: str) -> str | None:
    """The string ``env -S`` splits, or None when env gets no ``-S``.

    env's getopt sees the whole argument as one word: ``-S bash -l`` is ``-S``
    with the value `` bash -l`` (the rest of the word), as are ``-vS bash -l`` and
    ``--split-string=bash -l``.
    """
    if argument.startswith("--split-string="):
        return argument.removeprefix("--split-string=")
    if not argument.startswith("-") or argument.startswith("--"):
        return None
    for index in range(1, len(argument)):
        char = argument[index]
        if char == "S":
            return argument[index + 1:]
        if char in _ENV_VALUED or char in _BLANKS:
            return None
    return None


def _env_words(text: str) -> list[str]:
    """``env -S`` word splitting, simplified: blanks separate, quotes group, a `#` word ends it."""
    words: list[str] = []
    current: list[str] = []
    quote = ""
    started = False
    for char in text:
        if quote:
            if char == quote:
                quote = ""
            else:
                current.append(char)
        elif char in _BLANKS:
            if started:
                words.append("".join(current))
                current, started = [], False
        elif char == "#" and not started:
            break
        elif char in "'\"":
            quote, started = char, True
        else:
            current.append(char)
            started = True
    if started:
        words.append("".join(current))
    return words


def _env_program(text: str) -> tuple[str | None, tuple[str, ...]]:
    """(program, its arguments) from the words ``env -S`` made: options and NAME=VALUE skipped."""
    words = _env_words(text)
    index = 0
    while index < len(words):
        word = words[index]
        if word == "--":
            index += 1
            break
        if word.startswith("-") and len(word) > 1:
            takes_value = not word.startswith("--") and word[-1] in _ENV_VALUED
            index += 2 if takes_value else 1
            continue
        if "=" in word:
            index += 1
            continue
        break
    if index >= len(words):
        return None, ()
    return words[index], tuple(words[index + 1:])


# Shells whose `trap`, `wait` and `&` the body analysis reads (bash(1), POSIX sh).
SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh"})


def runs_in_a_shell(script: "Script") -> bool:
    """Is the batch script read by a POSIX-like shell? Yes without a `#!` line (sbatch refuses one
    without it; the body is read as shell anyway), for `/bin/bash`, `/usr/bin/env bash`..."""
    found = interpreter(script)
    if found is None:
        return True
    program = (found.program or found.name).split()[0] if (found.program or found.name) else ""
    return posixpath.basename(program) in SHELLS
