"""bash is the oracle for the lexer's references: a ``$NAME`` it records as expanded by the batch
shell (not ``deferred``) is one bash expands, and every other one bash leaves alone.

Each generated body references ``V0``, ``V1``, ... once, in quotes, escapes, command and
arithmetic substitutions, parameter defaults, comments and here-documents; bash runs it with
each ``Vn`` set to a marker, and the markers in its output are the references it expanded.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from hypothesis import example, given, settings

from slurmspec.body.index import BodyIndex
from slurmspec.body.lexicon import MAX_NESTING
from slurmspec.parser.script import parse_script
from tests.examples import examples
from tests.strategies import bodies_with_references

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is not installed")


def _expanded_by_bash(body: str, names: list[str]) -> set[str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **{name: f"@{name}@" for name in names}}
    run = subprocess.run([BASH, "--norc", "--noprofile", "-c", body], env=env, capture_output=True,
                         text=True, timeout=30)
    out = run.stdout + run.stderr  # an expanded marker in $(( )) shows in bash's error message
    return {name for name in names if f"@{name}@" in out}


def _expanded_by_lexer(body: str, names: list[str]) -> set[str]:
    return {ref.name for ref in BodyIndex.build(body, 0).refs if not ref.deferred and ref.name in names}


@settings(max_examples=examples(200), deadline=None)
@given(bodies_with_references())
@example(("echo \"$(echo '$V0')\"\nx=$(cat <<EOF\n$V1\nEOF\n); echo \"$x\"\ncat <<\\EOF\n$V2\nEOF\n",
          ["V0", "V1", "V2"]))
def test_the_lexer_expands_what_bash_expands(case):
    body, names = case
    assert _expanded_by_lexer(body, names) == _expanded_by_bash(body, names), body


def test_a_quoted_delimiter_of_any_spelling_defers_the_here_document():
    for opener in ("<<'EOF'", '<<"EOF"', "<<\\EOF", "<<E'O'F"):
        index = BodyIndex.build(f"cat {opener}\n$X\nEOF\necho $Y\n", 0)
        assert [(d.delimiter, d.quoted, d.first_line, d.last_line) for d in index.heredocs] == [("EOF", True, 2, 3)]
        assert [(r.name, r.deferred) for r in index.refs] == [("X", True), ("Y", False)]


def test_quotes_inside_a_command_substitution_nest_in_its_quotes():
    text = "echo \"a $(echo 'b c') d\" e\n"
    index = BodyIndex.build(text, 0)
    assert [(text[q.start:q.end], q.quote) for q in index.quoted] == [("\"a $(echo 'b c') d\"", '"'), ("'b c'", "'")]
    assert index.quote_at(text.index("d\"")).quote == '"'  # after the inner quote closed, still in the outer
    assert index.quote_at(text.index("b c")).quote == "'"
    assert index.quote_at(text.index(" e")) is None


def test_deep_nesting_is_read_to_a_bound_without_recursing_without_end():
    depth = 5000
    text = "echo " + "$(echo " * depth + "$X" + ")" * depth + "\n$Y\n"
    refs = BodyIndex.build(text, 0).refs
    assert [r.name for r in refs] == ["Y"]  # $X is deeper than MAX_NESTING: not followed
    shallow = "echo " + "$(echo " * MAX_NESTING + "$X" + ")" * MAX_NESTING + "\n"
    assert [r.name for r in BodyIndex.build(shallow, 0).refs] == ["X"]


def test_the_launch_analysis_pass_gives_the_index_it_would_build_itself():
    text = "#!/bin/bash\n#SBATCH -n 2\nsrun bash -c 'echo $SLURM_PROCID' <<'EOF'\n$A\nEOF\necho \"$(echo \"$B\")\"\n"
    script = parse_script(text)
    from_pass = BodyIndex.build(text, script.header_end, script.body.heads, script.body.lexicon)
    fresh = BodyIndex.build(text, script.header_end)
    assert script.body.lexicon is not None
    assert (from_pass.refs, from_pass.heredocs, from_pass.quoted) == (fresh.refs, fresh.heredocs, fresh.quoted)
    assert [(r.name, r.deferred) for r in fresh.refs] == [("SLURM_PROCID", True), ("A", True), ("B", False)]
