"""How directive lines become words and options; every expectation was checked against sbatch 22.05.8."""

from __future__ import annotations

import pytest

import slurmspec

V2205 = "22.05"


def script_of(*directives: str, body: str = "true\n") -> str:
    return "#!/bin/bash\n" + "".join(d + "\n" for d in directives) + body


def effective(*directives: str, version: str = V2205) -> dict[str, object]:
    script = slurmspec.parse(script_of(*directives), version=version)
    return {s.name: s.raw for s in script.request.settings}


def issue_kinds(*directives: str, version: str = V2205) -> list[str]:
    script = slurmspec.parse(script_of(*directives), version=version)
    return [i.kind for i in script.issues if not i.ignored]


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (['#SBATCH -J a"b c"d'], {"job-name": "ab cd"}),
        (["#SBATCH -J run#1 --time=5"], {"job-name": "run"}),
        (['#SBATCH -J "x#y" -t 5 # comment'], {"job-name": "x#y", "time": "5"}),
        (["#SBATCH -J", "#SBATCH name2"], {"job-name": "name2"}),
        (["#SBATCH -J myhetjobname"], {"job-name": "myhetjobname"}),
        (["#SBATCH -J a\\"], {"job-name": "a"}),
        (["#SBATCH -t 5 \"\" -J z"], {"time": "5"}),
        (["#SBATCH -J x -t 5 #c", "#SBATCH -J y # -t 7"], {"job-name": "y", "time": "5"}),
        (["#SBATCH -J x hetjob -t 5"], {"job-name": "x"}),
        (["#SBATCH -J a\\#b"], {"job-name": "a#b"}),
        (['#SBATCH -J a\\"b'], {"job-name": 'a"b'}),
        (["#SBATCH -J 'a\\b'"], {"job-name": "ab"}),
        (["#SBATCH\t-J\ttab"], {"job-name": "tab"}),
        (["#SBATCH -J x\v-t\v5"], {"job-name": "x", "time": "5"}),
        (["#SBATCH#x -J y"], {}),
        (["#SBATCH--time=5"], {"time": "5"}),
        (["#SBATCH --part=debug --ntasks-per-n=2"], {"partition": "debug", "ntasks-per-node": "2"}),
        (["#SBATCH -Hn3"], {"hold": None, "ntasks": "3"}),
        (["#SBATCH --wrap=true -v"], {}),  # early-pass options are ignored in scripts
        (["#SBATCH --cluster=c1"], {"clusters": "c1"}),
        (["#SBATCH --tasks-per-node=4"], {"ntasks-per-node": "4"}),
        (["#SBATCH --exclusive=user"], {"exclusive": "user"}),
        (["#SBATCH -kfoo"], {"no-kill": "foo"}),
    ],
)
def test_effective_options_match_sbatch(lines, expected):
    assert effective(*lines) == expected


@pytest.mark.parametrize(
    ("lines", "kinds"),
    [
        (["#SBATCH -J a\\ b"], ["stray-word"]),  # 22.05: an escaped space still splits
        (["#SBATCH -J hetjob"], ["missing-argument"]),
        (['#SBATCH -J "abc'], ["unmatched-quote"]),
        (["#SBATCH :"], ["leading-colon"]),
        (["#SBATCH -J x :y"], ["leading-colon"]),
        (["#SBATCH --time=10 extra --hold"], ["stray-word"]),
        (["#SBATCH -J#x"], ["missing-argument"]),
        (["#SBATCHFOO"], ["stray-word"]),
        (["#SBATCH --clu=x"], ["ambiguous-option"]),
        (["#SBATCH --nod=2"], ["ambiguous-option"]),
        (['#SBATCH -J ""'], ["missing-argument"]),
        (["#SBATCH --exclusive user"], ["stray-word"]),
        (["#SBATCH --hold=yes"], ["unexpected-argument"]),
        (["#SBATCH --mpi=pmix"], ["srun-only-option"]),
        (["#SBATCH --gpu-per-node=4"], ["unknown-option"]),
        (["#SBATCH -y"], ["bad-short-option"]),
        (["#SBATCH -- --time=10"], ["stray-word"]),
        (["#SBATCH -"], ["stray-word"]),
        (["#SBATCH --tres-per-task=cpu=2"], ["option-not-in-version"]),
    ],
)
def test_issues_match_sbatch(lines, kinds):
    assert issue_kinds(*lines) == kinds


