"""The request as sbatch sees it: #SBATCH lines, then SBATCH_* variables, then sbatch's own arguments.

Each expectation here was measured with ``sbatch --test-only -v`` on Slurm 22.05.8 (and 24.11 where
a test says so); tests/test_invocation_sbatch.py keeps measuring them against the real thing.
"""

from __future__ import annotations

import pytest

from slurmspec.invocation import Invocation, InvocationError, parse_invoked
from slurmspec.kinds import Origin
from slurmspec.lint import lint_text, refuses
from slurmspec.lint.engine import lint_script
from slurmspec.parser.script import parse_script

V22, V24 = (22, 5), (24, 11)
SH = "#!/bin/bash\n"


def _script(*directives: str, body: str = "srun hostname\n") -> str:
    return SH + "".join(f"#SBATCH {d}\n" for d in directives) + body


def invoked(text: str, argv=(), environ=None, version=V22, path: str | None = "job.sbatch"):
    return parse_invoked(text, path, version, Invocation(argv, environ or {}))


def value(script, name: str, component: int = 0):
    setting = script.components[component].request.get(name)
    return None if setting is None else setting.raw


# ---------------------------------------------------------------- precedence
@pytest.mark.parametrize(("argv", "environ", "expected"), [
    ((), {}, "5"),
    ((), {"SBATCH_TIMELIMIT": "7"}, "7"),
    (("-t", "9"), {"SBATCH_TIMELIMIT": "7"}, "9"),
    (("--time=9",), {}, "9"),
    (("-t9",), {}, "9"),
    (("--time", "9"), {}, "9"),
])
def test_command_line_beats_environment_beats_script(argv, environ, expected):
    script = invoked(_script("-t 5"), argv, environ)
    assert value(script, "time") == expected
    assert script.request.time.minutes == int(expected)


def test_the_last_occurrence_wins_within_the_command_line_and_across_aliases():
    script = invoked(_script("--nodes=2", "--tasks-per-node=2"), ["-N", "4", "-N3", "--ntasks-per-node=1"])
    assert value(script, "nodes") == "3"
    assert value(script, "ntasks-per-node") == "1"


def test_a_setting_from_the_command_line_records_the_script_lines_it_replaced():
    script = invoked(_script("-p gpu", "--partition=a100"), ["-p", "all"])
    setting = script.request.get("partition")
    assert script.origin_of(setting.directive.span) is Origin.COMMAND_LINE
    assert [d.raw for d in setting.overridden] == ["-p gpu", "--partition=a100"]


def test_environment_values_are_arguments_as_they_are():
    script = invoked(_script(), environ={"SBATCH_JOB_NAME": "a b  c", "SBATCH_EXCLUSIVE": ""})
    assert value(script, "job-name") == "a b  c"
    assert script.request.has("exclusive") and value(script, "exclusive") is None  # "" = no argument


@pytest.mark.parametrize(("flag", "kept"), [
    ("", True), ("yes", True), ("YES", True), ("2", True), ("-1", True),
    ("no", False), ("0", False), ("1x", False), ("true", False),
])
def test_a_flag_variable_sets_or_cancels_the_option(flag, kept):
    script = invoked(_script("--requeue"), environ={"SBATCH_REQUEUE": flag})
    assert script.request.has("requeue") is kept


def test_of_two_variables_for_one_option_sbatch_reads_the_later_one():
    script = invoked(_script(), environ={"SLURM_HINT": "memory_bound", "SBATCH_HINT": "compute_bound"})
    assert value(script, "hint") == "compute_bound"


def test_variables_sbatch_does_not_read_are_ignored():
    inv = Invocation((), {"SBATCH_NTASKS": "5", "HOME": "/root", "SBATCH_TIMELIMIT": "7"})
    assert dict(inv.environ) == {"SBATCH_TIMELIMIT": "7"}
    assert not invoked(_script(), environ={"SBATCH_NTASKS": "5"}).request.has("ntasks")


