"""convert over the real-world corpus: never crashes, and emitting the result asks for the same thing.

The figure (how many of the corpus scripts round-trip their effective request
per hetjob component) is asserted exactly, so a regression names the file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from slurmspec.emit import emit
from slurmspec.parser.script import parse_script
from slurmspec.spec import load_spec
from slurmspec.emit.convert import convert_script
from slurmspec.spec.toml_write import to_toml

from tests.corpus import corpus_files


def effective(script) -> list[dict]:
    return [{s.name: s.value for s in c.request.settings} for c in script.components]


@pytest.mark.parametrize("version", [(22, 5), (26, 5)], ids=["22.05", "26.05"])
def test_corpus_round_trips_the_effective_request(version):
    failures = []
    for path in corpus_files():
        original = parse_script(path.read_bytes(), str(path), version)
        spec = convert_script(original)
        assert load_spec(to_toml(spec), version) == spec, path  # the TOML text carries it all
        again = parse_script(emit(spec), str(path), version)
        if effective(again) != effective(original):
            failures.append(path.name)
    assert failures == []  # every script keeps its request, hetjob components included
