"""Invariants: spec -> emit -> parse -> convert gives the spec back, the emitted script lints clean,
and a spec survives being written as TOML and read again."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slurmspec import parse
from slurmspec.emit import emit
from slurmspec.lint import lint_text
from slurmspec.spec import load_spec, spec_from_data
from slurmspec.parser.script import parse_script
from slurmspec.emit.convert import ConvertError, convert_script
from slurmspec.spec.toml_write import to_toml
from tests.spec.spec_data import spec_data
from tests.strategies import sbatch_conflict_scripts, sbatch_odd_scripts, sbatch_scripts
from tests.examples import examples

_SETTINGS = settings(max_examples=examples(200), suppress_health_check=[HealthCheck.too_slow], deadline=None)


_VERSIONS = st.sampled_from([(22, 5), (23, 2), (26, 5)])  # srun inherits --cpus-per-task from 23.11


@_SETTINGS
@given(spec_data(), _VERSIONS)
def test_convert_of_emit_is_the_spec(data, version):
    spec = spec_from_data(data, version)
    script = emit(spec, version=version)
    assert convert_script(parse(script, version=version)) == spec


@_SETTINGS
@given(spec_data(), _VERSIONS)
def test_emitted_scripts_lint_clean(data, version):
    script = emit(spec_from_data(data, version), version=version)
    findings = [d for d in lint_text(script, None, version) if d.severity in ("warning", "error")]
    assert not findings, (script, [(d.code, d.message) for d in findings])


@_SETTINGS
@given(spec_data())
def test_toml_written_and_read_back(data):
    spec = spec_from_data(data)
    assert load_spec(to_toml(spec)) == spec


def test_convert_of_emit_keeps_hetjobs_and_a_verbatim_body():
    text = ('[job]\nname = "het"\n[resources]\nnodes = 1\n[body]\nscript = "\\n# run\\nsrun hostname\\n"\n'
            '[[hetjob]]\noptions = ["--nodes=2", "--partition=cpu"]\n[[hetjob]]\noptions = ["--ntasks=1"]\n')
    spec = load_spec(text)
    script = emit(spec)
    assert script.count("#SBATCH hetjob") == 2
    assert convert_script(parse(script)) == spec


def test_a_hand_edited_generated_body_stays_verbatim():
    spec = load_spec('[launch]\nkind = "plain"\nprogram = "run.sh"\n')
    script = emit(spec).replace("run.sh", "run.sh --extra")
    back = convert_script(parse(script))
    assert back.section("launch") is None
    assert "run.sh --extra" in back.get("body", "script")


def _effective(script) -> list[dict]:
    return [{s.name: s.value for s in c.request.settings} for c in script.components]


@settings(max_examples=examples(300), suppress_health_check=list(HealthCheck), deadline=None)
@given(st.one_of(sbatch_scripts(), sbatch_odd_scripts(), sbatch_conflict_scripts()),
       st.sampled_from([(22, 5), (24, 5), (26, 5)]))
def test_emit_of_convert_asks_for_the_same(text, version):
    """Any script, broken ones included: same effective request per hetjob component."""
    original = parse_script(text, None, version)
    try:
        spec = convert_script(original)
    except ConvertError:
        assert original.had_undecodable_bytes
        return
    assert load_spec(to_toml(spec), version) == spec
    again = parse_script(emit(spec), None, version)
    assert _effective(again) == _effective(original), emit(spec)
