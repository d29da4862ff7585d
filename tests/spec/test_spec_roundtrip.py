"""Invariants: spec -> emit -> parse -> convert gives the spec back, the emitted script lints clean,
and a spec survives being written as TOML and read again."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from slurmspec import parse
from slurmspec.emit import emit
from slurmspec.lint import lint_text
from slurmspec.spec import load_spec, spec_from_data
from slurmspec.spec.convert import convert_script
from slurmspec.spec.toml_write import to_toml
from tests.strategies import job_spec_data

_SETTINGS = settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)


@_SETTINGS
@given(job_spec_data())
def test_convert_of_emit_is_the_spec(data):
    spec = spec_from_data(data)
    script = emit(spec)
    assert convert_script(parse(script)) == spec


@_SETTINGS
@given(job_spec_data())
def test_emitted_scripts_lint_clean(data):
    script = emit(spec_from_data(data))
    findings = [d for d in lint_text(script) if d.severity in ("warning", "error")]
    assert not findings, (script, [(d.code, d.message) for d in findings])


@_SETTINGS
@given(job_spec_data())
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
