"""``slurmspec.lazy_regex``: compiled on first use, then the same answers as ``re.compile``."""

from __future__ import annotations

import re

from slurmspec.lazy_regex import lazy_compile


def test_compiled_on_first_use_with_the_same_answers():
    lazy = lazy_compile(r"(?<![a-z])hvd(?![a-z])|torch", re.IGNORECASE)
    eager = re.compile(lazy.pattern, re.IGNORECASE)
    assert lazy._compiled is None
    for text in ("", "HVD", "xhvd", "use torch.distributed", "hvd_init", "Torch"):
        assert bool(lazy.search(text)) == bool(eager.search(text))
        assert bool(lazy.match(text)) == bool(eager.match(text))
        assert lazy.findall(text) == eager.findall(text)
        assert lazy.sub("-", text) == eager.sub("-", text)
    assert lazy.search("a torch", 3) is None and lazy.search("a torch", 2).group() == "torch"
    assert lazy.flags == eager.flags and lazy._compiled is not None
