"""A setting's value is the parsed record of its option's kind, or the raw text when it did not parse.

Rules ask for the record they need by class (``value_as``) or for a count (``count``); both give None
for a value that did not parse, a job template's placeholder, a flag, and an option that is not set.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slurmspec.kinds import ValueKind
from slurmspec.model.catalogue.options import all_options
from slurmspec.model.values import PARSERS
from slurmspec.model.values._base import Unknown
from slurmspec.model.values.counts import Count, NodeCount
from slurmspec.model.values.time import Duration
from slurmspec.parser.script import parse_script
from slurmspec.version import NEWEST


def _request(*lines: str):
    return parse_script("#!/bin/bash\n" + "".join(f"#SBATCH {line}\n" for line in lines) + "srun ./app\n").request


def test_a_parsed_value_is_its_record():
    request = _request("--ntasks=4", "--nodes=2-3", "--time=1:00:00")
    assert request.count("ntasks") == 4 and request.get("ntasks").count() == 4
    assert request.value_as("nodes", NodeCount) == NodeCount(2, 3)
    assert request.value_as("time", Duration).minutes == 60
    assert request.value_as("time", NodeCount) is None  # another record: not this kind
    directive = request.get("nodes").directive
    assert directive.value_as(NodeCount) == NodeCount(2, 3) and directive.value_as(Count) is None


def test_a_value_that_did_not_parse_stays_raw_text_and_gives_no_record():
    request = _request("--ntasks=four", "--nodes=x")
    assert request.value("ntasks") == "four" and request.count("ntasks") is None
    assert request.value_as("nodes", NodeCount) is None
    assert request.get("nodes").directive.value_as(NodeCount) is None


def test_unset_options_flags_and_placeholders_give_none():
    request = _request("--ntasks={{ tasks }}", "--hold")
    assert isinstance(request.value("ntasks"), Unknown) and request.count("ntasks") is None
    assert request.value("hold") is True and request.count("hold") is None
    assert request.count("cpus-per-task") is None and request.value_as("nodes", NodeCount) is None


def test_the_string_kind_keeps_its_text():
    request = _request("--partition=gpu")
    assert request.value_as("partition", str) == "gpu"


_COUNT_OPTIONS = sorted(o.long for o in all_options()
                        if o.kind in (ValueKind.COUNT, ValueKind.COUNT0) and o.exists_in(NEWEST))


@settings(max_examples=200)
@given(st.sampled_from(_COUNT_OPTIONS), st.one_of(st.integers(-5, 10**6).map(str),
                                                   st.text("0123456789 +-x", min_size=1, max_size=8)))
def test_count_is_the_parser_s_whole_number_or_none(name, text):
    parsed = PARSERS[next(o.kind for o in all_options() if o.long == name)](text, NEWEST)
    request = _request(f"--{name}='{text}'")
    expected = parsed.value.value if isinstance(parsed.value, Count) else None
    assert request.count(name) == expected


@pytest.mark.parametrize("option", sorted({o.long for o in all_options() if o.kind is not None}))
def test_value_as_gives_the_value_exactly_when_it_is_of_the_class(option):
    request = _request(f"--{option}=1")
    setting = request.get(option)
    if setting is None:  # not an option of the newest release
        return
    value = setting.value
    assert setting.value_as(type(value)) is value
    assert setting.value_as(Unknown) is None


def test_repeated_options_accumulate_their_parsed_values_only():
    # Slurm ORs repeated --signal flags and --kill-on-invalid-dep, and (up to 24.11) --mail-type lists.
    old = parse_script("#!/bin/bash\n#SBATCH --mail-type=END\n#SBATCH --mail-type=FAIL\n#SBATCH --signal=R:USR1\n"
                       "#SBATCH --signal=B:USR1\n#SBATCH --kill-on-invalid-dep=yes\n#SBATCH --kill-on-invalid-dep=no\n",
                       version=(22, 5)).request
    assert old.value("mail-type").types == ("END", "FAIL") and old.value("signal").flags == ("B", "R")
    assert old.value("kill-on-invalid-dep").value == "yes"
    # A placeholder after a parsed value is not combined with it: it stays unknown (this raised TypeError).
    template = _request("--kill-on-invalid-dep=yes", "--kill-on-invalid-dep={{ kill }}", "--signal=B:USR1",
                        "--signal={{ signal }}")
    assert isinstance(template.value("kill-on-invalid-dep"), Unknown)
    assert isinstance(template.value("signal"), Unknown)
