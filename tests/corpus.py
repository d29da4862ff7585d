"""The shared corpus of real batch scripts (``../shared/corpus/real``), for the tests that need it.

A user's clone has no ``../shared``: those tests skip, naming the folder. CI has
it, so under ``CI=true`` a missing corpus fails them instead of hiding them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "real"


def corpus_files() -> list[Path]:
    """Every ``*.sbatch`` of the corpus; skips the calling test (fails it in CI) when there are none."""
    files = sorted(CORPUS.glob("*.sbatch")) if CORPUS.is_dir() else []
    if not files:
        reason = f"the shared corpus of real scripts is not at {CORPUS}"
        if os.environ.get("CI", "").strip().lower() in ("true", "1"):
            pytest.fail(f"{reason} -- CI=true, so the corpus tests must run", pytrace=False)
        pytest.skip(reason)
    return files
