"""Issue 21's hostile scripts: time and peak memory of ``slurmspec lint`` on each, and of the language server.

Run: python benchmarks/bench_hostile.py [--only NAME[,NAME]] [--timeout 600] [--no-lsp]

Each case is generated in a temporary folder and linted by one process
(``slurmspec lint --no-config --exit-zero --jobs 1 --format concise``, output
discarded). Wall and CPU seconds and the process's peak resident set (``wait4``:
it includes the few tens of MiB of this process it was forked from) are printed;
a case still running after ``--timeout`` seconds is killed and shown as such.
``--python`` runs another checkout's interpreter (a "before" for comparison). The language-server rows drive a real ``slurmspec lsp`` with the
client of ``bench_lsp.py``: 20 full-text edits of a 3 MB document, and 20,000
small edits of a short one, each printing the server's resident set before
and after. Never asserts: timings belong in notes, not tests
(tests/test_hostile_inputs.py checks the work done instead).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from bench_lsp import script_of  # the realistic header and body block, shared with the LSP timing

MIB = 1024 * 1024
LIMIT = 4 * MIB  # slurmctld's default max_script_size, the most slurmspec analyses


def _lines(line: str, count: int, head: str = "#!/bin/bash\n") -> str:
    return head + line * count


def _fill(block: str, size: int, head: str = "") -> str:
    """``head`` then whole copies of ``block`` up to ``size`` bytes."""
    return head + block * ((size - len(head)) // len(block))


def cases() -> dict[str, Callable[[], str]]:
    """Each case's name and how to make it (one at a time: this process stays small)."""
    realistic = script_of(10_000)
    head, body = realistic.split("\nmodule purge", 1)
    body = "\nmodule purge" + body
    gpu = "#!/bin/bash\n#SBATCH -N 2\n#SBATCH --gpus-per-node=4\n"
    return {
        # Two GPUs per node and one task per node: the launch rules look at every step.
        "srun x 8,000": lambda: _lines("srun python train.py\n", 8_000, gpu),
        # 3.99 MB: past MAX_LAUNCHES (4,096) the launches are read as commands only (SB905).
        "srun x 190,000": lambda: _lines("srun python train.py\n", 190_000, gpu),
        "#SBATCH x 100,000": lambda: _lines("#SBATCH --time=10\n", 100_000),
        "echo a b c d e f g h x 150,000": lambda: _lines("echo a b c d e f g h\n", 150_000),
        "4 MiB of a\\n": lambda: _fill("a\n", LIMIT),
        "if a; then x 380,000": lambda: _lines("if a; then\n", 380_000),
        "realistic, 10,000 lines": lambda: realistic,
        "realistic, 4 MiB": lambda: _fill(body, LIMIT, head),
        # Past what is analysed (SB905): reported from the first lines, in no time.
        "#SBATCH x 349,000 (4 MiB)": lambda: _lines("#SBATCH -t1\n", 349_000),
        "one #SBATCH line of 4 million options": lambda: "#!/bin/bash\n#SBATCH -" + "H" * (LIMIT - 32) + "\n",
        # Within the limits but one long body line: two million words streamed past.
        "one body line of 2 million words": lambda: "#!/bin/bash\necho" + " a" * ((LIMIT - 20) // 2) + "\n",
    }


# slurmspec's main, then the process's own peak resident set (VmHWM): wait4's ru_maxrss would
# count the size of this process too, which the child had until it ran exec.
_RUN = ("import sys\nfrom slurmspec.cli import main\ncode = main(sys.argv[1:])\n"
        "sys.stderr.write('\\npeak ' + open('/proc/self/status').read().split('VmHWM:')[1].split()[0])\n"
        "sys.exit(code)\n")


def run_lint(python: str, path: Path, timeout: float) -> tuple[str, str]:
    command = [python, "-c", _RUN, "lint", "--no-config", "--exit-zero", "--jobs", "1",
               "--format", "concise", str(path)]
    start = time.perf_counter()
    with tempfile.TemporaryFile() as errors:
        # Run from the case's folder: `python -m` from a checkout would import the source tree beside it.
        process = subprocess.Popen(command, cwd=path.parent, stdout=subprocess.DEVNULL, stderr=errors,
                                   start_new_session=True)
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                os.killpg(process.pid, signal.SIGKILL)
                _, status, usage = os.wait4(process.pid, 0)
                return f"> {timeout:.0f} s (killed)", f"{usage.ru_maxrss / 1024:.0f} MiB so far"
            time.sleep(0.05)
        seconds = time.perf_counter() - start
        errors.seek(0)
        stderr = errors.read()
    code = os.waitstatus_to_exitcode(status)
    stderr, _, peak = stderr.rpartition(b"\npeak ")
    note = "" if code == 0 and b"Traceback" not in stderr else f" (exit {code}: {stderr[-200:].decode(errors='replace')})"
    cpu = usage.ru_utime + usage.ru_stime  # moves far less than wall time on a shared machine
    shown = f"{int(peak) / 1024:.0f} MiB" if peak.strip().isdigit() else f"{usage.ru_maxrss / 1024:.0f} MiB (ru_maxrss)"
    return f"{seconds:.2f} s wall, {cpu:.2f} s CPU{note}", shown


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def drive_lsp(python: str, big: str, small_edits: int) -> list[tuple[str, str, str]]:
    """Resident set of a server after 20 whole-text edits of ``big``, then after many small edits."""
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient

    client = LanguageClient("bench-hostile", "1")
    latest: dict[str, int] = {}
    arrived = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: types.PublishDiagnosticsParams) -> None:
        latest[params.uri] = params.version or 0
        arrived.set()

    async def settled(uri: str, version: int) -> None:
        while latest.get(uri) != version:
            arrived.clear()
            await asyncio.wait_for(arrived.wait(), 600)

    rows = []
    folder = Path(tempfile.mkdtemp(prefix="slurmspec-bench-hostile-"))
    await client.start_io(python, "-m", "slurmspec", "lsp", "--no-config", "--slurm-version", "24.11",
                          cwd=str(folder))
    pid = client._server.pid
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities(),
                                                         root_uri=folder.as_uri()))
    client.initialized(types.InitializedParams())

    def change(uri: str, version: int, text: str) -> None:
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    uri = (folder / "big.sbatch").as_uri()
    start = time.perf_counter()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="shellscript", version=1, text=big)))
    await settled(uri, 1)
    before = _rss_mib(pid)
    for version in range(2, 22):
        change(uri, version, big + f"echo edit {version}\n")
        await settled(uri, version)
    rows.append((f"lsp: 20 whole-text edits of {len(big) / MIB:.1f} MiB",
                 f"{time.perf_counter() - start:.1f} s", f"{before:.0f} -> {_rss_mib(pid):.0f} MiB RSS"))
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))

    uri = (folder / "small.sbatch").as_uri()
    text = script_of(30)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="shellscript", version=1, text=text)))
    await settled(uri, 1)
    start, marks = time.perf_counter(), {}
    for version in range(2, small_edits + 2):
        change(uri, version, text + f"# {version}\n")
        if version % 1000 == 0:
            await settled(uri, version)  # let the debounced lint run; the edits before it are dropped
            marks[version] = _rss_mib(pid)
    first, last = min(marks), max(marks)
    rows.append((f"lsp: {small_edits:,} small edits", f"{time.perf_counter() - start:.1f} s",
                 f"{marks[first]:.0f} MiB after {first:,} -> {marks[last]:.0f} MiB after {last:,}"))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="comma-separated case names (substrings) to run")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--no-lsp", action="store_true")
    parser.add_argument("--edits", type=int, default=20_000, help="small edits in the LSP memory row")
    parser.add_argument("--python", default=sys.executable, help="the interpreter that runs slurmspec")
    args = parser.parse_args()
    wanted = [name.strip() for name in args.only.split(",") if name.strip()]
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="slurmspec-hostile-") as work:
        for number, (name, make) in enumerate(cases().items()):
            if wanted and not any(part in name for part in wanted):
                continue
            path = Path(work, f"case-{number}.sbatch")
            text = make()
            path.write_text(text)
            seconds, peak = run_lint(args.python, path, args.timeout)
            rows.append((f"lint {name} ({len(text.encode()) / 1024:,.0f} KiB)", seconds, peak))
            del text
            print(*rows[-1], sep="  ", flush=True)
    if not args.no_lsp and not wanted:
        big = _fill("echo a b c d e f g h\n", 3 * MIB, "#!/bin/bash\n#SBATCH --time=10\n")
        for row in asyncio.run(drive_lsp(args.python, big, args.edits)):
            rows.append(row)
            print(*row, sep="  ", flush=True)
    print()
    width = max(len(row[0]) for row in rows)
    for label, seconds, memory in rows:
        print(f"{label.ljust(width)}  {seconds:>22}  {memory}")


if __name__ == "__main__":
    main()
