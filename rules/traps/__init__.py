"""SB2xx traps: scripts sbatch accepts but that do not do what they say.

The job is submitted and runs, yet not as written: a directive sbatch never
reads (after the first command, a near-miss `# SBATCH`, cut off by a glued
`#`), a value taken literally or replaced by a later one, a request Slurm
quietly adjusts, an output file that lands somewhere else than meant. Each
rule cites the Slurm documentation or source that says what really happens.
"""
