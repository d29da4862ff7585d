"""Tests for the body index: variable references, here-documents, quoted ranges, commands."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from slurmspec.body.index import BodyIndex, first_word, variable_refs
from tests.strategies import shell_bodies
from tests.examples import examples


def refs(text: str) -> list[tuple[str, bool, bool]]:
    """(name, deferred, default) of every reference in ``text``."""
    return [(r.name, r.deferred, r.default) for r in variable_refs(text, 0)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("echo $X ${Y}", [("X", False, False), ("Y", False, False)]),
        ("echo '$X'", [("X", True, False)]),
        ("srun bash -c 'echo $SLURM_PROCID'", [("SLURM_PROCID", True, False)]),
        ('echo "$X"', [("X", False, False)]),
        ("echo \"it's $X\"", [("X", False, False)]),  # a ' inside double quotes opens nothing
        ('echo "\\$X"', [("X", True, False)]),
        ("echo \\$X", [("X", True, False)]),
        ("echo ${X:-d} ${Y-d} ${Z:=d} ${W:+d} ${V:?d}",
         [("X", False, True), ("Y", False, True), ("Z", False, True), ("W", False, True), ("V", False, True)]),
        ("echo ${X%.out} ${#Y}", [("X", False, False)]),  # no default; ${#Y} is a length, not read here
        ("echo $1 $$ $? $", []),
        ("echo hi # $X in a comment\necho $Y", [("Y", False, False)]),
        ("echo a#$X", [("X", False, False)]),  # `#` inside a word is no comment
        ("x=$(hostname $H)", [("H", False, False)]),
    ],
)
def test_references(text, expected):
    assert refs(text) == expected


def test_offsets_are_absolute_and_cover_the_braces():
    text = "#!/bin/bash\necho ${SLURM_TMPDIR:-/tmp}/x $A\n"
    found = variable_refs(text, 12)
    assert [(r.name, text[r.start:r.end]) for r in found] == [
        ("SLURM_TMPDIR", "${SLURM_TMPDIR:-/tmp}"), ("A", "$A"),
    ]


def test_escaped_reference_is_deferred_and_marked_escaped():
    (ref,) = variable_refs("srun bash -c \"echo \\$SLURM_PROCID\"", 0)
    assert ref.deferred and ref.escaped
    (ref,) = variable_refs("echo '$X'", 0)
    assert ref.deferred and not ref.escaped


def test_heredoc_with_quoted_delimiter_is_deferred():
    text = "cat <<'EOF' > run.sh\necho $SLURM_PROCID\nEOF\necho $X\n"
    assert refs(text) == [("SLURM_PROCID", True, False), ("X", False, False)]
    (doc,) = BodyIndex.build(text, 0).heredocs
    assert (doc.delimiter, doc.quoted, doc.strip_tabs, doc.closed) == ("EOF", True, False, True)
    assert (doc.first_line, doc.last_line) == (2, 3)
    assert text[doc.start:doc.end] == "echo $SLURM_PROCID\n"


def test_heredoc_with_plain_delimiter_is_expanded_except_escapes():
    text = "cat <<EOF\n$A \\$B\nEOF\n"
    assert refs(text) == [("A", False, False), ("B", True, False)]
    (doc,) = BodyIndex.build(text, 0).heredocs
    assert not doc.quoted


def test_heredoc_dash_strips_tabs_and_unclosed_runs_to_the_end():
    text = 'cat <<-"END"\n\t$A\n\tEND\ncat <<X\n$B\n'
    index = BodyIndex.build(text, 0)
    first, second = index.heredocs
    assert (first.quoted, first.strip_tabs, first.closed, first.first_line, first.last_line) == (True, True, True, 2, 3)
    assert (second.delimiter, second.closed, second.first_line, second.last_line) == ("X", False, 5, 5)
    assert [(r.name, r.deferred) for r in index.refs] == [("A", True), ("B", False)]
    assert index.heredoc_at(text.index("$B")) is second
    assert index.heredoc_at(0) is None


def test_here_string_is_not_a_heredoc():
    index = BodyIndex.build("cat <<< $X\necho $Y\n", 0)
    assert index.heredocs == ()
    assert [r.name for r in index.refs] == ["X", "Y"]


def test_quoted_ranges():
    text = "echo 'a $X' \"b $Y\" c 'open"
    index = BodyIndex.build(text, 0)
    assert [(text[q.start:q.end], q.quote) for q in index.quoted] == [
        ("'a $X'", "'"), ('"b $Y"', '"'), ("'open", "'"),
    ]
    assert index.quote_at(text.index("$Y")).quote == '"'
    assert index.quote_at(text.index(" c ")) is None


def test_command_at_and_first_word():
    text = "#!/bin/bash\nfor i in 1 2; do\n  /usr/bin/srun -n $N ./app\ndone\necho $X\n"
    index = BodyIndex.build(text, 12)
    assert index.first_word_at(text.index("$N")) == "srun"
    assert index.first_word_at(text.index("$X")) == "echo"
    assert index.command_at(0) is None
    assert first_word(None) == ""


def test_nothing_before_the_start_is_read():
    text = "#SBATCH --output=$X\necho $Y\n"
    assert [r.name for r in BodyIndex.build(text, text.index("echo")).refs] == ["Y"]
    assert BodyIndex.build(text, len(text) + 5) == BodyIndex()


@settings(max_examples=examples(200), deadline=None)
@given(shell_bodies())
def test_never_raises_and_references_lie_in_the_text(text):
    index = BodyIndex.build(text, 0)
    for ref in index.refs:
        assert 0 <= ref.start < ref.end <= len(text)
        assert text[ref.start] == "$"
    for doc in index.heredocs:
        assert 0 <= doc.start <= doc.end <= len(text)
        assert doc.first_line <= doc.last_line + 1
