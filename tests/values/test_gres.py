"""--gres, --gpus* and --tres-per-task."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from slurmspec.model.values.gres import GresItem, parse_gpus, parse_gres, parse_tres_per_task
from slurmspec.version import SUPPORTED, parse_version

VERSIONS = st.sampled_from([parse_version(v) for v in SUPPORTED])
TEXT = st.one_of(st.text(), st.text(alphabet="gpua100:,=/*kKpP0123 \udcff", max_size=20))


@pytest.mark.parametrize("text, ok", [
    # checked against sbatch 22.05.8 (GresTypes=gpu)
    ("gpu", True), ("gpu:1", True), ("gpu:a100", True), ("gpu:a100:2", True),
    ("gpu:a100:0", True), ("gpu:0", True), ("gpu:2k", True),
    # sbatch takes "1.5"/"-1" as type names; slurmctld then refuses the job
    ("gpu:1.5", False), ("gpu:-1", False), ("gres:gpu:1", True), ("gpu:2,gpu:3", True), ("none", True),
    # an empty item: slurmctld 22.05.8 refuses it ("Invalid Trackable RESource"); 24.11.5 accepts it
    ("gpu,", False), (",gpu", False), ("gpu:2p", True), ("gpu:a-b:1", True), ("gpu:1:2", True),
    ("gpu:a100:2:3", False), ("gpu:a100:2x", False), ("GPU:1", False), ("gpu::1", False),
    ("gpu:", False), ("gpu:1,gpu:a100:1", False), ("gpu/a100:1", False),
])
def test_gres(text, ok):
    assert parse_gres(text, (22, 5)).ok is ok


@pytest.mark.parametrize("text", ["gpu,", ",gpu", "gpu:1,", ""])
def test_empty_gres_items_pass_from_23_02(text):
    assert parse_gres(text, (24, 11)).ok


def test_gres_values():
    assert parse_gres("gpu:a100", (22, 5)).value.items == (GresItem("gpu", "a100", 1),)
    assert parse_gres("gpu:2k", (22, 5)).value.items[0].count == 2048
    assert parse_gres("none", (22, 5)).value.none
    zero = parse_gres("gpu:0", (22, 5))
    assert "dropped" in zero.problems[0].message and not zero.problems[0].rejected
    odd = parse_gres("gpu:1.5", (22, 5))
    assert odd.value is None and "type name" in odd.problems[0].message
    assert odd.problems[0].rejected


@pytest.mark.parametrize("text, ok", [
    # checked against sbatch 22.05.8
    ("2", True), ("a100:2", True), ("a100", True), ("0", True), ("a100:0", True),
    ("gpu:2", True), ("2k", True), ("", True),
    # accepted by sbatch as type names, refused by slurmctld (differential tests)
    ("-1", False), ("1.5", False), ("2x", False),
    ("2,a100:1", False), (":2", False), ("a100:", False), ("a100::2", False),
    ("gpu:a100:2", False),
])
def test_gpus(text, ok):
    assert parse_gpus(text, (22, 5)).ok is ok


def test_gpu_request_total_and_types():
    v = parse_gpus("a100:2,v100:3", (26, 5)).value
    assert v.total == 5 and v.types == ("a100", "v100")
    assert parse_gpus("gpu:2", (22, 5)).problems  # type `gpu` is almost surely a mistake


def test_tres_per_task():
    v = parse_tres_per_task("cpu=4,gres/gpu:a100=2,license/ansys=1", (23, 11)).value
    assert [(i.kind, i.name, i.type, i.count) for i in v.items] == [
        ("cpu", None, None, 4), ("gres", "gpu", "a100", 2), ("license", "ansys", None, 1)]
    for bad in ("mem=4G", "energy=1", "node=1", "billing=1", "cpu=x", "cpu", "cpu=0"):
        assert not parse_tres_per_task(bad, (23, 11)).ok, bad


@given(TEXT, VERSIONS)
def test_never_raises_and_offsets_in_range(text, version):
    for parser in (parse_gres, parse_gpus, parse_tres_per_task):
        for p in parser(text, version).problems:
            assert 0 <= p.start <= p.end <= len(text)
