"""What is known of a program from its name alone.

``TRIVIAL_COMMANDS``: commands that only inspect the machine or move files.
An `srun` of one of them (`srun hostname`, `srun nvidia-smi`) is a check or a
staging step: it uses no GPU and runs one thread, so the rules about a step's
GPUs (SB310) and CPUs per task (SB320) leave it alone.
"""

from __future__ import annotations

TRIVIAL_COMMANDS = frozenset({
    "hostname", "nvidia-smi", "echo", "mkdir", "cp", "rm", "tar", "rsync", "ls", "date", "env", "cat",
    "true", "sleep", "printenv", "pwd", "uname", "df", "du", "touch", "which",
})
