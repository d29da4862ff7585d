"""`slurmspec cluster import` on real scontrol output of Slurm 22.05 and 24.11, text and JSON, and on hand-made edge cases.

tests/cluster/data/ holds output captured from the throwaway clusters:
``2205-*`` from tests/slurm_cluster.py's 22.05 cluster (default layout; its
scontrol has no --json), ``2411-*`` from the 24.11 lab (/work/shared/slurm-lab),
whose layout differs (a100n, v100n, POWER9 nodes with 4 threads per core).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from slurmspec.cli import main
from slurmspec.cluster.importer import import_profile
from slurmspec.cluster.profile import Gres, ProfileError
from slurmspec.cluster.store import dump_profile, load_profile, loads_profile
from slurmspec.kinds import EnforcePartLimits

DATA = Path(__file__).resolve().parent / "data"
PROFILES = Path(__file__).resolve().parent / "profiles"


def text(name: str) -> tuple[str, str]:
    return (DATA / name).read_text(), name


def imported(release: str, nodes: str = "node.txt", partitions: str = "partition.txt", config: bool = True):
    profile, notes = import_profile(text(f"{release}-{nodes}"), text(f"{release}-{partitions}"),
                                    text(f"{release}-config.txt") if config else None)
    return profile, notes


def test_22_05_text_matches_the_fixture_layout():
    profile, notes = imported("2205")
    assert notes == []
    lab = load_profile(PROFILES / "lab.toml")
    assert profile.config.slurm_version == "22.05.8" and profile.version == (22, 5)
    assert profile.config.enforce_part_limits is EnforcePartLimits.ALL
    assert profile.config.def_mem_per_cpu == 1024 and profile.config.max_mem_per_node is None
    assert profile.config.select_type_parameters == ("CR_CORE_MEMORY",)
    # The virtual nodes are the hand-written profile's; the local node is this machine's ("local" there).
    virtual = sorted((s for s in profile.shapes if s.nodes[0] != "vm"), key=lambda s: s.nodes)
    assert virtual == sorted((s for s in lab.shapes if s.nodes[0] != "local"), key=lambda s: s.nodes)
    (local,) = [s for s in profile.shapes if s.nodes == ("vm",)]
    assert local.gres == (Gres("gpu", None, 2),) and local.features == ()
    strip = [(p.name, p.default, p.max_time, p.default_time, p.state) for p in profile.partitions]
    assert strip == [(p.name, p.default, p.max_time, p.default_time, p.state) for p in lab.partitions]
    assert set(profile.partition("all").nodes) == set(profile.nodes) and len(profile.nodes) == 25


def test_oneline_and_multiline_output_give_the_same_profile():
    for release in ("2205",):
        assert imported(release, "node_multiline.txt", "partition_multiline.txt") == imported(release)


def test_24_11_text():
    profile, notes = imported("2411")
    assert notes == []
    assert profile.version == (24, 11) and profile.config.cluster_name == "lab24"
    assert profile.config.enforce_part_limits is EnforcePartLimits.NO
    assert profile.config.preempt_type == "preempt/none"  # printed as (null) by 24.11
    power9 = profile.shape_of("ac922n03")
    assert (power9.cpus, power9.sockets, power9.cores_per_socket, power9.threads_per_core) == (160, 2, 20, 4)
    assert power9.gpus("v100") == 4 and power9.features == ("v100", "power9")
    assert profile.partition("satori").max_time == 12 * 60
    assert profile.partition("debug").default and profile.partition("debug").default_time is None
    assert [len(s.nodes) for s in profile.shapes] == [8, 8, 16, 1]


def test_24_11_json_agrees_with_text_except_what_json_leaves_out():
    from_text, _ = imported("2411")
    from_json, notes = imported("2411", "node.json", "partition.json")
    assert from_json.shapes == from_text.shapes
    assert from_json.config == from_text.config
    for a, b in zip(from_json.partitions, from_text.partitions):
        # 24.11's JSON prints neither Default=YES nor PreemptMode
        assert a == b.__class__(**{**_fields(b), "default": a.default, "preempt_mode": None})
    assert not any(p.default for p in from_json.partitions)
    assert any("Default=YES" in note for note in notes)


def test_json_without_config_takes_the_release_from_the_json():
    profile, notes = imported("2411", "node.json", "partition.json", config=False)
    assert profile.config.slurm_version == "24.11.5" and profile.config.cluster_name == "lab24"
    assert any("no --config" in note for note in notes)


def test_text_without_config_is_an_error():
    with pytest.raises(ProfileError, match="give --config"):
        imported("2205", config=False)


@pytest.mark.parametrize("release", ["2205", "2411"])
def test_round_trip_dump_load(release):
    profile, _ = imported(release)
    assert loads_profile(dump_profile(profile), profile.source) == profile


def _fields(partition) -> dict:
    import attrs

    return attrs.asdict(partition, recurse=False)


# ------------------------------------------------------------------ hand-made edge cases
CONFIG = "Configuration data as of 2026-01-01T00:00:00\nSLURM_VERSION = 23.11.4\nEnforcePartLimits = ANY\n"
NODE = (
    "NodeName=g01 Arch=x86_64 CoresPerSocket=16 CPUAlloc=0 CPUEfctv=30 CPUTot=32 CPULoad=N/A "
    "AvailableFeatures=a100,nvlink ActiveFeatures=a100 Gres=gpu:a100:4(S:0-1),gpu:a10:2(S:1),nvme:1 "
    "NodeAddr=g01 NodeHostName=g01 Version=23.11.4 OS=Linux 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian "
    "6.1.76-1 (2024-02-01) RealMemory=515000 AllocMem=0 FreeMem=N/A Sockets=2 Boards=1 MemSpecLimit=2048 "
    "State=DOWN+DRAIN ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A Partitions=gpu "
    "BootTime=None SlurmdStartTime=None CfgTRES=cpu=32,mem=515000M AllocTRES= CapWatts=n/a "
    "Reason=bad DIMM: see ticket=42 status=open [root@2026-01-01T00:00:00]\n"
)
PARTITION = (
    "PartitionName=gpu AllowGroups=ALL AllowAccounts=proj1,proj2 AllowQos=ALL AllocNodes=ALL Default=YES QoS=gpu_qos "
    "DefaultTime=30 DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO MaxNodes=2 MaxTime=1-12:00:00 "
    "MinNodes=1 LLN=NO MaxCPUsPerNode=24 Nodes=g01 PriorityJobFactor=1 PriorityTier=1 RootOnly=NO ReqResv=NO "
    "OverSubscribe=FORCE:4 OverTimeLimit=NONE PreemptMode=REQUEUE State=UP TotalCPUs=32 TotalNodes=1 "
    "SelectTypeParameters=NONE JobDefaults=DefCpuPerGPU=8,DefMemPerGPU=64G DefMemPerCPU=4000 MaxMemPerCPU=8000 "
    "TRES=cpu=32,mem=515000M,node=1\n"
    "PartitionName=empty AllowGroups=ALL AllowAccounts=ALL DenyAccounts=bad AllowQos=ALL Default=NO QoS=N/A "
    "DefaultTime=NONE MaxNodes=UNLIMITED MaxTime=INFINITE MinNodes=0 MaxCPUsPerNode=UNLIMITED Nodes=(null) "
    "OverSubscribe=EXCLUSIVE State=INACTIVE JobDefaults=(null) DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED\n"
)


def test_values_with_spaces_and_equals_na_null_unlimited():
    profile, notes = import_profile((NODE, "n"), (PARTITION, "p"), (CONFIG, "c"))
    assert notes == []
    (shape,) = profile.shapes
    assert shape.nodes == ("g01",)
    assert shape.cpus == 30  # CPUEfctv (two specialized cores), not CPUTot
    assert shape.memory_mb == 515000 - 2048  # RealMemory - MemSpecLimit
    assert shape.gres == (Gres("gpu", "a100", 4), Gres("gpu", "a10", 2), Gres("nvme", None, 1))
    assert shape.gpus() == 6 and shape.gpus("a100") == 4
    assert shape.features == ("a100", "nvlink")  # AvailableFeatures, not ActiveFeatures
    gpu, empty = profile.partitions
    assert (gpu.default, gpu.max_time, gpu.default_time, gpu.min_nodes, gpu.max_nodes) == (True, 2160, 30, 1, 2)
    assert (gpu.max_cpus_per_node, gpu.def_mem_per_cpu, gpu.max_mem_per_cpu, gpu.def_mem_per_gpu) == (24, 4000, 8000, 65536)
    assert gpu.allow_accounts == ("proj1", "proj2") and gpu.allow_groups is None and gpu.allow_qos is None
    assert (gpu.qos, gpu.oversubscribe, gpu.preempt_mode) == ("gpu_qos", "FORCE:4", "REQUEUE")
    assert empty.nodes == () and empty.state == "INACTIVE" and empty.qos is None
    assert (empty.max_time, empty.default_time, empty.max_nodes, empty.max_cpus_per_node) == (None, None, None, None)
    assert (empty.def_mem_per_node, empty.max_mem_per_node, empty.deny_accounts) == (None, None, ("bad",))
    assert profile.config.enforce_part_limits is EnforcePartLimits.ANY and profile.version == (23, 11)


def test_cputot_when_cpuefctv_is_absent_and_nodes_group_by_shape():
    old = "NodeName=c{n} CoresPerSocket=4 CPUTot=8 Sockets=2 Boards=1 ThreadsPerCore=1 RealMemory=1000 Gres=(null) AvailableFeatures={f}\n"
    nodes = "".join(old.format(n=n, f="x,y" if n < 3 else "y,x") for n in range(1, 5)) + old.format(n=9, f="z")
    profile, _ = import_profile((nodes, "n"), ("PartitionName=p Nodes=c[1-4,9,77] Default=YES\n", "p"), (CONFIG, "c"))
    assert [(s.nodes, s.cpus) for s in profile.shapes] == [(("c1", "c2", "c3", "c4"), 8), (("c9",), 8)]


def test_nodes_a_partition_lists_but_node_output_hides_are_left_out_with_a_note():
    nodes = "NodeName=c1 CPUTot=8 RealMemory=1000\n"
    profile, notes = import_profile((nodes, "n"), ("PartitionName=p Nodes=c[1-2] Default=YES\n", "p"), (CONFIG, "c"))
    assert profile.partition("p").nodes == ("c1",)
    assert notes == ["partition p lists 1 node(s) that the node output does not show (c2); left out"]


@pytest.mark.parametrize(("nodes", "partitions", "config", "message"), [
    ("garbage\n", PARTITION, CONFIG, "n:1: expected a `NodeName=` record"),
    (PARTITION, PARTITION, CONFIG, "(it looks like `scontrol show partition` output)"),
    (NODE, NODE, CONFIG, "p:1: expected a `PartitionName=` record"),
    (NODE, PARTITION, NODE, "c: no `SLURM_VERSION = …` line"),
    (NODE.replace("RealMemory=515000", "RealMemory=lots"), PARTITION, CONFIG, "n:1: node g01: `RealMemory=lots` is not a whole number"),
    ("NodeName=x CPUTot=2\n", PARTITION, CONFIG, "n:1: node x: no `RealMemory=`"),
    (NODE, PARTITION.replace("MaxTime=1-12:00:00", "MaxTime=soon"), CONFIG, "p:1: partition gpu: `MaxTime`: not a time limit"),
    (NODE, PARTITION.replace("Nodes=g01", "Nodes=g[01"), CONFIG, "p:1: partition gpu: unclosed '['"),
    (NODE, PARTITION, CONFIG.replace("ANY", "SOMETIMES"), "c:3: `EnforcePartLimits = SOMETIMES`"),
    (NODE, PARTITION, CONFIG.replace("23.11.4", "21.08.8"), "older than 22.05"),
    (NODE.replace("Gres=gpu:a100:4(S:0-1)", "Gres=gpu:a:b:c:d"), PARTITION, CONFIG, "n:1: node g01: not a GRES"),
    ('{"nodes": [{"name": "a"}]}', PARTITION, CONFIG, "n: node a: `cpus` is not a number"),
    ("{not json", PARTITION, CONFIG, "n: invalid JSON"),
    ('{"partitions": []}', PARTITION, CONFIG, "is it the other file?"),
    ('{"nodes": [], "errors": [{"description": "Access denied"}]}', PARTITION, CONFIG, "Access denied"),
], ids=lambda value: None if not isinstance(value, str) or len(value) > 40 else value)
def test_broken_input_is_a_clear_error_with_exit_2(tmp_path, capsys, nodes, partitions, config, message):
    for name, content in (("n", nodes), ("p", partitions), ("c", config)):
        (tmp_path / name).write_text(content)
    code = _import_cli(tmp_path, "--nodes", "n", "--partitions", "p", "--config", "c")
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and err.startswith("slurmspec: error: ") and "Traceback" not in err


def test_binary_input_is_an_error_not_a_crash(tmp_path, capsys):
    (tmp_path / "n").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "p").write_text(PARTITION)
    assert _import_cli(tmp_path, "--nodes", "n", "--partitions", "p") == 2
    assert "n:1: expected a `NodeName=` record" in capsys.readouterr().err


def test_cli_writes_a_profile_that_lint_reads(tmp_path, capsys):
    code = _import_cli(tmp_path, "--nodes", str(DATA / "2411-node.json"), "--partitions", str(DATA / "2411-partition.json"),
                       "--config", str(DATA / "2411-config.txt"), "-o", "lab24.toml", "--name", "lab24-json")
    err = capsys.readouterr().err
    assert code == 0
    assert "Default=YES" in err and "wrote lab24.toml: 33 nodes in 4 shape(s), 3 partition(s), Slurm 24.11.5" in err
    profile = load_profile(tmp_path / "lab24.toml")
    assert profile.name == "lab24-json" and profile.version == (24, 11)


def test_cli_prints_to_standard_output_and_needs_both_files(tmp_path, capsys):
    assert _import_cli(tmp_path, "--nodes", str(DATA / "2205-node.txt"), "--partitions",
                       str(DATA / "2205-partition.txt"), "--config", str(DATA / "2205-config.txt")) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Cluster profile 'slurmspec'") and 'nodes = "cpu-[001-016]"' in out
    assert _import_cli(tmp_path, "--nodes", str(DATA / "2205-node.txt")) == 2
    assert "give both --nodes and --partitions" in capsys.readouterr().err
    assert _import_cli(tmp_path, "--nodes", "missing", "--partitions", "missing") == 2
    assert "missing: cannot read: No such file or directory" in capsys.readouterr().err


def test_cli_without_files_runs_scontrol_and_reports_when_it_cannot(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no scontrol here
    assert _import_cli(tmp_path) == 2
    assert "scontrol is not on PATH" in capsys.readouterr().err
    fake = tmp_path / "scontrol"
    fake.write_text("#!/bin/sh\necho 'scontrol: error: Unable to contact slurm controller' >&2\nexit 1\n")
    fake.chmod(0o755)
    assert _import_cli(tmp_path) == 2
    assert "failed: scontrol: error: Unable to contact slurm controller" in capsys.readouterr().err


def _import_cli(folder: Path, *args: str) -> int:
    import os

    here = os.getcwd()
    os.chdir(folder)
    try:
        return main(["cluster", "import", *args])
    finally:
        os.chdir(here)
