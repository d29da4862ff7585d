"""The shipped parser tables are grammar/sbatch.lark's, and the driver tokenises exactly as lark does.

slurmspec never imports lark or unpickles anything at run time (a cached parser
in a folder another user can write is code they run as you): lark builds the
tables once, in tools/generate_parser.py, and these tests hold the two together.
"""

from __future__ import annotations

import hashlib
import importlib.util
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings

from slurmspec.parser import tables
from slurmspec.parser.grammar import line_tokens
from tests.corpus import corpus_files
from tests.strategies import script_texts
from tests.examples import examples

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "grammar" / "sbatch.lark"


def _generator():
    spec = importlib.util.spec_from_file_location("generate_parser", ROOT / "tools" / "generate_parser.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@lru_cache(maxsize=1)
def _lark():
    return _generator().build_lark(GRAMMAR.read_text(encoding="utf-8"))


def _lark_tokens(text: str) -> list[tuple[str, str, int]]:
    if not text:
        return []
    tree = _lark().parse(text)
    return [(token.type, str(token), token.start_pos) for child in tree.children for token in child.children]


def test_the_tables_are_generated_from_the_grammar_as_it_is_now():
    assert tables.GRAMMAR_SHA256 == hashlib.sha256(GRAMMAR.read_bytes()).hexdigest(), \
        "grammar/sbatch.lark changed: run python tools/generate_parser.py"
    expected = _generator().tables_source(GRAMMAR.read_text(encoding="utf-8"))
    assert (ROOT / "slurmspec" / "parser" / "tables.py").read_text(encoding="utf-8") == expected


def test_the_generated_tables_do_not_depend_on_the_hash_seed():
    # Lark numbers its states in set order; the generator renumbers them, so the check above is stable.
    for seed in ("1", "2"):
        done = subprocess.run([sys.executable, str(ROOT / "tools" / "generate_parser.py"), "--check"],
                              env={"PYTHONHASHSEED": seed, "PATH": ""}, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def test_parsing_never_imports_lark_and_never_unpickles():
    code = ("import sys; from slurmspec.parser.script import parse_script; "
            "parse_script('#!/bin/bash\\n#SBATCH -N 2\\nsrun hostname\\n'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('lark', 'pickle', '_pickle')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"


def test_the_corpus_tokenises_as_lark_tokenises_it():
    for path in corpus_files():
        text = path.read_bytes().decode("utf-8", "surrogateescape")
        assert line_tokens(text) == _lark_tokens(text), path.name


@pytest.mark.parametrize("text", [
    "", "\n", "#!", "#!/bin/bash", "#!/bin/bash\n", "#!x\n#!y\n", " #!x", "\\", "\\\n", "a\\\n#SBATCH\n",
    "#SBATCH", "#SLURM -N1\n", "  #SBATCH -N 2", "# sbatch x", "#c\n \t\n\r\n", " \v\f\r", "x # y\n\n\n",
])
def test_edge_cases_tokenise_as_lark_tokenises_them(text):
    assert line_tokens(text) == _lark_tokens(text)


@settings(max_examples=examples(300))
@given(script_texts())
def test_script_text_tokenises_as_lark_tokenises_it(text):
    tokens = line_tokens(text)
    assert tokens == _lark_tokens(text)
    assert "".join(token for _, token, _ in tokens) == text
