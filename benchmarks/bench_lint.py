"""Issue 14's figures in one run: cold start, throughput, ``--jobs``, and memory over many files.

Run: python benchmarks/bench_lint.py [--runs 15] [--corpus ../shared/corpus/real]
                                     [--memory 6000,100000] [--scale 10000] [--python PYTHON]

It installs this checkout (not editable) into a temporary folder and runs it with a
virtual environment's interpreter whose only extra paths are that folder and the
dependencies' site-packages, so ``python -c pass`` pays no editable-install finder
or other ``.pth`` start-up hooks (``--python`` uses an interpreter as it is). Times are
CPU seconds of the child processes (``getrusage``), interleaved run by run, median
of ``--runs``: CPU time moves far less than wall time on a shared machine. ``--jobs``
is compared by wall time, as the point is to use more cores. Peak memory is the
largest resident set of the lint process and its workers (``wait4``), over files
generated in a temporary folder by repeating the corpus, deleted afterwards.
Never asserts: timings belong in notes, not tests.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "multinode-torchrun.sbatch"
SPEC = ROOT / "samples" / "multinode-torchrun.toml"
_RUN_CLI = "import sys; from slurmspec.cli import main; sys.exit(main())"


def install(work: Path) -> str:
    """A Python that imports this checkout as installed from a wheel, and nothing else of ours."""
    source, target, venv = work / "src", work / "site", work / "venv"
    ignore = shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__", ".hypothesis", "*.whl")
    shutil.copytree(ROOT, source, ignore=ignore)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--target", str(target), str(source)], check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "PIP_ROOT_USER_ACTION": "ignore"})
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    # Path lines only: the dependencies' folder is added without running its .pth hooks.
    Path(purelib, "slurmspec-bench.pth").write_text(f"{target}\n{sysconfig.get_paths()['purelib']}\n")
    subprocess.run([python, "-m", "compileall", "-q", str(target)], check=True, stdout=subprocess.DEVNULL)
    return python


def child_cpu(command: list[str], cwd: str, stdin=None) -> float:
    """CPU seconds (user + system) of one run of ``command`` and everything it waited for."""
    process = subprocess.Popen(command, cwd=cwd, stdin=stdin or subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, stderr = process.communicate()
    _check(command, process.returncode, stderr)
    return _cpu_of_last_child()


def _check(command: list[str], returncode: int, stderr: bytes) -> None:
    """Exit codes 0 and 1 are verdicts; 2 or a traceback (exit 1 too) means nothing was measured."""
    if returncode > 1 or b"Traceback (most recent call last)" in stderr:
        raise SystemExit(f"{' '.join(command[:6])} ... failed ({returncode}):\n{stderr.decode(errors='replace')}")


_last = resource.getrusage(resource.RUSAGE_CHILDREN)


def _cpu_of_last_child() -> float:
    global _last
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent = (now.ru_utime - _last.ru_utime) + (now.ru_stime - _last.ru_stime)
    _last = now
    return spent


def interleaved(commands: dict[str, list[str]], runs: int, cwd: str, before=None) -> dict[str, float]:
    """Median CPU seconds of each command, the commands taking turns (one warm-up round first)."""
    spent: dict[str, list[float]] = {name: [] for name in commands}
    for round_ in range(runs + 1):
        for name, command in commands.items():
            if before is not None:
                before(name)
            seconds = child_cpu(command, cwd)
            if round_:
                spent[name].append(seconds)
    return {name: statistics.median(values) for name, values in spent.items()}


def wall(command: list[str], cwd: str) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    if not command[0].endswith("shellcheck"):
        _check(command, done.returncode, done.stderr)
    return seconds


THROUGHPUT = r"""
import sys, time
from slurmspec.lint.engine import lint_script, select_rules
from slurmspec.parser.script import parse_script
paths = sys.argv[2:]
data = [open(p, "rb").read() for p in paths]
rules = select_rules()
for d, p in zip(data, paths):
    lint_script(parse_script(d, p), rules)  # warm: lazy imports and caches
