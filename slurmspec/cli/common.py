"""What every command shares: exit codes, the argument parser class, reading input, configuration.

Exit codes (stable): 0 no finding at or above the failure level, 1 findings
(or, with ``--diff``, a change would be made), 2 usage error (including a
broken configuration file), unreadable path or internal error. A broken script
is a finding, never exit 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from functools import lru_cache
from typing import Sequence

from slurmspec.printable import printable

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


@lru_cache(maxsize=1)
def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` finds it: ``COLUMNS``, the terminal, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class Parser(argparse.ArgumentParser):
    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse makes a formatter for every argument it adds (to check its metavar), and one
        # without a width imports shutil (and its compression modules) to ask for the terminal's.
        return self.formatter_class(prog=self.prog, width=_columns() - 2)

    def error(self, message: str) -> None:  # argparse exits 2 with usage, as we want
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"slurmspec: error: {printable(message)}\n")  # quotes the argument given


def version_arg(text: str):
    from slurmspec.version import parse_version

    try:
        return parse_version(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def codes_arg(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def add_common(sub: argparse.ArgumentParser, detects_version: bool = False) -> None:
    """--slurm-version, --config and --no-config, for every command that reads scripts.

    ``detects_version``: the command's default target is chosen by `target_version`
    (configuration, cluster profile, installed sbatch, newest).
    """
    from slurmspec.version import DEFAULT, SUPPORTED

    chain = "the cluster profile's, else the installed sbatch's, else " if detects_version else ""
    sub.add_argument(
        "--slurm-version", type=version_arg, default=None, metavar="X.Y",
        help=f"target Slurm release, one of {', '.join(SUPPORTED)} or a patch version of one (24.11.5) "
             f"(default: the configuration's, else {chain}{DEFAULT})",
    )
    where = sub.add_mutually_exclusive_group()
    where.add_argument("--config", default=None, metavar="PATH",
                       help="use this slurmspec.toml or pyproject.toml instead of searching for one")
    where.add_argument("--no-config", action="store_true",
                       help="ignore configuration files")


def error(message: str) -> int:
    """Say what went wrong, on standard error; the exit code for it.

    Every message the CLI prints goes out as shown text (``slurmspec.printable``): it quotes
    file names and values, and a name holding ESC or bytes that are not UTF-8 must neither
    act on the terminal nor make the write fail.
    """
    sys.stderr.write(f"slurmspec: error: {printable(message)}\n")
    return EXIT_ERROR


def note(message: str) -> None:
    """Tell the user something worth knowing that is not an error (a path skipped, a default taken)."""
    sys.stderr.write(f"slurmspec: note: {printable(message)}\n")


def read_input(path: str) -> bytes:
    """The whole input (``-``: standard input); ``OSError`` when it is larger than any script slurmctld takes."""
    from slurmspec.limits import MAX_SCRIPT_BYTES, read_bounded

    data = read_bounded(path)
    if len(data) > MAX_SCRIPT_BYTES:
        raise OSError(f"larger than {MAX_SCRIPT_BYTES // (1024 * 1024)} MiB, the most slurmctld accepts as a batch script")
    return data


def unknown_selectors(selectors: Sequence[str]) -> str | None:
    from slurmspec.settings.config import check_selector

    for selector in selectors:
        try:
            check_selector(selector, ValueError)
        except ValueError as exc:
            return str(exc)
    return None


def configs(args: argparse.Namespace):
    from slurmspec.settings.config import ConfigCache

    return ConfigCache(args.config, enabled=not args.no_config)
