"""``slurmspec audit``: what the mistakes in a cluster's job scripts cost, from its own accounting (docs/audit.md).

``slurmspec audit [--since ...] [--shard K/N] ...`` reads ``sacct`` as the calling user and writes a
report (text, JSON, CSV or HTML) or, with ``--shard``, a shard file; ``slurmspec audit merge
SHARD...`` adds the shards of a job array up into the report one run would have written.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO

from slurmspec.cli.common import EXIT_OK, add_common, codes_arg, error

FORMATS = ("text", "json", "csv", "html")
# Without --select (or `select` in the configuration): lint's default selection and every rule whose
# outcome harms the job. lint keeps some of those opt-in for their precision on scripts read away from
# the cluster (a log folder missing *here*); the audit reads each job's own folder and outcome, and
# counts a loss only where the job's record agrees (slurmspec/audit/cost.py).
AUDIT_DEFAULT = ("default", "refused", "pends", "fails", "wrong")


def add_parser(commands) -> None:
    audit = commands.add_parser("audit", help="what script mistakes cost a cluster, from its accounting (sacct)")
    actions = audit.add_subparsers(dest="audit_action", required=False, metavar="{merge}")
    merge = actions.add_parser("merge", help="add up the shard files of `audit --shard K/N` into one report")
    merge.add_argument("shards", nargs="+", metavar="SHARD", help="the files `slurmspec audit --shard` wrote")
    _output_arguments(merge)

    window = audit.add_argument_group("which jobs (sacct as you: Slurm's PrivateData decides what you see)")
    window.add_argument("--since", default="now-30days", metavar="TIME",
                        help="jobs from this time on, in sacct's syntax (default: now-30days); shards of one "
                             "audit need the same absolute times")
    window.add_argument("--until", default="now", metavar="TIME", help="jobs up to this time (default: now)")
    window.add_argument("--all-users", action="store_true", help="every user's jobs (sacct -a), where you may see them")
    window.add_argument("--user", type=codes_arg, action="extend", default=[], metavar="NAMES",
                        help="these users' jobs")
    window.add_argument("--account", type=codes_arg, action="extend", default=[], metavar="NAMES",
                        help="jobs of these accounts (sacct -A)")
    window.add_argument("--partition", type=codes_arg, action="extend", default=[], metavar="NAMES",
                        help="jobs of these partitions (sacct -r)")
    window.add_argument("--sacct", default="sacct", metavar="PROGRAM", help="the sacct to run (default: on PATH)")
    window.add_argument("--database", default=None, metavar="OPTIONS_FILE",
                        help="administrators: read slurmdbd's tables directly (read-only) with the credentials of"
                             " this MariaDB option file, instead of sacct; this BYPASSES PrivateData")
    window.add_argument("--db-cluster", default=None, metavar="NAME",
                        help="with --database: the ClusterName whose tables to read (<name>_job_table)")
    window.add_argument("--db-client", default="mariadb", metavar="PROGRAM",
                        help="with --database: the client to run (default: mariadb; or mysql)")
    window.add_argument("--no-environment", action="store_true",
                        help="do not read the jobs' stored environments (their SBATCH_* variables)")
    judge = audit.add_argument_group("how scripts are judged")
    judge.add_argument("--cluster", default=None, metavar="PROFILE",
                       help="cluster profile (default: the configuration's `cluster`)")
    judge.add_argument("--import-cluster", action="store_true",
                       help="import the cluster profile on the spot from this cluster's scontrol")
    judge.add_argument("--select", type=codes_arg, default=[], metavar="CODES",
                       help="only these rules (default: the configuration's `select`, else lint's default selection"
                            " and every rule whose outcome is refused, pends, fails or wrong)")
    judge.add_argument("--extend-select", type=codes_arg, default=[], metavar="CODES",
                       help="these rules too (as for `slurmspec lint`)")
    judge.add_argument("--ignore", type=codes_arg, default=[], metavar="CODES", help="not these rules")
    add_common(audit, detects_version=True)
    audit.add_argument("--shard", default=None, metavar="K/N",
                       help="audit only the jobs whose id is K-1 modulo N and write a shard file for `audit merge`"
                            " (in a job array: --shard $SLURM_ARRAY_TASK_ID/N with --array=1-N)")
    audit.add_argument("--show-scripts", action="store_true",
                       help="put each distinct script's text in the report (left out by default: privacy)")
    _output_arguments(audit)


def _output_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=FORMATS, default="text", help="report format (default: text)")
    parser.add_argument("--csv-table", choices=("rules", "users", "accounts", "partitions", "weeks"), default="rules",
                        help="the table --format csv writes (default: rules)")
    parser.add_argument("-o", "--output-file", default=None, metavar="PATH",
                        help="write there (atomically) instead of standard output")


def run(args: argparse.Namespace, out: IO[str]) -> int:
    from slurmspec.audit.sacct import AccountingError
    from slurmspec.cluster.errors import ProfileError
    from slurmspec.settings.config import ConfigError

    try:
        if args.audit_action == "merge":
            return _merge(args, out)
        return _audit(args, out)
    except (AccountingError, ConfigError, ProfileError) as exc:
        return error(str(exc))


def _audit(args: argparse.Namespace, out: IO[str]) -> int:
    from slurmspec.audit.jobs import sacct_argv
    from slurmspec.audit.judge import Judge
    from slurmspec.audit.pipeline import Shard, run_audit
    from slurmspec.audit.sacct import SacctSource
    from slurmspec.audit.tally import Tally
    from slurmspec.cli.common import configs, unknown_selectors
    from slurmspec.settings.release import on_path, target_version
    from slurmspec.lint.engine import select_rules
    from slurmspec.version import format_version

    problem = unknown_selectors([*args.select, *args.extend_select, *args.ignore])
    if problem:
        return error(f"--select/--extend-select/--ignore: {problem}")
    try:
        shard = None if args.shard is None else Shard.parse(args.shard)
    except ValueError as exc:
        return error(f"--shard: {exc}")
    if shard is not None and (relative := [t for t in (args.since, args.until) if _relative(t)]):
        return error(f"--shard needs absolute --since and --until (e.g. 2026-11-01T00:00), not {relative[0]!r}: "
                     "the shards of one audit start at different times and must see the same window")
    config = configs(args).for_path(None)
    cluster = _cluster(args, config)
    version, _ = target_version(args.slurm_version, config.slurm_version, cluster)
    extend = args.extend_select if args.select else (*config.extend_select, *args.extend_select)
    rules = select_rules(args.select or config.select or AUDIT_DEFAULT, (*config.ignore, *args.ignore), extend)
    judge = Judge(version, rules, cluster=cluster, policy=config.policy,
                  severity=config.severities(rule.code for rule in rules))
    if args.database is not None and not args.db_cluster:
        return error("--database needs --db-cluster NAME (the ClusterName of the tables to read)")
    program = on_path(args.sacct) if "/" not in args.sacct else args.sacct
    if program is None and args.database is None:
        return error(f"{args.sacct} is not on PATH: run the audit where Slurm's clients are installed")
    header = {
        "since": args.since, "until": args.until,
        "users": "all" if args.all_users else (",".join(args.user) or "own jobs"),
        "accounts": ",".join(args.account), "partitions": ",".join(args.partition),
        "slurm_version": format_version(version), "cluster": cluster.name if cluster is not None else None,
        "select": ",".join((*args.select, *args.extend_select)), "ignore": ",".join(args.ignore),
    }
    if args.database is not None:
        from slurmspec.audit.database import DatabaseSource

        try:
            source = DatabaseSource(args.database, args.db_cluster, since=args.since, until=args.until,
                                    all_users=args.all_users, users=args.user, accounts=args.account,
                                    partitions=args.partition, shard=shard, client=args.db_client)
        except (ValueError, KeyError) as exc:
            return error(f"--database: {exc}")
    else:
        source = SacctSource(sacct_argv(program, since=args.since, until=args.until, all_users=args.all_users,
                                        users=args.user, accounts=args.account, partitions=args.partition), program)
    tally = Tally(header, keep_scripts=args.show_scripts)
    progress = _progress()
    try:
        run_audit(source, judge, tally, shard=shard, environment=not args.no_environment, progress=progress)
    finally:
        if progress is not None:
            sys.stderr.write("\r\x1b[K")
    if shard is not None:
        return _write(args, json.dumps({**tally.to_partial(), "shard": str(shard)}, indent=1) + "\n", out)
    return _write(args, _render(args, tally), out)


# sacct's time words relative to when it runs (man sacct, --starttime): today, now[+-N...], midnight, ...
_RELATIVE = ("now", "today", "tomorrow", "midnight", "noon", "elevenses", "fika", "teatime")


def _relative(when: str) -> bool:
    text = when.strip().lower()
    return text.startswith(_RELATIVE) or (":" in text and "-" not in text and "/" not in text)  # HH:MM is today's


def _cluster(args: argparse.Namespace, config):
    from slurmspec.settings.resolve import load_cluster

    if not args.import_cluster:
        return load_cluster(args.cluster or config.cluster, {})
    from slurmspec.cluster.importer import import_profile, run_scontrol

    texts = {what: run_scontrol(what) for what in ("nodes", "partitions", "config")}
    profile, _notes = import_profile((texts["nodes"], "scontrol show node"),
                                     (texts["partitions"], "scontrol show partition"),
                                     (texts["config"], "scontrol show config"))
    return profile


def _merge(args: argparse.Namespace, out: IO[str]) -> int:
    from slurmspec.audit.tally import Tally

    merged: Tally | None = None
    seen: dict[str, str] = {}
    counts = set()
    for path in args.shards:
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
            tally = Tally.from_partial(data)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            return error(f"{path}: not a readable audit shard: {exc}")
        shard = str(data.get("shard", ""))
        if shard in seen:
            return error(f"{path} and {seen[shard]} are both shard {shard}")
        seen[shard] = path
        counts.add(shard.partition("/")[2])
        if merged is None:
            merged = tally
        elif tally.header != merged.header:
            return error(f"{path} audited other jobs or rules than {args.shards[0]} (different --since, --until, "
                         "filters or rules): shards of one audit must share them")
        else:
            merged.merge(tally)
    assert merged is not None
    count = counts.pop() if len(counts) == 1 else ""
    wanted = {f"{k}/{count}" for k in range(1, int(count) + 1)} if count.isdigit() else set()
    if set(seen) != wanted:
        missing = sorted(wanted - set(seen)) or ["(shards of different N)"]
        return error(f"the shards do not make a whole audit: missing {', '.join(missing)}")
    return _write(args, _render(args, merged), out)


def _render(args: argparse.Namespace, tally) -> str:
    from slurmspec.audit.report import build_report, report_json

    report = build_report(tally)
    if args.format == "json":
        return report_json(report)
    if args.format == "csv":
        from slurmspec.audit.writers import report_csv

        return report_csv(report, args.csv_table)
    if args.format == "html":
        from slurmspec.audit.html import report_html

        return report_html(report)
    from slurmspec.audit.writers import report_text

    return report_text(report)


def _write(args: argparse.Namespace, text: str, out: IO[str]) -> int:
    if args.output_file is None:
        out.write(text)
        return EXIT_OK
    from slurmspec.safe_write import WriteRefused, write_file

    try:
        write_file(args.output_file, text.encode("utf-8", "surrogateescape"))
    except WriteRefused as exc:
        return error(str(exc))
    except OSError as exc:
        return error(f"{args.output_file}: cannot write: {exc.strerror or exc}")
    return EXIT_OK


def _progress():
    """``jobs read, scripts linted`` on standard error while a person watches (not in CI, not piped)."""
    from slurmspec.cli.progress import wanted

    if not wanted(sys.stderr, False):
        return None

    def show(jobs: int, lints: int) -> None:
        sys.stderr.write(f"\r\x1b[Kslurmspec audit: {jobs:,} jobs read, {lints:,} scripts linted")
        sys.stderr.flush()

    return show

