"""``slurmspec parse``: print the parsed model of a script as JSON."""

from __future__ import annotations

import argparse
from typing import IO

from slurmspec.cli.common import EXIT_ERROR, EXIT_OK, add_common, configs, error, read_input


def add_parser(commands) -> None:
    parse = commands.add_parser("parse", help="print the parsed model of a script")
    parse.add_argument("path", metavar="PATH", help="a file, or - for standard input")
    parse.add_argument("--format", choices=("json",), default="json")
    add_common(parse, detects_version=True)


def run(args: argparse.Namespace, out: IO[str]) -> int:
    from slurmspec.report.json import dumps

    script = read_script(args, args.path)
    if isinstance(script, int):
        return script
    # The model holds the script's text exactly: JSON escapes keep it so and keep the output printable.
    out.write(dumps(script.to_dict()) + "\n")
    return EXIT_OK


def read_script(args: argparse.Namespace, shown: str):
    """``args.path`` (``-``: standard input) parsed for the release ``script_release`` picks, or the exit code
    after saying why it could not be (unreadable: ``shown`` names it; a bad configuration or profile)."""
    from slurmspec.cluster.errors import ProfileError
    from slurmspec.settings.config import ConfigError
    from slurmspec.parser.script import parse_script

    from slurmspec.limits import beyond_limits

    try:
        data = read_input(args.path)
    except OSError as exc:
        return error(f"{shown}: cannot read: {exc.strerror or exc}")
    beyond = beyond_limits(data)  # what `lint` does not analyse (SB905) is not modelled here either
    if beyond is not None:
        return error(f"{shown}: more than {beyond.limit:,} {beyond.what}"
                     f"{'' if beyond.what == 'lines' else ' on #SBATCH lines'}, more than slurmspec reads")
    path = None if args.path == "-" else args.path
    try:
        version = script_release(args, path)
    except (ConfigError, ProfileError) as exc:
        return error(str(exc))
    return parse_script(data, path, version)


def script_release(args: argparse.Namespace, path: str | None):
    """The release a script is read for, chosen as ``lint`` chooses it (``common.target_version``):
    ``--slurm-version`` > the configuration's > its cluster profile's > the installed sbatch's > the newest.

    The profile is read only when neither of the first two decides. Raises
    ``ConfigError`` or ``ProfileError`` (exit 2, as for ``lint``).
    """
    from slurmspec.settings.release import target_version
    from slurmspec.settings.resolve import load_cluster

    config = configs(args).for_path(path)
    cluster = None
    if args.slurm_version is None and config.slurm_version is None:
        cluster = load_cluster(config.cluster, {})
    return target_version(args.slurm_version, config.slurm_version, cluster)[0]
