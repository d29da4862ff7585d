"""The request as sbatch will see it: a script plus the sbatch arguments and environment it is submitted with.

``slurmspec lint job.sbatch -- -p gpu --job-name=x`` and
``lint_text(text, argv=[...], environ={...})`` lint the script merged with
an ``Invocation``: the command line replaces ``#SBATCH`` settings, the
``SBATCH_*`` environment sits between the two, exactly as sbatch orders them
(``merge``), before any rule runs. Modules:

- ``submission``: ``Invocation`` (argv, environ) and ``parse_invoked``;
- ``arguments``: how ``slurmspec lint`` takes them (the words after ``--``, ``--sbatch-env``);
- ``sources``: the synthetic ``<environment>`` and ``<command line>`` texts and their spans;
- ``command_line``: sbatch's own getopt over the arguments, option groups per hetjob component;
- ``environment``: the ``SBATCH_*`` variables sbatch reads, in its order;
- ``merge``: the per-component merge and the "command line beats environment" resets;
- ``findings``: where findings on the synthetic sources are reported, and notes on replaced lines.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Invocation", "InvocationError", "parse_invoked"]


def __getattr__(name: str) -> Any:
    # Imported on first use: `slurmspec lint` without sbatch arguments never needs them.
    if name in ("Invocation", "parse_invoked"):
        from slurmspec.invocation import submission

        return getattr(submission, name)
    if name == "InvocationError":
        from slurmspec.invocation.command_line import InvocationError

        return InvocationError
    raise AttributeError(name)
