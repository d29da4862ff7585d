"""``slurmspec cluster import``: write a cluster profile from ``scontrol show`` output (docs/cluster.md)."""

from __future__ import annotations

import argparse
import sys
from typing import IO

from slurmspec.cli.common import EXIT_OK, error


def add_parser(commands) -> None:
    from slurmspec.cli.common import Parser

    cluster = commands.add_parser("cluster", help="make a cluster profile for `lint --cluster`")
    actions = cluster.add_subparsers(dest="cluster_command", required=True, parser_class=Parser)
    made = actions.add_parser(
        "import", help="write a profile from scontrol output (saved files, or scontrol run here)",
        description="Write a cluster profile from the output of `scontrol show node -o`, `scontrol show "
                    "partition -o` and `scontrol show config` (or `scontrol --json show node|partition`), "
                    "saved to files or, when no file is given, run here.",
    )
    made.add_argument("--nodes", metavar="FILE", help="saved `scontrol show node -o` (or --json) output; - reads standard input")
    made.add_argument("--partitions", metavar="FILE", help="saved `scontrol show partition -o` (or --json) output")
    made.add_argument("--config", metavar="FILE", help="saved `scontrol show config` output")
    made.add_argument("-o", "--output", metavar="PROFILE", help="write the profile here (default: standard output)")
    made.add_argument("--name", help="the profile's name (default: the ClusterName)")


def run(args: argparse.Namespace, out: IO[str]) -> int:
    from slurmspec.cluster.importer import import_profile, run_scontrol
    from slurmspec.cluster.profile import ProfileError
    from slurmspec.cluster.store import dump_profile, loads_profile

    given = {"nodes": args.nodes, "partitions": args.partitions, "config": args.config}
    if any(given.values()) and not (args.nodes and args.partitions):
        return error("cluster import: give both --nodes and --partitions (and --config), or none of them to run scontrol here")
    if sum(1 for path in given.values() if path == "-") > 1:
        return error("cluster import: only one of --nodes, --partitions and --config can read standard input")
    texts: dict[str, tuple[str, str] | None] = {}
    try:
        for what, path in given.items():
            if path is not None:
                texts[what] = (_read(path), "<stdin>" if path == "-" else path)
            elif not any(given.values()):
                texts[what] = (run_scontrol(what), f"scontrol {what}")
            else:
                texts[what] = None
        profile, notes = import_profile(texts["nodes"], texts["partitions"], texts["config"], args.name)
        text = dump_profile(profile)
        loads_profile(text, args.output or "<profile>")  # what is written must load
    except (ProfileError, OSError) as exc:
        return error(str(exc) if isinstance(exc, ProfileError) else f"{exc.filename}: cannot read: {exc.strerror or exc}")
    for note in notes:
        sys.stderr.write(f"slurmspec: note: {note}\n")
    if args.output is None:
        out.write(text)
        return EXIT_OK
    try:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        return error(f"{args.output}: cannot write: {exc.strerror or exc}")
    shapes, partitions = len(profile.shapes), len(profile.partitions)
    sys.stderr.write(f"slurmspec: wrote {args.output}: {len(profile.nodes)} nodes in {shapes} shape(s), "
                     f"{partitions} partition(s), Slurm {profile.config.slurm_version}\n")
    return EXIT_OK


def _read(path: str) -> str:
    """The file's text; bytes that are not UTF-8 become U+FFFD (scontrol prints what slurm.conf holds)."""
    if path == "-":
        return sys.stdin.buffer.read().decode("utf-8", "replace")
    with open(path, "rb") as handle:
        return handle.read().decode("utf-8", "replace")
