"""SB0xx parse: directives sbatch cannot read (unknown, ambiguous or malformed options).

Each finding comes from the parser's ``ParseIssue`` records, which mirror what
glibc ``getopt_long`` and ``src/sbatch/opt.c:get_argument()`` do with the words
of the ``#SBATCH`` lines. sbatch refuses the whole script on the first of them;
slurmspec reports every one, one rule per kind of issue (``IssueKind``).
"""
