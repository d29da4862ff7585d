"""``slurmspec cluster import``: write a cluster profile from ``scontrol show`` output (docs/cluster.md)."""

from __future__ import annotations

import argparse
import sys
from typing import IO

from slurmspec.cli.common import EXIT_OK, error, note


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
    made.add_argument("--sbatch-help", metavar="FILE",
                      help="saved `sbatch --help` output: its \"Options provided by plugins:\" become the profile's"
                           " plugin-options (run here when no file is given)")
    made.add_argument("-o", "--output", metavar="PROFILE",
                      help="write the profile here (default: standard output); over an existing profile, keep what the"
                           " site added that scontrol does not print: its [policy], shapes' gpu-memory, and a"
                           " `default = true` the output cannot confirm (docs/cluster.md)")
    made.add_argument("--name", help="the profile's name (default: the ClusterName)")


def run(args: argparse.Namespace, out: IO[str]) -> int:
    from slurmspec.cluster.importer import import_profile, run_scontrol
    from slurmspec.cluster.profile import ProfileError
    from slurmspec.cluster.store import dump_profile

    given = {"nodes": args.nodes, "partitions": args.partitions, "config": args.config}
    if any(given.values()) and not (args.nodes and args.partitions):
        return error("cluster import: give both --nodes and --partitions (and --config), or none of them to run scontrol here")
    if sum(1 for path in (*given.values(), args.sbatch_help) if path == "-") > 1:
        return error("cluster import: only one of --nodes, --partitions, --config and --sbatch-help can read standard"
                     " input")
    texts: dict[str, tuple[str, str] | None] = {}
    try:
        for what, path in given.items():
            if path is not None:
                texts[what] = (_read(path), "<stdin>" if path == "-" else path)
            elif not any(given.values()):
                texts[what] = (run_scontrol(what), f"scontrol {what}")
            else:
                texts[what] = None
        help_text, help_note = _sbatch_help(args.sbatch_help, ran_here=not any(given.values()))
        profile, notes = import_profile(texts["nodes"], texts["partitions"], texts["config"], args.name, help_text)
        notes.extend(help_note)
        kept = _keep_site_additions(profile, notes, args.output, texts["partitions"][0])
        profile, notes = kept.profile, [*notes, *kept.notes]
        text = dump_profile(profile)
        _check_written(text, args.output, kept.policy_text)
        if kept.policy_text is not None:
            text += "\n" + kept.policy_text
    except (ProfileError, OSError) as exc:
        return error(str(exc) if isinstance(exc, ProfileError) else f"{exc.filename}: cannot read: {exc.strerror or exc}")
    for message in notes:
        note(message)
    if args.output is None:
        out.write(text)
        return EXIT_OK
    from slurmspec.safe_write import WriteRefused, write_file

    try:  # whole or not at all: a failed write must not leave half a profile (and lose the site's [policy])
        write_file(args.output, text.encode("utf-8"))
    except WriteRefused as exc:
        return error(str(exc))
    except OSError as exc:
        return error(f"{args.output}: cannot write: {exc.strerror or exc}")
    shapes, partitions = len(profile.shapes), len(profile.partitions)
    from slurmspec.printable import printable

    sys.stderr.write(f"slurmspec: wrote {printable(args.output)}: {len(profile.nodes)} nodes in {shapes} shape(s), "
                     f"{partitions} partition(s), Slurm {profile.config.slurm_version}\n")
    return EXIT_OK


def _sbatch_help(path: str | None, ran_here: bool) -> tuple[str | None, list[str]]:
    """The site's `sbatch --help` (a saved file, or run here with scontrol), and a note when it is not known."""
    from slurmspec.cluster.importer_help import run_sbatch_help
    from slurmspec.cluster.profile import ProfileError

    if path is not None:
        return _read(path), []
    if not ran_here:
        return None, ["no --sbatch-help: the profile does not list the site's plugin options, so unknown options"
                      " keep their plugin caveat"]
    try:
        return run_sbatch_help(), []
    except ProfileError as exc:
        return None, [f"{exc}: the profile does not list the site's plugin options"]


def _keep_site_additions(profile, notes: list[str], output: str | None, partitions_text: str):
    """What the existing profile at ``output`` adds that scontrol does not print (``importer_kept``)."""
    import os

    from slurmspec.cluster.importer import NO_DEFAULT_NOTE, is_json
    from slurmspec.cluster.importer_kept import Kept, keep_site_additions

    from slurmspec.cluster.profile import ProfileError
    from slurmspec.limits import MAX_SETTINGS_BYTES, NotAFile, read_regular, size_text

    if output is None or not os.path.exists(output):
        return Kept(profile, None, ())
    try:  # a FIFO at the output must not make the import wait for a writer
        data = read_regular(output, limit=MAX_SETTINGS_BYTES)
    except NotAFile as exc:
        raise ProfileError(f"{output}: not written: it is {exc}") from None
    if len(data) > MAX_SETTINGS_BYTES:
        raise ProfileError(f"{output}: not written: larger than {size_text(MAX_SETTINGS_BYTES)}, the most slurmspec"
                           " reads for a cluster profile (so it cannot keep what the site added to it)")
    existing = data.decode("utf-8", "replace")
    kept = keep_site_additions(profile, existing, output, knows_default=not is_json(partitions_text))
    if NO_DEFAULT_NOTE in notes and any(p.default for p in kept.profile.partitions):
        notes.remove(NO_DEFAULT_NOTE)  # the kept `default = true` answers it
    return kept


def _check_written(text: str, output: str | None, policy_text: str | None) -> None:
    """What is written must load; a kept [policy] that no longer fits the cluster is named as such."""
    from slurmspec.cluster.profile import ProfileError
    from slurmspec.cluster.store import loads_profile

    loads_profile(text, output or "<profile>")
    if policy_text is not None:
        try:
            loads_profile(text + "\n" + policy_text, output or "<profile>")
        except ProfileError as exc:
            raise ProfileError(f"{exc}: the [policy] kept from the existing profile no longer fits the cluster;"
                               " nothing written (update the policy, then import again)") from None


def _read(path: str) -> str:
    """The file's text (``-``: standard input), at most ``MAX_IMPORT_BYTES`` (else ``TooLarge``); bytes
    that are not UTF-8 become U+FFFD (scontrol prints what slurm.conf holds)."""
    from slurmspec.limits import MAX_IMPORT_BYTES, read_whole

    return read_whole(path, MAX_IMPORT_BYTES, "saved scontrol output").decode("utf-8", "replace")
