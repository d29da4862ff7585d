"""What a job asks of the cluster's nodes and partitions, and whether a cluster profile can give it.

The controller's view of the job, beside the sbatch client's (``slurmspec/model/views``):

- ``need``: what one component needs from each node (node counts, CPUs, GPUs and
  other GRES by type, memory, the socket/core/thread layout, named nodes);
- ``where``: the partitions each component may run in, and what ``EnforcePartLimits``
  does with a limit one of them breaks; ``limits``: one predicate per partition limit;
- ``shape`` and ``nodes``: whether one node, then a partition's nodes, can hold the
  need (``features``: a ``--constraint`` against the nodes' features);
- ``waste``: what a job takes of each node against its GPUs' share.

The cluster rules (``rules/cluster/``, SB4xx) read these and report. The functions
that take ``ctx`` read only what ``FitRun`` names, so this package needs nothing of
``slurmspec/lint``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from slurmspec.model.views.run import LintRun

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.cluster.profile import Profile


class FitRun(LintRun):
    """A lint run against a cluster profile (a rule's ``Context`` with ``lint --cluster``)."""

    cluster: "Profile"
