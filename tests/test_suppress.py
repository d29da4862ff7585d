"""Suppression comments: where they may stand, what they cover, and the meta findings about them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from slurmspec.lint import lint_text
from slurmspec.lint.engine import lint_script, select_rules
from slurmspec.lint.suppress import find_suppressions
from slurmspec.parser.script import parse_script
from slurmspec.version import NEWEST
from tests.examples import examples


def codes(text: str) -> list[tuple[int, str]]:
    return [(d.span.line, d.code) for d in lint_text(text)]


def test_trailing_comment_on_a_directive_line():
    text = "#!/bin/bash\n#SBATCH --time=2h  # slurmspec: ignore[SB110] site wrapper converts it\nsrun x\n"
    assert codes(text) == []


def test_rule_names_and_any_case_work():
    assert codes("#!/bin/bash\n#SBATCH --time=2h # slurmspec: ignore[invalid-duration]\nsrun x\n") == []
    assert codes("#!/bin/bash\n#SBATCH --time=2h #SLURMSPEC:IGNORE[ sb110 ] why\nsrun x\n") == []
    assert codes("#!/bin/bash\n#SBATCH --time=2h #slurmspec:ignore[SB110]\nsrun x\n") == []


def test_suppression_covers_only_its_code():
    text = "#!/bin/bash\n#SBATCH --time=2h --mem=lots # slurmspec: ignore[SB110]\nsrun x\n"
    assert codes(text) == [(2, "SB112")]


def test_comment_line_directly_above():
    text = "#!/bin/bash\n# slurmspec: ignore[SB110] reason\n#SBATCH --time=2h\nsrun x\n"
    assert codes(text) == []


def test_comment_above_covers_one_line_only():
    text = "#!/bin/bash\n# slurmspec: ignore[SB110]\n#SBATCH --time=2h\n#SBATCH --begin=x --time=3h\nsrun x\n"
    assert (4, "SB110") in codes(text)
    assert (3, "SB110") not in codes(text)


def test_a_blank_or_other_line_breaks_the_link():
    text = "#!/bin/bash\n# slurmspec: ignore[SB110]\n\n#SBATCH --time=2h\nsrun x\n"
    assert codes(text) == [(2, "SB901"), (4, "SB110")]
    text = "#!/bin/bash\n# slurmspec: ignore[SB110]\n# an explanation\n#SBATCH --time=2h\nsrun x\n"
    assert codes(text) == [(2, "SB901"), (4, "SB110")]


def test_stacked_comments_above_one_line():
    text = (
        "#!/bin/bash\n# slurmspec: ignore[SB110] one\n# slurmspec: ignore[SB112] two\n"
        "#SBATCH --time=2h --mem=lots\nsrun x\n"
    )
    assert codes(text) == []


def test_file_ignore_anywhere():
    text = "#!/bin/bash\n#SBATCH --time=2h\n#SBATCH --begin=soon --time=3h\nsrun x\n# slurmspec: file-ignore[SB110, SB111]\n"
    assert codes(text) == []


def test_trailing_comment_on_a_command_line_and_quotes():
    text = "#!/bin/bash\n#SBATCH --time=10\necho 'x # slurmspec: ignore[SB110]' # slurmspec: ignore[SB001]\n"
    found = find_suppressions(parse_script(text, None, NEWEST))
    assert [s.items[0].text for s in found.suppressions] == ["SB001"]
    assert codes(text) == [(3, "SB901")]
    # A "#" inside a word is not a comment for the shell.
    text = "#!/bin/bash\necho a#slurmspec:ignore[SB001]\n"
    assert find_suppressions(parse_script(text, None, NEWEST)).suppressions == ()


def test_an_escaped_quote_does_not_open_a_string_on_a_command_line():
    # `\"` is a literal quote for the shell, so the `#` after it starts a comment.
    text = '#!/bin/bash\necho \\" x # slurmspec: ignore[SB001]\n'
    found = find_suppressions(parse_script(text, None, NEWEST))
    assert [s.items[0].text for s in found.suppressions] == ["SB001"]
    # An escaped `#` starts no comment.
    text = '#!/bin/bash\necho x \\# slurmspec: ignore[SB001]\n'
    assert find_suppressions(parse_script(text, None, NEWEST)).suppressions == ()


def test_quoted_hash_in_a_directive_is_not_the_comment():
    text = '#!/bin/bash\n#SBATCH --job-name="a # slurmspec: ignore[SB110]" --time=2h\nsrun x\n'
    assert codes(text) == [(2, "SB110")]


def test_a_continued_command_is_covered_on_every_physical_line():
    text = "#!/bin/bash\n#SBATCH -n 1\nsrun \\\n  x  # slurmspec: ignore[SB001]\n"
    found = find_suppressions(parse_script(text, None, NEWEST))
    assert found.suppressions[0].lines == frozenset({3, 4})


def test_shebang_text_is_never_a_suppression():
    text = "#!/bin/bash # slurmspec: ignore[SB110]\n#SBATCH --time=2h\n"
    assert find_suppressions(parse_script(text, None, NEWEST)) .suppressions == ()


def test_unused_suppression_points_at_the_code():
    text = "#!/bin/bash\n#SBATCH --time=30  # slurmspec: ignore[SB110, SB112]\nsrun x\n"
    found = lint_text(text)
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("SB901", 2, 40), ("SB901", 2, 47)]
    assert found[0].severity == "warning"
    assert found[0].message.startswith("`SB110` is suppressed on line 2 but nothing there reports it")


def test_unused_is_not_reported_for_rules_that_are_off():
    text = "#!/bin/bash\n#SBATCH --time=30  # slurmspec: ignore[SB110]\nsrun x\n"
    script = parse_script(text, None, NEWEST)
    assert lint_script(script, select_rules(ignore=["SB110"])) == []
    assert [d.code for d in lint_script(script)] == ["SB901"]
    assert lint_script(script, select_rules(ignore=["SB901"])) == []


def test_a_suppression_can_silence_its_own_unused_report():
    text = "#!/bin/bash\n#SBATCH --time=30  # slurmspec: ignore[SB003, unused-suppression] needed on 22.05\nsrun x\n"
    assert codes(text) == []
    text = "#!/bin/bash\n# slurmspec: file-ignore[SB901]\n#SBATCH --time=30  # slurmspec: ignore[SB110]\nsrun x\n"
    assert codes(text) == []


def test_unused_meta_code_is_reported():
    text = "#!/bin/bash\n#SBATCH --time=30  # slurmspec: ignore[SB903]\nsrun x\n"
    assert codes(text) == [(2, "SB901")]


def test_unknown_code_with_did_you_mean():
    text = "#!/bin/bash\n#SBATCH --time=2h  # slurmspec: ignore[invalid-durations, SB110]\nsrun x\n"
    found = lint_text(text)
    assert [(d.code, d.span.column) for d in found] == [("SB902", 40)]
    assert "did you mean `invalid-duration`?" in found[0].message


def test_unknown_prefix_is_explained():
    text = "#!/bin/bash\n#SBATCH --time=2h  # slurmspec: ignore[SB1]\nsrun x\n"
    found = lint_text(text)
    assert [d.code for d in found] == ["SB110", "SB902"]
    assert "code prefix" in found[1].message


@pytest.mark.parametrize("comment, fragment", [
    ("# slurmspec: ignore SB110", "needs its codes in brackets"),
    ("# slurmspec: ignore[]", "lists no rule"),
    ("# slurmspec: ignore[ , ]", "lists no rule"),
    ("# slurmspec: ignore[SB110", "Unclosed `[`"),
    ("# slurmspec: ignroe[SB110]", "did you mean `ignore`?"),
    ("# slurmspec:", "says nothing"),
    ("# slurmspec: ignore", "needs its codes in brackets"),
])
def test_malformed(comment, fragment):
    text = f"#!/bin/bash\n#SBATCH --time=2h  {comment}\nsrun x\n"
    found = lint_text(text)
    assert [d.code for d in found] == ["SB110", "SB903"]
    assert fragment in found[1].message
    assert (found[1].span.line, found[1].span.column) == (2, 20)
    assert not found[1].message.endswith(".")


def test_malformed_can_be_silenced_by_file_ignore():
    text = "#!/bin/bash\n# slurmspec: file-ignore[malformed-suppression]\n#SBATCH --time=30  # slurmspec: ignore SB110\nsrun x\n"
    assert codes(text) == []


def test_ordinary_comments_that_mention_slurmspec_are_left_alone():
    text = "#!/bin/bash\n# checked with slurmspec: see docs\n#SBATCH --time=30\nsrun x\n"
    assert codes(text) == []


def test_suppress_false_disregards_comments():
    text = "#!/bin/bash\n#SBATCH --time=2h  # slurmspec: ignore[SB110]\nsrun x\n"
    assert [d.code for d in lint_script(parse_script(text, None, NEWEST), suppress=False)] == ["SB110"]


def test_crlf_script():
    text = "#!/bin/bash\r\n#SBATCH --time=2h # slurmspec: ignore[SB110, SB105]\r\nsrun x\r\n"
    # SB105 (dos-line-breaks) is reported on line 1, so on line 2 it is unused.
    assert codes(text) == [(1, "SB105"), (2, "SB901")]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from([
    "#!/bin/bash", "#SBATCH --time=2h", "# slurmspec: ignore[SB110]", "# slurmspec: ignore[",
    "#SBATCH -t 5 # slurmspec: ignore[SB110,x,,]", "echo '# slurmspec: ignore[SB001]'",
    "srun \\", "# slurmspec: file-ignore[SB901]", "#slurmspec:", "", "  # slurmspec: ignore[SB9]",
    "echo \"a", "#SBATCH --job-name='x # slurmspec: ignore[SB1]", "\r", "cat <<EOF",
]), max_size=12), st.text(max_size=20))
def test_never_raises(lines, noise):
    lint_text("\n".join(lines) + noise)


def test_a_marker_bash_reads_as_text_suppresses_nothing():
    """Suppressions read the comments the shell lexer found: a marker in a here-document, in a quote
    opened on an earlier line, or inside a word is text to bash, so it is no suppression."""
    text = ("#!/bin/bash\n#SBATCH -n 1\nsrun true\ncat <<EOF\nx # slurmspec: ignore[SB110]\nEOF\n"
            "echo \"a\nb # slurmspec: ignore[SB110]\"\necho a#slurmspec:ignore[SB110]\n"
            "echo $(true # slurmspec: ignore[SB110]\n)\n")
    found = find_suppressions(parse_script(text, None, NEWEST))
    assert [s.span.line for s in found.suppressions] == [10]  # only the comment inside $( ), a real one
