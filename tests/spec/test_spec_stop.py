"""Stopping before the time limit and continuing (docs/spec.md), without a cluster.

What the loader refuses (at the key, exit 2), the shape of the emitted script
(the trap first, the launch backgrounded and waited for), and the script run
by bash with stub Slurm commands (tests/spec/stub_slurm.py): the signal is
passed on to the program, the chain queues its next link only after a stop
the program acknowledged with exit 0, and node-local folders are private.
tests/spec/test_spec_stop_slurm.py runs the same on a real Slurm.
"""

from __future__ import annotations

import json
import os
import re
import subprocess

import pytest

from slurmspec import parse
from slurmspec.cli import main
from slurmspec.emit import emit
from slurmspec.lint import lint_text
from slurmspec.spec import SpecError, load_spec
from slurmspec.emit.convert import convert_script
from tests.spec.stub_slurm import calls, finish_script, make_stubs, run_script, start_script, stdin_of

KINDS = ("torchrun", "srun", "horovod", "lightning", "accelerate", "deepspeed", "mpi", "plain")


def spec_text(launch: str = 'kind = "plain"\nprogram = "prog"\nargs = ["stop"]\n', job: str = "",
              extra: str = "", signal: str = "B:USR1@30") -> str:
    sig = f'signal = "{signal}"\n' if signal else ""
    return f'[job]\nname = "s"\ntime = "00:01:00"\n{sig}{job}[resources]\nntasks = 1\n[launch]\n{launch}{extra}'


@pytest.fixture(scope="module")
def stubs(tmp_path_factory):
    return make_stubs(tmp_path_factory.mktemp("stubs"))


