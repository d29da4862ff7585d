"""Small jobs for the real-Slurm differential test of the job model (tests/model/test_job_model_slurm.py).

Each job fits the throwaway cluster's real node (2 CPUs, 2 fake GPUs). Its body
runs ``python3 report.py b`` in the batch script and a few ``srun ... report.sh sK``
steps; every task writes ``PROCID LOCALID NODEID CUDA_VISIBLE_DEVICES CPUS TASKS``
to ``r.<job>.<tag>.<rank>`` in the job folder (CPUS/TASKS: the step's CPUs and
tasks as ``scontrol show step`` tells them, from rank 0; the batch script's
``SLURM_CPUS_ON_NODE``). With ``TaskPlugin=task/none`` a task is not bound, so
``nproc`` would show the whole node: the step's CPU count is the observable.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

REPORT_SH = r"""#!/bin/bash
c=- t=-
if [ "$SLURM_PROCID" = 0 ]; then
  s=$(scontrol show step -o "$SLURM_JOB_ID.$SLURM_STEP_ID" 2>/dev/null)
  c=$(printf '%s\n' "$s" | grep -o ' CPUs=[0-9]*' | cut -d= -f2); t=$(printf '%s\n' "$s" | grep -o ' Tasks=[0-9]*' | cut -d= -f2)
fi
echo "$SLURM_PROCID $SLURM_LOCALID $SLURM_NODEID ${CUDA_VISIBLE_DEVICES-unset} ${c:--} ${t:--}" \
  > "$(dirname "$0")/r.$SLURM_JOB_ID.$1.$SLURM_PROCID"
"""
REPORT_PY = r"""import os, sys
e = os.environ
with open(os.path.join(os.path.dirname(sys.argv[0]), f"r.{e['SLURM_JOB_ID']}.{sys.argv[1]}.0"), "w") as f:
    f.write(f"0 0 0 {e.get('CUDA_VISIBLE_DEVICES', 'unset')} {e['SLURM_CPUS_ON_NODE']} {e.get('SLURM_NTASKS', '-')}\n")