def test_an_option_newer_than_the_target_release_is_not_read_from_the_environment():
    # SBATCH_TRES_PER_TASK came with --tres-per-task in 23.02.
    assert not invoked(_script(), environ={"SBATCH_TRES_PER_TASK": "cpu=2"}).request.has("tres-per-task")
    assert invoked(_script(), environ={"SBATCH_TRES_PER_TASK": "cpu=2"}, version=V24).request.has("tres-per-task")


# ------------------------------------------ "set by the command line" beats "set by the environment"
@pytest.mark.parametrize(("directives", "environ", "kept"), [
    (("--mem=1G", "--mem-per-cpu=1G"), {"SBATCH_MEM_PER_CPU": "2G"}, {"mem"}),
    (("--mem=1G",), {"SBATCH_MEM_PER_CPU": "2G"}, {"mem"}),
    (("--mem-per-cpu=1G",), {"SBATCH_MEM_PER_NODE": "2G"}, {"mem-per-cpu"}),
    ((), {"SBATCH_MEM_PER_CPU": "2G", "SBATCH_MEM_PER_NODE": "1G"}, {"mem", "mem-per-cpu"}),
])
def test_memory_set_by_the_script_drops_the_environments(directives, environ, kept):
    script = invoked(_script(*directives), environ=environ)
    assert {name for name in ("mem", "mem-per-cpu", "mem-per-gpu") if script.request.has(name)} == kept


def test_memory_conflicts_that_remain_are_refused_and_the_others_are_not():
    rescued = lint_text(_script("--mem=1G", "--mem-per-cpu=1G"), version=V22, environ={"SBATCH_MEM_PER_CPU": "2G"})
    assert not refuses(rescued)
    both_env = lint_text(_script(), version=V22, environ={"SBATCH_MEM_PER_CPU": "2G", "SBATCH_MEM_PER_NODE": "1G"})
    assert "SB125" in {d.code for d in both_env}
    script_and_cli = lint_text(_script("--mem=1G"), version=V22, argv=["--mem-per-cpu=2G"])
    assert "SB125" in {d.code for d in script_and_cli}


def test_hint_and_threads_per_core_the_one_not_from_the_environment_wins():
    hint_wins = invoked(_script("--hint=nomultithread"), environ={"SBATCH_THREADS_PER_CORE": "1"})
    assert hint_wins.request.has("hint") and not hint_wins.request.has("threads-per-core")
    threads_win = invoked(_script("--threads-per-core=1"), environ={"SBATCH_HINT": "nomultithread"})
    assert threads_win.request.has("threads-per-core") and not threads_win.request.has("hint")


def test_cpus_per_task_drops_an_environment_cpus_per_gpu_from_23_11_only():
    # 24.11: "Ignoring SBATCH_CPUS_PER_GPU since --cpus-per-task ... given as command line option";
    # 22.05 keeps both and refuses them ("--cpus-per-gpu is mutually exclusive with --cpus-per-task").
    environ = {"SBATCH_CPUS_PER_GPU": "4"}
    assert not invoked(_script("-c 2"), environ=environ, version=V24).request.has("cpus-per-gpu")
    assert invoked(_script("-c 2"), environ=environ).request.has("cpus-per-gpu")
    assert "SB140" in {d.code for d in lint_text(_script("-c 2"), version=V22, environ=environ)}


# ------------------------------------------------------------------ hetjobs
HET = _script("-J a", "hetjob", "-c 2", "hetjob", "-n 3")


def test_command_line_without_colons_applies_to_every_component():
    script = invoked(HET, ["--comment=zz"], {"SBATCH_TIMELIMIT": "7"})
    assert [value(script, "comment", k) for k in range(3)] == ["zz"] * 3
    assert [value(script, "time", k) for k in range(3)] == ["7"] * 3


