"""Read a TOML job spec: syntax, known keys (with did-you-mean), value types, sbatch value checks.

Then the checks across keys (``geometry.py``), typed keys sbatch refuses
together (``requests.py``), the launched command's words (``launch_words.py``),
the workflow keys (``workflow.py``: exported names, the stop signal, the chain)
and, for a spec that passes them, the task layout each launch kind needs,
judged on the job model of the emitted launch block (``layout.py``).

Every option-backed value goes through the script parser's typed-value parser
(``slurmspec.model.values.PARSERS``), so the spec refuses exactly what sbatch
would refuse, and the typed objects it keeps are the parser's own.
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from slurmspec.frozen import frozen
from slurmspec.spec.fields import (ARRAY_SECTIONS, BOOL, INT, LIST, SECTIONS, STR, STR_INT,
                                   STR_LIST, TABLE, Field)
from slurmspec.hints import did_you_mean_any_spelling as did_you_mean
from slurmspec.spec.locate import locate
from slurmspec.spec.model import Section, Spec, Table, sort_sections
from slurmspec.spec.values import header_safe, normalise, option_text, shell_syntax
from slurmspec.version import NEWEST, Version

_TYPE_NAMES = {STR: "a string", INT: "a whole number", BOOL: "true or false", LIST: "a list of strings",
               STR_INT: "a string or a whole number", STR_LIST: "a string or a list of strings",
               TABLE: "a table"}
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TOML_POS = re.compile(r"\(at line (\d+), column (\d+)\)")
INT_MAX = 2**31 - 1  # Slurm's counts are C ints


@frozen
class Problem:
    line: int
    column: int
    message: str


class SpecError(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems[0].message if problems else "invalid spec")
        self.problems = problems


def load_spec(text: str, version: Version = NEWEST) -> Spec:
    """Parse and validate spec text; raises SpecError with positioned problems."""
    from slurmspec.toml_read import loads_toml

    try:
        data = loads_toml(text)
    except ValueError as exc:  # TOMLDecodeError says where; nesting too deep is the whole file's
        match = _TOML_POS.search(str(exc))
        line, col = (int(match.group(1)), int(match.group(2))) if match else (1, 1)
        message = _TOML_POS.sub("", str(exc)).strip()
        raise SpecError([Problem(line, col, f"invalid TOML: {message}")]) from None
    return spec_from_data(data, version, text)


def spec_from_data(data: dict[str, Any], version: Version = NEWEST, source: str = "") -> Spec:
    from slurmspec.spec.workflow import with_default_signal

    checker = _Checker(version, source)
    data = with_default_signal(data)
    sections = checker.sections(data)
    spec = Spec(sort_sections(sections))
    if not checker.problems:
        from slurmspec.spec.geometry import check_spec

        for path, message in check_spec(spec, version):
            checker.fail(path, message)
    if not checker.problems:
        from slurmspec.spec.launch_words import check_launch_words
        from slurmspec.spec.requests import check_requests
        from slurmspec.spec.workflow import check_workflow

        for path, message in [*check_requests(spec, version), *check_launch_words(spec), *check_workflow(spec)]:
            checker.fail(path, message)
    if not checker.problems:  # judged on the emitted launch block, so only for an otherwise sound spec
        from slurmspec.spec.layout import check_layout

        for path, message in check_layout(spec, version):
            checker.fail(path, message)
    if checker.problems:
        raise SpecError(sorted(checker.problems, key=lambda p: (p.line, p.column)))
    return spec


def accepts(section: str, key: str, value: Any, version: Version = NEWEST) -> bool:
    """Would the loader take ``value`` for ``section.key`` (type, range, header safety, sbatch's check)?"""
    from slurmspec.spec.fields import field

    f = field(section, key)
    if f is None:
        return False
    checker = _Checker(version, "")
    plain = list(value) if isinstance(value, tuple) else value
    checked = checker.value(f, plain, (section, key), section)
    if checked is not None and f.option and not checker.problems:
        checker.option_value(f, option_text(f, checked), (section, key))
    return not checker.problems


class _Checker:
    def __init__(self, version: Version, source: str) -> None:
        self.version = version
        self.source = source
        self.problems: list[Problem] = []

    def fail(self, path: tuple, message: str) -> None:
        line, column = locate(self.source, path)
        self.problems.append(Problem(line, column, message))

    def sections(self, data: dict[str, Any]) -> list[Section]:
        out: list[Section] = []
        for name, table in data.items():
            if name not in SECTIONS:
                self.fail((name,), f"unknown section `[{name}]`{did_you_mean(name, SECTIONS)}")
            elif name in ARRAY_SECTIONS:
                if not isinstance(table, list) or not all(isinstance(t, dict) for t in table):
                    self.fail((name,), f"`{name}` must be an array of tables: `[[{name}]]`")
                    continue
                out.extend(self.table(name, t, (name, i)) for i, t in enumerate(table))
            elif not isinstance(table, dict):
                self.fail((name,), f"`{name}` must be a table: `[{name}]`")
            elif name == "env":
                out.append(self.env(table))
            else:
                out.append(self.table(name, table, (name,)))
        return out

    def env(self, table: dict[str, Any]) -> Section:
        values = []
        for key, value in table.items():
            if not _IDENT.fullmatch(key):
                self.fail(("env", key), f"`{key}` is not a shell variable name (letters, digits, `_`)")
            elif not isinstance(value, (str, int)) or isinstance(value, bool):
                self.fail(("env", key), f"`env.{key}` must be a string")
            elif isinstance(value, str) and "\0" in value:
                self.fail(("env", key), f"`env.{key}` contains a NUL character, which no shell can carry")
            else:
                values.append((key, str(value)))
        return Section("env", tuple(values))

    def table(self, name: str, table: dict[str, Any], path: tuple,
              fields: tuple[Field, ...] | None = None) -> Section:
        fields = SECTIONS[name] if fields is None else fields
        known = {f.key: f for f in fields}
        values: dict[str, Any] = {}
        typed: dict[str, Any] = {}
        for key, value in table.items():
            f = known.get(key)
            if f is None:
                self.fail((*path, key), f"unknown key `{key}` in [{name}]{did_you_mean(key, known)}")
                continue
            checked = self.value(f, value, (*path, key), name)
            if checked == () and not f.required:  # an empty list asks for nothing: same as leaving it out
                continue
            if checked is not None:
                values[key] = checked
        for f in fields:
            if f.required and f.key not in table:
                self.fail(path, f"[{name}] needs `{f.key}`: {f.doc}")
        if values.get("exclusive") is False:  # same as not asking
            values.pop("exclusive")
        gpu_type = values.get("gpu_type")
        for f in fields:
            if f.option and f.key in values and not self.problems:
                text = option_text(f, values[f.key], gpu_type)
                typed[f.key] = self.option_value(f, text, (*path, f.key))
        ordered = tuple((f.key, values[f.key]) for f in fields if f.key in values)
        return Section(name, ordered, typed)

    def value(self, f: Field, value: Any, path: tuple, section: str) -> Any:
        kind = f.type
        ok = {
            STR: isinstance(value, str),
            INT: isinstance(value, int) and not isinstance(value, bool),
            BOOL: isinstance(value, bool),
            LIST: isinstance(value, list) and all(isinstance(v, str) for v in value),
            STR_INT: isinstance(value, str) or isinstance(value, int) and not isinstance(value, bool),
            STR_LIST: isinstance(value, str) or isinstance(value, list) and bool(value)
            and all(isinstance(v, str) for v in value),
            TABLE: isinstance(value, dict),
        }[kind]
        dotted = ".".join(str(p) for p in path if isinstance(p, str))
        if not ok:
            self.fail(path, f"`{dotted}` must be {_TYPE_NAMES[kind]}, not {_toml_type(value)}")
            return None
        if kind == TABLE:
            return Table(self.table(section, value, path, f.children).values)
        if isinstance(value, int) and not isinstance(value, bool) and not f.minimum <= value <= INT_MAX:
            self.fail(path, f"`{dotted}` must be between {f.minimum} and {INT_MAX}")
            return None
        if f.choices and value not in f.choices:
            hint = did_you_mean(value, f.choices) or f"; one of {', '.join(f.choices)}"
            self.fail(path, f"`{dotted}` cannot be `{value}`{hint}")
            return None
        strings = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        verbatim = section == "body" or f.key == "lines"  # kept as they were, NUL or control characters
        if not verbatim and any("\0" in s for s in strings):
            self.fail(path, f"`{dotted}` contains a NUL character, which no shell can carry")
            return None
        if f.key == "lines" and any("\n" in s or not s for s in strings):
            self.fail(path, f"`{dotted}`: a kept header line cannot be empty or hold a line break")
            return None
        if (f.option or section in ("sbatch", "hetjob")) and not verbatim and not all(header_safe(s) for s in strings):
            self.fail(path, f"`{dotted}` goes on an #SBATCH line, so it cannot be empty or hold line"
                            " breaks or control characters")
            return None
        expansion = next((shell_syntax(s) for s in strings if shell_syntax(s)), None) if f.option else None
        if expansion is not None:
            self.fail(path, f"`{dotted}`: `{expansion}` would not be expanded: sbatch reads #SBATCH lines"
                            " without a shell; write the value out (or use a `%` pattern in file names)")
            return None
        if section in ("sbatch", "hetjob") and f.key == "options":
            from slurmspec.spec.raw import canonical_options, check_raw_options

            problems = list(check_raw_options(value, self.version))
            for i, message in problems:
                self.fail(path, f"`{dotted}[{i}]`: {message}")
            if not problems:
                return canonical_options(value)
        if section in ("sbatch", "hetjob") and f.key == "lines" and not all(_header_line(s) for s in strings):
            self.fail(path, f"`{dotted}`: every kept header line must start with `#` (a command ends the header)")
        if section == "sbatch" and f.key == "shebang" and not value.startswith("#!"):
            self.fail(path, f"`{dotted}` must start with `#!`")
        return normalise(f, value)

    def option_value(self, f: Field, text: str | None, path: tuple) -> Any:
        if text is None or f.option is None:
            return True
        from slurmspec.model.catalogue.options import lookup
        from slurmspec.model.values import PARSERS

        spec = lookup(f.option)
        assert spec is not None and spec.kind is not None
        parsed = PARSERS[spec.kind](text, self.version)
        # What sbatch refuses is an error here; what it accepts with a doubt is
        # left to the rules, which `slurmspec emit` runs on what it writes.
        for problem in parsed.problems:
            if problem.rejected:
                self.fail(path, f"`{text}`: {problem.message} (as `--{f.option}`)")
                break
        return parsed.value


def _header_line(text: str) -> bool:
    """Is ``text`` a line sbatch's header scan passes over (a comment or directive), not a command?"""
    from slurmspec.model.syntax.script import LineKind
    from slurmspec.parser.script import parse_script

    if not text.lstrip(" \t\v\f\r").startswith("#"):
        return False
    lines = parse_script(f"#!/bin/bash\n{text}\n", None).lines
    return len(lines) == 2 and lines[1].kind != LineKind.COMMAND


def _toml_type(value: Any) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array",
            dict: "a table"}.get(type(value), type(value).__name__)
