"""`slurmspec audit` at scale: peak memory against the number of jobs, and throughput per core.

Run: python benchmarks/bench_audit.py [--jobs 5000,20000,80000] [--unique 50] [--all-unique 2000]

A synthetic ``sacct`` (written to a temporary folder, passed with ``--sacct``) streams N job rows
as sacct 22.05 prints them and answers ``-j ... --batch-script`` / ``--env-vars`` with the same
block format, drawing each job's script from ``--unique`` variants (realistic headers and
bodies, some with the mistakes the audit prices: a single python on several GPUs, a missing log
folder). Each run is one fresh process (``slurmspec.cli.main``) that prints its own peak
resident set (``VmHWM`` of /proc/self/status) after the report is written; the synthetic sacct
processes are not counted. Jobs per second and distinct scripts per second are per core: the
audit runs in one process, and the wall and CPU seconds of that process (children included:
the synthetic sacct it starts) are printed. Never asserts: figures belong in docs/audit.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

FAKE_SACCT = r'''#!PYTHON
import sys
N, UNIQUE = int(sys.argv[0].rsplit("-", 2)[-2]), int(sys.argv[0].rsplit("-", 2)[-1])
SEP = "\x1f"
BODIES = (
    "python train.py --epochs 10\n", "srun ./solver input.dat\n", "module load gcc\n./a.out > out.txt\n",
    "torchrun --nproc_per_node=4 train.py\n", "echo start\nsleep 60\necho done\n",
)
def script(variant):
    gpus = (0, 1, 4)[variant % 3]
    out = ("logs-missing/%j.out" if variant % 7 == 0 else "%x-%j.out")
    head = f"#!/bin/bash\n#SBATCH --job-name=job{variant}\n#SBATCH --time=0{variant % 9}:30:00\n"
    head += f"#SBATCH --output={out}\n"
    head += f"#SBATCH --cpus-per-task={1 + variant % 8}\n#SBATCH --mem={4 + variant % 60}G\n"
    if gpus:
        head += f"#SBATCH --gres=gpu:{gpus}\n"
    return head + f"# variant {variant}\n" + BODIES[variant % len(BODIES)]
args = sys.argv[1:]
out = sys.stdout
if "--batch-script" in args or "--env-vars" in args:
    ids = [int(x) for x in args[args.index("-j") + 1].split(",")]
    for job in sorted(ids):
        if "--batch-script" in args:
            out.write(f"Batch Script for {job}\n" + "-" * 80 + "\n" + script(job % UNIQUE) + "\n")
        else:
            out.write(f"Environment used for {job} (must be batch to display)\n" + "-" * 80 + "\n"
                      f"HOME=/home/u{job % 40}\nSECRET_TOKEN=abc{job}\nSBATCH_ACCOUNT=proj{job % 5}\n\n")
    sys.exit(0)
for job in range(1, N + 1):
    variant = job % UNIQUE
    gpus = (0, 1, 4)[variant % 3]
    state = "FAILED" if variant % 7 == 0 else "COMPLETED"
    elapsed = 0 if state == "FAILED" else 60 + job % 3600
    day = 1 + job % 28
    tres = f"billing=1,cpu={1 + variant % 8}" + (f",gres/gpu={gpus}" if gpus else "") + ",mem=4096M,node=1"
    out.write(SEP.join((str(job), str(job), f"u{job % 40}", f"proj{job % 5}", "gpu" if gpus else "cpu", state,
                        "0:53" if state == "FAILED" else "0:0", str(elapsed), tres, "1",
                        f"2026-02-{day:02d}T09:00:00", f"2026-02-{day:02d}T09:05:00",
                        f"2026-02-{day:02d}T10:00:00", f"/home/u{job % 40}", "sbatch job.sh")) + "\n")
'''

DRIVER = r'''
import sys, time, resource
from slurmspec.cli import main
start, cpu = time.perf_counter(), time.process_time()
code = main(sys.argv[1:])
wall = time.perf_counter() - start
children = resource.getrusage(resource.RUSAGE_CHILDREN)
own = time.process_time() - cpu
hwm = [line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")][0]
print(f"RESULT {code} {wall:.3f} {own:.3f} {children.ru_utime + children.ru_stime:.3f} {hwm}", file=sys.stderr)
'''


def fake_sacct(folder: Path, jobs: int, unique: int) -> Path:
    path = folder / f"sacct-{jobs}-{unique}"
    path.write_text(FAKE_SACCT.replace("PYTHON", sys.executable, 1))
    path.chmod(0o755)
    return path


def run(folder: Path, jobs: int, unique: int) -> dict[str, float]:
    sacct = fake_sacct(folder, jobs, unique)
    argv = [sys.executable, "-c", DRIVER, "audit", "--sacct", str(sacct), "--since", "2026-02-01", "--until",
            "2026-03-01", "--all-users", "--no-config", "--slurm-version", "22.05", "--format", "json"]
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=folder)
    line = [x for x in done.stderr.splitlines() if x.startswith("RESULT ")]
    if not line:
        raise SystemExit(done.stderr[-3000:])
    code, wall, own, children, hwm = line[-1].split()[1:]
    return {"code": int(code), "wall": float(wall), "cpu": float(own), "sacct_cpu": float(children),
            "peak_mib": int(hwm) / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", default="5000,20000,80000", help="job counts for the memory curve")
    parser.add_argument("--unique", type=int, default=50, help="distinct scripts in the memory runs")
    parser.add_argument("--all-unique", type=int, default=2000, help="jobs in the run where every script differs")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"# {os.cpu_count()} cores, load average {load:.2f} at start (other work on the machine skews time)")
    print(f"{'jobs':>8} {'unique':>7} {'wall s':>7} {'audit cpu s':>11} {'sacct cpu s':>11} {'peak MiB':>8}"
          f" {'jobs/s':>8} {'w/ sacct':>8} {'unique/s':>8}")
    with tempfile.TemporaryDirectory(prefix="bench-audit-") as tmp:
        cases = [(int(n), args.unique) for n in args.jobs.split(",")] + [(args.all_unique, args.all_unique)]
        for jobs, unique in cases:
            r = run(Path(tmp), jobs, unique)
            busy = r["cpu"] + r["sacct_cpu"]
            print(f"{jobs:>8} {unique:>7} {r['wall']:>7.2f} {r['cpu']:>11.2f} {r['sacct_cpu']:>11.2f}"
                  f" {r['peak_mib']:>8.1f} {jobs / r['cpu']:>8.0f} {jobs / busy:>8.0f}"
                  f" {min(unique, jobs) / r['cpu']:>8.1f}", flush=True)
    print(f"# load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