def test_colon_groups_go_to_components_in_turn_and_the_last_group_repeats():
    script = invoked(HET, ["--comment=c0", ":", "--comment=c1"])
    assert [value(script, "comment", k) for k in range(3)] == ["c0", "c1", "c1"]
    assert [value(script, "job-name", k) for k in range(3)] == ["a", "a", "a"]  # inherited


def test_a_group_past_the_scripts_components_makes_a_component():
    script = invoked(_script("-J a"), ["--comment=c0", ":", "--comment=c1"])
    assert len(script.components) == 2
    assert value(script, "comment", 1) == "c1" and value(script, "job-name", 1) == "a"


# ------------------------------------------------------------ getopt and argv
@pytest.mark.parametrize("argv", [["-pall"], ["-p", "all"], ["--part=all"], ["--partition", "all"], ["-Hpall"]])
def test_command_line_words_go_through_sbatchs_getopt(argv):
    assert value(invoked(_script("-p gpu"), argv), "partition") == "all"


def test_options_sbatch_refuses_on_its_command_line_are_reported_there():
    found = lint_text(_script(), "job.sbatch", V22, argv=["--nod=2", "--foo", "--mpi=pmix", "-y", "--hold=1"])
    assert {d.path for d in found if refuses([d])} == {"<command line>"}
    assert [d.code for d in found] == ["SB004", "SB001", "SB002", "SB010", "SB006"]
    assert [d.span.column for d in found] == [8, 16, 22, 33, 36]  # in "sbatch --nod=2 --foo ..."


def test_the_options_end_at_the_script_named_after_them_and_its_arguments_are_not_read():
    script = invoked(_script(), ["-t", "5", "job.sbatch", "-t", "bogus", "x"])
    assert value(script, "time") == "5"
    assert invoked(_script(), ["-t", "5", "--", "job.sbatch", "--x"]).request.time.minutes == 5


@pytest.mark.parametrize(("argv", "fragment"), [
    (["-t", "5", "other.sbatch"], "`other.sbatch` is not an sbatch option"),
    (["-t", "5", "--", "-p", "x"], "`-p` is not an sbatch option"),
    (["--wrap=hostname"], "`--wrap` makes sbatch submit its own"),
    (["-V"], "`--version`"),
    (["--he"], "`--help`"),
])
def test_arguments_that_cannot_be_a_submission_of_this_script_are_an_error(argv, fragment):
    with pytest.raises(InvocationError) as caught:
        invoked(_script(), argv)
    assert fragment in str(caught.value)
    with pytest.raises(InvocationError):
        lint_text(_script(), "job.sbatch", V22, argv=argv)


def test_argv_must_be_a_list_of_words():
    with pytest.raises(TypeError):
        Invocation("-p gpu")


# ------------------------------------------------------------ the script itself
def test_the_script_text_lines_and_round_trip_are_untouched():
    text = _script("-p gpu", "--time=2h")
    plain, script = parse_script(text, "job.sbatch", V22), invoked(text, ["-p", "all", "-t", "9"], {"SBATCH_QOS": "x"})
    assert script.to_text() == text and script.lines == plain.lines and script.directive_lines == plain.directive_lines
    assert script.header_end == plain.header_end and script.source == plain.source


def test_findings_on_the_command_line_and_environment_are_located_there_and_never_fixed():
    text = _script("--time=10")
    found = lint_text(text, "job.sbatch", V22, argv=["-J", "x", "--time=2h", "--job-name='q'"],
                      environ={"SBATCH_MEM_PER_NODE": "1.5G"})
    by_path = {(d.path, d.code): d for d in found}
    time = by_path[("<command line>", "SB110")]  # sbatch -J x --time=2h ...: the `h`
    assert (time.span.line, time.span.column, time.span.end_line, time.span.end_column) == (1, 21, 1, 22)
    memory = by_path[("<environment>", "SB112")]  # SBATCH_MEM_PER_NODE=1.5G
    assert (memory.span.line, memory.span.column) == (1, 21)
    assert all(d.fix is None for d in found if d.path != "job.sbatch")


