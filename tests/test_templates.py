"""Job templates (issue 23): recognised once, in the parser; placeholders are unknown values, control lines
are not commands, and SB906 says the file is a template."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings

from slurmspec.cluster.store import load_profile
from slurmspec.kinds import Severity, TemplateStyle
from slurmspec.lint import lint_text
from slurmspec.parser.script import parse_script
from slurmspec.parser.templates import is_control_line, placeholders_in
from tests.strategies import template_scripts

LAB = load_profile(Path(__file__).resolve().parent / "cluster" / "profiles" / "lab.toml")


@pytest.mark.parametrize("text, style", [
    ("--job-name={{ name }}", TemplateStyle.JINJA),
    ("--gres=gpu:{{gpus}}", TemplateStyle.JINJA),
    ("--nodes=${{ inputs.nodes }}", TemplateStyle.JINJA),
    ("--nodes=XXXmpinodesXXX", TemplateStyle.MARKER),
    ("--ntasks=@NTASKS@", TemplateStyle.AT_MARKER),
    ("-A <your account>", TemplateStyle.ANGLE),
])
def test_placeholders_in_a_directive(text, style):
    assert [p.style for p in placeholders_in(text, 0, True)] == [style]


@pytest.mark.parametrize("text", [
    'echo "${#ARR[@]}"', "trimmomatic SRRXXXXXXXX_1.fastq", "mail me@EXAMPLE.ORG", "cat <in >out",
    "python -c \"print('{{x}}'.format())\"", "echo XXX XXX", "awk '{print $1}'", "echo ${ARR[@]}",
])
def test_ordinary_shell_has_no_placeholder(text):
    assert placeholders_in(text, 0, False) == []


@pytest.mark.parametrize("line, control", [
    ("{% if gpus %}", True), ("  {%- endif -%}  ", True), ("{# note #}", True), ("{% if a %}{% endif %}", True),
    ("{% if a %} echo hi", False), ("{{ name }}", False), ("${#x}", False),
])
def test_control_lines(line, control):
    assert is_control_line(line) is control


def test_control_lines_do_not_end_the_header_and_placeholders_are_one_word():
    text = ("#!/bin/bash\n#SBATCH -A <your account>\n{% if gpus %}\n#SBATCH --gpus={{ gpus }}\n{% endif %}\n"
            "srun ./app\n")
    script = parse_script(text)
    assert script.template is not None and script.template.control_lines == {3, 5}
    assert [(d.option.long, d.value, d.ignored) for d in script.directives] == [
        ("account", "<your account>", False), ("gpus", "{{ gpus }}", False)]
    assert script.issues == ()
    assert script.to_text() == text


def test_an_ordinary_script_is_no_template():
    script = parse_script('#!/bin/bash\n#SBATCH -t 5\necho "${#A[@]}" SRRXXXXXXXX_1 a@B.C < in\n')
    assert script.template is None


@settings(max_examples=150)
@given(template_scripts())
def test_a_placeholder_is_never_an_error(case):
    """Whatever option a placeholder is the value of, its value is refused by nothing (no SB0xx word
    problem, no SB110-SB122 invalid value: an option that conflicts with another by its presence still
    does), and the template is noted once."""
    text, number = case
    found = lint_text(text, version=(22, 5))
    about_value = [d for d in found if d.span.line == number and d.severity is Severity.ERROR
                   and (d.code < "SB100" or "SB110" <= d.code <= "SB122")]
    assert not about_value, found
    # with a cluster profile too: a placeholder names no partition, account or feature the cluster lacks
    with_cluster = lint_text(text, version=(22, 5), cluster=LAB)
    assert not [d for d in with_cluster if d.span.line == number and d.code.startswith("SB4")
                and d.severity is Severity.ERROR], with_cluster
    assert "SB900" not in {d.code for d in found + with_cluster}  # no rule trips over an unknown value
    assert [d.code for d in found].count("SB906") == 1
    plain = lint_text(text.replace("{% if guard %}\n", "").replace("{% endif %}\n", ""), version=(22, 5))
    assert "SB201" not in {d.code for d in found} - {d.code for d in plain}  # control lines end no header


def test_a_placeholder_in_a_directive_comment_is_only_a_comment():
    script = parse_script("#!/bin/bash\n#SBATCH --account=bdliv07  # Run job under project <project>\nsrun ./a\n")
    assert script.template is None
