"""`slurmspec cluster import -o EXISTING.toml` keeps what the site added: `[policy]`, `gpu-memory`, `default = true`.

scontrol never prints a site's policy or a GPU's memory, and 24.11's JSON does
not print `Default=YES`; a nightly re-import must not drop them silently. It
keeps them, says so on standard error, and refuses (exit 2, nothing written)
when what it would keep cannot be kept: a `[policy]` that cannot be read or no
longer fits the cluster, or an existing file that is not TOML.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from slurmspec.cli import main
from slurmspec.cluster.importer_kept import policy_tables
from slurmspec.cluster.store import load_profile
from tests.cluster.rule_profiles import POLICIES, ROOT

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

DATA = Path(__file__).resolve().parent / "data"
TEXT = ["--nodes", str(DATA / "2411-node.txt"), "--partitions", str(DATA / "2411-partition.txt"),
        "--config", str(DATA / "2411-config.txt")]
JSON = ["--nodes", str(DATA / "2411-node.json"), "--partitions", str(DATA / "2411-partition.json")]
POLICY = """\
# Site policy: kept by hand, below what `cluster import` writes
[policy]
name = "HPC"
required = ["account", "time"]  # every job charges an allocation

# the A100s are shared: a fair share of the 64 cores per GPU
[policy.gpu.a100]
cpus-per-gpu = { max = 16 }

