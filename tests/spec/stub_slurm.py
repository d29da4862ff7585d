"""Stub Slurm commands (bash, so a script runs in milliseconds) for running emitted scripts without a cluster.

``srun`` drops its options and runs the step's command, so every ``bash -c``
wrapper runs too; ``scontrol`` answers ``show hostnames`` and ``write
batch_script``; the other launchers, ``sbatch`` and the monitors only record
their call. Every call is recorded as one file of NUL-separated words in
``$STUB_LOG`` (``calls()`` reads them back). ``prog`` is a stand-in program
that acts out the contract of docs/spec.md, "Stopping before the time limit":
with ``stop`` it asks its batch shell to be signalled (as Slurm would), waits
for the signal to be passed on, then exits 0 (``stop-fail``: 4).
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

# One new file per call, named without a `mktemp` process (a script makes dozens of calls and the
# suite runs a few thousand scripts): the shell's PID and a 32-bit random number, written with
# noclobber so that a clash is an error rather than a lost call.
_RECORD = 'f="$STUB_LOG/call.$BASHPID.$SRANDOM" && set -C && printf \'%s\\0\' "${0##*/}" "$@" > "$f"; set +C\n'
STUBS = {
    "srun": _RECORD + """\
while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do shift; done
if [ "${STUB_SIGNAL_AT:-}" = staging ] && [ "$1" = cp ]; then kill -s "${STUB_SIGNAL:-USR1}" "$PPID"; fi
[ $# -eq 0 ] || exec "$@"
""",
    "scontrol": _RECORD + """\
case "$1 $2" in
    "show hostnames") echo node1 ;;
    "write batch_script") cat "$STUB_BATCH_SCRIPT" ;;
esac
""",
    "sbatch": _RECORD + 'cat > "$f.stdin"\necho "Submitted batch job 4243"\n',
    "prog": _RECORD + """\
got=0
trap 'got=1' "${STUB_SIGNAL:-USR1}"
case "${1:-}" in
    fail) exit 3 ;;
    stop|stop-fail|finish)
        [ "${STUB_SIGNAL_AT:-}" = staging ] || kill -s "${STUB_SIGNAL:-USR1}" "$PPID"
        for _ in $(seq 600); do [ "$got" = 1 ] && break; sleep 0.05; done
        echo "prog: got=$got" >&2
        [ "$got" = 1 ] || exit 9
        # finish: the work was complete when the signal came; the program says so
        [ "$1" = finish ] && { : > "$CHAIN_DONE" || exit 5; }
        [ "$1" != stop-fail ] || exit 4 ;;
    ask) kill -s "${STUB_SIGNAL:-USR1}" "$PPID" ;;
esac
exit 0
""",
}
RECORDING = ("nvidia-smi", "tensorboard", "torchrun", "accelerate", "horovodrun", "mpirun", "apptainer",
             "python", "python3")


def make_stubs(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, body in {**STUBS, **{name: _RECORD for name in RECORDING}}.items():
        path = folder / name
        path.write_text("#!/bin/bash\n" + body)
        path.chmod(0o755)
    return folder


def start_script(script: str, stubs: Path, work: Path, **env: str) -> subprocess.Popen:
    """Start ``script`` with bash in ``work`` (job 4242 on node1, ``$SLURM_TMPDIR`` = work/tmp), stubs first on PATH."""
    (work / "log").mkdir(parents=True, exist_ok=True)
    (work / "tmp").mkdir(exist_ok=True)
    (work / "job.sbatch").write_text(script)
    full = {"PATH": f"{stubs}:/usr/bin:/bin", "STUB_LOG": str(work / "log"), "HOME": str(work),
            "STUB_BATCH_SCRIPT": str(work / "job.sbatch"), "SLURM_JOB_ID": "4242", "SLURM_NNODES": "1",
            "SLURM_JOB_NODELIST": "node1", "SLURM_TMPDIR": str(work / "tmp"), "SLURMSPEC_SIGNAL_GRACE": "0",
            **env}
    with open(work / "stdout", "w") as out, open(work / "stderr", "w") as err:
        return subprocess.Popen(["bash", "job.sbatch"], cwd=work, env=full, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=err, start_new_session=True)


def finish_script(job: subprocess.Popen, work: Path) -> subprocess.CompletedProcess[str]:
    """Wait for a started script, then end its session: what it left in the background (the
    checkpoint loop's ``sleep``) is killed, as slurmstepd kills a finished job's processes."""
    try:
        status = job.wait(timeout=120)
    finally:
        try:
            os.killpg(job.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return subprocess.CompletedProcess(job.args, status, (work / "stdout").read_text(),
                                       (work / "stderr").read_text())


def run_script(script: str, stubs: Path, work: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return finish_script(start_script(script, stubs, work, **env), work)


def calls(work: Path, name: str | None = None) -> list[list[str]]:
    """The recorded calls (each: the command's name, then its arguments), of ``name`` only if given."""
    found = []
    for path in sorted((work / "log").glob("call.*")):
        if path.suffix == ".stdin":
            continue
        words = path.read_bytes().decode(errors="replace").split("\0")[:-1]
        if name is None or words[0] == name:
            found.append(words)
    return found


def stdin_of(work: Path, name: str) -> list[str]:
    """What each recorded call of ``name`` read on standard input (sbatch: the script it was given)."""
    return [path.read_text() for path in sorted((work / "log").glob("call.*.stdin"))
            if (work / "log" / path.stem).read_bytes().split(b"\0")[0].decode() == name]
