"""Configuration: ``slurmspec.toml`` (top-level keys) or ``[tool.slurmspec]`` in ``pyproject.toml``.

Found by walking up from each linted file's folder; the nearest file wins (a
``pyproject.toml`` without a ``[tool.slurmspec]`` table is skipped; in one
folder ``slurmspec.toml`` is preferred). Keys::

    select = ["SB0", "SB1", "SB2"]     # codes, code prefixes or rule names
    extend-select = ["SB301"]          # added to select
    ignore = ["SB116", "mail-user-without-type"]
    fail-on = "warning"                # error | warning | info
    slurm-version = "23.02"            # a string: 23.02 unquoted is a TOML float
    cluster = "profiles/hpc.toml"      # cluster profile (docs/cluster.md), relative to this file
    [policy]                           # site policy (docs/policy.md), or policy = "site-policy.toml"
    shellcheck = true                  # also run ShellCheck on the body (SCxxxx codes)
    output-format = "concise"          # lint --format default; read from the working folder's config
    exclude = ["old/"]                 # folder discovery skips these (replaces the default list)
    extend-exclude = ["*.tmp.sbatch"]  # ... and these, besides the default list
    respect-gitignore = false          # also lint what .gitignore lists (default: skip it)
    [severity]                         # [tool.slurmspec.severity] in pyproject.toml
    SB201 = "error"                    # codes, prefixes or names; the most specific wins
    [per-file-ignores]
    "legacy/**/*.sbatch" = ["SB2"]     # globs relative to the config's folder

Any mistake (unknown key, code, severity, version; wrong type) raises
``ConfigError`` naming the file and key, with a did-you-mean where one fits.
"""

from __future__ import annotations

import os
from typing import Any, Iterable

import attrs

from slurmspec.frozen import frozen
from slurmspec.diagnostic import SEVERITIES
# glob_regex: the name discovery and .gitignore reading import it by (slurmspec/settings/glob.py).
from slurmspec.settings.glob import GlobError, compile_glob as glob_regex
from slurmspec.toml_read import loads_toml
from slurmspec.version import Version

CONFIG_NAMES = ("slurmspec.toml", "pyproject.toml")
KEYS = (
    "select", "extend-select", "ignore", "severity", "fail-on", "slurm-version", "per-file-ignores", "shellcheck",
    "output-format", "cluster", "policy", "exclude", "extend-exclude", "respect-gitignore",
)


class ConfigError(Exception):
    """A configuration file that cannot be used; the CLI turns it into exit code 2."""


@frozen
class Config:
    path: str | None = None  # the file it came from; None for the defaults
    select: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: tuple[tuple[str, str], ...] = ()  # (selector, severity) pairs
    fail_on: str | None = None
    slurm_version: Version | None = None
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (glob, selectors)
    shellcheck: bool | None = None  # None: not set here (off unless --shellcheck)
    output_format: str | None = None  # None: text on a terminal, else concise
    cluster: str | None = None  # the cluster profile's path, made absolute (relative to the config file)
    policy: Any = None  # slurmspec.cluster.policy.Policy: the [policy] table, or the one of the file it names
    exclude: tuple[str, ...] | None = None  # None: not set here (the default list applies)
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool | None = None  # None: not set here (respected)

    @property
    def root(self) -> str:
        return os.path.dirname(os.path.abspath(self.path)) if self.path else os.getcwd()

    def ignores_for(self, path: str | None) -> tuple[str, ...]:
        """The selectors ``per-file-ignores`` adds for ``path`` (a linted file's path)."""
        if not self.per_file_ignores or path is None:
            return ()
        absolute = os.path.abspath(path)
        relative = os.path.relpath(absolute, self.root).replace(os.sep, "/")
        name = os.path.basename(absolute)
        found: list[str] = []
        for pattern, selectors in self.per_file_ignores:
            target = relative if "/" in pattern else name
            if glob_regex(pattern).fullmatch(target):
                found.extend(selectors)
        return tuple(found)

    def severities(self, codes: Iterable[str]) -> dict[str, str]:
        """Severity override per rule code: an exact code or name beats the longest prefix."""
        if not self.severity:
            return {}
        from slurmspec.lint.engine import registry, selector_matches

        table = registry()
        result: dict[str, str] = {}
        for code in codes:
            rule = table[code]
            best: tuple[int, str] | None = None
            for selector, level in self.severity:
                if not selector_matches(rule, selector):
                    continue
                exact = selector.upper() == rule.code or selector.lower() == rule.name
                rank = 100 if exact else len(selector)
                if best is None or rank >= best[0]:
                    best = (rank, level)
            if best is not None:
                result[code] = best[1]
        return result