def test_a_value_in_quotes_is_located_exactly_in_the_rendered_command_line():
    script = invoked(_script(), ["--comment=it's a b", "-t", "1 h"])
    assert script.invocation.command_line.text == "sbatch '--comment=it'\\''s a b' -t '1 h' job.sbatch"
    found = [d for d in lint_script(script) if d.code == "SB110"]
    # A quoted word is written longer than its value: the whole quoted value is marked.
    span = found[0].span
    assert script.invocation.command_line.text[span.column - 1:span.end_column - 1] == "'1 h'"


def test_a_script_line_the_command_line_replaces_says_so():
    found = lint_text(_script("--time=2h", "-J old"), "job.sbatch", V22, argv=["-t", "5"])
    time = next(d for d in found if d.code == "SB110")
    assert time.path == "job.sbatch" and time.span.line == 2
    assert any("the sbatch command line replaces this with `-t 5`" in note for note in time.notes)


def test_an_override_from_the_command_line_is_not_a_repeated_option():
    found = lint_text(_script("-p gpu", "-J a"), "job.sbatch", V22, argv=["-p", "all", "-J", "a"])
    assert not {"SB204", "SB205"} & {d.code for d in found}
    within = lint_text(_script("-p gpu", "-p a100"), "job.sbatch", V22, argv=["-p", "all"])
    sb204 = next(d for d in within if d.code == "SB204")
    assert sb204.span.line == 2 and "on line 3" in sb204.message


def test_a_rule_naming_a_command_line_option_names_the_command_line_not_a_line_number():
    found = lint_text(_script(body="srun hostname\n"), "job.sbatch", V22, argv=["--export=NONE"])
    export = next(d for d in found if d.code == "SB250")
    assert export.notes == ("the command line: `--export=NONE`",)
    clash = lint_text(_script("--mem=1G"), "job.sbatch", V22, argv=["--mem-per-cpu=1G"])
    memory = next(d for d in clash if d.code == "SB125")
    assert memory.path == "<command line>" and "(line 2)" in memory.message


def test_the_environment_is_applied_to_every_component_but_reported_once():
    found = lint_text(HET, "job.sbatch", V22, environ={"SBATCH_TIMELIMIT": "2h"})
    assert [d.path for d in found if d.code == "SB110"] == ["<environment>"]


def test_suppression_comments_do_not_reach_the_command_line():
    text = SH + "#SBATCH --time=2h  # slurmspec: ignore[SB110]\nsrun x\n"
    found = lint_text(text, "job.sbatch", V22, argv=["-t", "3x"])
    assert [d.path for d in found if d.code == "SB110"] == ["<command line>"]


def test_kaust_style_submission_with_name_export_and_mail_on_the_command_line():
    template = _script("--partition=batch", "--time=01:00:00", "--mail-type=END", body="srun ./app\n")
    argv = ["--job-name=run42", "--export=NONE", "--mail-type=BEGIN", "--mail-user=me@kaust.edu.sa"]
    script = invoked(template, argv)
    assert value(script, "job-name") == "run42"
    assert script.request.get("export").value.mode == "NONE"
    assert script.request.get("mail-type").value.types == ("END", "BEGIN")  # ORed up to 24.11
    found = lint_script(script)
    assert not refuses(found)
    codes = {d.code for d in found}
    assert "SB250" in codes  # --export=NONE reaches the srun step
    assert "SB204" not in codes


def test_a_suppression_the_invocation_makes_unnecessary_is_not_reported_unused():
    text = SH + "# slurmspec: file-ignore[SB341]\n#SBATCH -J x\nsrun x\n"
    assert not lint_text(text, "job.sbatch", V22)  # used: SB341 (no --time) is suppressed
    assert lint_text(text, "job.sbatch", V22, argv=["-t", "5"]) == []  # not "unused" with `-t` given
