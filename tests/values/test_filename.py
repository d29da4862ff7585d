"""--output/--error/--input filename patterns."""

from __future__ import annotations

from hypothesis import given, strategies as st

from slurmspec.model.values.filename import parse_filename
from slurmspec.version import SUPPORTED, parse_version

VERSIONS = st.sampled_from([parse_version(v) for v in SUPPORTED])
TEXT = st.one_of(st.text(), st.text(alphabet="%0123456789AajJNnstuxbrSq\\/._", max_size=20))


def test_tokens_with_width_and_offsets():
    v = parse_filename("logs/%x_%4j.%A_%a.out", (22, 5)).value
    assert [(t.spec, t.width, t.start, t.end) for t in v.tokens] == [
        ("x", None, 5, 7), ("j", 4, 8, 11), ("A", None, 12, 14), ("a", None, 15, 17)]
    assert not v.escaped and not v.is_none


def test_none_and_percent_escape():
    assert parse_filename("NONE", (22, 5)).value.is_none
    pct = parse_filename("100%%.out", (22, 5))
    assert pct.problems == () and pct.value.tokens[0].spec == "%"


def test_unknown_token_is_accepted_with_warning():
    # checked against sbatch 22.05.8: sbatch stores the pattern verbatim
    parsed = parse_filename("out_%q.txt", (22, 5))
    assert parsed.ok and "`%q`" in parsed.problems[0].message
    assert (parsed.problems[0].start, parsed.problems[0].end) == (4, 6)


def test_backslash_disables_expansion():
    parsed = parse_filename("out\\%j", (22, 5))
    assert parsed.ok and parsed.value.escaped
    assert "backslash" in parsed.problems[0].message


def test_numeric_name_and_width():
    assert "task number" in parse_filename("3", (22, 5)).problems[0].message
    wide = parse_filename("%12j", (22, 5))
    assert wide.ok and "capped at 10" in wide.problems[0].message
    assert "no effect" in parse_filename("%5u", (22, 5)).problems[0].message


def test_version_dependent_specs():
    assert parse_filename("%b", (24, 5)).problems      # 24.11+
    assert parse_filename("%b", (24, 11)).problems == ()
    assert parse_filename("%r_%S", (25, 5)).problems    # 25.11+
    assert parse_filename("%r_%S", (25, 11)).problems == ()


@given(TEXT, VERSIONS)
def test_never_raises_and_offsets_in_range(text, version):
    for p in parse_filename(text, version).problems:
        assert 0 <= p.start <= p.end <= len(text)
