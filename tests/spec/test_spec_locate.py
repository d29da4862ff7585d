"""The TOML key locator and did-you-mean used by spec error messages."""

from __future__ import annotations

import pytest

from slurmspec.hints import did_you_mean_any_spelling as did_you_mean
from slurmspec.spec.locate import locate

SOURCE = """\
# a comment
[job]
name = "x"   # trailing
"time" = 10

[resources]
nodes = 2
launch.kind = 1

[launch]
container = { image = "img", runtime = "pyxis" }

[[hetjob]]
options = ["--ntasks=1"]

[[hetjob]]
  options = []
"""


@pytest.mark.parametrize(("path", "expected"), [
    (("job", "name"), (3, 1)),
    (("job", "time"), (4, 1)),
    (("resources", "nodes"), (7, 1)),
    (("launch", "container", "runtime"), (11, 30)),
    (("launch", "container", "image"), (11, 15)),
    (("hetjob", 0, "options"), (14, 1)),
    (("hetjob", 1, "options"), (17, 3)),
    (("job",), (2, 1)),
    (("nosuch", "key"), (1, 1)),
    (("job", "nosuch"), (2, 1)),
    ((), (1, 1)),
])
def test_locate(path, expected):
    assert locate(SOURCE, path) == expected


def test_locate_dotted_table_header():
    source = '[tool]\nx = 1\n[ launch . container ]\nimage = "i"\n'
    assert locate(source, ("launch", "container", "image")) == (4, 1)


def test_locate_ignores_commented_out_keys():
    assert locate('[job]\n# name = "a"\nname = "b"\n', ("job", "name")) == (3, 1)


@pytest.mark.parametrize(("word", "candidates", "hint"), [
    ("nmae", ["name", "time"], "; did you mean `name`?"),
    ("ntasks-per-node", ["ntasks_per_node", "nodes"], "; did you mean `ntasks_per_node`?"),
    ("NAME", ["name"], "; did you mean `name`?"),
    ("zzzzzz", ["name", "time"], ""),
    ("x", [], ""),
])
def test_did_you_mean(word, candidates, hint):
    assert did_you_mean(word, candidates) == hint
