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
from typing import TYPE_CHECKING, Sequence

from slurmspec.printable import printable

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.version import Version

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class Parser(argparse.ArgumentParser):
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


def target_version(given, configured, cluster) -> tuple["Version", str]:
    """The release to target and why: ``--slurm-version`` > configuration > cluster profile > installed sbatch > newest."""
    from slurmspec.version import NEWEST

    if given is not None:
        return given, "--slurm-version"
    if configured is not None:
        return configured, "configuration"
    if cluster is not None:
        return cluster.version, f"cluster profile {cluster.source}"
    installed = installed_sbatch_version()
    if installed is not None:
        return installed, "installed sbatch"
    return NEWEST, "newest supported release"


def on_path(name: str) -> str | None:
    """``shutil.which(name)`` for a plain name, without importing shutil (and the compressors it imports)."""
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        candidate = os.path.join(folder or os.curdir, name)
        if os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
            return candidate
    return None


@lru_cache(maxsize=1)
def installed_sbatch_version() -> "Version | None":
    """The release of the ``sbatch`` on PATH (``sbatch --version``: "slurm 22.05.8"), once per process;
    a successful answer is remembered across runs for the same binary (``slurmspec/cli/installed.py``).

    None when there is no sbatch, or it cannot answer: Slurm's clients read
    slurm.conf (or ask DNS for it) even for ``--version``, and fail on a
    machine that has the programs but no cluster.
    """
    from slurmspec.cluster.release import target_release

    from slurmspec.cli.installed import FAILED, remember, remembered

    sbatch = on_path("sbatch")
    if sbatch is None:
        return None
    text = remembered(sbatch)
    if text == FAILED:
        return None
    if text is None:
        import re  # only on a cache miss: a cold lint should not pay for subprocess
        import subprocess

        try:
            done = subprocess.run([sbatch, "--version"], capture_output=True, text=True, timeout=10,
                                  stdin=subprocess.DEVNULL, check=False)
        except (OSError, subprocess.SubprocessError):
            done = None
        match = None if done is None else re.match(r"slurm\S*\s+(\d+\.\d+(?:\.\d+)?)", done.stdout.strip())
        if done is None or done.returncode != 0 or match is None:
            remember(sbatch, None)
            return None
        text = match[1]
        remember(sbatch, text)
    try:
        return target_release(text)
    except ValueError:  # older than any release slurmspec models
        return None


def load_cluster(path: str | None, cache: dict):
    """The profile at ``path`` (once per path), or None; raises ``ProfileError``."""
    if path is None:
        return None
    key = os.path.abspath(path)
    if key not in cache:
        from slurmspec.cluster.store import load_profile

        cache[key] = load_profile(path)
    return cache[key]


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
    from slurmspec.lint.config import check_selector

    for selector in selectors:
        try:
            check_selector(selector, ValueError)
        except ValueError as exc:
            return str(exc)
    return None


def configs(args: argparse.Namespace):
    from slurmspec.lint.config import ConfigCache

    return ConfigCache(args.config, enabled=not args.no_config)
