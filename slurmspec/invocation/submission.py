"""``Invocation``: the sbatch arguments and environment a script is submitted with, and ``parse_invoked``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

import attrs

from slurmspec.frozen import frozen
from slurmspec.invocation.environment import sbatch_variables

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.model.syntax.script import Script
    from slurmspec.version import Version


@frozen
class Invocation:
    """How a script is submitted: sbatch's arguments before the script, and its environment.

    ``argv`` are the words sbatch gets before the script's name (options, and
    ``:`` between hetjob components); a trailing word naming the script itself,
    and the script's arguments after it, are allowed. ``environ`` is kept only
    for the variables sbatch reads as options (``SBATCH_*``, ``SLURM_HINT``,
    ``SLURM_CLUSTERS``); pass ``os.environ`` to lint as sbatch would run here.
    """

    argv: tuple[str, ...] = attrs.field(default=(), converter=lambda words: _words(words))
    environ: Mapping[str, str] = attrs.field(factory=dict, converter=sbatch_variables)

    def apply(self, script: "Script") -> "Script":
        """``script`` with this invocation merged in; raises ``InvocationError`` for a stray argument."""
        from slurmspec.invocation.merge import apply_invocation

        return apply_invocation(script, self.argv, self.environ)

    def check(self, version: "Version", script_path: str | None) -> None:
        """Raise ``InvocationError`` now if ``apply`` would for a script at ``script_path``."""
        from slurmspec.invocation.merge import check_arguments

        check_arguments(self.argv, version, script_path)


def _words(words) -> tuple[str, ...]:
    # A string is a sequence too: "-p gpu" would become six one-letter words.
    if isinstance(words, (str, bytes)) or not all(isinstance(word, str) for word in words):
        raise TypeError("argv is a list of words (str), as sbatch receives them: ['-p', 'gpu']")
    return tuple(words)


def parse_invoked(
    source: str | bytes, path: str | None, version: "Version", invocation: Invocation | None,
) -> "Script":
    """Parse a script and merge ``invocation`` into it (a plain parse when it is None)."""
    from slurmspec.parser.script import parse_script

    script = parse_script(source, path, version)
    return script if invocation is None else invocation.apply(script)


def split_submission(argv, version: "Version") -> tuple[tuple[str, ...], str | None, tuple[str, ...]]:
    """A whole ``sbatch`` command line (without ``sbatch``) as (options, script, script's arguments).

    sbatch's getopt stops at the first word that is not an option (a ``:`` between hetjob
    groups aside, ``--`` ends the options too): that word is the script, the rest its arguments.
    The option table decides which words are values (``-p gpu``), so ``slurmspec submit`` finds
    the same script sbatch will. No script (None): sbatch reads it from standard input.
    """
    from slurmspec.invocation.command_line import _OptionsUntilNonOption
    from slurmspec.invocation.sources import SyntheticSource, command_line_text, command_line_words
    from slurmspec.kinds import Origin

    argv = _words(argv)
    text, placed = command_line_text(argv, None)
    source = SyntheticSource.place(Origin.COMMAND_LINE, text, 0)
    words = command_line_words(source, argv, placed)
    start = 0
    while True:
        getopt = _OptionsUntilNonOption(words[start:], version, 0, False, source.local_span, text)
        getopt.run()
        stop = start + getopt.stop
        if stop < len(argv) and argv[stop] == ":":
            start = stop + 1
            continue
        break
    options = argv[:stop]
    if stop < len(argv) and argv[stop] == "--":
        stop += 1
    if stop >= len(argv):
        return options, None, ()
    return options, argv[stop], argv[stop + 1:]
