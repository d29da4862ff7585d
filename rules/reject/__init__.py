"""SB1xx reject: scripts sbatch (or slurmctld at submission) refuses.

The job never reaches the queue: the script file itself fails sbatch's first
checks (empty, no `#!` line, NUL bytes, DOS line breaks), an option's value is
one its parser refuses (`--time=2h`, `--mem=16GiB`), or options contradict
each other in a way sbatch or the controller refuses. Each rule quotes the
message Slurm prints and cites the Slurm source or `man sbatch` that says so.
"""
