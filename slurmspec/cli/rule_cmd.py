"""``slurmspec rule``: the documentation of one rule, a family, or every rule."""

from __future__ import annotations

import argparse
from typing import IO

from slurmspec.cli.common import EXIT_OK, error, unknown_selectors


def add_parser(commands) -> None:
    rule = commands.add_parser("rule", help="show the documentation of a rule, or list every rule")
    rule.add_argument("rule", nargs="?", metavar="CODE|NAME", help="a rule code (SB201) or name")
    rule.add_argument("--all", action="store_true", help="every rule")
    rule.add_argument("--format", choices=("text", "json", "markdown"), default="text")


def run(args: argparse.Namespace, out: IO[str]) -> int:
    import json

    from slurmspec.lint.engine import registry
    from slurmspec.report import rule_docs

    table = registry()
    if args.all == bool(args.rule):
        return error("rule: give a rule code or name, or --all")
    if args.all:
        rules = sorted(table.values(), key=lambda r: r.code)
    else:
        from slurmspec.lint.suppress import resolve

        code = resolve(args.rule, table)
        if code is None:
            problem = unknown_selectors([args.rule])
            if problem is None:  # a prefix: show that family's list
                from slurmspec.lint.engine import select_rules

                rules = select_rules([args.rule])
            else:
                return error(problem.replace("rule code, code prefix or rule name", "rule code or name"))
        else:
            rules = [table[code]]
    single = not args.all and len(rules) == 1
    if args.format == "json":
        data = [rule_docs.rule_to_dict(r) for r in rules]
        json.dump(data[0] if single else data, out, indent=2, ensure_ascii=False)
        out.write("\n")
    elif args.format == "markdown":
        out.write(rule_docs.rules_markdown(rules) if args.all else "\n".join(rule_docs.rule_markdown(r) for r in rules))
    elif single:
        from slurmspec.report.rule_docs import write_rule_doc

        write_rule_doc(rules[0], out)
    else:
        from slurmspec.report.rule_docs import write_rule_list

        write_rule_list(rules, out)
    return EXIT_OK
