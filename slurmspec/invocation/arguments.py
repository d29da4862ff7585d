"""How ``slurmspec lint`` takes an invocation: the words after ``--``, and ``--sbatch-env``.

``slurmspec lint job.sbatch -- -p gpu --job-name=x`` lints ``job.sbatch`` as
``sbatch -p gpu --job-name=x job.sbatch`` submits it. argparse would read the
words after ``--`` as more paths, so they are split off before it sees them
(the first ``--`` of the ``lint`` arguments; a path that starts with ``-`` is
written ``./-name``). ``-`` (standard input) stays a path before ``--``.

Which environment: by default none. sbatch reads the ``SBATCH_*`` variables of
the shell it runs in, but a linter reading its own environment would answer
differently on a login node with a site's ``SBATCH_ACCOUNT`` set than in CI,
for the same command. ``--sbatch-env`` asks for it: the ``SBATCH_*`` variables
of slurmspec's environment are read as sbatch reads them (with or without
``--``). When ``--`` is given without ``--sbatch-env`` and such variables are
set, a note on standard error names them.

``--fix`` and ``--diff`` edit the script file, which is submitted later with
whatever arguments; fixes worked out for one invocation would be wrong for the
others, so the combination is a usage error.

Nothing heavy is imported here: the parser is built on every ``slurmspec`` run.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable, Iterable


def add_arguments(lint: argparse.ArgumentParser) -> None:
    """``--sbatch-env``, and the split at ``--`` (its words land in ``args.sbatch_args``, else None)."""
    lint.add_argument(
        "--sbatch-env", action="store_true",
        help="read the SBATCH_* variables of this environment as sbatch would (default: none); "
             "sbatch options for the submission go after `--`: `lint job.sbatch -- -p gpu -J x`",
    )
    lint.set_defaults(sbatch_args=None)
    lint.parse_known_args = _split_at_dashes(lint.parse_known_args)  # type: ignore[method-assign]


def _split_at_dashes(parse: Callable) -> Callable:
    def parse_known_args(args=None, namespace=None):
        words = list(sys.argv[1:] if args is None else args)
        if "--" not in words:
            return parse(words, namespace)
        at = words.index("--")
        namespace, extras = parse(words[:at], namespace)
        namespace.sbatch_args = words[at + 1:]
        return namespace, extras

    return parse_known_args


def invocation_of(args: argparse.Namespace, scripts: Iterable[tuple[object, str]]):
    """(the ``Invocation`` the arguments ask for or None, a usage problem or None).

    ``scripts`` are (target version, shown path) of the inputs: the arguments are
    checked for each now, so a stray one stops the run before anything is reported.
    """
    if args.sbatch_args is None and not args.sbatch_env:
        return None, None
    if args.fix or args.diff:
        return None, ("`--fix`/`--diff` edit the script file, and options after `--` (or `--sbatch-env`)"
                      " describe one submission of it: lint with them, fix without them")
    from slurmspec.invocation.command_line import InvocationError
    from slurmspec.invocation.environment import sbatch_variables
    from slurmspec.invocation.submission import Invocation

    invocation = Invocation(args.sbatch_args or (), os.environ if args.sbatch_env else {})
    if not args.sbatch_env:
        unread = sorted(sbatch_variables(os.environ))
        if unread:
            sys.stderr.write(
                f"slurmspec: note: {', '.join(unread)} {'is' if len(unread) == 1 else 'are'} set here and sbatch"
                f" would read {'it' if len(unread) == 1 else 'them'}; add --sbatch-env to lint the submission"
                " with the environment\n"
            )
    try:
        for version, shown in dict.fromkeys(scripts):
            invocation.check(version, shown)
    except InvocationError as exc:
        return None, str(exc)
    return invocation, None
