"""``slurmspec lsp``: a language server for batch scripts, on standard input and output."""

from __future__ import annotations

import argparse
import logging
import re
import sys
from typing import IO

from slurmspec.cli.common import EXIT_OK, add_common, error

DESCRIPTION = """\
Run a Language Server Protocol server on standard input and output, for editors
(VS Code, Neovim, Emacs ...; set-up in docs/editors.md).

It lints each open batch script as `slurmspec lint` would (same rules,
configuration discovery, suppression comments and severities) as you type, and
offers: diagnostics linked to each rule's documentation; quick fixes, "ignore
this rule on this line / in this file" and "fix all safe problems"; hover on an
#SBATCH option (meaning, value as sbatch reads it, releases, overridden or
ignored) and on a finding (the rule's doc); completion of option names and
values. It reads only the documents the editor sends and the configuration it
finds, and never runs the script. ShellCheck runs when the configuration says
`shellcheck = true`.

Needs the optional dependency pygls: pip install 'slurmspec[lsp]'.
"""


def add_parser(commands) -> None:
    lsp = commands.add_parser(
        "lsp", help="run a language server for editors (LSP over standard input/output)",
        description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # Editors' generic LSP clients often pass --stdio; it is the only transport anyway.
    lsp.add_argument("--stdio", action="store_true", help="speak LSP on standard input/output (the default)")
    lsp.add_argument("-v", "--verbose", action="store_true",
                     help="log the protocol traffic and full tracebacks on standard error")
    lsp.add_argument("--cluster", default=None, metavar="PROFILE",
                     help="check against this cluster profile (default: the configuration's `cluster`)")
    add_common(lsp)


# A traceback's first line ("Traceback ..." or, for exception groups, "+ Exception Group Traceback ...").
_TRACEBACK = re.compile(r"\n[^\n]*Traceback \(most recent call last\):")


class _Brief(logging.Formatter):
    """One line per record: the editor's log shows what went wrong, not a traceback, unless --verbose."""

    def format(self, record: logging.LogRecord) -> str:
        # pygls writes some tracebacks into the message itself ("Unable to deserialize message").
        text = _TRACEBACK.split(super().format(record), 1)[0].rstrip()
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            text += f": {type(exc).__name__}: {exc}"
        return text

    def formatException(self, ei) -> str:  # noqa: N802 - logging's name
        return ""


def _configure_logging(verbose: bool) -> None:
    handler = logging.StreamHandler(sys.stderr)
    fmt = "slurmspec lsp: %(levelname)s: %(name)s: %(message)s"
    handler.setFormatter(logging.Formatter(fmt) if verbose else _Brief(fmt))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG if verbose else logging.WARNING)


def run(args: argparse.Namespace, out: IO[str]) -> int:
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        return error("`slurmspec lsp` needs the optional dependency pygls; install it with"
                     " `pip install 'slurmspec[lsp]'`")
    from slurmspec.settings.config import ConfigError, load_config
    from slurmspec.lsp.server import serve
    from slurmspec.lsp.settings import ConfigSource

    from slurmspec.cluster.errors import ProfileError

    try:  # what is named on the command line must work: a usage error now, not a message per file later
        if args.config:
            load_config(args.config)
        if args.cluster:
            from slurmspec.cluster.store import load_profile

            load_profile(args.cluster)
    except (ConfigError, ProfileError) as exc:
        return error(str(exc))
    _configure_logging(args.verbose)
    serve(ConfigSource(args.config, enabled=not args.no_config, slurm_version=args.slurm_version,
                       cluster=args.cluster))
    return EXIT_OK