DEFAULT = Config()


def find_config(start: str) -> str | None:
    """The nearest configuration file at or above folder ``start``, or None."""
    folder = os.path.abspath(start)
    while True:
        for name in CONFIG_NAMES:
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate) and (name != "pyproject.toml" or _has_table(candidate)):
                return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _has_table(path: str) -> bool:
    from slurmspec.limits import MAX_SETTINGS_BYTES, read_bounded

    try:
        data = read_bounded(path, MAX_SETTINGS_BYTES)  # past the limit: load_config says so
    except OSError:
        return False
    if b"slurmspec" not in data:
        return False  # cheap: most pyproject.toml files never mention us
    try:
        document = loads_toml(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return True  # broken TOML that mentions us: load_config reports it
    tool = document.get("tool")
    return isinstance(tool, dict) and "slurmspec" in tool


def load_config(path: str) -> Config:
    """Read and check one configuration file; raise ``ConfigError`` on any mistake."""
    from slurmspec.limits import read_utf8

    text = read_utf8(path, ConfigError, what="a configuration file")
    try:
        document = loads_toml(text)
    except ValueError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    if os.path.basename(path) == "pyproject.toml":
        table = document.get("tool", {}).get("slurmspec")
        prefix = "tool.slurmspec."
        if table is None:
            raise ConfigError(f"{path}: no [tool.slurmspec] table")
    else:
        table, prefix = document, ""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: `{prefix.rstrip('.') or 'slurmspec'}` must be a table")
    return _build(path, prefix, table)


def _build(path: str, prefix: str, table: dict[str, Any]) -> Config:
    from slurmspec.lint.shellcheck import is_shellcheck_selector

    def fail(key: str, message: str) -> ConfigError:
        return ConfigError(f"{path}: `{prefix}{key}`: {message}")

    for key in table:
        if key not in KEYS:
            from slurmspec.hints import did_you_mean

            hint = did_you_mean(key.replace("_", "-"), KEYS, otherwise=f"; known keys: {', '.join(KEYS)}")
            raise ConfigError(f"{path}: unknown key `{prefix}{key}`{hint}")

    def selectors(key: str, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise fail(key, "must be a list of rule codes, code prefixes or names, e.g. [\"SB2\", \"SB116\"]")
        for selector in value:
            if not is_shellcheck_selector(selector):  # SC2086: for the optional ShellCheck bridge
                check_selector(selector, lambda message: fail(key, message))
        return tuple(value)

    fields: dict[str, Any] = {"path": path}
    for key in ("select", "extend-select", "ignore"):
        if key in table:
            fields[key.replace("-", "_")] = selectors(key, table[key])
    if "fail-on" in table:
        fields["fail_on"] = _severity(table["fail-on"], lambda message: fail("fail-on", message))
    if "slurm-version" in table:
        fields["slurm_version"] = _version(table["slurm-version"], lambda message: fail("slurm-version", message))
    if "shellcheck" in table:
        if not isinstance(table["shellcheck"], bool):
            raise fail("shellcheck", "must be true or false")
        fields["shellcheck"] = table["shellcheck"]
    if "policy" in table:
        fields["policy"] = _policy(path, prefix, table["policy"], fail)
    if "cluster" in table:
        if not isinstance(table["cluster"], str) or not table["cluster"].strip():
            raise fail("cluster", 'must be the path of a cluster profile, e.g. "profiles/hpc.toml"')
        folder = os.path.dirname(os.path.abspath(path))
        fields["cluster"] = os.path.join(folder, os.path.expanduser(table["cluster"]))
    if "output-format" in table:
        from slurmspec.report import FORMATS

        if table["output-format"] not in FORMATS:
            raise fail("output-format", f"must be one of {', '.join(FORMATS)}")
        fields["output_format"] = table["output-format"]
    if "severity" in table:
        levels = table["severity"]
        if not isinstance(levels, dict):
            raise fail("severity", 'must be a table of rule → severity, e.g. SB201 = "error"')
        pairs = []
        for selector, level in levels.items():
            if not is_shellcheck_selector(selector):
                check_selector(selector, lambda message, s=selector: fail(f"severity.{s}", message))
            pairs.append((selector, _severity(level, lambda message, s=selector: fail(f"severity.{s}", message))))
        fields["severity"] = tuple(pairs)
    for key in ("exclude", "extend-exclude"):
        if key in table:
            value = table[key]
            if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
                raise fail(key, 'must be a list of globs, e.g. ["legacy/", "**/generated/*.sbatch"]')
            for glob in value:
                _check_glob(glob.strip("/") or glob, lambda message: fail(key, message))
            fields[key.replace("-", "_")] = tuple(value)
    if "respect-gitignore" in table:
        if not isinstance(table["respect-gitignore"], bool):
            raise fail("respect-gitignore", "must be true or false")
        fields["respect_gitignore"] = table["respect-gitignore"]
    if "per-file-ignores" in table:
        globs = table["per-file-ignores"]
        if not isinstance(globs, dict):
            raise fail("per-file-ignores", 'must be a table of glob → list of codes, e.g. "old/*.sbatch" = ["SB2"]')
        for pattern in globs:
            _check_glob(pattern, lambda message, p=pattern: fail(f'per-file-ignores."{p}"', message))
        fields["per_file_ignores"] = tuple(
            (pattern, selectors(f'per-file-ignores."{pattern}"', codes)) for pattern, codes in globs.items()
        )
    return Config(**fields)


def _check_glob(pattern: str, fail) -> None:
    try:
        glob_regex(pattern)
    except GlobError as exc:
        raise fail(str(exc)) from None


def _policy(path: str, prefix: str, value: Any, fail):
    """``[policy]`` here, or ``policy = "file.toml"``: a file (relative to this one) holding a ``[policy]`` table."""
    from slurmspec.cluster.policy import parse_policy
    from slurmspec.cluster.profile import ProfileError

    try:
        if isinstance(value, dict):
            return parse_policy(value, path, prefix=prefix)
        if not isinstance(value, str) or not value.strip():
            raise fail("policy", 'must be a [policy] table or the path of a file holding one, e.g. "site-policy.toml"')
        source = os.path.join(os.path.dirname(os.path.abspath(path)), os.path.expanduser(value))
        from slurmspec.limits import MAX_SETTINGS_BYTES, read_whole

        try:
            document = loads_toml(read_whole(source, MAX_SETTINGS_BYTES, "a site policy").decode("utf-8"))
        except OSError as exc:
            raise fail("policy", f"cannot read {source}: {exc.strerror or exc}") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise fail("policy", f"{source} is not a TOML file: {exc}") from None
        if not isinstance(document.get("policy"), dict):
            raise fail("policy", f"{source} has no [policy] table")
        return parse_policy(document["policy"], source)
    except ProfileError as exc:
        raise ConfigError(str(exc)) from None


def check_selector(selector: str, fail) -> None:
    """Raise ``fail(message)`` unless ``selector`` names at least one rule."""
    from slurmspec.lint.engine import known_selector, suggest_rule

    if known_selector(selector):
        return
    close = suggest_rule(selector)
    hint = f"; did you mean `{close}`?" if close else "; see `slurmspec rule --all`"
    raise fail(f"`{selector}` is not a rule code, code prefix or rule name{hint}")


def _severity(value: Any, fail) -> str:
    if isinstance(value, str) and value.lower() in SEVERITIES:
        return value.lower()
    from slurmspec.hints import LOOSE, did_you_mean

    hint = did_you_mean(value.lower(), SEVERITIES, cutoff=LOOSE) if isinstance(value, str) else ""
    raise fail(f"`{value}` is not a severity; use one of {', '.join(SEVERITIES)}{hint}")


def _version(value: Any, fail) -> Version:
    from slurmspec.version import parse_version

    if not isinstance(value, str):
        raise fail(f'must be a string such as "23.02" (an unquoted {value!r} is a TOML number)')
    try:
        return parse_version(value)
    except ValueError as exc:
        raise fail(str(exc)) from None


class ConfigCache:
    """Finds and loads the configuration for each linted file, once per folder and file."""

    def __init__(self, explicit: str | None = None, enabled: bool = True) -> None:
        self._explicit = load_config(explicit) if explicit else None
        self._enabled = enabled
        self._by_folder: dict[str, str | None] = {}
        self._loaded: dict[str, Config] = {}

    def for_path(self, path: str | None) -> Config:
        """The configuration for a linted file (``None``: standard input, found from the cwd)."""
        if self._explicit is not None:
            return self._explicit
        if not self._enabled:
            return DEFAULT
        folder = os.path.dirname(os.path.abspath(path)) if path else os.getcwd()
        if folder not in self._by_folder:
            self._by_folder[folder] = find_config(folder)
        found = self._by_folder[folder]
        if found is None:
            return DEFAULT
        if found not in self._loaded:
            self._loaded[found] = load_config(found)
        return self._loaded[found]