[policy.partition.batch]
forbidden = ["exclusive"]
"""


def run_import(output: Path, *args: str) -> int:
    return main(["cluster", "import", *(args or TEXT), "-o", str(output)])


@pytest.fixture
def profile(tmp_path, capsys) -> Path:
    path = tmp_path / "hpc.toml"
    assert run_import(path) == 0
    capsys.readouterr()
    return path


def test_the_policy_is_kept_as_written_and_said_on_stderr(profile, capsys):
    profile.write_text(profile.read_text() + "\n" + POLICY)
    assert run_import(profile) == 0
    err = capsys.readouterr().err
    assert f"slurmspec: note: kept the [policy] of the existing {profile}, as written" in err
    assert profile.read_text().endswith("\n\n" + POLICY)  # comments and layout too
    policy = load_profile(profile).policy
    assert policy.name == "HPC" and policy.everywhere.required == ("account", "time")
    assert policy.gpu_rule("a100").cpus_per_gpu.maximum == 16
    written = profile.read_bytes()
    assert run_import(profile) == 0 and profile.read_bytes() == written  # a nightly re-import changes nothing


def test_a_policy_in_the_middle_of_the_file_is_kept_too(profile, capsys):
    head, _, shapes = profile.read_text().partition("\n[[shape]]")
    profile.write_text(head + "\n" + POLICY + "\n[[shape]]" + shapes)
    assert run_import(profile) == 0
    assert profile.read_text().endswith("\n\n" + POLICY)
    assert "as written" in capsys.readouterr().err


def test_a_policy_not_written_as_tables_is_rewritten_and_says_its_comments_are_lost(profile, capsys):
    profile.write_text('policy = { required = ["time"], gpu = { "*" = { mem-per-gpu = { max = "64G" } } } }  # inline\n'
                       + profile.read_text())
    assert run_import(profile) == 0
    assert "(rewritten as tables: its comments are not kept)" in capsys.readouterr().err
    document = tomllib.loads(profile.read_text())
    assert document["policy"] == {"required": ["time"], "gpu": {"*": {"mem-per-gpu": {"max": "64G"}}}}
    assert '[policy.gpu."*"]\nmem-per-gpu = { max = "64G" }\n' in profile.read_text()


def test_gpu_memory_is_kept_for_the_same_nodes(profile, capsys):
    a100 = 'gres = ["gpu:a100:8"]'
    profile.write_text(profile.read_text().replace(a100, a100 + '\ngpu-memory = "80G"'))
    assert run_import(profile, *JSON) == 0
    err = capsys.readouterr().err
    assert "slurmspec: note: kept `gpu-memory = 81920` (MB) for a100n[01-08]" in err
    loaded = load_profile(profile)
    assert loaded.shape_of("a100n03").gpu_memory_mb == 81920 and loaded.shape_of("v100n01").gpu_memory_mb is None


def test_json_reimport_keeps_the_default_partition_the_site_marked(profile, capsys):
    assert run_import(profile, *JSON) == 0
    err = capsys.readouterr().err
    assert "kept `default = true` on partition debug" in err and "no partition is marked Default=YES" not in err
    assert load_profile(profile).default_partition().name == "debug"


def test_json_import_over_a_profile_without_a_default_still_says_none_is_marked(tmp_path, capsys):
    path = tmp_path / "hpc.toml"
    path.write_text("# an empty profile to start from\n")
    assert run_import(path, *JSON) == 0
    assert "no partition is marked Default=YES" in capsys.readouterr().err
    assert load_profile(path).default_partition() is None


def test_text_output_decides_the_default_partition(profile, capsys):
    text = profile.read_text()
    profile.write_text(text.replace('name = "batch"\nnodes = "a100n[01-08],v100n[01-16]"\ndefault = false',
                                    'name = "batch"\nnodes = "a100n[01-08],v100n[01-16]"\ndefault = true'))
    assert run_import(profile) == 0
    assert "default = true" not in capsys.readouterr().err
    assert load_profile(profile).default_partition().name == "debug"


# -- gpu-memory when shapes change -------------------------------------------------------------------


def _nodes(tmp_path: Path, *lines: str) -> list[str]:
    (tmp_path / "nodes.txt").write_text("\n".join(lines) + "\n")
    (tmp_path / "partitions.txt").write_text("PartitionName=p Nodes=ALL Default=YES State=UP\n")
    return ["--nodes", str(tmp_path / "nodes.txt"), "--partitions", str(tmp_path / "partitions.txt"),
            "--config", str(DATA / "2411-config.txt")]


def test_gpu_memory_follows_nodes_and_is_never_guessed(tmp_path, capsys):
    path = tmp_path / "hpc.toml"
    old = _nodes(tmp_path, *(f"NodeName=g{i} CPUTot=16 RealMemory=64000 Gres=gpu:t4:2 AvailableFeatures={f}"
                             for i, f in ((1, "t4a"), (2, "t4a"), (3, "t4b"), (4, "t4b"))),
                 "NodeName=h1 CPUTot=16 RealMemory=64000 Gres=gpu:l4:2",
                 "NodeName=k1 CPUTot=16 RealMemory=64000 Gres=gpu:a2:1")
    assert run_import(path, *old) == 0
    text = path.read_text()
    for nodes, memory in (("g[1-2]", "16G"), ("g[3-4]", "15G"), ("h1", "24G"), ("k1", "16G")):
        text = text.replace(f'nodes = "{nodes}"\n', f'nodes = "{nodes}"\ngpu-memory = "{memory}"\n')
    path.write_text(text)
    capsys.readouterr()
    # g1-g4 become one shape (no features): their old shapes disagree; h1 has lost its GPUs; k1 has left;
    # n1 is new, with k1's GPU type: its GPUs' memory is not guessed from the type.
    new = _nodes(tmp_path, *(f"NodeName=g{i} CPUTot=16 RealMemory=64000 Gres=gpu:t4:2" for i in range(1, 5)),
                 "NodeName=h1 CPUTot=16 RealMemory=64000", "NodeName=n1 CPUTot=16 RealMemory=64000 Gres=gpu:a2:1")
    assert run_import(path, *new) == 0
    err = capsys.readouterr().err
    assert "`gpu-memory` of g[1-4] is not kept: their old shapes said 15360 MB and 16384 MB" in err
    assert "`gpu-memory` of h1 is not kept: they have no GPUs now" in err
    assert "`gpu-memory` of k1 is not kept: those nodes are not in the import" in err
    loaded = load_profile(path)
    assert [(s.nodes[0], s.gpu_memory_mb) for s in loaded.shapes] == [("g1", None), ("h1", None), ("n1", None)]


def test_gpu_memory_carries_to_new_nodes_of_the_same_shape(tmp_path, capsys):
    path = tmp_path / "hpc.toml"
    assert run_import(path, *_nodes(tmp_path, "NodeName=g1 CPUTot=16 RealMemory=64000 Gres=gpu:t4:2")) == 0
    path.write_text(path.read_text().replace('nodes = "g1"\n', 'nodes = "g1"\ngpu-memory = 16384\n'))
    new = _nodes(tmp_path, *(f"NodeName=g{i} CPUTot=16 RealMemory=64000 Gres=gpu:t4:2" for i in (1, 2)))
    assert run_import(path, *new) == 0
    assert "kept `gpu-memory = 16384` (MB) for g[1-2]" in capsys.readouterr().err
    assert load_profile(path).shape_of("g2").gpu_memory_mb == 16384


# -- what cannot be kept stops the import --------------------------------------------------------------


@pytest.mark.parametrize(("added", "message"), [
    ("[policy.partition.gpu]\nneeds-gpus = true\n",
     "`policy.partition.gpu`: the cluster profile {path} has no partition `gpu`"),
    ('[policy]\nrequird = ["time"]\n', "{path}: unknown key `policy.requird`; did you mean `required`?"),
    ("[policy\n", "{path}: cannot keep what the site added to the existing profile: invalid TOML"),
])
def test_what_cannot_be_kept_is_an_error_and_nothing_is_written(profile, capsys, added, message):
    before = profile.read_text() + "\n" + added
    profile.write_text(before)
    assert run_import(profile) == 2
    err = capsys.readouterr().err
    assert err.startswith("slurmspec: error: ") and message.format(path=profile) in err
    assert "wrote" not in err and profile.read_text() == before


def test_a_policy_the_cluster_outgrew_says_what_to_do(profile, capsys):
    profile.write_text(profile.read_text() + "\n[policy.partition.gpu]\nneeds-gpus = true\n")
    assert run_import(profile) == 2
    assert "the [policy] kept from the existing profile no longer fits the cluster; nothing written" \
        in capsys.readouterr().err


def _documented_policies() -> list[dict]:
    table = ROOT.joinpath("docs", "policy.md").read_text().split("## The table\n\n```toml\n", 1)[1].split("```", 1)[0]
    examples = (tomllib.loads(path.read_text())["policy"] for path in sorted(POLICIES.glob("*.toml")))
    return [tomllib.loads(table)["policy"], *examples,
            {"gpu": {"min": {"cpus-per-gpu": 2}, "max": {"mem-per-gpu": {"max": "8G"}}}, "partition": {"gpu": {}}}]


@pytest.mark.parametrize("policy", _documented_policies(), ids=lambda p: p.get("name", "odd-names"))
def test_a_rewritten_policy_reads_back_the_same(policy):
    assert tomllib.loads("\n".join(policy_tables(policy, "policy")))["policy"] == policy
