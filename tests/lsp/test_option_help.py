"""Every option of the catalogue has a meaning for hover and completion, and nothing else has one."""

from slurmspec.lsp.option_help import MEANINGS
from slurmspec.model.catalogue.options import all_options


def test_every_catalogue_option_has_a_meaning():
    names = {spec.long for spec in all_options()}
    assert names - set(MEANINGS) == set()
    assert set(MEANINGS) - names == set()
    assert all(text and not text.endswith(".") for text in MEANINGS.values())  # shown after a colon
