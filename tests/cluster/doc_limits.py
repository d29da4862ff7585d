"""What the documentation examples of SB402, SB403, SB412 and SB414 need and the lab profile lacks.

The lab (tests/cluster/profiles/lab.toml) mirrors the default throwaway cluster,
whose partitions are all up, allow every account, set no MaxMemPerNode and keep
the default MaxArraySize. ``with_limits(profile)`` adds three partitions on
lab nodes -- ``old`` (INACTIVE), ``physics`` (AllowAccounts=physics), ``shared``
(MaxMemPerNode=64G) -- and lowers MaxArraySize to 1000, so those rules' examples
have something to break. No other rule's example names these partitions or an
array index of 1000.
"""

from __future__ import annotations

import attrs

from slurmspec.cluster.profile import Partition


def with_limits(profile):
    extra = (
        Partition("old", ("cpu-001", "cpu-002"), state="INACTIVE", max_time=60),
        Partition("physics", ("cpu-003", "cpu-004"), max_time=24 * 60, allow_accounts=("physics",)),
        Partition("shared", ("cpu-005", "cpu-006"), max_time=24 * 60, max_mem_per_node=64 * 1024),
    )
    config = attrs.evolve(profile.config, max_array_size=1000)
    return attrs.evolve(profile, partitions=(*profile.partitions, *extra), config=config)