"""


@dataclass
class Case:
    header: list[str]
    steps: list[str]  # srun option strings ("" for none); "export ..." lines are copied as they are
    name: str = ""
    logs: list[str] = field(default_factory=list)  # --output/--error directives (with {dir})

    def render(self, folder: str) -> str:
        lines = ["#!/bin/bash", "#SBATCH --time=2"]
        lines += [f"#SBATCH {h}" for h in self.header]
        lines += [f"#SBATCH {log.format(dir=folder)}" for log in self.logs]
        lines.append(f"python3 {folder}/report.py b")
        k = 0
        for step in self.steps:
            if step.startswith("export "):
                lines.append(step)
                continue
            lines.append(" ".join(filter(None, ["srun", step, f"{folder}/report.sh", f"s{k}"])))
            k += 1
        return "\n".join(lines) + "\n"


# Cases real Slurm 22.05 answered in a way worth keeping (each once disagreed with a first model or is a
# quirk the model follows).
FIXED = [
    Case(["--nodes=1", "-n 2", "--gpus-per-task=1"], ["", "-n 1", "--gpus-per-task=2 -n 1"], "inherited gpus-per-task"),
    Case(["--nodes=1", "-n 2", "--gres=gpu:1"], ["", "--gpus-per-task=1"], "step needs more GPUs than the job"),
    Case(["--nodes=1", "-n 1", "-c 2", "--gpus=2"],
         ["", "-n 2", "export SRUN_CPUS_PER_TASK=2", "", "-n 2", "-n 2 -c 1"], "SRUN_CPUS_PER_TASK"),
    Case(["--nodes=1", "-n 1", "-c 2"], ["-n 2", "export SRUN_CPUS_PER_TASK=$SLURM_CPUS_PER_TASK", "-n 2", ""],
         "22.05 srun does not inherit -c"),
    Case(["--nodes=1", "-n 2", "--gpus-per-node=2"], ["", "--gpus-per-task=1", "--gres=gpu:1", "--gpus=1"],
         "srun --gpus=1 under an exported --gpus-per-node=2 holds 2"),
    Case(["--nodes=1", "-n 2", "--ntasks-per-gpu=1", "--gpus=2"], [""], "ntasks-per-gpu"),
    Case(["--nodes=1", "-n 2", "--ntasks-per-gpu=2", "--gpus=1"], ["", "-n 1"], "srun -n 1 runs 2 tasks here"),
    Case(["--nodes=1", "-n 2", "--gpus=2", "--gpu-bind=single:1"], [""], "gpu-bind single"),
    Case(["--nodes=1", "-n 2", "--gres=gpu:2"],
         ["--gpus=1", "--gpus-per-task=1 -n 1", "--gpu-bind=single:1", "--gpu-bind=map_gpu:1,0", "-n 1 -c 2",
          "--gpus-per-node=1", "-n 1 --gpus-per-node=2 --gpu-bind=per_task:1", "-n 1 --gpu-bind=single:1"],
         "srun GPU options over --gres"),
    Case(["--nodes=1", "-n 2", "--gpus-per-task=1"],
         ["--gres=gpu:2 -n 2", "--gres=gpu:1 -n 1", "--gpus-per-node=2 -n 1", "--gpus=2 -n 2", "-n 1 --gpus=2"],
         "srun GPU options over an exported --gpus-per-task"),
    Case(["--nodes=1", "-n 1", "--gpus-per-task=2"], ["", "--gpus-per-task=1", "--gpus-per-task=1 --gpus-per-node=2"],
         "one task, two GPUs"),
    Case(["--nodes=1", "--gres=gpu:2"], ["", "-n 2"], "no task count: one task, one CPU"),
    Case(["--nodes=1", "-n 1"], ["", "--gres=gpu:1"], "GPU step in a job without GPUs"),
    Case(["--nodes=1", "-n 2", "-c 1"], ["export SRUN_CPUS_PER_TASK=1", "-n 1", "-n 2"], "explicit CPUs make the step exact"),
    Case(["--gpus-per-task=1", "--gpus=2"], [""], "tasks from --gpus / --gpus-per-task"),
    Case(["--nodes=1", "--ntasks-per-node=2", "--gpus-per-node=1"],
         ["--gpus-per-task=1", "--gpus-per-node=1 --gpus-per-task=1", "--gpu-bind=none"],
         "srun --gpus-per-task over an exported --gpus-per-node; --gpu-bind=none sets no CUDA_VISIBLE_DEVICES"),
    Case(["--nodes=1", "-c 2"], ["", "-c 1", "export SRUN_CPUS_PER_TASK=1", "", "-N 1"],
         "no task count: srun with CPUs per task starts the job's CPUs / -c tasks"),
    Case(["-n 2"], ["", "-n 1"], "no node count: nodes unknown"),
    Case(["--nodes=1", "--ntasks-per-node=2", "--gres=gpu:2"], ["", "--ntasks-per-node=1", "-N 1"], "tasks per node"),
]

_LOGS = [
    [],
    ["--output={dir}/logs/%x-%j.out"],
    ["--output={dir}/logs/out-%j-%u.log", "--error={dir}/logs/err-%j-%t.log"],
    ["--output={dir}/logs/%x.%j.%u.%t", "--job-name=gen"],
    ["--error={dir}/logs/%j.err", "--output={dir}/logs/%4j.out"],
]
_SRUN_OPTIONS = ["-n 1", "-n 2", "-c 1", "-c 2", "--gpus-per-task=1", "--gres=gpu:1", "--gres=gpu:2", "--gpus=1",
                 "--gpus-per-node=1", "--gpu-bind=single:1", "--gpu-bind=none", "--ntasks-per-node=1", "-N 1"]


def generated(count: int, seed: int = 11) -> list[Case]:
    """``count`` jobs that fit one node of 2 CPUs and 2 GPUs (deterministic for a seed)."""
    rng = random.Random(seed)
    cases: list[Case] = []
    while len(cases) < count:
        header = ["--nodes=1"] if rng.random() < 0.85 else []
        tasks_opt = rng.choice([None, 1, 2, 2, "tpn1", "tpn2"])
        tasks = {None: 1, "tpn1": 1, "tpn2": 2}.get(tasks_opt, tasks_opt)
        if tasks_opt in ("tpn1", "tpn2"):
            header = ["--nodes=1", f"--ntasks-per-node={tasks}"]
        elif tasks_opt is not None:
            header.append(f"--ntasks={tasks}")
        cpt = rng.choice([None, None, 1, 2])
        if cpt is not None:
            header.append(f"--cpus-per-task={cpt}")
        if tasks * (cpt or 1) > 2:
            continue
        gpu = rng.choice([None, None, "--gres=gpu:1", "--gres=gpu:2", "--gpus=1", "--gpus=2",
                          "--gpus-per-task=1", "--gpus-per-node=1", "--gpus-per-node=2", "--ntasks-per-gpu=2"])
        if gpu == "--gpus-per-task=1" and tasks_opt not in (1, 2):
            gpu = "--gpus-per-node=2"
        if gpu == "--ntasks-per-gpu=2":
            if tasks_opt != 2:
                continue
            header.append("--gpus=1")
        if gpu:
            header.append(gpu)
            if rng.random() < 0.15:
                header.append(rng.choice(["--gpu-bind=single:1", "--gpu-bind=none"]))
        steps = []
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.2:
                steps.append(rng.choice(["export SRUN_CPUS_PER_TASK=1", "export SRUN_CPUS_PER_TASK=2",
                                         "export SRUN_CPUS_PER_TASK=$SLURM_CPUS_PER_TASK"]))
            steps.append(" ".join(rng.sample(_SRUN_OPTIONS, rng.choice([0, 1, 1, 2]))))
        cases.append(Case(header, steps, f"generated {len(cases)}", list(rng.choice(_LOGS))))
    return cases
