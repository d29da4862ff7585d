"""The two readers of a body agree on where a here-document ends, and both follow bash.

bash ends a here-document at a line that is exactly its delimiter, or, for
``<<-``, that line once its leading tabs are removed (bash(1), "Here
Documents"); an indented ``  EOF`` is text. ``body/shell.py`` (the launch
analysis) and ``body/index.py`` (variable references, here-document records)
read the same body, so a finding never comes from a line the other treats as
text.
"""

from __future__ import annotations

from hypothesis import given, settings

from slurmspec.body.index import BodyIndex
from slurmspec.body.shell import tokenize
from slurmspec.body.tokens import Word
from slurmspec.lint import lint_text
from tests.examples import examples
from tests.strategies import heredoc_scripts


def _bash_end(text: str) -> int | None:
    """Where bash resumes reading commands after the here-document, or None if it never closes."""
    first, _, rest = text.partition("\n")
    strip = "<<-" in first
    offset = len(first) + 1
    for line in rest.split("\n"):
        if (line.lstrip("\t") if strip else line) == "EOF":
            return offset + len(line) + 1
        offset += len(line) + 1
    return None


@settings(max_examples=examples(300))
@given(heredoc_scripts())
def test_both_readers_end_the_here_document_where_bash_does(text):
    end = _bash_end(text)
    words = [t for t in tokenize(text) if isinstance(t, Word)]
    after = [w.value for w in words if w.start >= len(text.partition("\n")[0]) + 1]
    heredoc = BodyIndex.build(text, 0).heredocs[0]
    if end is None:
        assert after == [] and not heredoc.closed
    else:
        assert after == text[end:].split() and after[-3:] == ["marker", "echo", "after"]
        assert heredoc.closed and text.index("\n", heredoc.end) + 1 == end


def test_an_indented_delimiter_is_text_and_what_follows_it_too():
    """Issue 22's case: an indented `  EOF` does not end the document, so its srun line is text."""
    script = ("#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks=2\ncat <<EOF\n  EOF\n"
              "srun --ntasks=8 torchrun --nproc_per_node=8 train.py\nEOF\n")
    assert [d.code for d in lint_text(script) if d.span.line == 6] == []
