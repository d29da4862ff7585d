"""Binding, frequency and topology options (binding.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from slurmspec.model.values import binding as b
from slurmspec.version import SUPPORTED, parse_version

VERSIONS = st.sampled_from([parse_version(v) for v in SUPPORTED])
TEXT = st.one_of(st.text(), st.text(alphabet="closetnvrbmap_gpumk:0x1,*-=@/+ ", max_size=20))

CASES = [  # 22.05 rows checked against sbatch 22.05.8
    (b.parse_gpu_bind, "cheese", (22, 5), True), (b.parse_gpu_bind, "cheese", (26, 5), False),
    (b.parse_gpu_bind, "closest", (22, 5), True), (b.parse_gpu_bind, "verbose,closest", (22, 5), True),
    (b.parse_gpu_bind, "map_gpu:0*2,1", (22, 5), True), (b.parse_gpu_bind, "single:x", (22, 5), True),
    (b.parse_gpu_bind, "single:x", (26, 5), False), (b.parse_gpu_bind, "bogus", (22, 5), False),
    (b.parse_gpu_bind, "verbose", (22, 5), False), (b.parse_gpu_bind, "map:0", (22, 5), False),
    (b.parse_gpu_bind, "map:0", (26, 5), True),
    (b.parse_mem_bind, "verbose,local", (22, 5), True), (b.parse_mem_bind, "q,local", (22, 5), True),
    (b.parse_mem_bind, "map_mem:0,1", (22, 5), True), (b.parse_mem_bind, "map_mem:", (22, 5), False),
    (b.parse_mem_bind, "loc", (22, 5), False), (b.parse_mem_bind, "", (22, 5), False),
    (b.parse_cpu_freq, "low-high", (22, 5), True), (b.parse_cpu_freq, "1000-2000:performance", (22, 5), True),
    (b.parse_cpu_freq, "ondemand", (22, 5), True), (b.parse_cpu_freq, "1000:", (22, 5), False),
    (b.parse_cpu_freq, "1000-", (22, 5), False), (b.parse_cpu_freq, "bogus", (22, 5), False),
    (b.parse_cpu_freq, "", (22, 5), False),
    (b.parse_gpu_freq, "high,memory=low", (22, 5), True), (b.parse_gpu_freq, "verbose", (22, 5), True),
    (b.parse_gpu_freq, "graphics=high", (22, 5), False), (b.parse_gpu_freq, "memory=x", (22, 5), False),
    (b.parse_gpu_freq, "", (22, 5), False),
    (b.parse_acctg_freq, "30,energy=5", (22, 5), True), (b.parse_acctg_freq, "", (22, 5), True),
    (b.parse_acctg_freq, "task=", (22, 5), False), (b.parse_acctg_freq, "-1", (22, 5), False),
    (b.parse_acctg_freq, "bogus=3", (22, 5), False),
    (b.parse_extra_node_info, "2:4:2", (22, 5), True), (b.parse_extra_node_info, "*:*:*", (22, 5), True),
    (b.parse_extra_node_info, "2-4:1", (22, 5), True), (b.parse_extra_node_info, "1:2:3:4", (22, 5), True),
    (b.parse_extra_node_info, "x", (22, 5), False), (b.parse_extra_node_info, "1-0", (22, 5), False),
    (b.parse_switches, "1@10", (22, 5), True), (b.parse_switches, "1@1h", (22, 5), True),
    (b.parse_switches, "0", (22, 5), False), (b.parse_switches, "x", (22, 5), False),
    (b.parse_segment, "4", (24, 5), True), (b.parse_segment, "0", (24, 5), False),
    (b.parse_mem_update, "10@5", (26, 5), True), (b.parse_mem_update, "10", (26, 5), False),
    (b.parse_tres_bind, "gres/gpu:closest", (23, 11), True),
    (b.parse_tres_bind, "gres/gpu:single:1+gres/nic:none", (23, 11), True),
    (b.parse_tres_bind, "gpu:closest", (23, 11), False),
]


@pytest.mark.parametrize("parser, text, version, ok", CASES)
def test_verdicts(parser, text, version, ok):
    assert parser(text, version).ok is ok


def test_gpu_bind_quirk_is_a_warning_on_22_05():
    parsed = b.parse_gpu_bind("cheese", (22, 5))
    assert parsed.value.kind == "closest" and not parsed.problems[0].rejected


def test_values():
    assert b.parse_switches("2@1:00:00", (22, 5)).value == b.Switches(2, 3600)
    assert b.parse_switches("1@1h", (22, 5)).problems  # wait silently ignored
    assert b.parse_extra_node_info("2:4:2", (22, 5)).value.levels == ((2, 2), (4, 4), (2, 2))
    assert b.parse_cpu_freq("conservative", (22, 5)).problems  # needs CpuFreqGovernors
    assert b.parse_mem_update("10@5", (26, 5)).value == b.MemUpdate(10, 300)


@given(TEXT, VERSIONS)
def test_never_raises_and_offsets_in_range(text, version):
    for name in dir(b):
        if name.startswith("parse_"):
            for p in getattr(b, name)(text, version).problems:
                assert 0 <= p.start <= p.end <= len(text)
