"""Every package under slurmspec/ is named in pyproject.toml, or a wheel install (pre-commit's, users') lacks it.

An editable install finds every folder, so only a real ``pip install .`` shows
the omission (``slurmspec.fix`` was missing once: every command failed there).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _toml():
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    return tomllib


def test_every_subpackage_is_listed():
    config = _toml().loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "slurmspec").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    # rules/ installs as slurmspec.rules (package-dir), family folders included.
    on_disk |= {
        ".".join(("slurmspec", *init.parent.relative_to(ROOT).parts))
        for init in (ROOT / "rules").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert on_disk - listed == set()
    assert {"slurmspec.rules", "slurmspec.grammar"} <= listed


def test_no_package_is_listed_twice():
    packages = _toml().loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    assert len(packages) == len(set(packages))
