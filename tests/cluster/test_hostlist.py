"""Slurm host lists: expanding what scontrol prints, compressing what a profile writes."""

from __future__ import annotations

import pytest
from hypothesis import example, given

from slurmspec.cluster.hostlist import HostlistError, compress_hostlist, expand_hostlist, sorted_hostnames
from tests.strategies import node_names


@pytest.mark.parametrize(("text", "names"), [
    ("a100-[01-04]", ("a100-01", "a100-02", "a100-03", "a100-04")),
    ("a[01-03],b", ("a01", "a02", "a03", "b")),
    ("a[1,3-4]", ("a1", "a3", "a4")),
    ("a[8-11]", ("a8", "a9", "a10", "a11")),  # no zero padding: the width grows
    ("a[098-101]", ("a098", "a099", "a100", "a101")),
    ("r[1-2]n[1-2]", ("r1n1", "r1n2", "r2n1", "r2n2")),  # brackets multiply
    ("a[1-2]-ib", ("a1-ib", "a2-ib")),
    ("vm", ("vm",)),
    ("a1,a1,a[1-2]", ("a1", "a2")),  # each name once
    (" a1 , b ", ("a1", "b")),
    ("", ()),
])
def test_expand(text, names):
    assert expand_hostlist(text) == names


@pytest.mark.parametrize("text", ["a[1-2", "a]1", "a[[1]]", "a[2-1]", "a[x]", "a[1-]", "a[0-99999999]"])
def test_expand_refuses_broken_lists(text):
    with pytest.raises(HostlistError):
        expand_hostlist(text)


@pytest.mark.parametrize(("names", "text"), [
    (["a100-01", "a100-02", "a100-03", "a100-04"], "a100-[01-04]"),
    (["cpu-001", "cpu-016", "cpu-002"], "cpu-[001-002,016]"),
    (["a9", "a10", "a11"], "a[9-11]"),
    (["a01", "a10"], "a[01,10]"),  # 10 fits the padded width 2
    (["vm"], "vm"),
    (["n1"], "n1"),
    (["x", "x1", "x2"], "x,x[1-2]"),
    (["a1-ib", "a2-ib", "a1"], "a1,a[1-2]-ib"),
    ([], ""),
])
def test_compress(names, text):
    assert compress_hostlist(names) == text


@given(node_names())
@example(["a9", "a10", "a010"])
@example(["a0", "a00", "a000"])
@example(["r1n1", "r2n1", "r1n2"])
@example(["x", "x1", "x01", "x-1-", "x-1-1"])
def test_compress_then_expand_gives_back_the_same_names(names):
    text = compress_hostlist(names)
    back = expand_hostlist(text)
    assert sorted(back) == sorted(set(names))
    assert len(back) == len(set(back))
    assert compress_hostlist(back) == text  # canonical: compressing again changes nothing
    assert sorted_hostnames(names) == back
