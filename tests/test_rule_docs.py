"""The rule registry is consistent, and every rule's documentation examples are tests."""

from __future__ import annotations

import re

import pytest

from slurmspec.lint import lint_text
from slurmspec.lint.engine import code_of, lint_script, registry
from slurmspec.kinds import Family, Role
from slurmspec.check.rule import DOC_HEADINGS, doc_sections
from slurmspec.version import parse_version

INTERNAL_ERROR = code_of(Role.INTERNAL_ERROR)
TOO_LARGE = code_of(Role.FILE_TOO_LARGE)
TOO_LONG = code_of(Role.SCRIPT_TOO_LONG)

RULES = sorted(registry().values(), key=lambda r: r.code)


def _lint_with_a_broken_rule(text: str, version=None):
    """SB900's example is any script: the finding comes from a rule that raises, not from the text."""
    from slurmspec.kinds import Outcome, Severity
    from slurmspec.check.rule import rule
    from slurmspec.parser.script import parse_script
    from slurmspec.version import NEWEST

    @rule("SB999", "always-raises", Severity.INFO, Outcome.ADVICE)
    def broken(ctx):
        """A rule with a bug."""
        raise ZeroDivisionError("division by zero")

    return lint_script(parse_script(text, None, version or NEWEST), [broken, *registry().values()])


def _lint_padded_past_the_limit(text: str, version=None):
    """SB106's example stands for a script over 4 MiB: the example, padded with data lines past the limit."""
    from slurmspec.limits import MAX_SCRIPT_BYTES

    padding = "# data\n" * (MAX_SCRIPT_BYTES // 7 + 1)
    return lint_text(text + padding, version=version)


def _lint_padded_past_the_line_limit(text: str, version=None):
    """SB905's example stands for a script of more lines than slurmspec analyses: the example, padded so."""
    from slurmspec.limits import MAX_SCRIPT_LINES

    return lint_text(text + "srun ./step\n" * MAX_SCRIPT_LINES, version=version)


def code_blocks(body: str) -> list[tuple[str, tuple[int, int] | None]]:
    """Fenced ```sbatch blocks and the Slurm version named after the fence, if any.

    A rule that exists only on some releases shows its examples as
    ```` ```sbatch 22.05 ````; invisible characters are written as \\r and \\x00.
    """
    blocks = re.findall(r"```sbatch(?:[ \t]+(\d+\.\d+))?\n(.*?)```", body, flags=re.S)
    return [
        (block.replace("\\r", "\r").replace("\\x00", "\x00"), parse_version(version) if version else None)
        for version, block in blocks
    ]


def test_codes_and_names_are_unique_and_well_formed():
    names = [rule.name for rule in RULES]
    assert len(set(names)) == len(names)
    for rule in RULES:
        assert re.fullmatch(r"SB\d{3}", rule.code), rule.code
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name), rule.name
        assert rule.family is Family.of_code(rule.code)
        assert not rule.name.startswith(("no-", "use-", "banned-")), rule.name


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_doc_has_every_heading(rule):
    headings = [heading for heading, _ in doc_sections(rule.doc)]
    assert headings == list(DOC_HEADINGS), rule.code
    assert rule.summary


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_doc_example_triggers_and_fix_does_not(rule):
    sections = dict(doc_sections(rule.doc))
    bad = code_blocks(sections["Example"])
    good = code_blocks(sections["Use instead"])
    assert bad and good, f"{rule.code} needs ```sbatch blocks in Example and Use instead"
    lint = {INTERNAL_ERROR: _lint_with_a_broken_rule, TOO_LARGE: _lint_padded_past_the_limit,
            TOO_LONG: _lint_padded_past_the_line_limit}.get(rule.code, lint_text)
    lint_good = lint_text
    if rule.family is Family.CLUSTER:
        # Cluster rules need a cluster: the lab profile with its GPUs' memory and the example university policy
        # (tests/cluster/rule_profiles.py).
        from functools import partial

        from tests.cluster.rule_profiles import docs_cluster

        lint = lint_good = partial(lint_text, cluster=docs_cluster())
    for text, version in bad:
        codes = {d.code for d in lint(text, version=version)}
        assert rule.code in codes, f"{rule.code} example does not trigger it:\n{text}"
    for text, version in good:
        codes = {d.code for d in lint_good(text, version=version)}
        assert rule.code not in codes, f"{rule.code} 'use instead' still triggers it:\n{text}"


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_doc_cites_nothing_outside_the_repository(rule):
    for outside in ("slurm-semantics", "prior-art", "../shared", "style-anchors"):
        assert outside not in rule.doc, f"{rule.code} cites {outside}: cite Slurm's own docs or source instead"