# ------------------------------------------------------------------ refused at the key
@pytest.mark.parametrize(("extra", "job", "where", "fragment"), [
    ('[staging]\ninputs = ["d"]\nexport_as = "X=1; touch PWNED; Y"\n', "", (13, 1),
     "`staging.export_as` must be a shell variable name"),
    ('[checkpoint]\npersistent = "p"\nexport_as = "C$(touch PWNED)"\n', "", (13, 1),
     "`checkpoint.export_as` must be a shell variable name"),
    ('[checkpoint]\npersistent = "p"\nexport_as = "1X"\n', "", (13, 1), "not `1X`"),
    ('[checkpoint]\npersistent = "p"\nexport_as = "A\\nB"\n', "", (13, 1), "not 'A\\nB'"),
    ('[checkpoint]\npersistent = "p"\nexport_as = "PATH"\n', "", (13, 1), "cannot be `PATH`"),
    ('[checkpoint]\npersistent = "p"\nexport_as = "SLURM_JOB_ID"\n', "", (13, 1), "cannot be `SLURM_JOB_ID`"),
    ('[checkpoint]\npersistent = "p"\nexport_as = "CHAIN_INDEX"\n', "", (13, 1), "cannot be `CHAIN_INDEX`"),
    ('[staging]\ninputs = ["d"]\nexport_as = "D"\n[checkpoint]\npersistent = "p"\nexport_as = "D"\n', "",
     (16, 1), "as `staging.export_as`"),
    ("", 'signal = "USR1@60"\n', (4, 1), "has no `B:`: Slurm would signal the job steps and not the batch shell"),
    ("", 'signal = "R:USR2@60"\n', (4, 1), "write `B:USR2@60`"),
    ("", 'signal = "B:KILL@60"\n', (4, 1), "SIGKILL cannot be caught"),
    ("[chain]\ncount = 2\n", 'array = "1-3"\n', (12, 1), "each array task would resubmit the whole array"),
])
def test_refused_at_the_key_with_exit_2(tmp_path, capsys, extra, job, where, fragment):
    path = tmp_path / "job.toml"
    path.write_text(spec_text(job=job, extra=extra, signal="" if "signal" in job else "B:USR1@30"))
    assert main(["emit", "--no-config", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"{path}:{where[0]}:{where[1]}: error:" in err and fragment in err, err


@pytest.mark.parametrize(("launch", "signal", "fragment"), [
    ('kind = "horovod"\nlauncher = "horovodrun"\nprogram = "t.py"\n', "B:USR1@60", "horovodrun does not pass"),
    ('kind = "mpi"\nlauncher = "mpirun"\nprogram = "t.py"\n', "B:TERM@60", "mpirun passes only SIGUSR1"),
])
def test_launchers_that_cannot_pass_the_signal_on_are_refused(launch, signal, fragment):
    with pytest.raises(SpecError, match=fragment):
        load_spec(spec_text(launch, signal=signal))
    load_spec(spec_text(launch, signal=""))  # without a signal they are fine


def test_mpirun_takes_usr2():
    script = emit(load_spec(spec_text('kind = "mpi"\nlauncher = "mpirun"\nprogram = "t.py"\n', signal="B:USR2@60")))
    assert "trap 'slurmspec_signals=$((slurmspec_signals + 1))' USR2" in script
    assert 'kill -s USR2 "$slurmspec_launch"' in script


def test_a_chain_without_a_signal_gets_usr1_five_minutes_before_the_limit():
    spec = load_spec(spec_text(extra="[chain]\ncount = 2\n", signal=""))
    assert spec.get("job", "signal") == "B:USR1@300"
    script = emit(spec)
    assert "#SBATCH --signal=B:USR1@300" in script
    assert convert_script(parse(script)) == spec


# ------------------------------------------------------------------ the emitted script's shape
def _commands(script: str) -> list[str]:
    return [line for line in script.split("# slurmspec-spec:")[1].splitlines()[1:]
            if line.strip() and not line.lstrip().startswith("#")]


@pytest.mark.parametrize("kind", KINDS)
def test_trap_first_launch_in_background_then_waited(kind):
    """What a check for `--signal=B:` without a handler looks for: the trap in the batch shell, before
    any command, and the launch backgrounded with `&`, then `wait`ed for."""
    from tests.spec.test_spec_emit import geometry

    text = (f'[job]\nname = "k"\npartition = "gpu"\ntime = "10:00"\nsignal = "B:USR1@120"\n[resources]\n'
            f'{geometry(kind)}[launch]\nkind = "{kind}"\nprogram = "train.py"\n'
            '[staging]\ninputs = ["d"]\n[checkpoint]\npersistent = "p"\n[monitor]\ngpu = true\n[chain]\ncount = 2\n')
    script = emit(load_spec(text))
    commands = _commands(script)
    assert commands[:2] == ["slurmspec_signals=0", "trap 'slurmspec_signals=$((slurmspec_signals + 1))' USR1"]
    launch = next(i for i, line in enumerate(commands) if re.match(r"(srun|python|mpirun|horovodrun) .* &$", line))
    assert "slurmspec_launch=$!" == commands[launch + 1]
    assert 'wait "$slurmspec_launch"' in commands[launch:]
    assert subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True).returncode == 0
    findings = [(d.code, d.message) for d in lint_text(script) if d.severity in ("warning", "error")]
    assert not findings
    if kind in ("torchrun", "accelerate"):  # the launcher must outlive the signal its workers handle
        assert "bash -c 'trap \"\" USR1; exec " in commands[launch]


def test_without_a_signal_the_launch_runs_in_the_foreground():
    script = emit(load_spec(spec_text(signal="")))
    assert "trap" not in script and "\nprog stop\nstatus=$?\n" in script


# ------------------------------------------------------------------ run with stub Slurm commands
def _run(stubs, tmp_path, text: str, **env: str):
    script = emit(load_spec(text))
    return script, run_script(script, stubs, tmp_path, **env)


def _plain(args: str) -> str:
    return f'kind = "plain"\nprogram = "prog"\nargs = {args}\n'


NOT_STOPPED = [  # (program's arguments, environment, the job's status, a message)
    ('["done"]', {}, 0, None),  # the work ended before the signal: the chain is over
    ('["fail"]', {}, 3, None),  # the program failed: its status is the job's
    ('["stop-fail"]', {}, 4, "exit status 4"),  # stopped, but failed while saving: nothing to resume from
    ('["stop"]', {"CHAIN_INDEX": "2"}, 0, "resubmitted itself 2 times ([chain] count) and the work is not done"),
    # the signal came, but the program ended before it was passed on (still within the grace)
    ('["ask"]', {"SLURMSPEC_SIGNAL_GRACE": "100000"}, 0, None),
    # the signal reached the program, but its work was complete: it created $CHAIN_DONE
    ('["finish"]', {}, 0, "the work is done, no further link"),
]
SRUN_KINDS = ("srun", "mpi", "lightning")

# Every run that passes a signal on, by name: (spec, environment, input files). Each polls for a second
# or two (the emitted loop's `sleep 1`), so the `runs` fixture starts them all at once.
SIGNALLED = {
    "alone": (spec_text(), {}, ()),
    "stopped link": (spec_text(extra="[chain]\ncount = 2\n"), {"CHAIN_INDEX": "1"}, ()),
    "named script": (spec_text(extra='[chain]\ncount = 2\nscript = "-x; $(touch CANARY).sh"\n'), {}, ()),
    "done marker": (spec_text(_plain('["finish"]'), extra="[chain]\ncount = 2\n"), {}, ()),
    # Slurm signals at the first limit check, which can come while inputs are still being staged.
    "before the launch": (spec_text(extra='[staging]\ninputs = ["in.txt"]\n[chain]\ncount = 1\n'),
                          {"STUB_SIGNAL_AT": "staging", "SLURMSPEC_SIGNAL_GRACE": "2"}, ("in.txt",)),
    **{f"not stopped {args}": (spec_text(_plain(args), extra="[chain]\ncount = 2\n"), env, ())
       for args, env, _, _ in NOT_STOPPED},
    **{f"step {kind}": (spec_text(f'kind = "{kind}"\nprogram = "prog"\nargs = ["stop"]\n', signal="B:USR2@60"),
                        {"STUB_SIGNAL": "USR2"}, ()) for kind in SRUN_KINDS},
}

# The module's tests share one worker, so the runs are made once.
pytestmark = pytest.mark.xdist_group("spec-stop-stub-runs")


@pytest.fixture(scope="module")
def runs(stubs, tmp_path_factory):
    """Name -> (the emitted script, its working folder, how the run ended) for every run in ``SIGNALLED``."""
    started = {}
    for name, (text, env, inputs) in SIGNALLED.items():
        work = tmp_path_factory.mktemp("run")
        for file in inputs:
            (work / file).write_text("x")
        script = emit(load_spec(text))
        started[name] = (script, work, start_script(script, stubs, work, **env))
    return {name: (script, work, finish_script(job, work)) for name, (script, work, job) in started.items()}


def test_the_signal_alone_reaches_the_program_and_the_job_ends_with_its_status(runs):
    _, work, result = runs["alone"]
    assert result.returncode == 0, result.stderr
    assert "prog: got=1" in result.stderr
    assert "SIGUSR1 stopped the run before the time limit (exit status 0)" in result.stderr
    assert calls(work, "sbatch") == []


def test_a_stopped_link_queues_the_next_after_itself(runs):
    script, work, result = runs["stopped link"]
    assert result.returncode == 0, result.stderr
    assert calls(work, "sbatch") == [["sbatch", "--dependency=afterany:4242", "--export=ALL,CHAIN_INDEX=2"]]
    assert stdin_of(work, "sbatch") == [script]  # the script as slurmctld stored it
    assert calls(work, "scontrol") == [["scontrol", "write", "batch_script", "4242", "-"]]


def test_a_chain_resubmits_the_script_it_names(runs):
    _, work, _ = runs["named script"]
    assert calls(work, "sbatch") == [["sbatch", "--dependency=afterany:4242", "--export=ALL,CHAIN_INDEX=1",
                                      "--", "-x; $(touch CANARY).sh"]]
    assert not (work / "CANARY").exists()


@pytest.mark.parametrize(("args", "status", "message"), [(args, status, text) for args, _, status, text in NOT_STOPPED])
def test_a_link_that_was_not_stopped_or_failed_queues_nothing(runs, args, status, message):
    _, work, result = runs[f"not stopped {args}"]
    assert result.returncode == status, result.stderr
    assert calls(work, "sbatch") == []
    assert message is None or message in result.stderr, result.stderr
    assert args != '["ask"]' or "stopped the run" not in result.stderr
    assert not list(work.glob(".slurmspec-chain.*"))  # the marker's folder is removed


def test_the_done_marker_is_private_and_unguessable(runs):
    script, work, result = runs["done marker"]
    assert 'mktemp -d "$PWD/.slurmspec-chain.XXXXXXXXXX"' in script  # mktemp makes it 0700
    assert result.returncode == 0 and calls(work, "sbatch") == [], result.stderr


def test_a_signal_before_the_launch_is_passed_on_once_it_runs(runs):
    _, work, result = runs["before the launch"]
    assert result.returncode == 0 and "prog: got=1" in result.stderr, result.stderr
    assert len(calls(work, "sbatch")) == 1


@pytest.mark.parametrize("kind", SRUN_KINDS)
def test_the_signal_is_passed_to_the_srun_step(runs, kind):
    _, work, result = runs[f"step {kind}"]
    assert result.returncode == 0 and "prog: got=1" in result.stderr, result.stderr
    assert "SIGUSR2 stopped the run" in result.stderr
    assert sorted(c[0] for c in calls(work) if c[0] != "scontrol") == ["prog", "srun"]


# ------------------------------------------------------------------ private node-local folders
def test_default_folders_are_new_and_private(stubs, tmp_path):
    text = spec_text('kind = "plain"\nprogram = "prog"\nargs = ["done"]\n', signal="",
                     extra='[staging]\ninputs = ["in.txt"]\n[checkpoint]\npersistent = "persistent"\n')
    (tmp_path / "in.txt").write_text("x")
    (tmp_path / "persistent").mkdir(mode=0o755)
    (tmp_path / "persistent" / "state").write_text("resume from here")
    (tmp_path / "persistent").chmod(0o755)
    _, result = _run(stubs, tmp_path, text)
    assert result.returncode == 0, result.stderr
    made = sorted((tmp_path / "tmp").iterdir())
    assert [p.name.split(".")[0] for p in made] == ["slurmspec-ckpt", "slurmspec-stage"]
    assert all(p.stat().st_mode & 0o777 == 0o700 for p in made)
    ckpt, stage = made
    assert (stage / "in.txt").read_text() == "x"
    assert (ckpt / "state").read_text() == "resume from here"  # restored from the persistent copy
    # the syncs copied the files, not the private folder's mode: persistent keeps its own
    assert (tmp_path / "persistent").stat().st_mode & 0o777 == 0o755


@pytest.mark.skipif(os.geteuid() != 0, reason="making a folder another user owns needs root")
@pytest.mark.parametrize("planted", ["other user's folder", "link"])
def test_a_named_folder_someone_else_made_is_refused(stubs, tmp_path, planted):
    target = tmp_path / "elsewhere"
    target.mkdir()
    dest = tmp_path / "tmp" / "stage"
    dest.parent.mkdir()
    if planted == "link":
        dest.symlink_to(target)
    else:
        dest.mkdir(mode=0o777)
        os.chown(dest, 65534, 65534)
    text = spec_text('kind = "plain"\nprogram = "prog"\nargs = ["done"]\n', signal="",
                     extra=f'[staging]\ninputs = ["in.txt"]\ndest = {json.dumps(str(dest))}\n')
    (tmp_path / "in.txt").write_text("x")
    _, result = _run(stubs, tmp_path, text)
    assert result.returncode == 1
    assert f"slurmspec: refusing {dest}: it exists and is not a folder of ours" in result.stderr
    assert calls(tmp_path, "prog") == [] and not (target / "in.txt").exists()


def test_a_named_folder_is_made_private(stubs, tmp_path):
    text = spec_text('kind = "plain"\nprogram = "prog"\nargs = ["done"]\n', signal="",
                     extra='[checkpoint]\npersistent = "p"\nlocal = "$SLURM_TMPDIR/a/ckpt"\n')
    _, result = _run(stubs, tmp_path, text)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "tmp" / "a" / "ckpt").stat().st_mode & 0o777 == 0o700
