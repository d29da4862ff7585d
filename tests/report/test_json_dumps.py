"""``report.json.dumps`` writes what ``json.dumps(indent=...)`` writes, without CPython's pure-Python encoder."""

from __future__ import annotations

import enum
import json

from hypothesis import example, given, settings
from hypothesis import strategies as st

from slurmspec.printable import json_text
from slurmspec.report.json import dumps
from tests.examples import examples


class _Level(enum.IntEnum):  # an int subclass: json writes int.__repr__, not the member's name
    HIGH = 3


class _Text(str):
    pass


_scalars = (st.none() | st.booleans() | st.integers() | st.floats() | st.text()
            | st.text().map(_Text) | st.just(_Level.HIGH))
_values = st.recursive(
    _scalars,
    lambda inner: (st.lists(inner, max_size=4) | st.lists(inner, max_size=4).map(tuple)
                   | st.dictionaries(st.text(max_size=5), inner, max_size=4)
                   # a key that is not a string: json.dumps converts it, dumps leaves it to json.dumps
                   | st.dictionaries(st.integers() | st.floats() | st.booleans() | st.none(), inner, max_size=2)),
    max_leaves=30,
)


@settings(max_examples=examples(300))
@given(value=_values, indent=st.sampled_from([0, 1, 2, 4]))
@example(value={"a": [], "b": {}, "c": [{"d": None, "e": float("nan")}], "\x1b": "\u202e"}, indent=2)
@example(value=[[], [[]], {}, {"x": {}}], indent=2)
def test_dumps_is_json_dumps_with_indent(value, indent):
    assert dumps(value, indent) == json_text(json.dumps(value, indent=indent, ensure_ascii=False))


def test_a_value_json_cannot_write_is_the_same_error():
    for value in ({"a": object()}, [1, {2, 3}]):
        try:
            json.dumps(value, indent=2)
        except TypeError as expected:
            try:
                dumps(value)
            except TypeError as raised:
                assert str(raised) == str(expected)
            else:
                raise AssertionError(f"dumps({value!r}) did not raise")