def test_escaped_space_joins_from_24_05():
    assert effective("#SBATCH -J a\\ b", version="24.05") == {"job-name": "a b"}
    assert issue_kinds("#SBATCH -J a\\ b", version="24.05") == []


def test_versions_change_the_option_table():
    assert issue_kinds("#SBATCH --power=x", version="22.05") == []
    assert issue_kinds("#SBATCH --power=x", version="24.05") == ["option-not-in-version"]
    # --ext abbreviates --extra-node-info until --extra exists (23.02).
    assert issue_kinds("#SBATCH --ext=2", version="22.05") == []
    assert issue_kinds("#SBATCH --ext=2", version="23.02") == ["ambiguous-option"]
    assert issue_kinds("#SBATCH --requeue=expedite", version="25.05") == ["unexpected-argument"]
    assert issue_kinds("#SBATCH --requeue=expedite", version="25.11") == []


def test_header_stops_at_first_command():
    text = script_of("#SBATCH -t 5", "  #SBATCH -J indented", "# SBATCH -J spaced", "#SBATCH -J x",
                     body="echo\n#SBATCH -J late\n#SBATCH --bogus\n")
    script = slurmspec.parse(text, version=V2205)
    assert {s.name: s.raw for s in script.request.settings} == {"time": "5", "job-name": "x"}
    late = [d for d in script.directives if d.ignored]
    assert [(d.name, d.value, d.line) for d in late] == [("job-name", "late", 7)]
    # An error on a line sbatch never reads is not an sbatch error.
    assert [i.kind for i in script.issues] == ["unknown-option"]
    assert all(i.ignored for i in script.issues)
    assert [l.kind for l in script.lines][2:4] == ["near-miss", "near-miss"]


def test_hetjob_components_and_inheritance():
    script = slurmspec.parse(
        script_of("#SBATCH -J x -t 5 -N 2", "#SBATCH hetjob", "#SBATCH -N 3", "#SBATCH packjob -n 1"),
        version=V2205,
    )
    assert len(script.components) == 3
    first, second, third = (c.request for c in script.components)
    assert first.get("nodes").raw == "2"
    assert second.get("nodes").raw == "3"
    # job name and time are not reset per component, nodes is (slurm_opt.c reset_each_pass)
    assert second.get("job-name").inherited and second.get("time").raw == "5"
    assert third.get("nodes") is None
    assert third.get("ntasks") is None  # "-n 1" after packjob on the same line is dropped


def test_value_positions_point_into_the_file():
    text = script_of("#SBATCH --time=5 -J 'my job'")
    script = slurmspec.parse(text)
    time, name = script.directives
    assert text[time.value_span.start:time.value_span.end] == "5"
    assert (time.name_span.line, time.name_span.column) == (2, 9)
    assert text[name.value_span.start:name.value_span.end] == "'my job'"
    assert name.value == "my job"


def test_repeated_options_last_wins_and_mail_type_accumulates():
    script = slurmspec.parse(
        script_of("#SBATCH -t 5", "#SBATCH -t 6", "#SBATCH --mail-type=BEGIN", "#SBATCH --mail-type=END"),
        version=V2205,
    )
    time = script.request.get("time")
    assert time.raw == "6" and [d.value for d in time.overridden] == ["5"]
    mail = script.request.value("mail-type")
    assert set(mail.types) == {"BEGIN", "END"}
    newer = slurmspec.parse(script_of("#SBATCH --mail-type=BEGIN", "#SBATCH --mail-type=END"), version="25.05")
    assert set(newer.request.value("mail-type").types) == {"END"}


def test_signal_flags_and_kill_on_invalid_dep_accumulate():
    script = slurmspec.parse(
        script_of("#SBATCH --signal=R:USR1", "#SBATCH --signal=B:USR2@30",
                  "#SBATCH --kill-on-invalid-dep=yes", "#SBATCH --kill-on-invalid-dep=no"),
        version=V2205,
    )
    signal = script.request.value("signal")
    assert set(signal.flags) == {"B", "R"} and signal.seconds == 30  # sbatch -v: RB:USR2@30
    assert script.request.value("kill-on-invalid-dep").value == "yes"
