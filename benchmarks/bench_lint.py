"""Time cold single-file `slurmspec lint` against `python -c pass`, and batch lint of the corpus.

Run: python benchmarks/bench_lint.py [--runs N] [--corpus ../shared/corpus/real]
Prints median wall-clock times; never asserts (timings belong in notes, not tests).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def median_seconds(command: list[str], runs: int) -> float:
    # Run from a neutral folder: inside the checkout, `python -m slurmspec` would
    # import the source tree (without the rules/ and grammar/ mapping) instead of
    # the installed package.
    neutral = tempfile.mkdtemp(prefix="slurmspec-bench-")
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=neutral)
        times.append(time.perf_counter() - start)
        if done.returncode > 1:
            raise SystemExit(f"{' '.join(command[:4])} ... failed:\n{done.stderr.decode(errors='replace')}")
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "real")
    parser.add_argument("--sample", type=Path, default=ROOT / "samples" / "multinode-torchrun.sbatch")
    args = parser.parse_args()
    args.sample = args.sample.resolve()
    args.corpus = args.corpus.resolve()

    python = sys.executable
    baseline = median_seconds([python, "-c", "pass"], args.runs)
    text_lint = median_seconds([python, "-m", "slurmspec", "lint", str(args.sample)], args.runs)
    json_lint = median_seconds(
        [python, "-m", "slurmspec", "lint", "--format", "json", str(args.sample)], args.runs
    )
    corpus = sorted(args.corpus.glob("*.sbatch"))
    batch = median_seconds(
        [python, "-m", "slurmspec", "lint", "--format", "json", *map(str, corpus)], max(3, args.runs // 5)
    )
    print(f"python -c pass                : {baseline * 1000:7.1f} ms")
    print(f"cold lint, one file (json)    : {json_lint * 1000:7.1f} ms  ({json_lint / baseline:.2f}x)")
    print(f"cold lint, one file (text)    : {text_lint * 1000:7.1f} ms  ({text_lint / baseline:.2f}x)")
    print(f"batch lint, {len(corpus)} corpus files : {batch * 1000:7.1f} ms  "
          f"({batch / max(1, len(corpus)) * 1000:.2f} ms per file)")


if __name__ == "__main__":
    main()
