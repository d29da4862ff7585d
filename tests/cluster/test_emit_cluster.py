"""``slurmspec emit --cluster``: the GPU form the cluster accepts, and a spec the cluster refuses is exit 2.

The real-Slurm test submits what emit writes for the lab profile to the
throwaway cluster whose layout the profile describes (tests/slurm_layout.py,
DEFAULT_LAYOUT; its virtual partitions `cpu`, `gpu`, `a100` are identical on
every machine): a spec emit accepts is accepted by ``sbatch --test-only``, and
one emit refuses for the cluster's sake is refused by it too.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from slurmspec.cli import main
from slurmspec.cluster.store import dump_profile
from slurmspec.kinds import Family, Severity
from slurmspec.lint import lint_text
from tests.cluster.rule_profiles import PROFILES, POLICIES, profile_named
from tests.examples import examples

LAB = str(PROFILES / "lab.toml")


def _emit(tmp_path: Path, spec: str, *args: str, name: str = "job.toml") -> tuple[int, str, str]:
    path = tmp_path / name
    path.write_text(textwrap.dedent(spec))
    out = tmp_path / (path.stem + ".sbatch")
    if out.exists():
        out.unlink()
    code = main(["emit", str(path), "-o", str(out), *args])
    return code, out.read_text() if out.exists() else "", str(path)


def _spec(resources: str, job: str = 'partition = "gpu"\ntime = "01:00:00"') -> str:
    return f"[job]\n{job}\n\n[resources]\n{resources}\n\n[body]\nscript = \"true\\n\"\n"


def _header(script: str) -> list[str]:
    return [line for line in script.splitlines() if line.startswith("#SBATCH")]


def test_a_typed_request_keeps_its_type(tmp_path: Path):
    code, script, _ = _emit(tmp_path, _spec('gpus_per_node = 4\ngpu_type = "v100"\ncpus_per_task = 16'),
                            "--cluster", LAB)
    assert code == 0
    assert "#SBATCH --gpus-per-node=v100:4" in _header(script)


def test_a_type_the_partition_lacks_is_refused_at_its_key(tmp_path: Path, capsys):
    code, script, path = _emit(tmp_path, _spec('gpus_per_node = 4\ngpu_type = "a100"'), "--cluster", LAB)
    assert (code, script) == (2, "")
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:7:1: error: `resources.gpu_type = \"a100\"`: the nodes of partition `gpu`")
    assert "(they have `v100`)" in err and "Requested node configuration is not available" in err


@pytest.mark.parametrize("spec, key, line, code", [
    (_spec("nodes = 1", job='partition = "gpux"'), "job.partition", 2, "SB401"),
    (_spec("nodes = 5"), "resources.nodes", 6, "SB410"),
    (_spec("cpus_per_task = 33"), "resources.cpus_per_task", 6, "SB406"),
    (_spec('gpus_per_node = 2\nmem = "200G"'), "resources.mem", 7, "SB406"),
    (_spec("gpus_per_node = 9"), "resources.gpus_per_node", 6, "SB406"),
    (_spec('constraint = ["a100"]'), "resources.constraint", 6, "SB409"),
])
def test_a_spec_the_cluster_cannot_run_is_refused(tmp_path: Path, capsys, spec, key, line, code):
    """The cluster rules judge the emitted script; each refusal is reported at the spec key that wrote the line."""
    status, script, path = _emit(tmp_path, spec, "--cluster", LAB)
    assert (status, script) == (2, "")
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:{line}:1: error: `{key}`: "), err
    assert err.rstrip().endswith(f"[{code}]")


def test_the_same_spec_without_a_profile_is_written(tmp_path: Path):
    assert _emit(tmp_path, _spec("gpus_per_node = 9"))[0] == 0


def _cons_res(tmp_path: Path) -> str:
    lab = profile_named("lab")
    profile = attrs.evolve(lab, config=attrs.evolve(lab.config, select_type="select/cons_res"))
    path = tmp_path / "cons-res.toml"
    path.write_text(dump_profile(profile))
    return str(path)


def test_select_cons_res_gets_gres_and_refuses_per_gpu_options(tmp_path: Path, capsys):
    profile = _cons_res(tmp_path)
    code, script, _ = _emit(tmp_path, _spec('gpus_per_node = 2\ngpu_type = "v100"\nmem = "40G"'), "--cluster", profile)
    assert code == 0
    assert "#SBATCH --gres=gpu:v100:2" in _header(script) and not any("gpus-per" in l for l in _header(script))
    code, script, _ = _emit(tmp_path, _spec("ntasks = 2\ngpus_per_task = 1\nmem_per_gpu = \"8G\""), "--cluster", profile)
    assert (code, script) == (2, "")
    err = capsys.readouterr().err
    assert "`resources.gpus_per_task` needs `SelectType=select/cons_tres`" in err
    assert "`resources.mem_per_gpu` needs" in err and "Requested GRES option unsupported" in err


def _with_policy(tmp_path: Path, policy: str) -> None:
    (tmp_path / "slurmspec.toml").write_text(f'cluster = "{LAB}"\npolicy = "{POLICIES / policy}.toml"\n')


def test_a_policy_that_refuses_untyped_gpus_gets_the_partitions_model(tmp_path: Path, capsys):
    _with_policy(tmp_path, "university-gpu-cluster")
    spec = _spec("gpus_per_node = 2", job='partition = "gpu"\ntime = "01:00:00"\naccount = "project42"')
    code, script, _ = _emit(tmp_path, spec)  # cluster and policy from the configuration next to the spec
    assert code == 0 and "#SBATCH --gpus-per-node=v100:2" in _header(script)
    # `all` has v100 and a100 nodes (and the untyped `local`): the spec must choose.
    code, script, _ = _emit(tmp_path, spec.replace('"gpu"', '"all"'))
    assert (code, script) == (2, "")
    err = capsys.readouterr().err
    assert "the site refuses GPU requests without a model" in err and "set `resources.gpu_type`" in err
    assert "`v100`, `a100`" in err
    # --no-config: no profile, no policy, the request is written as the spec says.
    code, script, _ = _emit(tmp_path, spec.replace('"gpu"', '"all"'), "--no-config")
    assert code == 0 and "#SBATCH --gpus-per-node=2" in _header(script)


def test_options_a_policy_requires_are_refused_at_their_key(tmp_path: Path, capsys):
    _with_policy(tmp_path, "university-gpu-cluster")
    code, script, path = _emit(tmp_path, _spec('gpus_per_node = 1\ngpu_type = "v100"'))
    assert (code, script) == (2, "")
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"{path}:1:1: error: the site requires `job.account`")


def test_an_enforced_policy_refuses_the_emitted_script(tmp_path: Path, capsys):
    _with_policy(tmp_path, "university-gpu-cluster")
    spec = _spec('gpus_per_node = 1\ngpu_type = "v100"\nmem = "16G"',
                 job='partition = "gpu"\ntime = "01:00:00"\naccount = "project42"')
    code, script, path = _emit(tmp_path, spec)
    assert (code, script) == (2, "")
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:9:1: error: `resources.mem`: `--mem=16G` is not allowed in partition `gpu`")
    assert err.rstrip().endswith("[SB461]")


def test_a_broken_profile_is_exit_2(tmp_path: Path, capsys):
    (tmp_path / "bad.toml").write_text("name = 1\n")
    code, script, _ = _emit(tmp_path, _spec("nodes = 1"), "--cluster", str(tmp_path / "bad.toml"))
    assert (code, script) == (2, "")
    assert "bad.toml" in capsys.readouterr().err


# -- emit, then lint with the same profile: no refusal ----------------------------------------------------

_PARTITIONS = {"gpu": "v100", "a100": "a100", "cpu": None}


@st.composite
def cluster_specs(draw) -> str:
    partition = draw(st.sampled_from(sorted(_PARTITIONS)))
    lines = [f"nodes = {draw(st.integers(1, 5))}"]
    model = _PARTITIONS[partition]
    if model is not None and draw(st.booleans()):
        lines.append(f"gpus_per_node = {draw(st.integers(1, 9))}")
        if draw(st.booleans()):
            lines.append(f'gpu_type = "{draw(st.sampled_from(["v100", "a100"]))}"')
    lines.append(f"ntasks_per_node = {draw(st.integers(1, 4))}")
    lines.append(f"cpus_per_task = {draw(st.sampled_from([1, 4, 8, 16, 24]))}")
    if draw(st.booleans()):
        lines.append(f'mem = "{draw(st.sampled_from([8, 64, 190, 400, 600]))}G"')
    if draw(st.booleans()):
        lines.append(f'constraint = ["{draw(st.sampled_from(["ib", "a100", "v100", "cascadelake"]))}"]')
    return _spec("\n".join(lines), job=f'partition = "{partition}"\ntime = "01:00:00"')


def _cluster_errors(script: str) -> list[str]:
    return [d.code for d in lint_text(script, cluster=profile_named("lab"))
            if d.family is Family.CLUSTER and d.severity is Severity.ERROR]


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spec=cluster_specs())
def test_what_emit_writes_for_a_cluster_passes_the_cluster_rules(tmp_path: Path, spec: str):
    code, script, _ = _emit(tmp_path, spec, "--cluster", LAB, "--no-check")
    if code == 0:
        assert _cluster_errors(script) == []


def test_emit_and_sbatch_agree_on_the_lab_cluster(tmp_path: Path, slurm_cluster_for, capsys):
    """Every spec of the strategy's corners: emit's verdict with the lab profile is sbatch --test-only's."""
    from tests.slurm_layout import DEFAULT_LAYOUT

    cluster = slurm_cluster_for("22.05", DEFAULT_LAYOUT)
    specs = [
        _spec('gpus_per_node = 4\ngpu_type = "v100"\ncpus_per_task = 8'),
        _spec('gpus_per_node = 4\ngpu_type = "a100"'),
        _spec("gpus_per_node = 9"),
        _spec("nodes = 4\ngpus_per_node = 8\ncpus_per_task = 32"),
        _spec("nodes = 5"),
        _spec("cpus_per_task = 33"),
        _spec('mem = "190G"'),
        _spec('mem = "200G"'),
        _spec('constraint = ["skylake"]'),
        _spec('constraint = ["rome"]'),
        _spec("nodes = 16\nntasks_per_node = 48", job='partition = "cpu"\ntime = "01:00:00"'),
        _spec("cpus_per_task = 1", job='partition = "cpux"\ntime = "01:00:00"'),
    ]
    for spec in specs:
        code, script, _ = _emit(tmp_path, spec, "--cluster", LAB, "--no-check")
        capsys.readouterr()
        assert code in (0, 2)
        if code == 0:
            outcome = cluster.test_only(script)
            assert outcome.accepted, f"emit wrote it, sbatch refuses it:\n{spec}\n{outcome.stderr}"
        else:
            plain = _emit(tmp_path, spec, "--no-config", "--no-check")[1]
            outcome = cluster.test_only(plain)
            assert not outcome.accepted, f"emit refused it, sbatch accepts it:\n{spec}"
