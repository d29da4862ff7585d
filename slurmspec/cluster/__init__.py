"""Cluster profiles: what slurmspec knows about a site's nodes, partitions and configuration.

``profile`` holds the model, ``store`` reads and writes it as TOML, ``hostlist``
expands and compresses node lists, ``importer`` builds a profile from
``scontrol show`` output (``slurmspec cluster import``), ``policy`` reads a
site's ``[policy]`` table. Rules see the profile as ``ctx.cluster``
(``rules/cluster/``). Nothing is imported until it is used: the lint path asks
``release`` for the target release and needs none of the model.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["ClusterConfig", "Gres", "NodeShape", "Partition", "Profile", "ProfileError", "load_profile", "dump_profile"]

_HOMES = {
    "ClusterConfig": "profile", "Gres": "profile", "NodeShape": "profile", "Partition": "profile",
    "Profile": "profile", "ProfileError": "profile", "load_profile": "store", "dump_profile": "store",
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
