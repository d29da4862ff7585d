"""``slurmspec.printable`` and what it guards: hostile text and file names in every output format (issue 21)."""

from __future__ import annotations

import io
import json
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slurmspec.cli import main
from slurmspec.printable import json_text, printable
from slurmspec.report import FORMATS
from tests.strategies import RAW_CONTROLS

# Text with every kind of character printable() must not let through, and some that it must keep. Lone
# surrogates are low ones, as surrogateescape makes them: a high one next to a low one is a pair in JSON.
any_text = st.text(st.characters(blacklist_categories=(), blacklist_characters=[chr(c) for c in range(0xD800, 0xDC00)]),
                   max_size=40) | st.lists(
    st.sampled_from(["\x1b[2J", "\x07", "\x9b", "\u202e", "\u2066", "\u2028", "\udcff", "\t", "é", "x"]),
    max_size=8).map("".join)


def test_controls_are_pictures_bidi_and_c1_are_code_points_bytes_are_hex():
    assert printable("a\x1b[2J\x07b") == "a\u241b[2J\u2407b"
    assert printable("\r\n\x00\x7f") == "\u240d\u240a\u2400\u2421"
    assert printable("\x85\x9b\u202e\u2069\u2028") == "\\u0085\\u009b\\u202e\\u2069\\u2028"
    assert printable("a\udcffb\udc80") == "a\\xffb\\x80"  # os.fsdecode(b"a\xffb\x80")
    assert printable("\ud800") == "\\ud800"


def test_ordinary_text_comes_back_as_it_is():
    text = "--time=2h is not a duration: `node[01-04]` é 🚀\tand 100%"
    assert printable(text) is text


def test_every_character_escaped_is_one_isprintable_rejects():
    # printable() and json_text() skip their search for text str.isprintable() (or, for JSON, ASCII
    # without DEL) accepts: that is only right while no character they escape is printable.
    from slurmspec.printable import _JSON_RAW, _UNSAFE

    every = "".join(map(chr, range(0x110000)))
    escaped = _UNSAFE.findall(every)
    assert len(escaped) > 2000 and not any(character.isprintable() for character in escaped)
    assert min(_JSON_RAW.findall(every)) == "\x7f"  # and nothing else ASCII


@given(any_text)
def test_printable_text_is_utf8_on_one_line_and_acts_on_nothing(text):
    shown = printable(text)
    shown.encode("utf-8")
    assert RAW_CONTROLS.search(shown) is None and "\n" not in shown
    assert len(shown.splitlines()) <= 1


@given(any_text)
def test_json_text_decodes_to_the_same_string_and_prints_nothing_raw(text):
    dumped = json_text(json.dumps({"text": text}, ensure_ascii=False))
    dumped.encode("utf-8")
    assert RAW_CONTROLS.search(dumped) is None
    assert json.loads(dumped) == {"text": text}


# ------------------------------------------------------------------ the reproductions, through the CLI
def lint_bytes(tmp_path, monkeypatch, name: bytes, data: bytes, *args: str) -> tuple[int, bytes]:
    """`slurmspec lint` of one file named ``name`` (bytes, as on disk), standard output as a strict UTF-8 pipe."""
    with open(os.path.join(os.fsencode(tmp_path), name), "wb") as handle:
        handle.write(data)
    monkeypatch.chdir(tmp_path)
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", errors="strict", write_through=True)
    monkeypatch.setattr("sys.stdout", out)
    code = main(["lint", "--no-config", "--jobs", "1", *args, os.fsdecode(name)])
    return code, raw.getvalue()


def test_sarif_with_a_file_name_that_is_not_utf8_is_a_report_not_a_traceback(tmp_path, monkeypatch):
    code, out = lint_bytes(tmp_path, monkeypatch, b"job\xff.sbatch", b"#!/bin/bash\n#SBATCH --time=2h\n",
                           "--format", "sarif")
    assert code == 1
    sarif = json.loads(out.decode("utf-8"))
    location = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location["uri"] == "job%FF.sbatch"  # the name's bytes, percent-encoded: it still names the file


def test_an_escape_sequence_in_a_value_does_not_reach_the_terminal(tmp_path, monkeypatch):
    # `--time=\e[2J` cleared the screen in `concise`.
    code, out = lint_bytes(tmp_path, monkeypatch, b"j.sbatch", b"#!/bin/bash\n#SBATCH --time=\x1b[2J\x07\n",
                           "--format", "concise")
    text = out.decode("utf-8")
    assert code == 1 and "\x1b" not in text and "\x07" not in text
    assert "`\u241b[2J\u2407` is not a Slurm duration" in text


@pytest.mark.parametrize("fmt", FORMATS)
def test_escapes_and_bytes_in_a_file_name_are_shown_not_written(tmp_path, monkeypatch, fmt):
    name = b"\x1b]0;pwned\x07\xe2\x80\xae\xff.sbatch"
    code, out = lint_bytes(tmp_path, monkeypatch, name, b"#!/bin/bash\n#SBATCH --time=2h\n", "--format", fmt)
    text = out.decode("utf-8")  # valid UTF-8: JSON, SARIF and GitLab consumers can read it
    assert code == 1 and RAW_CONTROLS.search(text) is None
    if fmt in ("json", "gitlab"):
        found = json.loads(text)
        paths = [d["path"] for d in found["diagnostics"]] if fmt == "json" else [i["location"]["path"] for i in found]
        assert set(paths) == {"\u241b]0;pwned\u2407\\u202e\\xff.sbatch"}


def test_the_caret_stays_under_its_column_after_wide_stand_ins(tmp_path, monkeypatch):
    def snippet(value: bytes) -> tuple[str, str]:
        _, out = lint_bytes(tmp_path, monkeypatch, b"j.sbatch", b"#!/bin/bash\n#SBATCH -J " + value + b" --time=2h\n",
                            "--format", "text", "--select", "SB110")
        source, caret = out.decode("utf-8").splitlines()[2:4]
        return source, caret

    source, caret = snippet(b"\xff\xfe\x1b")
    assert source.endswith("#SBATCH -J \\xff\\xfe\u241b --time=2h")
    plain_source, plain_caret = snippet(b"abc")
    # Under the same character, counted from the end of the line (the stand-ins are wider than `abc`).
    assert len(source) - caret.index("^") == len(plain_source) - plain_caret.index("^")
