"""SB3xx launch: the body's launch commands against what the job asks Slurm for.

Each rule compares a launcher in the script body (``srun``, ``mpirun``,
``torchrun`` and ``python -m torch.distributed.run|launch``, ``horovodrun``,
``accelerate launch``, ``deepspeed``, ``python``, nested through ``srun ...
torchrun``, ``bash -c`` and containers) with the allocation: nodes, tasks, GPUs
and CPUs per node, read from the job model (``slurmspec/model/job/model.py``) through
``_common.py``, from literal values only. The batch script runs on the first
node of the allocation only, and ``srun`` starts
one copy of its command per task (`man sbatch`, `man srun`), which is where most
mismatches come from.
"""
