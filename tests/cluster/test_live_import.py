"""`slurmspec cluster import` against the running throwaway cluster of each release (needs real Slurm; CI runs it).

The imported profile must describe the layout the fixture configured
(tests/slurm_layout.py DEFAULT_LAYOUT, written out by hand in profiles/lab.toml):
the same node shapes, partitions, limits and configuration facts; only the
local node's name and hardware are this machine's.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from slurmspec.cli import main
from slurmspec.cluster.store import load_profile

LAB = Path(__file__).resolve().parent / "profiles" / "lab.toml"


def _import(tmp_path: Path, capsys, cluster, json_form: bool) -> object:
    files = {}
    for what, args in (("nodes", ("show", "node", "-o")), ("partitions", ("show", "partition", "-o")),
                       ("config", ("show", "config"))):
        if json_form and what != "config":
            args = ("--json", *args[:2])
        files[what] = tmp_path / f"{what}.out"
        files[what].write_text(cluster.scontrol(*args))
    out = tmp_path / "profile.toml"
    code = main(["cluster", "import", "--nodes", str(files["nodes"]), "--partitions", str(files["partitions"]),
                 "--config", str(files["config"]), "-o", str(out)])
    assert code == 0, capsys.readouterr().err
    return load_profile(out)


def _as_lab(profile, local: str):
    """The profile with the local node called "local", as profiles/lab.toml writes it."""
    def rename(nodes):
        return tuple(sorted("local" if node == local else node for node in nodes))

    shapes = sorted((attrs.evolve(s, nodes=rename(s.nodes)) for s in profile.shapes), key=lambda s: s.nodes)
    parts = [attrs.evolve(p, nodes=rename(p.nodes)) for p in profile.partitions]
    return shapes, parts


@pytest.mark.parametrize("json_form", [False, True], ids=["text", "json"])
def test_import_of_the_running_cluster_matches_its_layout(slurm_cluster, tmp_path, capsys, json_form):
    if json_form and slurm_cluster.version < (23, 2):
        pytest.skip(f"scontrol {slurm_cluster.release} has no --json")
    profile = _import(tmp_path, capsys, slurm_cluster, json_form)
    lab = load_profile(LAB)
    local = slurm_cluster.hostname
    assert profile.config.slurm_version == slurm_cluster.slurm_version
    assert profile.version == slurm_cluster.version
    assert attrs.evolve(profile.config, slurm_version="-", select_type_parameters=()) == attrs.evolve(
        lab.config, slurm_version="-", select_type_parameters=())
    assert [p.upper() for p in profile.config.select_type_parameters] == ["CR_CORE_MEMORY"]
    shapes, parts = _as_lab(profile, local)
    lab_shapes, lab_parts = _as_lab(lab, "local")
    own = next(s for s in shapes if s.nodes == ("local",))
    assert own.cpus == slurm_cluster.local_node["cpus"] and own.memory_mb == slurm_cluster.local_node["real_memory"]
    assert own.gpus() == 2
    assert [s for s in shapes if s is not own] == [s for s in lab_shapes if s.nodes != ("local",)]
    for got, want in zip(parts, lab_parts, strict=True):
        if json_form:  # 24.11's JSON prints neither Default=YES nor PreemptMode
            want = attrs.evolve(want, default=False)
            got = attrs.evolve(got, preempt_mode=None)
        assert attrs.evolve(got, preempt_mode=None) == attrs.evolve(want, preempt_mode=None)


def test_import_runs_scontrol_when_no_file_is_given(slurm_cluster, tmp_path, capsys, monkeypatch):
    if slurm_cluster.release != "22.05":
        pytest.skip("the 24.11 scontrol runs inside its chroot, not from PATH")
    monkeypatch.setenv("SLURM_CONF", slurm_cluster.env["SLURM_CONF"])
    assert main(["cluster", "import", "-o", str(tmp_path / "here.toml"), "--name", "here"]) == 0
    capsys.readouterr()
    from_files = _import(tmp_path, capsys, slurm_cluster, json_form=False)
    here = load_profile(tmp_path / "here.toml")
    assert here.name == "here"
    assert (here.config, here.shapes, here.partitions) == (from_files.config, from_files.shapes, from_files.partitions)