rounds = int(sys.argv[1])
best = float("inf")
each = [float("inf")] * len(paths)
for _ in range(rounds):
    cpu = time.process_time()
    for i, (d, p) in enumerate(zip(data, paths)):
        start = time.perf_counter()
        lint_script(parse_script(d, p), rules)
        each[i] = min(each[i], time.perf_counter() - start)
    best = min(best, time.process_time() - cpu)
each.sort()
print(len(paths) / best, each[len(each) // 2], each[int(len(each) * 0.95)])
"""


def peak_rss_mib(command: list[str], cwd: str) -> tuple[float, float]:
    """(peak resident MiB of the process and its waited-for workers, wall seconds)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        errors.seek(0)
        _check(command, process.returncode, errors.read())
    return usage.ru_maxrss / 1024, seconds


def generate(folder: Path, count: int, corpus: list[Path]) -> None:
    """``count`` scripts in ``folder`` (100 per subfolder), repeating the corpus in order."""
    texts = [path.read_bytes() for path in corpus]
    for number in range(count):
        sub = folder / f"{number // 100:05d}"
        if number % 100 == 0:
            sub.mkdir(parents=True)
        (sub / f"{number:06d}.sbatch").write_bytes(texts[number % len(texts)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "real")
    parser.add_argument("--memory", default="6000,100000", help="file counts for the memory runs ('' skips them)")
    parser.add_argument("--python", default=None, help="use this interpreter as it is instead of installing")
    parser.add_argument("--scale", type=int, default=10000,
                        help="files for the --jobs 1 / every core / twice the cores comparison (0 skips it)")
    args = parser.parse_args()
    corpus = sorted(args.corpus.resolve().glob("*.sbatch"))
    if not corpus:
        raise SystemExit(f"no *.sbatch in {args.corpus}")

    with tempfile.TemporaryDirectory(prefix="slurmspec-bench-") as work_name:
        work = Path(work_name)
        python = args.python or install(work)
        neutral = str(work)  # never the checkout: `python -m` would import the source tree
        lint = [python, "-c", _RUN_CLI, "lint"]
        rows: list[tuple[str, str, str]] = []

        # 1. Cold single-file runs, against the interpreter doing nothing.
        fixing = work / "fix.sbatch"
        cold = interleaved({
            "pass": [python, "-c", "pass"],
            # What every cold lint pays before any slurmspec code runs: the attrs its models are
            # made with, and argparse.
            "floor": [python, "-c", "import attrs, argparse"],
            "json": [*lint, "--format", "json", str(SAMPLE)],
            "concise": [*lint, "--format", "concise", str(SAMPLE)],
            "text": [*lint, "--format", "text", str(SAMPLE)],
            "fix": [*lint, "--fix", "--format", "concise", str(fixing)],
            "emit": [python, "-c", _RUN_CLI, "emit", str(SPEC)],
        }, args.runs, neutral, before=lambda name: name == "fix" and shutil.copy(SAMPLE, fixing))
        base = cold["pass"]
        rows.append(("python -c pass", f"{base * 1000:.1f} ms CPU", ""))
        rows.append(("python -c 'import attrs, argparse'", f"{cold['floor'] * 1000:.1f} ms",
                     f"{cold['floor'] / base:.2f}x pass (the floor under every cold run)"))
        for name, limit in (("json", 7), ("concise", 7), ("text", 8)):
            rows.append((f"cold lint --format {name}", f"{cold[name] * 1000:.1f} ms",
                         f"{cold[name] / base:.2f}x pass (target <= {limit}x)"))
        for name in ("fix", "emit"):
            rows.append((f"cold {'lint --fix' if name == 'fix' else 'emit'}", f"{cold[name] * 1000:.1f} ms",
                         f"{cold[name] / cold['concise']:.2f}x lint --format concise (target <= 1.10x)"))

        # 2. In-process parse + lint of the corpus on one core.
        done = subprocess.run([python, "-c", THROUGHPUT, str(max(3, args.runs // 3)), *map(str, corpus)],
                              cwd=neutral, check=True, capture_output=True, text=True)
        rate, p50, p95 = map(float, done.stdout.split())
        rows.append((f"in-process parse+lint, {len(corpus)} scripts", f"{rate:.0f} scripts/s per core",
                     f"p50 {p50 * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms (target >= 1000/s, p95 <= 2 ms)"))

        # 3. A folder on every core, against one process and against ShellCheck on the same files.
        jobs = [*lint, "--format", "json", "--no-config", str(args.corpus.resolve())]
        outputs = {}
        for n in (1, os.cpu_count() or 1):
            done = subprocess.run([*jobs, "--jobs", str(n)], cwd=neutral, capture_output=True)
            _check(jobs, done.returncode, done.stderr)
            outputs[n] = done.stdout
        same = len(set(outputs.values())) == 1
        walls: dict[str, list[float]] = {"serial": [], "parallel": [], "shellcheck": []}
        shellcheck = shutil.which("shellcheck")
        for _ in range(max(3, args.runs // 3)):
            walls["serial"].append(wall([*jobs, "--jobs", "1"], neutral))
            walls["parallel"].append(wall(jobs, neutral))
            if shellcheck:
                walls["shellcheck"].append(wall([shellcheck, "-f", "json", *map(str, corpus)], neutral))
        serial, parallel = statistics.median(walls["serial"]), statistics.median(walls["parallel"])
        rows.append((f"lint {len(corpus)} files, --jobs default ({os.cpu_count()} cores)", f"{parallel:.2f} s wall",
                     f"{serial / parallel:.2f}x faster than --jobs 1 ({serial:.2f} s); "
                     f"output {'identical' if same else 'DIFFERENT'}"))
        if shellcheck:
            checked = statistics.median(walls["shellcheck"])
            rows.append(("shellcheck -f json, same files", f"{checked:.2f} s wall",
                         f"slurmspec --jobs is {checked / parallel:.2f}x faster (target >= 5x)"))

        # 3b. A large run: --jobs 1 against every core and against more workers than cores
        # (issue 20: at least 1.6x on an idle 2-core machine, never slower with more workers).
        if args.scale:
            folder = work / f"files-{args.scale}"
            generate(folder, args.scale, corpus)
            command = [*lint, "--format", "json", "--no-config", "--exit-zero", str(folder)]
            cores = os.cpu_count() or 1
            counts = sorted({1, cores, 2 * cores})
            outputs, walls_ = {}, {n: [] for n in counts}
            for n in counts:
                done = subprocess.run([*command, "--jobs", str(n)], cwd=neutral, capture_output=True)
                _check(command, done.returncode, done.stderr)
                outputs[n] = done.stdout
            for _ in range(3):
                for n in counts:
                    walls_[n].append(wall([*command, "--jobs", str(n)], neutral))
            one = statistics.median(walls_[1])
            same = len(set(outputs.values())) == 1
            for n in counts:
                taken = statistics.median(walls_[n])
                rows.append((f"lint {args.scale} files --jobs {n}", f"{taken:.2f} s wall",
                             f"{one / taken:.2f}x --jobs 1" + ("" if n == 1 else " (target >= 1.6x on 2 idle cores)")
                             + f"; output {'identical' if same else 'DIFFERENT'}"))
            shutil.rmtree(folder)

        # 4. Peak memory over many files, one process and every core.
        for count in [int(n) for n in args.memory.split(",") if n.strip()]:
            folder = work / f"files-{count}"
            generate(folder, count, corpus)
            for jobs_ in ("1", str(os.cpu_count() or 1)):
                mib, seconds = peak_rss_mib([*lint, "--format", "json", "--no-config", "--exit-zero",
                                              "--jobs", jobs_, str(folder)], neutral)
                limit = 80 if count <= 6000 else 100
                rows.append((f"lint {count} files --jobs {jobs_}", f"{mib:.0f} MiB peak RSS",
                             f"{seconds:.0f} s wall (target < {limit} MiB)"))
            shutil.rmtree(folder)

    width = max(len(r[0]) for r in rows)
    for label, value, note in rows:
        print(f"{label.ljust(width)}  {value:>24}  {note}")


if __name__ == "__main__":
    main()
