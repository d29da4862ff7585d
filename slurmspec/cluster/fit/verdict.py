"""What a partition answers to a component's request: ``Kind``, and a ``Fit`` that says why.

``FITS``; ``NO`` (no node holds the request: "Requested node configuration is not
available" on every release, whatever ``EnforcePartLimits`` says); ``NO_FEATURE`` (no
node has the constraint's features); ``MISSING`` (a ``--nodelist`` node is not in the
partition); ``TOO_FEW`` (partition limits: SB410, SB415); ``UNKNOWN``.
"""

from __future__ import annotations

from enum import Enum

import attrs

from slurmspec.cluster.fit.shape import Check

__all__ = ["Kind", "REFUSED_KINDS", "Fit"]


class Kind(Enum):
    FITS = "fits"
    NO = "no"
    NO_FEATURE = "no-feature"
    MISSING = "missing"
    TOO_FEW = "too-few"
    UNKNOWN = "unknown"


REFUSED_KINDS = frozenset({Kind.NO, Kind.NO_FEATURE, Kind.MISSING})


@attrs.frozen
class Fit:
    partition: object
    kind: Kind
    check: Check | None = None  # the shortfall of the best node (NO)
    detail: str = ""  # what the message adds ("only 1 node fits, the job needs 2")
