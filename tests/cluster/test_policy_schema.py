"""The JSON Schema of the `[policy]` table says what `parse_policy` accepts: the same keys, types and values.

Editors and a centre's CI validate profiles with `profile.schema.json`; a schema
looser than the loader lets a broken policy through to every user, a stricter
one flags a good one. Each case here is run through both, and they must agree,
except for the two checks JSON Schema cannot express (listed in
`test_what_the_schema_cannot_express`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from slurmspec.cluster.policy import parse_policy
from slurmspec.cluster.profile import ProfileError
from slurmspec.model.catalogue.options import by_long_name, by_short_name
from tests.cluster.rule_profiles import POLICIES, PROFILES, ROOT

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is in the test extra")

SCHEMA = json.loads((ROOT / "slurmspec" / "cluster" / "profile.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
EXAMPLES = sorted(POLICIES.glob("*.toml"))


def schema_accepts(policy: dict) -> bool:
    return VALIDATOR.is_valid({"config": {"slurm-version": "22.05.8"}, "policy": policy})


def loader_accepts(policy: dict) -> bool:
    try:
        parse_policy(policy, "site.toml")
    except ProfileError:
        return False
    return True


def _policy(text: str) -> dict:
    return tomllib.loads(text if text.startswith("[") else f"[policy]\n{text}").get("policy", {})


def test_the_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_policy_validates_in_a_profile(path: Path):
    policy = tomllib.loads(path.read_text())["policy"]
    profile = tomllib.loads((PROFILES / "lab.toml").read_text())
    VALIDATOR.validate({**profile, "policy": policy})
    assert loader_accepts(policy)


def test_the_documented_table_validates():
    text = (ROOT / "docs" / "policy.md").read_text()
    block = re.search(r"## The table\n\n```toml\n(.*?)```", text, re.S)[1]
    policy = tomllib.loads(block)["policy"]
    assert set(policy) >= {"required", "forbidden", "allowed", "partition", "gpu", "untyped-gpus"}
    VALIDATOR.validate({"config": {"slurm-version": "24.11.5"}, "policy": policy})
    assert loader_accepts(policy)


def test_the_option_pattern_lists_every_sbatch_option():
    """A new option in the model must be added to the schema (paste the pattern this test prints)."""
    longs = "|".join(sorted(by_long_name()))
    shorts = "".join(sorted(by_short_name()))
    expected = rf"^\s*(-[{shorts}]|(--)?({longs}))\s*$"
    assert SCHEMA["$defs"]["policy-option"]["pattern"] == expected, json.dumps(expected)


def test_every_spelling_of_every_option_is_accepted_by_both():
    spellings = [*by_long_name(), *(f"--{name}" for name in by_long_name()), *(f"-{s}" for s in by_short_name())]
    policy = {"required": spellings, "allowed": {name: ["x"] for name in spellings}}
    assert schema_accepts(policy) and loader_accepts(policy)


ACCEPTED = [
    'required = [" --time ", "-A", "time\\n"]',
    "required = []",
    'forbidden = ["mem-per-cpu", "--mem"]',
    'name = "Example University"\nenforced = false\ngpu-partitions-need-gpus = true',
    '[policy.allowed]\n"--qos" = ["normal", " "]',
    'untyped-gpus = "rewritten"\nuntyped-gpus-become = "rtx_6000"',
    'untyped-gpus = "rewritten"\nuntyped-gpus-become = "ä100"',
    'untyped-gpus = "refused"',
    "[policy.partition.gpu]",
    '[policy.partition."gpu debug"]\nneeds-gpus = true\nrequired = ["gres"]\nuntyped-gpus = "refused"',
    '[policy.partition.gpu]\nuntyped-gpus = "rewritten"\nuntyped-gpus-become = "t4"',
    "[policy.partition.gpu.allowed]\nqos = [\"gpu\"]",
    '[policy.gpu."*"]\ncpus-per-gpu = 8',
    "[policy.gpu.a100]\ncpus-per-gpu = { min = 4 }\nmem-per-gpu = 65536",
    '[policy.gpu.a100]\nmem-per-gpu = { min = "1K", max = "+128gB" }',
    '[policy.gpu.a100]\nmem-per-gpu = " 64G"',
    '[policy.gpu.a100]\nmem-per-gpu = "0064"',
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_both_accept(text):
    policy = _policy(text)
    assert loader_accepts(policy), "the loader refuses it"
    assert schema_accepts(policy), [e.message for e in VALIDATOR.iter_errors({"config": {"slurm-version": "1.1"},
                                                                             "policy": policy})]


REFUSED = [
    'requird = ["time"]',
    'required = ["tme"]',
    'required = ["-time"]',
    'required = ["---time"]',
    'required = ["-Z"]',
    'required = [""]',
    'required = "time"',
    "required = [3]",
    'forbidden = ["tim e"]',
    'name = "  "',
    "name = 3",
    'enforced = "yes"',
    'gpu-partitions-need-gpus = "no"',
    'untyped-gpus = "no"',
    'untyped-gpus = "Refused"',
    'untyped-gpus-become = "a100"',
    'untyped-gpus = "refused"\nuntyped-gpus-become = "a100"',
    'untyped-gpus = "rewritten"\nuntyped-gpus-become = "_-"',
    'untyped-gpus = "rewritten"\nuntyped-gpus-become = "a100\\n"',
    'untyped-gpus = "rewritten"\nuntyped-gpus-become = "a 100"',
    "untyped-gpus = \"rewritten\"\nuntyped-gpus-become = \"\"",
    "partition = 5",
    'partition = { gpu = "strict" }',
    "gpu = 5",
    "[policy.partition.gpu]\nneeds-gpu = true",
    "[policy.partition.gpu]\ngpu-partitions-need-gpus = true",
    "[policy.partition.gpu]\nname = \"x\"",
    '[policy.partition.gpu]\nuntyped-gpus-become = "t4"',
    "[policy.partition.gpu.gpu.a100]\ncpus-per-gpu = 8",
    '[policy.allowed]\nqos = "normal"',
    "[policy.allowed]\nqos = []",
    '[policy.allowed]\nqos = [""]',
    "[policy.allowed]\nqos = [1]",
    '[policy.allowed]\nqoss = ["normal"]',
    "[policy.gpu.a100]",
    "[policy.gpu.a100]\ncpus-per-gpu = 0",
    "[policy.gpu.a100]\ncpus-per-gpu = true",
    '[policy.gpu.a100]\ncpus-per-gpu = "8"',
    "[policy.gpu.a100]\ncpus-per-gpu = { max = 0 }",
    "[policy.gpu.a100]\ncpus-per-gpu = {}",
    "[policy.gpu.a100]\ncpu-per-gpu = 4",
    '[policy.gpu.a100]\nmem-per-gpu = { max = "1.5G" }',
    "[policy.gpu.a100]\nmem-per-gpu = { most = 4 }",
    '[policy.gpu.a100]\nmem-per-gpu = "0G"',
    "[policy.gpu.a100]\nmem-per-gpu = 0",
    '[policy.gpu.a100]\nmem-per-gpu = "-5"',
    "[policy.gpu.a100]\nmem-per-gpu = -5",
    '[policy.gpu.a100]\nmem-per-gpu = "5b"',
    '[policy.gpu.a100]\nmem-per-gpu = "5P"',
    '[policy.gpu.a100]\nmem-per-gpu = "5GiB"',
    '[policy.gpu.a100]\nmem-per-gpu = "5G "',
    '[policy.gpu.a100]\nmem-per-gpu = "5G\\n"',
    '[policy.gpu.a100]\nmem-per-gpu = ""',
    "[policy.gpu.a100]\nmem-per-gpu = 1.5",
    "[policy.gpu.a100]\nmem-per-gpu = [4]",
]


@pytest.mark.parametrize("text", REFUSED)
def test_both_refuse(text):
    policy = _policy(text)
    assert not loader_accepts(policy), "the loader accepts it"
    assert not schema_accepts(policy), "the schema accepts it"


@pytest.mark.parametrize("text", [
    "[policy.gpu.a100]\ncpus-per-gpu = { min = 8, max = 4 }",  # no keyword compares two values of the data
    '[policy.gpu.a100]\nmem-per-gpu = { min = "2G", max = "1G" }',
    "[policy.gpu.a100]\ncpus-per-gpu = 8.0",  # JSON has one number type: 8.0 is the integer 8 to the schema
])
def test_what_the_schema_cannot_express(text):
    """The schema's description names these; the loader is the last word."""
    policy = _policy(text)
    assert schema_accepts(policy) and not loader_accepts(policy)
    description = SCHEMA["$defs"]["policy"]["description"]
    assert "`min` must not be more than `max`" in description and "(8, not 8.0)" in description
