"""Cluster profiles: what slurmspec knows about a site's nodes, partitions and configuration.

``profile`` holds the model, ``store`` reads and writes it as TOML, ``hostlist``
expands and compresses node lists, ``importer`` builds a profile from
``scontrol show`` output (``slurmspec cluster import``). Rules see the profile
as ``ctx.cluster`` (``rules/cluster/``).
"""

from slurmspec.cluster.profile import (
    ClusterConfig,
    Gres,
    NodeShape,
    Partition,
    Profile,
    ProfileError,
)

__all__ = ["ClusterConfig", "Gres", "NodeShape", "Partition", "Profile", "ProfileError", "load_profile"]


def load_profile(path):
    """Read a profile file (``slurmspec.cluster.store.load_profile``)."""
    from slurmspec.cluster.store import load_profile as load

    return load(path)
