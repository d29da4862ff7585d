"""Did you mean: the one way slurmspec suggests a known word for a mistyped one.

Every "did you mean" (sbatch options, configuration and profile keys, rule codes
and names, spec keys, severities, suppression words) asks ``closest`` or
``did_you_mean``; only the cutoff differs, by how crowded the vocabulary is.
``difflib`` is imported on first use: only a mistake pays for it.
"""

from __future__ import annotations

from typing import Callable, Iterable

NEAR = 0.6  # difflib's similarity ratio for most vocabularies (keys, rule names, partitions)
STRICT = 0.75  # sbatch's 100-odd option names, many short and alike: only a close spelling
LOOSE = 0.5  # a vocabulary of a few short words (severities)


def closest(word: str, known: Iterable[str], *, n: int = 1, cutoff: float = NEAR) -> list[str]:
    """Up to ``n`` words of ``known`` close to ``word``, the closest first."""
    import difflib

    return difflib.get_close_matches(word, list(known), n=n, cutoff=cutoff)


def did_you_mean(word: str, known: Iterable[str], *, cutoff: float = NEAR, otherwise: str = "",
                 show: Callable[[str], str] = lambda found: f"`{found}`") -> str:
    """``; did you mean `x`?`` for the closest known word, else ``otherwise``."""
    found = closest(word, known, cutoff=cutoff)
    return f"; did you mean {show(found[0])}?" if found else otherwise


def did_you_mean_any_spelling(word: str, candidates: Iterable[str]) -> str:
    """`; did you mean `x`?` (or an empty string) for an unknown word, where case and `-`/`_` do not count
    (spec keys, partition names): a word that differs only so is the known one."""
    pool = list(candidates)
    lowered = {c.lower().replace("-", "_"): c for c in pool}
    key = word.lower().replace("-", "_")
    if key in lowered:
        return f"; did you mean `{lowered[key]}`?"
    return did_you_mean(key, lowered, show=lambda found: f"`{lowered[found]}`")
