"""The cluster profiles and site policies rule tests lint with (fixtures, documentation examples).

``profile_named("lab")`` is ``tests/cluster/profiles/lab.toml``; a ``+gpu-memory``
suffix adds the GPUs' memory a site may record (``gpu-memory``: scontrol does
not show it), which SB451/SB454 need: 32G per v100, 80G per a100.
``policy_named("university-gpu-cluster")`` is ``docs/policies/<name>.toml``.
``docs_cluster()`` is what the rule documentation examples of the cluster
family are checked with: the lab with GPU memory, and the university policy,
whose partitions and GPU models are the lab's.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import attrs

from slurmspec.cluster.store import load_profile

ROOT = Path(__file__).resolve().parent.parent.parent
PROFILES = ROOT / "tests" / "cluster" / "profiles"
POLICIES = ROOT / "docs" / "policies"
GPU_MEMORY_MB = {"v100": 32 * 1024, "a100": 80 * 1024}
DOCS_POLICY = "university-gpu-cluster"


@lru_cache(maxsize=None)
def profile_named(name: str):
    base, _, extra = name.partition("+")
    profile = load_profile(str(PROFILES / f"{base}.toml"))
    if extra == "gpu-memory":
        shapes = tuple(
            attrs.evolve(s, gpu_memory_mb=next((GPU_MEMORY_MB[g.type] for g in s.gres if g.type in GPU_MEMORY_MB),
                                               None))
            for s in profile.shapes)
        profile = attrs.evolve(profile, shapes=shapes)
    elif extra:
        raise ValueError(f"unknown profile variant {extra!r} (known: gpu-memory)")
    return profile


@lru_cache(maxsize=None)
def policy_named(name: str):
    from slurmspec.cluster.policy import parse_policy

    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]

    path = POLICIES / f"{name}.toml"
    return parse_policy(tomllib.loads(path.read_text())["policy"], f"docs/policies/{name}.toml")


@lru_cache(maxsize=1)
def docs_cluster():
    from tests.cluster.doc_limits import with_limits  # partitions and limits SB402/SB403/SB412/SB414 show

    return attrs.evolve(with_limits(profile_named("lab+gpu-memory")), policy=policy_named(DOCS_POLICY))
