"""Site policy as data: the [policy] table is read strictly, from a profile or a configuration, and checked by SB46x."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from slurmspec.cli import main
from slurmspec.cluster.policy import check_policy, parse_policy
from slurmspec.cluster.profile import ProfileError
from slurmspec.kinds import Outcome, Severity, UntypedGpus
from slurmspec.lint import lint_text
from slurmspec.settings.config import ConfigError, load_config
from tests.cluster.rule_profiles import POLICIES, PROFILES, policy_named, profile_named

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

EXAMPLES = sorted(POLICIES.glob("*.toml"))


def _policy(text: str, source: str = "site.toml"):
    return parse_policy(tomllib.loads(textwrap.dedent(text))["policy"], source)


def _codes(script: str, **kw) -> list[tuple[str, int]]:
    return [(d.code, d.span.line) for d in lint_text(textwrap.dedent(script), **kw) if d.code.startswith("SB46")]


def test_three_example_policies_ship():
    assert len(EXAMPLES) == 3


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_each_example_policy_loads(path: Path):
    document = tomllib.loads(path.read_text())
    assert set(document) == {"policy"}, "an example is a [policy] table to paste into a profile or configuration"
    policy = parse_policy(document["policy"], str(path))
    assert policy.name and policy.source == str(path)
    assert policy.everywhere.required, "every example requires something"


def test_the_documentation_policy_fits_the_lab_profile():
    check_policy(policy_named("university-gpu-cluster"), profile_named("lab"))


def test_what_a_policy_holds():
    policy = _policy("""
        [policy]
        required = ["--time", "-A"]
        forbidden = ["mem-per-cpu"]
        untyped-gpus = "rewritten"
        untyped-gpus-become = "t4"
        [policy.allowed]
        qos = ["normal"]
        [policy.partition.gpu]
        needs-gpus = true
        untyped-gpus = "refused"
        [policy.gpu.a100]
        cpus-per-gpu = 8
        mem-per-gpu = { min = "32G", max = "128G" }
    """)
    assert policy.everywhere.required == ("time", "account")  # canonical long names
    assert policy.everywhere.forbidden == ("mem-per-cpu",)
    assert policy.everywhere.allowed == (("qos", ("normal",)),)
    assert policy.everywhere.untyped_gpus is UntypedGpus.REWRITTEN and policy.everywhere.untyped_gpus_become == "t4"
    gpu = policy.partition_scope("gpu")
    assert gpu.needs_gpus and gpu.untyped_gpus is UntypedGpus.REFUSED and gpu.key == "policy.partition.gpu"
    assert [s.key for s in policy.scopes("gpu")] == ["policy", "policy.partition.gpu"]
    assert [s.key for s in policy.scopes(None)] == ["policy"]
    rule = policy.gpu_rule("a100")
    assert (rule.cpus_per_gpu.minimum, rule.cpus_per_gpu.maximum) == (8, 8)
    assert (rule.mem_per_gpu.minimum, rule.mem_per_gpu.maximum) == (32 * 1024, 128 * 1024)
    assert policy.gpu_rule("v100") is None and policy.enforced


@pytest.mark.parametrize("text, message", [
    ('requird = ["time"]', "unknown key `policy.requird`; did you mean `required`?"),
    ('required = ["tme"]', "`policy.required`: `tme` is not an sbatch option; did you mean `--time`?"),
    ('required = "time"', "`policy.required`: must be a list of sbatch options"),
    ('untyped-gpus = "no"', "`policy.untyped-gpus`: must be one of 'refused', 'rewritten'"),
    ('untyped-gpus-become = "a100"', "only goes with `untyped-gpus = \"rewritten\"`"),
    ('enforced = "yes"', "`policy.enforced`: must be true or false"),
    ("partition = 5", "`policy.partition`: must be a table"),
    ("[policy.partition.gpu]\nneeds-gpu = true", "unknown key `policy.partition.gpu.needs-gpu`; did you mean `needs-gpus`?"),
    ('[policy.allowed]\nqos = "normal"', "`policy.allowed.qos`: must be a non-empty list"),
    ('[policy.allowed]\nqoss = ["normal"]', "`qoss` is not an sbatch option; did you mean `--qos`?"),
    ("[policy.gpu.a100]", "`policy.gpu.a100`: says nothing"),
    ("[policy.gpu.a100]\ncpus-per-gpu = { max = 0 }", "`0` is not a whole number of CPUs"),
    ("[policy.gpu.a100]\ncpus-per-gpu = { min = 8, max = 4 }", "`min` is more than `max`"),
    ('[policy.gpu.a100]\nmem-per-gpu = { max = "1.5G" }', "`1.5G` is not a memory size"),
    ("[policy.gpu.a100]\nmem-per-gpu = { most = 4 }", "unknown key `policy.gpu.a100.mem-per-gpu.most`"),
    ("[policy.gpu.a100]\ncpu-per-gpu = 4", "did you mean `cpus-per-gpu`?"),
])
def test_a_broken_policy_is_a_clear_error(text, message):
    body = text if text.startswith("[") else f"[policy]\n{text}"
    with pytest.raises(ProfileError) as caught:
        parse_policy(tomllib.loads(body).get("policy", {}), "site.toml")
    assert str(caught.value).startswith("site.toml: ")
    assert message in str(caught.value)


def test_names_the_profile_lacks_are_errors():
    lab = profile_named("lab")
    with pytest.raises(ProfileError, match=r"no partition `gpux`; did you mean `gpu`\?"):
        check_policy(_policy("[policy.partition.gpux]\nneeds-gpus = true"), lab)
    with pytest.raises(ProfileError, match=r"no GPU of type `h100`"):
        check_policy(_policy("[policy.gpu.h100]\ncpus-per-gpu = 8"), lab)
    check_policy(_policy('[policy.gpu."*"]\ncpus-per-gpu = 8'), lab)


# -- the configuration ------------------------------------------------------------------


def test_configuration_policy_table_and_file(tmp_path: Path):
    (tmp_path / "slurmspec.toml").write_text('[policy]\nrequired = ["account"]\n')
    assert load_config(str(tmp_path / "slurmspec.toml")).policy.everywhere.required == ("account",)
    site = tmp_path / "site"
    site.mkdir()
    (site / "policy.toml").write_text('[policy]\nforbidden = ["mem"]\n')
    (tmp_path / "slurmspec.toml").write_text('policy = "site/policy.toml"\n')
    policy = load_config(str(tmp_path / "slurmspec.toml")).policy
    assert policy.everywhere.forbidden == ("mem",) and policy.source == str(site / "policy.toml")


def test_pyproject_keys_are_named_as_written(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text('[tool.slurmspec.policy]\nrequird = ["account"]\n')
    with pytest.raises(ConfigError, match=r"unknown key `tool\.slurmspec\.policy\.requird`"):
        load_config(str(tmp_path / "pyproject.toml"))
    (tmp_path / "pyproject.toml").write_text('[tool.slurmspec.policy]\nrequired = ["account"]\n')
    policy = load_config(str(tmp_path / "pyproject.toml")).policy
    assert policy.everywhere.key == "tool.slurmspec.policy"


@pytest.mark.parametrize("value, message", [
    ("policy = 5", "must be a [policy] table or the path of a file holding one"),
    ('policy = "missing.toml"', "cannot read"),
    ('policy = "other.toml"', "has no [policy] table"),
])
def test_a_broken_policy_reference_is_a_config_error(tmp_path: Path, value, message):
    (tmp_path / "other.toml").write_text("name = 1\n")
    (tmp_path / "slurmspec.toml").write_text(value + "\n")
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_config(str(tmp_path / "slurmspec.toml"))


def test_lint_exits_2_on_a_broken_policy(tmp_path: Path, capsys):
    (tmp_path / "job.sbatch").write_text("#!/bin/bash\n#SBATCH --time=5\ntrue\n")
    (tmp_path / "slurmspec.toml").write_text('[policy]\nrequired = ["acount"]\n')
    assert main(["lint", str(tmp_path / "job.sbatch")]) == 2
    assert "`acount` is not an sbatch option; did you mean `--account`?" in capsys.readouterr().err
    (tmp_path / "slurmspec.toml").write_text(
        f'cluster = "{PROFILES / "lab.toml"}"\n[policy.partition.gpux]\nneeds-gpus = true\n')
    assert main(["lint", str(tmp_path / "job.sbatch")]) == 2
    assert "has no partition `gpux`" in capsys.readouterr().err


def test_lint_applies_the_configuration_policy(tmp_path: Path, capsys):
    (tmp_path / "job.sbatch").write_text("#!/bin/bash\n#SBATCH --time=5\ntrue\n")
    (tmp_path / "slurmspec.toml").write_text('[policy]\nrequired = ["account"]\n')
    assert main(["lint", "--format", "json", "--select", "SB46", str(tmp_path / "job.sbatch")]) == 1
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    assert [(d["code"], d["severity"]) for d in found] == [("SB460", "error")]
    assert "`policy.required` in " + str(tmp_path / "slurmspec.toml") in found[0]["message"]


# -- the rules --------------------------------------------------------------------------


def test_policy_rules_say_nothing_without_a_policy():
    script = """\
        #!/bin/bash
        #SBATCH --partition=gpu
        #SBATCH --gres=gpu:1
        #SBATCH --mem=64G
        python train.py
    """
    assert _codes(script, cluster=profile_named("lab")) == []
    assert _codes(script) == []


def test_the_profile_and_the_configuration_policy_both_apply():
    import attrs

    lab = attrs.evolve(profile_named("lab"), policy=_policy('[policy]\nrequired = ["account"]', "lab.toml"))
    found = [d for d in lint_text("#!/bin/bash\n#SBATCH -p gpu\ntrue\n", cluster=lab,
                                  policy=_policy('[policy]\nrequired = ["time"]', "slurmspec.toml"))
             if d.code == "SB460"]
    assert ["`policy.required` in lab.toml" in d.message for d in found] == [True, False]
    assert "`policy.required` in slurmspec.toml" in found[1].message


def test_partition_rules_need_to_know_the_partition():
    policy = _policy("[policy.partition.debug]\nforbidden = [\"mem\"]")
    script = "#!/bin/bash\n#SBATCH --mem=4G\ntrue\n"
    # Without a profile the default partition is unknown; with the lab profile it is `debug`.
    assert _codes(script, policy=policy) == []
    assert _codes(script, policy=policy, cluster=profile_named("lab")) == [("SB461", 2)]
    # A list of partitions: the job may run in any, so no partition's own rules apply.
    assert _codes("#!/bin/bash\n#SBATCH -p debug,gpu\n#SBATCH --mem=4G\ntrue\n", policy=policy,
                  cluster=profile_named("lab")) == []


def test_guidelines_are_warnings_and_rewritten_gpus_are_wrong():
    script = "#!/bin/bash\n#SBATCH --gres=gpu:1\n#SBATCH --cpus-per-task=12\ntrue\n"
    found = {d.code: d for d in lint_text(script, policy=policy_named("national-allocation-centre"))}
    assert (found["SB460"].severity, found["SB460"].outcome) == (Severity.WARNING, Outcome.ADVICE)
    assert (found["SB463"].severity, found["SB463"].outcome) == (Severity.WARNING, Outcome.ADVICE)
    rewritten = [d for d in lint_text(script, policy=policy_named("departmental-cluster")) if d.code == "SB464"]
    assert [(d.severity, d.outcome) for d in rewritten] == [(Severity.WARNING, Outcome.WRONG)]
    assert "`rtx6000` GPUs" in rewritten[0].message


def test_per_gpu_bounds_for_an_untyped_request_need_every_model_to_break_them():
    policy = _policy("""
        [policy.gpu.v100]
        cpus-per-gpu = { max = 8 }
        [policy.gpu.a100]
        cpus-per-gpu = { max = 16 }
    """)
    lab = profile_named("lab")
    twelve = "#!/bin/bash\n#SBATCH -p all\n#SBATCH --gpus-per-node=1\n#SBATCH -c 12\ntrue\n"
    assert _codes(twelve, policy=policy, cluster=lab) == []  # fine on the a100 nodes of `all`
    twenty = twelve.replace("-c 12", "-c 20")
    assert _codes(twenty, policy=policy, cluster=lab) == [("SB463", 4)]


def test_a_profile_carries_its_policy(tmp_path: Path, capsys):
    profile = tmp_path / "hpc.toml"
    profile.write_text((PROFILES / "lab.toml").read_text() + '\n[policy]\nrequired = ["account"]\n')
    (tmp_path / "job.sbatch").write_text("#!/bin/bash\n#SBATCH --time=5\ntrue\n")
    assert main(["lint", "--no-config", "--select", "SB460", "--cluster", str(profile),
                 str(tmp_path / "job.sbatch")]) == 1
    assert f"`policy.required` in {profile}" in capsys.readouterr().out
    profile.write_text((PROFILES / "lab.toml").read_text() + '\n[policy.partition.gpux]\nneeds-gpus = true\n')
    assert main(["lint", "--no-config", "--cluster", str(profile), str(tmp_path / "job.sbatch")]) == 2
    assert "no partition `gpux`; did you mean `gpu`?" in capsys.readouterr().err
