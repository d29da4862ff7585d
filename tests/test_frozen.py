"""``slurmspec.frozen``: the shared ``__repr__`` prints what attrs' compiled one prints."""

from __future__ import annotations

import attrs

from slurmspec.frozen import as_tuple, define, frozen


def _twins(**options):
    """The same class made by attrs and by slurmspec.frozen."""

    def body():
        class Point:
            x: int
            label: str = attrs.field(default="p", repr=lambda value: f"<{value}>")
            secret: str = attrs.field(default="s", repr=False)
            items: tuple = attrs.field(default=(), converter=as_tuple)

        return Point

    return attrs.frozen(**options)(body()), frozen(**options)(body())


def test_the_shared_repr_is_attrs_repr():
    made_by_attrs, made_here = _twins()
    for args in [(1,), (2, "q", "hidden", [1, "a"]), (None, "", "", ())]:
        assert repr(made_here(*args)) == repr(made_by_attrs(*args))
    assert repr(made_here(1)) == "Point(x=1, label=<p>, items=())"


def test_options_pass_through_and_equality_stays_by_value():
    made_by_attrs, made_here = _twins(order=True, kw_only=True)
    assert made_here(x=1, items=[2]) == made_here(x=1, items=(2,))
    assert made_here(x=1) < made_here(x=2)
    assert repr(made_here(x=3)) == repr(made_by_attrs(x=3))
    assert hash(made_here(x=1)) == hash(made_here(x=1))


def test_nested_classes_are_named_as_attrs_names_them():
    def outer():
        @frozen
        class Inner:
            value: int

        @attrs.frozen
        class Twin:
            value: int

        return Inner, Twin

    inner, twin = outer()
    assert repr(inner(1)) == repr(twin(1)).replace("Twin", "Inner") == "Inner(value=1)"


def test_a_class_may_keep_its_own_repr_or_none():
    @define
    class Mutable:
        value: int

        def __repr__(self) -> str:
            return "mine"

    @frozen(repr=False)
    class Quiet:
        value: int

    thing = Mutable(1)
    thing.value = 2
    assert repr(thing) == "mine"
    assert repr(Quiet(1)).startswith("<")
