"""``slurmspec schema``: print one of the JSON Schemas slurmspec ships (for editors and CI validation)."""

from __future__ import annotations

import argparse
from typing import IO

from slurmspec.cli.common import EXIT_OK

# Schema name -> (package, resource). The files live inside the package so an
# installed slurmspec can print them; the docs link to these same files.
SCHEMAS = {
    "job-spec": ("slurmspec.spec", "schema.json"),
    "cluster-profile": ("slurmspec.cluster", "profile.schema.json"),
    "lint-report": ("slurmspec.report", "lint-report.schema.json"),
    "audit-report": ("slurmspec.audit", "audit-report.schema.json"),
}


def add_parser(commands) -> None:
    schema = commands.add_parser(
        "schema", help="print a JSON Schema: the TOML job spec (default), the cluster profile, the lint or the audit JSON report")
    schema.add_argument("name", nargs="?", choices=tuple(SCHEMAS), default="job-spec",
                        help="which schema (default: job-spec)")


def run(args: argparse.Namespace, out: IO[str]) -> int:
    from importlib.resources import files

    package, resource = SCHEMAS[args.name]
    out.write(files(package).joinpath(resource).read_text(encoding="utf-8"))
    return EXIT_OK
