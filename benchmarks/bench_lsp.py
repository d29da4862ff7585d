"""Time from `didOpen` of a 300-line batch script to its `publishDiagnostics`, with a warm `slurmspec lsp`.

Run: python benchmarks/bench_lsp.py [--runs N] [--lines 300] [--script FILE]
Starts one server (`python -m slurmspec lsp`), opens a few documents to warm it
(imports, rule registry, grammar), then opens the script under a new URI each
run and waits for its diagnostics. Prints the median, 90th percentile and
worst wall-clock times; never asserts (timings belong in notes, not tests).
The issue's target: under 100 ms once the server is warm.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parent.parent

HEADER = """#!/bin/bash
#SBATCH --job-name=pretrain-7b
#SBATCH --partition=gpu
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --cpus-per-task=12
#SBATCH --mem=0
#SBATCH --time=2h
#SBATCH --constraint=[v100|a100]
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err
#SBATCH --mail-typ=END,FAIL
#SBATCH --signal=B:USR1@120
#SBATCH --exclusive
"""

# A realistic body: environment set-up, checks, a launch, and a checkpoint loop, repeated.
BLOCK = """
module purge
module load cuda/12.1 nccl/2.18 python/3.11
source "$HOME/venvs/train/bin/activate"
export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export MASTER_PORT=29500
export OMP_NUM_THREADS=$SLURM_CPUS_PER_TASK
if [ -z "$SLURM_JOB_ID" ]; then
    echo "not in a job" >&2
    exit 1
fi
for shard in data/shard-*.bin; do
    echo "found $shard"
done
srun --cpu-bind=cores python train.py \\
    --config configs/7b.yaml \\
    --checkpoint-dir "$SCRATCH/ckpt/$SLURM_JOB_ID" \\
    --resume auto
status=$?
echo "exit status $status"
"""


def script_of(lines: int) -> str:
    text = HEADER
    while text.count("\n") < lines:
        text += BLOCK
    return "".join(text.splitlines(keepends=True)[:lines])


async def measure(text: str, runs: int, warmups: int) -> list[float]:
    client = LanguageClient("bench-lsp", "1")
    arrived: dict[str, asyncio.Event] = {}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: types.PublishDiagnosticsParams) -> None:
        event = arrived.get(params.uri)
        if event is not None:
            event.set()

    folder = Path(tempfile.mkdtemp(prefix="slurmspec-bench-lsp-"))
    await client.start_io(sys.executable, "-m", "slurmspec", "lsp", "--no-config", "--slurm-version", "24.11",
                          cwd=str(folder))
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities(),
                                                         root_uri=folder.as_uri()))
    client.initialized(types.InitializedParams())
    times = []
    for run in range(warmups + runs):
        uri = (folder / f"job-{run}.sbatch").as_uri()
        arrived[uri] = asyncio.Event()
        start = time.perf_counter()
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="shellscript", version=1, text=text)))
        await asyncio.wait_for(arrived[uri].wait(), 30)
        elapsed = time.perf_counter() - start
        client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
        if run >= warmups:
            times.append(elapsed)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--warmups", type=int, default=5)
    parser.add_argument("--lines", type=int, default=300)
    parser.add_argument("--script", type=Path, default=None, help="time this file instead of the generated script")
    args = parser.parse_args()
    text = args.script.read_text() if args.script else script_of(args.lines)
    times = sorted(asyncio.run(measure(text, args.runs, args.warmups)))
    ms = [t * 1000 for t in times]
    print(f"didOpen -> publishDiagnostics, {text.count(chr(10))} lines, {len(ms)} runs after {args.warmups} warm-ups:")
    print(f"  median {statistics.median(ms):.1f} ms   p90 {ms[int(len(ms) * 0.9) - 1]:.1f} ms   worst {ms[-1]:.1f} ms")


if __name__ == "__main__":
    main()
