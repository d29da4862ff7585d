"""Profiles as TOML: the hand-written lab profile, every mistake named with its key, the JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from slurmspec.cluster.importer import import_profile
from slurmspec.cluster.profile import ProfileError
from slurmspec.cluster.store import dump_profile, load_profile, loads_profile
from slurmspec.kinds import EnforcePartLimits

HERE = Path(__file__).resolve().parent
LAB = HERE / "profiles" / "lab.toml"
SCHEMA = HERE.parents[1] / "slurmspec" / "cluster" / "profile.schema.json"
MINIMAL = '[config]\nslurm-version = "23.02.7"\n[[shape]]\nnodes = "n[1-2]"\ncpus = 4\nmemory = "8G"\n'


def test_lab_profile_describes_the_fixture_layout():
    lab = load_profile(LAB)
    assert lab.name == "lab" and lab.source == str(LAB) and lab.version == (22, 5)
    assert lab.config.enforce_part_limits is EnforcePartLimits.ALL and lab.config.max_array_size == 1001
    assert lab.default_partition().name == "debug"
    assert lab.partition("gpu").max_time == 2 * 24 * 60 and lab.partition("debug").default_time == 10
    assert lab.partition("all").max_time is None and len(lab.partition("all").nodes) == 25
    assert lab.partition("nosuch") is None
    a100 = lab.shape_of("a100-03")
    assert (a100.cpus, a100.memory_mb, a100.gpus(), a100.gpus("a100"), a100.gpus("v100")) == (64, 512000, 8, 8, 0)
    assert lab.shape_of("nosuch") is None
    assert [s.nodes[0] for s in lab.shapes_in(lab.partition("all"))] == ["local", "cpu-001", "v100-01", "a100-01"]
    assert lab.shapes_in(lab.partition("gpu")) == (lab.shape_of("v100-01"),)


def test_left_out_keys_take_slurm_defaults():
    profile = loads_profile(MINIMAL, "site.toml")
    assert profile.name == "site"  # the file's name
    config = profile.config
    assert (config.enforce_part_limits, config.max_array_size, config.max_job_count) == (EnforcePartLimits.NO, 1001, 10000)
    (shape,) = profile.shapes
    assert (shape.memory_mb, shape.sockets, shape.threads_per_core, shape.gres) == (8192, 1, 1, ())
    assert profile.partitions == () and profile.default_partition() is None


@pytest.mark.parametrize("text", [LAB.read_text(), MINIMAL])
def test_round_trip(text):
    profile = loads_profile(text, "p.toml")
    again = loads_profile(dump_profile(profile), "p.toml")
    assert again == profile
    assert dump_profile(again) == dump_profile(profile)


@pytest.mark.parametrize(("text", "message"), [
    ("name = 1\n", "p.toml: `name` must be a string, not 1"),
    ("[config]\n", "p.toml: `config.slurm-version` is required"),
    ('name = "x"\n', "p.toml: `config` is required"),
    ('[config]\nslurm-version = 22.05\n', "`config.slurm-version` must be a string"),
    ('[config]\nslurm-version = "latest"\n', 'must be a Slurm version such as "22.05.8"'),
    ('[config]\nslurm-version = "21.08.8"\n', "names Slurm 21.08.8 is older than 22.05"),
    ('[config]\nslurm-version = "22.05"\nenforce-part-limit = "ALL"\n',
     "unknown key `config.enforce-part-limit`; did you mean `enforce-part-limits`?"),
    ('[config]\nslurm-version = "22.05"\nenforce-part-limits = "YES"\n', "must be NO, ANY or ALL"),
    ('[config]\nslurm-version = "22.05"\nmax-array-size = -1\n', "`config.max-array-size` must be at least 0"),
    ('[config]\nslurm-version = "22.05"\nmax-array-size = true\n', "must be an integer, not True"),
    ('[config]\nslurm-version = "22.05"\ndef-mem-per-cpu = "lots"\n', "`config.def-mem-per-cpu` must be a size in MB"),
    (MINIMAL.replace('cpus = 4\n', ""), "`shape[0].cpus` is required"),
    (MINIMAL.replace('memory = "8G"\n', ""), "`shape[0].memory` is required"),
    (MINIMAL.replace('memory = "8G"', 'memory = "UNLIMITED"'), "`shape[0].memory` must be a size, not unlimited"),
    (MINIMAL.replace('"n[1-2]"', '"n[1-2"'), "`shape[0].nodes` unclosed '['"),
    (MINIMAL + 'gres = ["gpu:a:b:c"]\n', "`shape[0].gres` not a GRES"),
    (MINIMAL + 'features = "a,b"\n', "`shape[0].features` must be a list"),
    (MINIMAL + '[[shape]]\nnodes = "n2"\ncpus = 1\nmemory = 1\n', "node n2 is in more than one [[shape]]"),
    (MINIMAL + '[[partition]]\nnodes = "n1"\n', "`partition[0].name` is required"),
    (MINIMAL + '[[partition]]\nname = "p"\nnodes = "n[1-3]"\n', "`partition[0].nodes` names node n3, which no [[shape]] lists"),
    (MINIMAL + '[[partition]]\nname = "p"\nmax-time = "soon"\n', "`partition[0].max-time` must be minutes or a Slurm time"),
    (MINIMAL + '[[partition]]\nname = "p"\nstate = "OPEN"\n', "`partition[0].state` must be one of UP, DOWN"),
    (MINIMAL + '[[partition]]\nname = "p"\n[[partition]]\nname = "p"\n', "partition p is described twice"),
    (MINIMAL + 'partition = 3\n', "`shape[0].partition`"),  # a key under the last [[shape]]
    ('shape = [1]\n[config]\nslurm-version = "22.05"\n', "`shape[0]` must be a table"),
    ("[config\n", "p.toml: invalid TOML"),
])
def test_mistakes_name_the_file_and_key(text, message):
    with pytest.raises(ProfileError) as caught:
        loads_profile(text, "p.toml")
    assert message in str(caught.value)


def test_a_policy_table_is_read_and_checked_against_the_profile():
    policy = '\n[policy]\nrequired = ["time"]\n[policy.partition.gpu]\nneeds-gpus = true\n'
    profile = loads_profile(LAB.read_text() + policy, "p.toml")
    assert profile.policy is not None and profile.policy.source == "p.toml"
    with pytest.raises(ProfileError, match="has no partition `gpus`"):
        loads_profile(LAB.read_text() + policy.replace(".gpu]", ".gpus]"), "p.toml")
    with pytest.raises(ProfileError, match="unknown key `policy.requird`; did you mean `required`"):
        loads_profile(LAB.read_text() + "\n[policy]\nrequird = []\n", "p.toml")


def test_unreadable_and_non_utf8_files(tmp_path):
    with pytest.raises(ProfileError, match="cannot read the cluster profile: No such file"):
        load_profile(tmp_path / "missing.toml")
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe")
    with pytest.raises(ProfileError, match="not UTF-8"):
        load_profile(tmp_path / "bin.toml")


def test_times_and_sizes_in_every_form():
    text = MINIMAL + ('[[partition]]\nname = "p"\nnodes = "ALL"\nmax-time = 90\ndefault-time = "1-2"\n'
                      'def-mem-per-cpu = "2G"\nmax-mem-per-node = 1000\n')
    (part,) = loads_profile(text, "p.toml").partitions
    assert (part.max_time, part.default_time, part.def_mem_per_cpu, part.max_mem_per_node) == (90, 26 * 60, 2048, 1000)
    assert part.nodes == ("n1", "n2")


# ------------------------------------------------------------------ the JSON Schema
def _validator():
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is in the test extra")
    return jsonschema, jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))


def _toml(text: str) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    return tomllib.loads(text)


def test_written_profiles_match_the_schema():
    jsonschema, validator = _validator()
    validator.check_schema(validator.schema)
    data = HERE / "data"
    for release in ("2205", "2411"):
        profile, _ = import_profile(*(((data / f"{release}-{n}").read_text(), n) for n in ("node.txt", "partition.txt")),
                                    ((data / f"{release}-config.txt").read_text(), "config"))
        validator.validate(_toml(dump_profile(profile)))
    validator.validate(_toml(LAB.read_text()))
    validator.validate(_toml(MINIMAL))


@pytest.mark.parametrize("change", [
    lambda d: d.pop("config"),
    lambda d: d["config"].pop("slurm-version"),
    lambda d: d["config"].update({"enforce-part-limits": "SOMETIMES"}),
    lambda d: d["shape"][0].update({"cpus": 0}),
    lambda d: d["shape"][0].update({"colour": "blue"}),
    lambda d: d["partition"][0].update({"max-time": "soon"}),
    lambda d: d.update({"extra": 1}),
])
def test_the_schema_refuses_what_the_loader_refuses(change):
    jsonschema, validator = _validator()
    document = _toml(LAB.read_text())
    change(document)
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(document)


@pytest.mark.parametrize(("text", "minutes"), [
    ("30", 30), ("30:01", 31), ("04:00:00", 240), ("1-12", 2160), ("1-12:30", 2190), ("7-00:00:00", 10080),
    ("UNLIMITED", None), ("INFINITE", None), ("NONE", None), ("N/A", None), ("(null)", None),
])
def test_slurm_times(text, minutes):
    from slurmspec.cluster.units import format_minutes, parse_minutes

    assert parse_minutes(text) == minutes
    if minutes is not None:
        assert parse_minutes(format_minutes(minutes)) == minutes


@pytest.mark.parametrize(("text", "megabytes"), [
    ("512000", 512000), ("500G", 512000), ("1T", 1024 * 1024), ("1000000M", 1000000), ("2048K", 2), ("UNLIMITED", None),
])
def test_memory_sizes(text, megabytes):
    from slurmspec.cluster.units import parse_megabytes

    assert parse_megabytes(text) == megabytes


@pytest.mark.parametrize("text", ["2h", "1-", "a:b", "1:2:3:4", "-1"])
def test_bad_times(text):
    from slurmspec.cluster.units import parse_minutes

    with pytest.raises(ValueError):
        parse_minutes(text)
