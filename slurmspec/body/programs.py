"""What is known of a program from its name alone.

``TRIVIAL_COMMANDS``: commands that only inspect the machine or move files.
An `srun` of one of them (`srun hostname`, `srun nvidia-smi`) is a check or a
staging step: it uses no GPU and runs one thread, so the rules about a step's
GPUs (SB310) and CPUs per task (SB320) leave it alone.

``BOOKKEEPING_COMMANDS``: those, and the shell's and the job's housekeeping
(`cd`, `module`, `conda activate`, `mv`, `grep`, `scontrol`...). A script whose
only commands after a background launch are of these does no work of its own
after it (SB322); any other command may be the work the launch serves.
"""

from __future__ import annotations

TRIVIAL_COMMANDS = frozenset({
    "hostname", "nvidia-smi", "echo", "mkdir", "cp", "rm", "tar", "rsync", "ls", "date", "env", "cat",
    "true", "sleep", "printenv", "pwd", "uname", "df", "du", "touch", "which",
})

BOOKKEEPING_COMMANDS = TRIVIAL_COMMANDS | frozenset({
    "cd", "pushd", "popd", "export", "unset", "set", "shopt", "module", "ml", "source", ".", "conda", "mamba",
    "micromamba", "deactivate", "printf", "mv", "ln", "chmod", "chown", "gzip", "gunzip", "zip", "unzip",
    "scp", "find", "grep", "sed", "awk", "tee", "wc", "head", "sort", "uniq", "cut", "sync", "exit",
    "return", "kill", "pkill", "scancel", "sacct", "squeue", "scontrol", "seff", "sstat", "false", ":",
    "[", "[[", "test", "let", "local", "declare", "read", "logger", "mail", "curl", "wget", "basename",
    "dirname", "realpath", "readlink", "stat", "free", "nproc", "lscpu", "id", "whoami",
})
