"""Stopping before the time limit, and continuing: the trap, the waited launch, the chain's next link.

The contract (docs/spec.md, "Stopping before the time limit"): with
``--signal=B:SIG@T`` Slurm sends SIG to the batch shell only (``B:``; src/slurmd/
slurmstepd/req.c signals the script's pid alone) T seconds before the time limit,
or up to 30 s earlier: slurmctld checks limits every 30 s (PERIODIC_TIMEOUT) and
signals a job whose end is within T + 30 s (job_mgr.c send_job_warn_signal()).
Bash's default action for USR1 ends the shell, so the trap is the first thing
the body does. The launch runs in the background; the shell waits for it, passes
the signal on (srun forwards it to every process of its step), and knows the run
was stopped when the running launch got it. The program saves its state and
exits 0; a ``[chain]`` then queues the next link. A run that ended by itself
queues nothing and the job ends with the program's status.

A launch that got the signal may still have finished its work (in the second
before the signal was passed on, while its launcher tore down): only the
program can tell, so a chained program creates the file ``$CHAIN_DONE`` when
its work is complete, and no link is queued after that.
"""

from __future__ import annotations

from slurmspec.spec.writer.quote import shell_template
from slurmspec.model.values.signal import SIGNALS, parse_signal
from slurmspec.spec.model import Spec

# A process still starting has no handler yet (the default action of SIGUSR1 ends it) and a
# worker not yet started would miss the signal; with a limit close to the warning time the
# signal can come right at the start, so it is passed on once the launch has run this long.
GRACE = 30
_NAMES = {number: name for name, number in SIGNALS.items()}  # `--signal=B:10` is trapped as USR1


def _signal_spec(spec: Spec):
    job = spec.section("job")
    if job is None or "signal" not in job:
        return None
    typed = job.typed.get("signal")
    if typed is None:  # a spec not built by the loader (convert keeps no typed values)
        typed = parse_signal(job.get("signal")).value
    return typed


def signal_name(spec: Spec) -> str | None:
    """The signal the script traps (``USR1``), or None when it neither stops nor continues.

    A ``B:`` signal stops the run; a ``[chain]`` continues it (the loader gives a chain
    ``B:USR1@300`` when it has no signal, so a chain always has one).
    """
    sig = _signal_spec(spec)
    if sig is not None and "B" in sig.flags:
        return _NAMES.get(sig.signal, str(sig.signal))
    return "USR1" if spec.section("chain") is not None else None


def _kill(name: str) -> str:
    return f"kill -s {name}" if not name.isdigit() else f"kill -{name}"


def trap_lines(spec: Spec, name: str) -> list[str]:
    sig = _signal_spec(spec)
    when = f"{sig.seconds} s before the limit" if sig is not None else "before the limit"
    option = f" (--signal={spec.get('job', 'signal')})" if sig is not None else ""
    return [
        f"# Stopping before the time limit{option}: Slurm sends SIG{name}",
        f"# to this batch shell only, {when} or up to 30 s earlier (it checks limits every 30 s).",
        "# Bash's default action for it would end the shell, so the trap comes first; the launch runs",
        "# in the background, and the loop after it passes the signal on.",
        "slurmspec_signals=0",
        f"trap 'slurmspec_signals=$((slurmspec_signals + 1))' {name}",
    ]


def ignoring(name: str) -> str:
    """Shell text that makes a launcher ignore the signal while its workers handle it.

    torchrun's elastic agent (and accelerate, which runs it) handles only TERM, INT,
    HUP and QUIT (torch/distributed/elastic/multiprocessing/api.py); SIGUSR1 would end
    it and orphan or kill the workers. srun delivers the signal to every process of the
    step, workers included; an ignored signal stays ignored across exec, so a worker
    sees it once it installs its own handler.
    """
    return f'trap "" {name}; '


