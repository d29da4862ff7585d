"""``slurmspec.frozen``: the shared ``__repr__``, ``__eq__`` and ``__hash__`` behave as attrs' compiled ones."""

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


def _compared(make):
    class Reading:
        value: int
        unit: str = attrs.field(default="s", eq=str.lower)
        note: str = attrs.field(default="", eq=False)
        tags: tuple = attrs.field(default=(), hash=False)

    return make(Reading)


def test_the_shared_equality_and_hash_are_attrs_ones():
    pairs = [((1,), (1,)), ((1, "S"), (1, "s")), ((1, "s", "a"), (1, "s", "b")), ((1,), (2,)),
             ((1, "s"), (1, "m")), ((1, "s", "", (1,)), (1, "s", "", (2,))), ((1, "s", "", (1,)), (1, "s", "", (1,)))]
    made_by_attrs, made_here = _compared(attrs.frozen), _compared(frozen)
    for left, right in pairs:
        theirs, ours = made_by_attrs(*left) == made_by_attrs(*right), made_here(*left) == made_here(*right)
        assert ours == theirs, (left, right)
        assert (made_here(*left) != made_here(*right)) == (not theirs)
        if theirs:
            assert hash(made_here(*left)) == hash(made_here(*right))
    assert made_here(1) != made_by_attrs(1)  # another class is never equal, as with attrs
    assert made_here(1).__eq__(1) is NotImplemented


def test_a_mutable_class_compares_by_value_and_is_unhashable():
    Reading = _compared(define)
    first, second = Reading(1), Reading(1)
    assert first == second
    second.value = 2
    assert first != second
    try:
        hash(first)
    except TypeError:
        pass
    else:
        raise AssertionError("a mutable attrs class with eq must be unhashable")


def test_a_class_may_keep_its_own_equality_or_none():
    @frozen
    class Loose:
        value: int

        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = object.__hash__

    @frozen(eq=False)
    class Identity:
        value: int

    assert Loose(1) == Loose(2)
    assert Identity(1) != Identity(1)
    one = Identity(1)
    assert one == one and {one: 1}[one] == 1
