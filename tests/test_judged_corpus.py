"""The judged corpus (docs/judged.md): every finding on ../shared/corpus/real judged, and the default selection
chosen by those judgements.

The policy checks (rules/selection.py against rules/judged.py) run everywhere; the corpus checks need
``../shared`` and skip without it (fail under CI=true, like every corpus test).
"""

from __future__ import annotations

import importlib.util
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from slurmspec.lint.engine import default_codes, registry
from slurmspec.rules.judged import JUDGED, SCRIPTS
from slurmspec.rules.selection import DEFAULT
from slurmspec.rules.selection_policy import BAR, MIN_JUDGED, qualifies, share
from tests.corpus import corpus_files

TOOL = Path(__file__).resolve().parent / "corpus" / "judge.py"

# One worker runs them all: the corpus comparison (a module fixture, about 10 CPU seconds: the
# whole corpus linted in every configuration) is then made once, not once per worker.
pytestmark = pytest.mark.xdist_group("judged-corpus")


def _load_tool():
    # tests/corpus/judge.py is a script (tests/corpus.py owns the name `tests.corpus`): load it by path.
    spec = importlib.util.spec_from_file_location("judge_corpus", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


judge = _load_tool()


@pytest.fixture(scope="module")
def comparison():
    corpus_files()  # skips (fails under CI) without the corpus
    found = judge.collect()
    return found, judge.compare(found, judge.read_judgements())


def _where(key) -> str:
    file, line, code = key
    return f"{file}:{line} {code}"


# --- everywhere: the data files and the policy ---------------------------------------------------


def test_judgements_file_is_well_formed_and_judges_each_key_once_per_configuration():
    rows = judge.read_judgements()  # raises on a malformed row, naming it
    assert rows, "tests/corpus/judgements.tsv has no judgement"
    seen: dict[tuple, int] = {}
    for row in rows:
        for config in row.configs or judge.CONFIGS:
            assert (row.key, config) not in seen, (
                f"{_where(row.key)} judged twice in {config}: rows {seen[(row.key, config)]} and {row.row}")
            seen[(row.key, config)] = row.row


def test_compare_finds_the_unjudged_the_stale_and_the_doubly_judged(tmp_path):
    """The checks below rest on judge.compare(): a finding no row covers, a row no finding matches, two rows for
    one finding in one configuration."""
    table = tmp_path / "judgements.tsv"
    table.write_text(
        "# comment\n"
        "a.sbatch\t3\tSB201\t*\treal\tignored directive\n"
        "a.sbatch\t5\tSB230\t22.05\treal\tfails on 22.05\n"
        "a.sbatch\t5\tSB230\tnewest,22.05\tlow\tcreated from 23.02\n"
        "b.sbatch\t1\tSB103\t*\treal\tno shebang\n")
    rows = judge.read_judgements(table)
    found = {key: judge.Finding(key, set(configs), {"m"}) for key, configs in {
        ("a.sbatch", 3, "SB201"): {"22.05", "newest+lab"},
        ("a.sbatch", 5, "SB230"): {"22.05", "newest", "22.05+lab"},
    }.items()}
    result = judge.compare(found, rows)
    assert result.unjudged == {("a.sbatch", 5, "SB230"): {"22.05+lab"}}
    assert [j.key for j in result.stale] == [("b.sbatch", 1, "SB103")]
    assert result.ambiguous == [(("a.sbatch", 5, "SB230"), "22.05", [3, 4])]
    assert result.verdicts[(("a.sbatch", 5, "SB230"), "newest")].verdict == "low"
    tallies = judge.per_rule(result)
    assert (tallies["SB230"].real, tallies["SB230"].low) == (1, 1) and tallies["SB201"].real == 1


def test_a_malformed_judgement_names_its_row(tmp_path):
    table = tmp_path / "judgements.tsv"
    for bad, fragment in (("a.sbatch\t3\tSB201\t*\tmaybe\twhy", "verdict 'maybe'"),
                          ("a.sbatch\tx\tSB201\t*\treal\twhy", "is not a number"),
                          ("a.sbatch\t3\tSB201\t24.11\treal\twhy", "unknown configuration"),
                          ("a.sbatch\t3\tSB201\t*\treal\t ", "needs a reason"),
                          ("a.sbatch\t3\tSB201\treal", "4 columns")):
        table.write_text("# header\n" + bad + "\n")
        with pytest.raises(judge.JudgementError, match=fragment):
            judge.read_judgements(table)


def test_the_default_list_follows_the_policy():
    """rules/selection.py's DEFAULT is written out; it must be what the policy makes of the judged counts."""
    table = registry()
    assert DEFAULT <= table.keys(), f"DEFAULT names no rule: {sorted(DEFAULT - table.keys())}"
    disagree = []
    for code, rule in table.items():
        wanted, why = qualifies(rule, JUDGED)
        if wanted != (code in DEFAULT):
            disagree.append(f"{code}: {'add to' if wanted else 'remove from'} DEFAULT ({why})")
    assert not disagree, "rules/selection.py DEFAULT disagrees with its policy:\n" + "\n".join(disagree)
    assert default_codes() == DEFAULT


def test_every_default_rule_meets_the_bar():
    for code in sorted(DEFAULT):
        counts = JUDGED.get(code)
        if counts is None:
            continue
        assert counts[2] == 0, f"{code} is default with {counts[2]} wrong finding(s) on the corpus"
        if sum(counts) >= MIN_JUDGED and not code.startswith("SB9"):  # meta: about slurmspec, not the script
            assert share(counts) >= BAR, f"{code} is default but only {counts[0]} of {sum(counts)} findings are real"


def test_the_policy_is_what_docs_judged_md_says():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "judged.md").read_text(encoding="utf-8")
    assert BAR == Fraction(2, 3) and "**two thirds**" in doc
    assert f"at least {MIN_JUDGED} judged findings" in doc


# --- with the corpus ----------------------------------------------------------------------------


def test_every_corpus_finding_is_judged_and_no_judgement_is_stale(comparison):
    found, result = comparison
    unjudged = [f"{_where(key)} in {', '.join(sorted(configs))}: {sorted(found[key].messages)[0][:160]}"
                for key, configs in sorted(result.unjudged.items())]
    stale = [f"judgements.tsv:{j.row} {_where(j.key)} ({j.verdict})" for j in result.stale]
    assert not unjudged and not stale, (
        f"{len(unjudged)} finding(s) without a judgement, {len(stale)} judgement(s) naming no finding "
        "(python tests/corpus/judge.py --unjudged / --stale):\n" + "\n".join((unjudged + stale)[:40]))


def test_judged_counts_module_is_in_sync(comparison):
    found, result = comparison
    expected = judge.judged_module(judge.per_rule(result), len(corpus_files()))
    actual = judge.JUDGED_MODULE.read_text(encoding="utf-8")
    assert actual == expected, "rules/judged.py is out of date: run python tests/corpus/judge.py --write"
    assert SCRIPTS == len(corpus_files())


@pytest.mark.parametrize("config", list(judge.CONFIGS))
def test_default_selection_is_two_thirds_real_and_never_wrong(comparison, config):
    _, result = comparison
    tally = judge.per_config(result, DEFAULT)[config]
    wrong = [_where(key) for (key, where), j in result.verdicts.items()
             if where == config and key[2] in DEFAULT and j.verdict == "wrong"]
    assert not wrong, f"default rules judged wrong in {config}: {wrong}"
    assert tally.total and Fraction(tally.real, tally.total) >= BAR, (
        f"{config}: the default selection's findings are {tally.real} real, {tally.low} low of {tally.total}")