def waited(launch: str, name: str) -> list[str]:
    """The launch in the background, then the loop that passes the signal on and waits for it.

    The loop polls (``kill -0``, ``sleep 1``) rather than waiting in ``wait``: a ``wait``
    cut short by a trapped signal can lose the status of a child that ends meanwhile
    (bash 5.2 jobs.c wait_for(): waitpid() then fails with ECHILD and ``wait`` returns
    -1), so ``wait`` only collects the status of a launch that has ended.
    """
    grace = f'"${{SLURMSPEC_SIGNAL_GRACE:-{GRACE}}}"'
    return [
        f"{launch} &",
        "slurmspec_launch=$!",
        "slurmspec_started=$SECONDS",
        "slurmspec_passed=0",
        "slurmspec_stopped=0",
        f"# SIG{name} is passed on once the launch has run SLURMSPEC_SIGNAL_GRACE seconds (default {GRACE}),",
        "# so the program has had time to set its handler.",
        'while kill -0 "$slurmspec_launch" 2>/dev/null; do',
        '    if [ "$slurmspec_signals" -gt "$slurmspec_passed" ] && [ $((SECONDS - slurmspec_started)) -ge'
        f" {grace} ]; then",
        "        slurmspec_passed=$slurmspec_signals",
        f'        {_kill(name)} "$slurmspec_launch" 2>/dev/null && slurmspec_stopped=1',
        "    fi",
        "    sleep 1",
        "done",
        "slurmspec_seen=$slurmspec_signals",
        'wait "$slurmspec_launch"',
        "status=$?",
        '[ "$slurmspec_signals" = "$slurmspec_seen" ] || { wait "$slurmspec_launch"; status=$?; }',
        'if [ "$slurmspec_stopped" = 1 ]; then',
        f'    echo "slurmspec: SIG{name} stopped the run before the time limit (exit status $status)" >&2',
        "fi",
    ]


def done_marker(spec: Spec) -> list[str]:
    """Lines that export ``CHAIN_DONE``, the file a chained program creates when its work is complete.

    It lives in a new private folder (``mktemp -d``, mode 0700) under the job's working
    folder, which every node of the job and a pyxis container (mounted at ``$PWD``) can
    reach, unlike node-local storage; a name nobody can guess, so nobody else can
    create the file and end the chain.
    """
    if spec.section("chain") is None:
        return []
    return [
        "# The program creates $CHAIN_DONE when its work is complete: a run that finishes while the",
        "# signal is being passed on then queues no further link.",
        'slurmspec_chain_dir=$(mktemp -d "$PWD/.slurmspec-chain.XXXXXXXXXX") || exit 1',
        'export CHAIN_DONE="$slurmspec_chain_dir/done"',
    ]


def continuation(spec: Spec) -> list[str]:
    """The chain's next link: queued only by a run the signal stopped and that exited 0."""
    chain = spec.section("chain")
    if chain is None:
        return []
    count = chain.get("count")
    # The index travels in CHAIN_INDEX: sbatch gives every SLURM*-named variable of its environment
    # precedence over the --export list (24.11 src/common/env.c env_merge_filter()), so a name
    # starting with SLURM would keep this link's value.
    if "script" in chain:
        submit = ('sbatch --dependency=afterany:"$SLURM_JOB_ID" --export=ALL,CHAIN_INDEX=$((slurmspec_link'
                  f" + 1)) -- {shell_template(chain.get('script'))}")
    else:  # the script slurmctld stored at submission, even if its file has changed or gone since
        submit = ('scontrol write batch_script "$SLURM_JOB_ID" - | sbatch --dependency=afterany:"$SLURM_JOB_ID"'
                  " --export=ALL,CHAIN_INDEX=$((slurmspec_link + 1))")
    return [
        f"# Chain: a run the signal stopped, that exited 0 and did not create $CHAIN_DONE, queues the next",
        f"# link (at most {count}). afterany starts it once this job has ended, in whatever state, so no",
        "# link waits forever; a run that ended by itself (its work done, or failed) queues nothing.",
        "slurmspec_done=0",
        '[ -e "$CHAIN_DONE" ] && slurmspec_done=1',
        'rm -rf -- "$slurmspec_chain_dir"',
        "slurmspec_link=${CHAIN_INDEX:-0}",
        "case $slurmspec_link in ''|*[!0-9]*) slurmspec_link=0 ;; esac",
        'if [ "$slurmspec_stopped" = 1 ] && [ "$status" -eq 0 ] && [ "$slurmspec_done" = 1 ]; then',
        '    echo "slurmspec: the program created $CHAIN_DONE: the work is done, no further link" >&2',
        'elif [ "$slurmspec_stopped" = 1 ] && [ "$status" -eq 0 ]; then',
        f'    if [ "$slurmspec_link" -lt {count} ]; then',
        f'        {submit} || {{ echo "slurmspec: could not queue the next link of the chain" >&2; status=1; }}',
        "    else",
        f'        echo "slurmspec: the job has resubmitted itself {count} times ([chain] count) and the work is not'
        ' done" >&2',
        "    fi",
        "fi",
    ]
