"""What the batch shell itself does about signals and its children: `trap`, `wait`, `exec`, `source`.

Read from the body's simple commands (the heads the launch analysis already
split, ``BodyInfo.heads``): only the few ``trap`` commands are split into words
again. Facts that cannot be known from literal words are recorded as unknown,
so rules stay silent on them:

- ``trapped``: the signals some `trap` sets an action for (a handler, `''` to
  ignore, `-` to reset), as written without `SIG` in upper case, or as numbers
  (`USR1`, `10`); ``trap_unknown`` when a trap names its signals through a
  variable.
- ``waits``: where `wait` runs (bash runs a trap only between commands, so a
  trap fires during a foreground step only once the step ends; `wait` returns
  at once on a trapped signal: bash(1), SIGNALS).
- ``holds``: where `sleep`, `tail`... run (a script may hold on by them on purpose).
- ``functions``: the script defines a shell function.
- ``replaced``: `exec PROGRAM` replaces the batch shell, whose signals then go
  to the program.
- ``sources_unknown``: a file is sourced that is not an environment set-up
  (conda, a venv's `activate`, modules, profiles): it may set a trap itself.

O(commands) plus the words of the `trap` commands.
"""

from __future__ import annotations

import os
import re

from slurmspec.body.commands import split_commands
from slurmspec.frozen import frozen
from slurmspec.lazy_regex import lazy_compile

# Sourced files that set up an environment and are not where a job sets its traps.
_ENVIRONMENT_SETUP = lazy_compile(r"activate|conda|mamba|bashrc|profile|modules?\b|lmod|spack|env\b|\.env$", re.I)


# Commands that keep the batch script alive for a while by themselves: a script that ends with one
# after starting something with `&` may mean to give it that long.
_HOLDS = frozenset({"sleep", "tail", "timeout", "inotifywait"})


_FUNCTION = lazy_compile(r"^[ \t]*(?:function[ \t]+[\w.:-]+|[\w.:-]+[ \t]*\([ \t]*\))", re.M)


@frozen
class ShellFacts:
    trapped: frozenset[str] = frozenset()
    trap_unknown: bool = False
    waits: tuple[int, ...] = ()
    holds: tuple[int, ...] = ()  # `sleep`, `tail -f`...: the script stays for a while on purpose
    replaced: bool = False
    sources_unknown: bool = False
    functions: bool = False  # the script defines a function (a `wait` in it may run after any line)

    def traps(self, name: str | None, number: int) -> bool | None:
        """Does a `trap` handle this signal? None when a trap's signals are not literal."""
        if (name is not None and name.upper() in self.trapped) or str(number) in self.trapped:
            return True
        return None if self.trap_unknown else False


def shell_facts(source: str, heads) -> ShellFacts:
    """The facts of the body whose simple commands are ``heads`` (``CommandHeads``) in ``source``."""
    if heads is None:
        return ShellFacts()
    trapped: set[str] = set()
    unknown = replaced = sources_unknown = False
    waits: list[int] = []
    holds: list[int] = []
    for start, end, name in zip(heads.starts, heads.ends, heads.names):
        word = os.path.basename(name)
        if word == "wait":
            waits.append(start)
        elif word in _HOLDS:
            holds.append(start)
        elif word == "trap":
            for command in split_commands(source[start:end], start):
                if command.words and command.words[0].value == "trap":
                    unknown |= _read_trap([w.value for w in command.words[1:]], trapped)
        elif word == "exec" and _exec_runs_a_program(source[start:end], start):
            replaced = True
        elif word in ("source", "."):
            sourced = source[start:end].split()[1:2]
            if not sourced or not _ENVIRONMENT_SETUP.search(sourced[0]):
                sources_unknown = True
    functions = _FUNCTION.search(source) is not None
    return ShellFacts(frozenset(trapped), unknown, tuple(waits), tuple(holds), replaced, sources_unknown, functions)


def _read_trap(args: list[str], trapped: set[str]) -> bool:
    """Add the signals of `trap ARGS` to ``trapped``; True when they cannot be known."""
    while args and args[0] in ("--", "-p", "-l", "-P"):
        if args[0] != "--":
            return False  # `trap -p` / `trap -l` list, they set nothing
        args = args[1:]
    if len(args) < 2:
        return False  # `trap` alone lists, `trap USR1` resets (nothing trapped)
    for signal in args[1:]:
        if "$" in signal or "`" in signal:
            return True
        name = signal.upper()
        trapped.add(name[3:] if name.startswith("SIG") else name)
    return False


def _exec_runs_a_program(text: str, start: int) -> bool:
    """`exec python run.py` replaces the shell; `exec > log 2>&1` only redirects (no word after `exec`)."""
    return any(command.words and command.words[0].value == "exec" and len(command.words) > 1
               for command in split_commands(text, start))
