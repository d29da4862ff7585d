"""``slurmspec emit SPEC``: write the batch script a TOML job spec describes.

Exit codes: 0 written (warnings, if any, on standard error), 1 written but
the rules found an error in it (sbatch or slurmctld would refuse it, or it
would fail), 2 the spec is broken (``path:line:col: error: ...`` with a
did-you-mean) or a file cannot be read or written. The emitted script is
linted with every rule for the target release; findings at warning or above
go to standard error (``--no-check`` skips this, and then 1 never happens).
The target release is chosen as for ``lint`` (``common.target_version``):
``--slurm-version``, the configuration's, the profile's, the installed sbatch's, the newest.

With a cluster profile (``--cluster``, else the ``cluster`` key of the
configuration found from the spec's folder) the GPU request takes the form the
cluster accepts, and a spec the cluster (or its site policy) refuses is a
broken spec: exit 2 at the key that asks for it, nothing written
(``slurmspec/emit/cluster_fit.py``).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import IO

from slurmspec.cli.common import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, error, version_arg
from slurmspec.printable import printable

EXIT_CODES = """\
exit codes:
  0  the script was written (warnings, if any, on standard error)
  1  the script was written, but the rules found an error in it: sbatch
     would refuse it, or the job would fail (findings on standard error)
  2  the spec is broken (path:line:column: error: ...), the cluster profile
     (--cluster) or its site policy refuses it, or a file cannot be read or
     written; nothing is written"""


def add_parser(commands) -> None:
    emit = commands.add_parser("emit", help="write the batch script of a TOML job spec",
                               description="Write the batch script a TOML job spec describes (docs/spec.md),"
                                           " then lint it for the target Slurm release.",
                               epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    emit.add_argument("path", metavar="SPEC", help="a .toml job spec, or - for standard input")
    emit.add_argument("-o", "--output", default=None, metavar="FILE", help="write here instead of standard output")
    emit.add_argument("--slurm-version", type=version_arg, default=None, metavar="X.Y",
                      help="target Slurm release (default, as for `lint`: the configuration's, else the cluster"
                           " profile's, else the installed sbatch's, else the newest supported)")
    emit.add_argument("--no-check", action="store_true",
                      help="do not lint the emitted script (exit 0 whenever it is written)")
    emit.add_argument("--cluster", default=None, metavar="PROFILE",
                      help="write the GPU request this cluster accepts and refuse a spec it refuses (default: the"
                           " configuration's `cluster`); its Slurm release becomes the default target")
    where = emit.add_mutually_exclusive_group()
    where.add_argument("--config", default=None, metavar="PATH",
                       help="read `cluster` and `policy` from this configuration file instead of the one found"
                            " from the spec's folder")
    where.add_argument("--no-config", action="store_true",
                       help="ignore configuration files (their `cluster` and `policy`)")


def spec_problem(path: str, line: int, column: int, message: str) -> None:
    sys.stderr.write(printable(f"{path}:{line}:{column}: error: {message}") + "\n")


def run(args: argparse.Namespace, out: IO[str]) -> int:
    from slurmspec.settings.release import target_version
    from slurmspec.emit import emit
    from slurmspec.limits import MAX_SCRIPT_BYTES, read_whole
    from slurmspec.spec import SpecError, load_spec

    name = "<stdin>" if args.path == "-" else args.path
    try:
        text = read_whole(args.path, MAX_SCRIPT_BYTES, "a job spec").decode("utf-8")  # no larger than its script
    except OSError as exc:
        error(f"{name}: cannot read: {exc.strerror or exc}")
        return EXIT_ERROR
    except UnicodeDecodeError as exc:
        spec_problem(name, 1, 1, f"a TOML file must be UTF-8 ({exc.reason} at byte {exc.start})")
        return EXIT_ERROR
    from slurmspec.cluster.errors import ProfileError  # not .profile: its model is needed only with a profile
    from slurmspec.settings.config import ConfigError

    try:
        config, cluster, policy = _cluster(args)
    except (ConfigError, ProfileError) as exc:
        error(str(exc))
        return EXIT_ERROR
    version = target_version(args.slurm_version, config.slurm_version if config is not None else None, cluster)[0]
    try:
        spec = load_spec(text, version)
    except SpecError as exc:
        for problem in exc.problems:
            spec_problem(name, problem.line, problem.column, problem.message)
        return EXIT_ERROR
    base = os.path.dirname(args.path) if args.path != "-" else os.getcwd()  # no pathlib: 3 ms of every emit
    form = None
    if cluster is not None or policy is not None:
        form, problems = _fit(spec, cluster, policy)
        if problems:
            return _refuse(name, text, problems)
    try:
        script = emit(spec, base, version, form)
    except (OSError, UnicodeDecodeError) as exc:
        error(f"{name}: [body] file: {exc}")
        return EXIT_ERROR
    found = None
    if cluster is not None or policy is not None or not args.no_check:
        from slurmspec.lint import lint_text

        found = lint_text(script, None, version, cluster=cluster, policy=policy)
    if cluster is not None or policy is not None:
        from slurmspec.emit.cluster_fit import cluster_refusals

        problems = list(cluster_refusals(script, found, spec))
        if problems:
            return _refuse(name, text, problems)
    refused = False if args.no_check else _check(found, args.output or "<emitted>")
    if args.output:
        from slurmspec.safe_write import WriteRefused, write_file

        try:  # whole or not at all: a failed write leaves the old script as it was
            write_file(args.output, script.encode("utf-8", "surrogateescape"))
        except WriteRefused as exc:
            error(str(exc))
            return EXIT_ERROR
        except OSError as exc:
            error(f"{args.output}: cannot write: {exc.strerror or exc}")
            return EXIT_ERROR
    else:
        out.write(script)
    return EXIT_FINDINGS if refused else EXIT_OK


def _cluster(args: argparse.Namespace):
    """(configuration, profile, the configuration's policy) for this spec; raises ``ConfigError``/``ProfileError``."""
    from slurmspec.settings.resolve import load_cluster
    from slurmspec.settings.config import find_config, load_config

    config = None
    if args.config:
        config = load_config(args.config)
    elif not args.no_config:
        start = os.path.dirname(args.path) if args.path != "-" else os.getcwd()
        found = find_config(start)
        config = load_config(found) if found is not None else None
    cluster = load_cluster(args.cluster or (config.cluster if config is not None else None), {})
    policy = config.policy if config is not None else None
    if cluster is not None and policy is not None:  # the profile's own is checked as it loads
        from slurmspec.cluster.policy import check_policy

        check_policy(policy, cluster)
    return config, cluster, policy


def _fit(spec, cluster, policy):
    """The GPU form for the cluster, and the spec keys it (or the policies) refuse."""
    from slurmspec.emit.cluster_fit import GpuForm, gpu_form, required_options

    policies = tuple(p for p in ((cluster.policy if cluster is not None else None), policy) if p is not None)
    if cluster is not None:
        form, problems = gpu_form(spec, cluster, policies)
    else:
        form, problems = GpuForm(gpu_type=spec.get("resources", "gpu_type")), []
    problems += list(required_options(spec, policies, cluster))
    return form, problems


def _refuse(name: str, text: str, problems) -> int:
    from slurmspec.spec.locate import locate

    for path, message in problems:
        line, column = locate(text, path)
        spec_problem(name, line, column, message)
    return EXIT_ERROR


def _check(found, name: str) -> bool:
    """Report what the rules say about the emitted script; True when one of them is an error.

    The loader refuses what it can tell from the spec alone; this is the last
    line of defence (raw options, verbatim header lines, rules the loader does
    not mirror). The script is still written, so it can be read and fixed.
    """
    from slurmspec.kinds import Severity

    error = False
    for d in found:
        if d.severity.rank >= Severity.WARNING.rank:
            where = f"{name}:{d.span.line}:{d.span.column}"
            sys.stderr.write(printable(f"{where}: {d.code} {d.severity}: {d.message}") + "\n")
        error = error or d.severity.rank >= Severity.ERROR.rank
    return error
