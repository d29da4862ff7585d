"""Read sbatch's own arguments (the words after ``slurmspec lint SCRIPT --``) as sbatch reads them.

The getopt is the one the ``#SBATCH`` words go through (``slurmspec.parser.getopt``:
the same option table, abbreviations, bundled short options, ``-pgpu``,
``--opt value``, the same findings for options sbatch refuses). Only the end
differs, because on the command line sbatch's option string starts with ``+``
(``src/sbatch/opt.c:_set_options()``): options stop at the first word that is
not an option, and that word is the script, every word after it an argument
of the script, not an option. ``--`` ends the options too.

A standalone ``:`` separates hetjob components on the command line
(``sbatch -N1 : -N2 job.sh``): the options before the first ``:`` apply to
component 0, the next group to component 1, and the last group again to every
further component of the script (``src/sbatch/sbatch.c:main()`` hands each
``process_options_second_pass()`` the words from the last ``:`` it met; checked
against sbatch 22.05.8 with ``--test-only -v``). A group beyond the script's
last component makes a component of its own, as in sbatch.

A non-option word is accepted only when it names the script being linted (so
a whole ``sbatch`` command line can be pasted after ``--``); the words after it
are the script's arguments and change nothing in the request. Anything else is
an ``InvocationError``: sbatch would submit that word as the script, and
linting another file would answer the wrong question (unless an option before
it is one sbatch refuses: it stops there, and the findings say so). So is ``--wrap``,
``--help``, ``--usage`` or ``--version``, with which sbatch submits no script.
"""

from __future__ import annotations

import os
from typing import Callable

from slurmspec.frozen import frozen
from slurmspec.model.syntax.script import Directive, ParseIssue, Word
from slurmspec.parser.getopt import GetoptResult, _Getopt
from slurmspec.span import Span
from slurmspec.version import Version

# Early-pass options that make sbatch submit something other than the script (or nothing).
_NO_SCRIPT = {
    "wrap": "`--wrap` makes sbatch submit its own one-line script instead of this one",
    "help": "`--help` makes sbatch print its help and submit nothing",
    "usage": "`--usage` makes sbatch print its usage and submit nothing",
    "version": "`--version` makes sbatch print its version and submit nothing",
}


class InvocationError(ValueError):
    """The sbatch arguments cannot describe a submission of this script (a usage error, not a finding)."""


@frozen
class CommandLine:
    """The option groups of a command line: ``groups[k]`` applies to hetjob component ``k``."""

    groups: tuple[tuple[Directive, ...], ...]
    issues: tuple[ParseIssue, ...]


class _OptionsUntilNonOption(_Getopt):
    """sbatch's command-line getopt: stops at the first non-option word instead of reporting it."""

    stop = 0

    def run(self):
        i, words = 0, self.words
        while i < len(words):
            text = words[i].value
            if text == "--" or len(text) < 2 or not text.startswith("-"):
                break
            i = self.long_option(i) if text.startswith("--") else self.short_options(i)
        self.stop = i
        return GetoptResult(tuple(self.directives), tuple(self.issues))


def read_command_line(
    words: list[Word],
    version: Version,
    make_span: Callable[[int, int], Span],
    text: str,
    script_path: str | None,
) -> CommandLine:
    """Split ``words`` (local spans into ``text``) into per-component option groups; raise ``InvocationError``
    for a stray word or an option with which sbatch submits no script."""
    groups: list[tuple[Directive, ...]] = []
    issues: list[ParseIssue] = []
    start = 0
    while True:
        getopt = _OptionsUntilNonOption(words[start:], version, len(groups), False, make_span, text)
        result = getopt.run()
        groups.append(result.directives)
        issues.extend(result.issues)
        stop = start + getopt.stop
        if stop < len(words) and words[stop].value == ":":
            start = stop + 1
            continue
        rest = words[stop + 1:] if stop < len(words) and words[stop].value == "--" else words[stop:]
        break
    for directive in (d for group in groups for d in group):
        why = _NO_SCRIPT.get(directive.option.long)
        if why is not None:
            raise InvocationError(f"{why}: there is no script for slurmspec to lint with these options; remove it")
    # After an option sbatch refuses it stops there (getopt's '?' exits), never reaching the word.
    if rest and not issues and not names_script(rest[0].value, script_path):
        shown = f" `{script_path}`" if script_path else ""
        raise InvocationError(
            f"`{rest[0].value}` is not an sbatch option: sbatch stops reading options at the first word that"
            f" is not one and would submit `{rest[0].value}` as the script (the words after it as its"
            f" arguments). Give only sbatch's options (after `--`), or end them with the script{shown} itself"
        )
    return CommandLine(tuple(groups), tuple(issues))


def names_script(word: str, script_path: str | None) -> bool:
    """True when ``word`` names the file being linted (the same path, or the same file)."""
    if script_path is None:
        return False
    if os.path.normpath(word) == os.path.normpath(script_path):
        return True
    try:
        return os.path.samefile(word, script_path)
    except (OSError, ValueError):
        return False
