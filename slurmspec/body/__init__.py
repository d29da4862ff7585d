"""Read a batch script's body tolerantly: which launchers it runs, with what options, and which variables it sets.

``analyse_body(body, offset, index)`` is the entry point; see ``launch.py``.
"""

from __future__ import annotations

from slurmspec.body.launch import analyse_body, find_env_assignments, find_launches
from slurmspec.body.model import LAUNCH_KINDS, BodyInfo, EnvAssignment, Launch, LaunchOption

__all__ = [
    "analyse_body", "find_launches", "find_env_assignments",
    "BodyInfo", "Launch", "LaunchOption", "EnvAssignment", "LAUNCH_KINDS",
]
