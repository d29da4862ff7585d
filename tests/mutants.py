"""A small mutation check to re-run: plausible one-line bugs, each of which a fast test must catch.

    python tests/mutants.py            # every mutant; prints killed/survived and the survival rate
    python tests/mutants.py --list     # the mutants, without running anything
    python tests/mutants.py NAME ...   # only these

Each mutant replaces one exact piece of source text (which must occur exactly
once, so a refactor that moves it makes the mutant fail loudly instead of
silently testing nothing), runs its fast tests, and puts the file back (also on
Ctrl-C). A mutant *survives* when those tests still pass. The list holds the
bugs that once slipped through (SB310's threshold, SB230's version check, the
fix loop counting only errors, the suppression scanner and backslashes, the
SB201 hetjob move) and others of the same kind. Not run by pytest (the file
name does not start with ``test_``): it edits the working tree.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent


class Mutant(NamedTuple):
    name: str
    path: str
    original: str
    mutated: str
    tests: tuple[str, ...]


MUTANTS = (
    Mutant("sb310-threshold", "rules/launch/single_process_gpus.py",
           "if gpn >= 2 and not spawning", "if gpn > 2 and not spawning", ("tests/rules", "-k", "SB310")),
    Mutant("sb230-version-flipped", "rules/traps/log_directories.py",
           "if ctx.version < CREATES_LOG_DIRS:", "if ctx.version >= CREATES_LOG_DIRS:",
           ("tests/rules", "-k", "SB230 or SB255")),
    Mutant("fix-loop-counts-only-errors", "slurmspec/fix/loop.py",
           "old = Counter(d.code for d in before if d.severity is not Severity.INFO)",
           "old = Counter(d.code for d in before if d.severity is Severity.ERROR)",
           ("tests/fix/test_fix_cli.py",)),
    Mutant("suppression-ignores-backslashes", "slurmspec/lint/suppress.py",
           '        elif ch == "\\\\":\n            i += 1\n', '        elif False:\n            i += 1\n',
           ("tests/test_suppress.py",)),
    Mutant("sb201-hetjob-move-safe", "rules/traps/late_directives.py",
           "Applicability.UNSAFE if len(script.components) > 1 else Applicability.SAFE",
           "Applicability.SAFE", ("tests/rules/test_fix_safety_traps.py",)),
    Mutant("job-model-srun-inherits-cpus-on-22.05", "slurmspec/model/job/steps.py",
           "    if version >= SRUN_INHERITS_CPUS:\n        srun_env", "    if True:\n        srun_env",
           ("tests/model/test_job_model.py",)),
    Mutant("sb001-respells-what-does-not-read-cleanly", "rules/parse/unknown_option.py",
           "if not reads_cleanly(respelt, ctx.version, ctx.script, (line.span.start, line.span.end)):",
           "if False:", ("tests/rules/test_fix_safety.py",)),
    Mutant("engine-keeps-a-crashed-rules-findings", "slurmspec/lint/engine.py",
           "            del context.found[before:]\n", "", ("tests/test_engine.py",)),
    Mutant("apply-allows-edits-past-the-end", "slurmspec/fix/apply.py",
           "if edit.span.end > len(text):", "if edit.span.end > len(text) + 1:", ("tests/fix/test_fix_cli.py",)),
    Mutant("select-all-refused", "slurmspec/lint/engine.py",
           "return upper == ALL or rule.code.startswith(upper)", "return rule.code.startswith(upper)",
           ("tests/test_config.py", "tests/test_cli.py")),
    Mutant("shellcheck-exclusions-ignored", "slurmspec/lint/shellcheck.py",
           "if code in EXCLUDED or (", "if (", ("tests/test_shellcheck.py",)),
    Mutant("fix-loop-accepts-every-new-finding", "slurmspec/fix/loop.py",
           "if not all(fix.reveals for fix in", "if not any(fix.reveals or True for fix in",
           ("tests/fix/test_fix_cli.py",)),
    Mutant("node-check-ignores-unmodelled-options", "slurmspec/cluster/fit/limits.py",
           "return None if layout and ctx.version < PARTITION_SIZE_CHECKED_WITH_NODES else True",
           "return True", ("tests/cluster/test_rules_outcomes.py",)),
    Mutant("sb116-ignores-the-profiles-max-array-size", "rules/reject/_option_values.py",
           "(problem.site_limit and ctx.cluster is not None)", "False",
           ("tests/cluster/test_array_site_limit.py",)),
    Mutant("jobs-files-a-reply-under-the-wrong-chunk", "slurmspec/cli/lint_pool.py",
           "index = worker.given.popleft()", "index = worker.given.pop()", ("tests/test_lint_jobs.py",)),
    Mutant("failed-sbatch-version-never-retried", "slurmspec/settings/installed.py",
           "return FAILED if fresh and entry.get(\"config\") == _config_key() else None", "return FAILED",
           ("tests/cluster/test_lint_with_profile.py",)),
)


def run(mutant: Mutant) -> bool:
    """Apply ``mutant``, run its tests, restore the file; True when the tests caught it."""
    path = ROOT / mutant.path
    source = path.read_text()
    count = source.count(mutant.original)
    if count != 1:
        raise SystemExit(f"{mutant.name}: the text to mutate occurs {count} times in {mutant.path}; update the mutant")
    try:
        path.write_text(source.replace(mutant.original, mutant.mutated))
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *mutant.tests],
            cwd=ROOT, capture_output=True, text=True,
        )
    finally:
        path.write_text(source)
    return done.returncode != 0


def main(argv: list[str]) -> int:
    chosen = [m for m in MUTANTS if not argv or m.name in argv or argv == ["--list"]]
    if argv == ["--list"]:
        for mutant in chosen:
            print(f"{mutant.name}: {mutant.path}")
        return 0
    survived = []
    for mutant in chosen:
        killed = run(mutant)
        print(f"{'killed  ' if killed else 'SURVIVED'} {mutant.name}", flush=True)
        if not killed:
            survived.append(mutant.name)
    print(f"{len(chosen) - len(survived)} of {len(chosen)} killed; survival rate {len(survived) / max(len(chosen), 1):.0%}")
    return 1 if survived else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
