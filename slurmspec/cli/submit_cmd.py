"""``slurmspec submit [sbatch options] job.sbatch [args]``: sbatch with a safety net.

The script is linted exactly as sbatch will see it -- its ``#SBATCH`` lines, then this
shell's ``SBATCH_*`` variables, then the command line, merged as ``lint --sbatch-env job -- ...``
merges them (``slurmspec/invocation``) -- with the settings ``lint`` would use for it (the
nearest configuration, its cluster profile and release). An error stops the submission
(exit 1, nothing queued); ``--force`` submits anyway and says which errors it overrode.
Then the real ``sbatch`` on PATH runs with the same words, its output and exit status
passed through untouched, so a site can alias ``sbatch`` to this.

The findings go to standard error: standard output is sbatch's (``Submitted batch job N``,
or the job id alone with ``--parsable``), which scripts read. A script on standard input
(no script word) is read once, linted, and handed to sbatch on its standard input.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import IO, Callable

from slurmspec.cli.common import EXIT_FINDINGS, error, note

# slurmspec's own words come first; everything from the first other word on is sbatch's.
_OWN = ("--force", "-h", "--help")


def add_parser(commands) -> None:
    submit = commands.add_parser(
        "submit", help="lint a script as sbatch will see it, then submit it with sbatch",
        usage="slurmspec submit [--force] [sbatch options] SCRIPT [script arguments]",
        description="Lint SCRIPT merged with these sbatch options and the SBATCH_* environment; refuse "
                    "to submit on an error, else run sbatch with the same words (its output and exit status).",
    )
    submit.add_argument("--force", action="store_true",
                        help="submit even when the lint finds errors (and say which were overridden)")
    submit.set_defaults(sbatch_argv=[])
    submit.parse_known_args = _own_then_sbatch(submit.parse_known_args)  # type: ignore[method-assign]


def _own_then_sbatch(parse: Callable) -> Callable:
    """argparse would take sbatch's ``-p gpu`` for slurmspec options: only leading own words are its."""
    def parse_known_args(args=None, namespace=None):
        words = list(sys.argv[1:] if args is None else args)
        at = 0
        while at < len(words) and words[at] in _OWN:
            at += 1
        namespace, extras = parse(words[:at], namespace)
        namespace.sbatch_argv = words[at:]
        return namespace, extras

    return parse_known_args


def _settings_args() -> argparse.Namespace:
    """What ``lint``'s settings read from its command line, as ``lint`` with no flags has them."""
    return argparse.Namespace(select=[], extend_select=[], ignore=[], cluster=None, slurm_version=None,
                              fail_on=None, shellcheck=None, config=None, no_config=False)


def run(args: argparse.Namespace, out: IO[str]) -> int:
    from slurmspec.cli.common import configs
    from slurmspec.settings.release import on_path
    from slurmspec.cli.lint_cmd import settings_for
    from slurmspec.cluster.errors import ProfileError
    from slurmspec.invocation.command_line import InvocationError
    from slurmspec.invocation.submission import Invocation, split_submission
    from slurmspec.settings.config import ConfigError
    from slurmspec.limits import read_bounded
    from slurmspec.version import NEWEST

    sbatch = on_path("sbatch")
    if sbatch is None:
        return error("submit: no `sbatch` on PATH; nothing was submitted")
    argv = tuple(args.sbatch_argv)
    settings_args = _settings_args()
    _, script_word, _ = split_submission(argv, NEWEST)
    try:
        config = configs(settings_args).for_path(script_word)
        settings = settings_for(settings_args, config, script_word)
    except (ConfigError, ProfileError) as exc:
        return error(str(exc))
    options, script_word, _ = split_submission(argv, settings.version)  # the target's own option table
    try:
        data = read_bounded(script_word or "-")
    except OSError as exc:
        return error(f"submit: {script_word or '<stdin>'}: cannot read: {exc.strerror or exc}; nothing was submitted")
    invocation = Invocation(options, os.environ)
    try:
        invocation.check(settings.version, script_word)
    except InvocationError as exc:  # --wrap, --help, --version: sbatch submits no script of ours
        why = str(exc).split(": there is no script")[0]
        note(f"submit: nothing to lint ({why}); running sbatch as given")
        return _sbatch(sbatch, argv, None)
    errors = _lint(data, script_word, settings, invocation)
    if errors:
        codes = ", ".join(dict.fromkeys(errors))
        if not args.force:
            return _refuse(len(errors), codes)
        note(f"submit: --force: submitting despite {len(errors)} error{'s' if len(errors) != 1 else ''} ({codes})")
    return _sbatch(sbatch, argv, data if script_word is None else None)


def _lint(data: bytes, script_word: str | None, settings, invocation) -> list[str]:
    """Report the findings on standard error; the codes of those that are errors."""
    from slurmspec.kinds import Severity
    from slurmspec.lint.pipeline import lint_source
    from slurmspec.report import default_format, resolve_color, write_report

    script, found = lint_source(data, settings, script_word or "<stdin>", invocation=invocation,
                                shellcheck=settings.shellcheck_for(script_word))
    stream = sys.stderr
    if found:
        write_report(default_format(stream), [(script, found)], stream, color=resolve_color("auto", stream),
                     quiet=True)
    return [d.code for d in found if d.severity is Severity.ERROR]


def _refuse(count: int, codes: str) -> int:
    from slurmspec.printable import printable

    sys.stderr.write(printable(
        f"slurmspec: error: not submitted: {count} error{'s' if count != 1 else ''} ({codes}) that sbatch or the"
        " job would fail on; fix them, or submit anyway with `slurmspec submit --force ...`") + "\n")
    return EXIT_FINDINGS


def _sbatch(sbatch: str, argv: tuple[str, ...], stdin: bytes | None) -> int:
    """Run sbatch with ``argv``: its output goes straight to ours, its exit status is ours."""
    import subprocess

    sys.stdout.flush()
    sys.stderr.flush()
    try:
        done = subprocess.run([sbatch, *argv], input=stdin, check=False)
    except OSError as exc:
        return error(f"submit: cannot run {sbatch}: {exc.strerror or exc}")
    return done.returncode if done.returncode >= 0 else 128 - done.returncode

