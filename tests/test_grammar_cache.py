"""The built parser is cached only where no other user can write (lark unpickles its cache file)."""

from __future__ import annotations

import os

import pytest

from slurmspec.parser.grammar import cache_file


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path


def test_the_cache_is_a_private_folder_of_the_user(cache_home):
    path = cache_file("1.0")
    assert path == str(cache_home / "slurmspec" / "grammar-lark-1.0.pickle")
    assert oct(os.stat(cache_home / "slurmspec").st_mode & 0o777) == oct(0o700)
    assert "/tmp/.lark_cache" not in path


def test_no_cache_in_a_folder_others_can_write(cache_home):
    folder = cache_home / "slurmspec"
    folder.mkdir(mode=0o700)
    folder.chmod(0o777)
    assert cache_file("1.0") is None


def test_no_cache_through_a_planted_symlink(cache_home, tmp_path_factory):
    folder = cache_home / "slurmspec"
    folder.mkdir(mode=0o700)
    elsewhere = tmp_path_factory.mktemp("planted") / "evil.pickle"
    elsewhere.write_bytes(b"not a parser")
    (folder / "grammar-lark-1.0.pickle").symlink_to(elsewhere)
    assert cache_file("1.0") is None


@pytest.mark.skipif(os.getuid() != 0, reason="giving a file to another user needs root")
def test_no_cache_from_a_file_another_user_owns(cache_home):
    folder = cache_home / "slurmspec"
    folder.mkdir(mode=0o700)
    planted = folder / "grammar-lark-1.0.pickle"
    planted.write_bytes(b"not a parser")
    os.chown(planted, 65534, 65534)  # nobody
    assert cache_file("1.0") is None


def test_the_parser_still_works_without_a_cache(cache_home, monkeypatch):
    from slurmspec.parser import grammar

    (cache_home / "slurmspec").mkdir(mode=0o777)
    (cache_home / "slurmspec").chmod(0o777)
    grammar.parser.cache_clear()
    try:
        assert [kind for kind, _, _ in grammar.line_tokens("#!/bin/bash\n#SBATCH -t 5\n")][:2] == ["SHEBANG", "NEWLINE"]
    finally:
        grammar.parser.cache_clear()
