"""Tests for the tolerant shell splitter: words, offsets, separators, here-docs, wrappers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from slurmspec.body.commands import declarations, split_commands
from slurmspec.body.shell import tokenize
from slurmspec.body.tokens import Op, Word
from slurmspec.body.wrappers import quoted_content, unwrap
from tests.strategies import shell_bodies
from tests.examples import examples


def words(text: str) -> list[list[str]]:
    return [[w.value for w in c.words] for c in split_commands(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("srun -n 8 python x.py", [["srun", "-n", "8", "python", "x.py"]]),
        ("a; b && c || d | e & f", [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]),
        ("echo 'a b' \"c $X d\" e\\ f", [["echo", "a b", "c $X d", "e f"]]),
        ("srun \\\n  -n 2 \\\n  python x.py", [["srun", "-n", "2", "python", "x.py"]]),
        ("echo hi # srun -n 2\nsrun", [["echo", "hi"], ["srun"]]),
        ("x=$(srun hostname | head -1) y=2", []),  # assignments only
        ("echo $(a \"$(b)\" ')') c", [["echo", "$(a \"$(b)\" ')')", "c"]]),
        ("echo ${A:-$(x)} `y z`", [["echo", "${A:-$(x)}", "`y z`"]]),
        ("srun x > out.log 2>&1 < in", [["srun", "x"]]),
        ("cmd &> log; cmd2 >>log", [["cmd"], ["cmd2"]]),
        ("diff <(a) >(b)", [["diff", "<(a)", ">(b)"]]),
        ("(( i++ )); srun x", [["(( i++ ))"], ["srun", "x"]]),
        ("echo a#b #c", [["echo", "a#b"]]),
        ("echo $'a\\'b' c", [["echo", "a'b", "c"]]),  # ANSI-C quote: \' does not close it
    ],
)
def test_split_words(text: str, expected: list[list[str]]) -> None:
    assert [w for w in words(text) if w] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("if srun a; then\n srun b\nelse srun c\nfi\nsrun d", [("if",), ("if",), ("if",), ()]),
        ("for i in 1 2; do srun $i; done; srun z", [("for",), ()]),
        ("while read l; do\n  srun x\ndone", [("while",), ("while",)]),
        ("case $x in\n a|b) srun a ;;\n *) srun b ;;\nesac\nsrun c", [("case",), ("case",), ()]),
        ("f() {\n  srun a\n}\nsrun b", [("function",), ()]),
        ("function g {\n srun a\n}", [("function",)]),
        ("( cd x && srun a )\nsrun b", [("subshell",), ("subshell",), ()]),
        ("{ srun a; } > log", [("group",)]),
        ("[[ -f a && -d b ]] && srun a", [()]),
        ("fi\ndone\nsrun a", [()]),  # stray closers are ignored
    ],
)
def test_context(text: str, expected: list[tuple[str, ...]]) -> None:
    assert [c.context for c in split_commands(text)] == expected


def test_background_and_pipes() -> None:
    cmds = split_commands("a && b &\nc | d\ne")
    assert [(c.background, c.piped) for c in cmds] == [(True, False), (True, False), (False, True), (False, True), (False, False)]


@pytest.mark.parametrize(
    "text",
    [
        "cat <<EOF\nsrun inside\nEOF\nsrun after",
        "cat <<-'EOF' > f\n\tsrun inside\n\tEOF\nsrun after",
        'cat << "END"; echo x\nsrun inside\nEND\nsrun after',
        "cat <<A <<B\nsrun a\nA\nsrun b\nB\nsrun after",
        "python - <<EOF\nimport os\nEOF\nsrun after",
    ],
)
def test_heredoc_bodies_are_skipped(text: str) -> None:
    found = [c.words[0].value for c in split_commands(text) if c.words and c.words[0].value == "srun"]
    assert found == ["srun"]
    assert split_commands(text)[-1].words[-1].value == "after"


def test_heredoc_without_delimiter_swallows_rest() -> None:
    assert words("cat <<EOF\nsrun a\nsrun b") == [["cat"]]


def test_here_string_is_not_a_heredoc() -> None:
    assert words("read a <<< \"$x\"\nsrun b") == [["read", "a"], ["srun", "b"]]


def test_offsets_are_absolute_and_match_source() -> None:
    text = "A=1 srun \\\n  -n 'x y' train.py"
    toks = tokenize(text, base=100)
    ws = [t for t in toks if isinstance(t, Word)]
    for w in ws:
        assert text[w.start - 100 : w.end - 100] == w.text
    assert [w.value for w in ws] == ["A=1", "srun", "-n", "x y", "train.py"]


def test_unterminated_quote_is_cut_at_end_of_line() -> None:
    assert words("echo 'oops\nsrun -n 2 x") == [["echo", "oops"], ["srun", "-n", "2", "x"]]
    assert words('echo "oops\nsrun x') == [["echo", "oops"], ["srun", "x"]]
    assert words("echo $(oops\nsrun x")[-1] == ["srun", "x"]


def test_assignments_and_exports() -> None:
    cmds = split_commands('export A=1 B="x y" C\nD=4 srun x\nE=5\ndeclare -x F=6\nlocal G=7\nH+=8\nI=(a "b c")')
    got = [(a.name, a.value, a.kind) for c in cmds for a in (c.assignments + declarations(c))]
    assert got == [
        ("A", "1", "export"), ("B", "x y", "export"), ("C", None, "export"), ("D", "4", "prefix"),
        ("E", "5", "shell"), ("F", "6", "export"), ("G", "7", "shell"), ("H", "8", "shell"),
        ("I", '(a "b c")', "shell"),
    ]
    (b,) = [a for a in declarations(cmds[0]) if a.name == "B"]
    assert b.raw == '"x y"'
    assert b.value_start == len("export A=1 B=")


@pytest.mark.parametrize(
    ("text", "index", "wrappers"),
    [
        ("exec srun x", 1, ("exec",)),
        ("time -p srun x", 2, ("time",)),
        ("nohup srun x", 1, ("nohup",)),
        ("env -u X A=1 B=2 srun x", 5, ("env",)),
        ("stdbuf -o L -eL srun x", 4, ("stdbuf",)),
        ("numactl --cpunodebind=0 -m 0 python x", 4, ("numactl",)),
        ("timeout -s INT 2h srun x", 4, ("timeout",)),
        ("apptainer exec --nv -B /a:/b img.sif torchrun x", 6, ("apptainer exec",)),
        ("singularity run img.sif python x", 3, ("singularity run",)),
        ("conda run -n env --no-capture-output python x", 5, ("conda run",)),
        ("exec time nohup srun x", 3, ("exec", "time", "nohup")),
        ("command -v srun", 3, ()),
        ("srun x", 0, ()),
    ],
)
def test_unwrap(text: str, index: int, wrappers: tuple[str, ...]) -> None:
    ws = split_commands(text)[0].words
    u = unwrap(ws)
    assert (u.index, u.wrappers) == (index, wrappers)


def test_unwrap_env_and_image() -> None:
    u = unwrap(split_commands("env NCCL_DEBUG=INFO apptainer exec img.sif srun x")[0].words)
    assert [a.name for a in u.env] == ["NCCL_DEBUG"]
    assert u.image is not None and u.image.value == "img.sif"


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("'a \"b\" c'", 'a "b" c'),
        ('"a \\"b\\" $X"', 'a "b" $X'),
        ('"a \\\nb"', "a b"),
        ("plain", None),
        ("'a'b", None),
    ],
)
def test_quoted_content(text: str, content: str | None) -> None:
    (word,) = [t for t in tokenize(text, 10) if isinstance(t, Word)]
    got = quoted_content(word)
    if content is None:
        assert got is None
        return
    assert got is not None
    decoded, offsets = got
    assert decoded == content
    assert len(offsets) == len(decoded)
    for ch, off in zip(decoded, offsets):
        assert text[off - 10] == ch


@settings(max_examples=examples(300))
@given(shell_bodies())
def test_tokenize_never_raises_and_stays_in_bounds(text: str) -> None:
    base = 7
    toks = tokenize(text, base)
    last = base
    for t in toks:
        assert base <= t.start <= t.end <= base + len(text)
        assert t.start >= last or isinstance(t, Op)  # tokens come in order
        last = t.start
    for c in split_commands(text, base):
        assert base <= c.start <= c.end <= base + len(text)
