"""Script -> spec: modelled options become typed keys, the rest raw options, the body stays verbatim.

Per hetjob component the effective request (``Component.request``, after
sbatch's last-wins and accumulation rules) is what is converted, so emitting
the spec again asks for the same thing. Header comment lines and directive
lines sbatch cannot read are kept verbatim in ``[sbatch].lines``; the body is
everything after the last directive line. A body slurmspec generated (it
starts with the ``# slurmspec-spec:`` marker) turns back into its sections when
emitting them reproduces it exactly.
"""

from __future__ import annotations

import json
from typing import Any

from slurmspec.model.job.request import Setting
from slurmspec.model.syntax.script import LineKind, Script
from slurmspec.spec.model import Spec
from slurmspec.spec.raw import typed_spelling
from slurmspec.spec.values import header_safe
from slurmspec.spec.writer.header import DEFAULT_SHEBANG
from slurmspec.version import Version

_DIRECTIVE_KINDS = (LineKind.DIRECTIVE, LineKind.LEGACY_DIRECTIVE)


class ConvertError(ValueError):
    """The script holds something a TOML spec cannot carry (e.g. bytes that are not UTF-8)."""


def convert_script(script: Script, verbatim: frozenset[int] = frozenset()) -> Spec:
    """The spec of ``script``; components in ``verbatim`` keep their directive lines as they are."""
    from slurmspec.spec.load import SpecError, spec_from_data

    if script.had_undecodable_bytes:
        raise ConvertError("the script is not valid UTF-8, and TOML text must be")
    data: dict[str, Any] = {}
    body_start, kept, broken = _header(script, verbatim)
    # A CRLF script's "\r" is whitespace to sbatch; the header is re-emitted with "\n" line ends.
    shebang = script.shebang.text.rstrip("\r") if script.shebang is not None else None
    if shebang is not None and shebang != DEFAULT_SHEBANG and header_safe(shebang):
        data.setdefault("sbatch", {})["shebang"] = shebang
    if kept.get(0):
        data.setdefault("sbatch", {})["lines"] = kept[0]
    first, *rest = script.components
    if 0 not in broken:
        _component_zero(first.request.settings, data, script.version)
    for component in rest:
        settings = () if component.index in broken else component.request.settings
        words = [w for s in settings if not s.inherited for w in _raw_words(s)]
        hetjob: dict[str, Any] = {"options": words}
        if kept.get(component.index):
            hetjob["lines"] = kept[component.index]
        data.setdefault("hetjob", []).append(hetjob)
    body = script.source[body_start:]
    try:
        header_spec = spec_from_data({**data, "body": {"script": body}}, script.version)
    except SpecError:
        if 0 in broken:
            raise
        # Typed keys sbatch refuses together (spec/requests.py): the loader would
        # refuse them, so the component keeps its lines as written (sbatch refuses
        # the emitted script the same way, and `slurmspec emit` says so).
        return convert_script(script, verbatim | {0})
    sections = _generated_sections(header_spec, body, script)
    if sections is not None:
        return spec_from_data({**data, **sections}, script.version)
    return header_spec


def _header(script: Script, verbatim: frozenset[int] = frozenset()) -> tuple[int, dict[int, list[str]], set[int]]:
    """(offset where the body starts, header lines kept verbatim per component, broken components).

    A component with a directive line sbatch cannot read (or a value with
    characters a directive word cannot spell) keeps *all* its
    directive lines verbatim, in order, instead of typed keys: sbatch reads the
    words of a component's lines as one argument list (an option at the end of
    one line takes the next line's first word), so only the original sequence
    asks for the same thing. Comments are kept with the first component.
    """
    troubled = {issue.span.line for issue in script.issues if not issue.ignored}
    component_of = {d.line.number: (d.component, d.separator) for d in script.directive_lines}
    broken = {component_of[n][0] for n in troubled if n in component_of} | set(verbatim)
    # A value no #SBATCH word can spell again (NUL, control characters) keeps its lines verbatim too.
    broken |= {d.component for d in script.directives
               if not d.ignored and d.value is not None and not header_safe(d.value)}
    last = None
    for line in script.lines:
        if line.span.start >= script.header_end:
            break
        if line.kind in _DIRECTIVE_KINDS:
            last = line
    if last is None:
        shebang = script.shebang
        return (shebang.span.end + len(shebang.newline) if shebang else 0), {}, broken
    kept: dict[int, list[str]] = {}
    for line in script.lines:
        if line.span.start > last.span.start:
            break
        text = line.text[:-1] if line.text.endswith("\r") else line.text
        if line.kind in (LineKind.COMMENT, LineKind.NEAR_MISS):
            kept.setdefault(0, []).append(text)
            continue
        component, separator = component_of.get(line.number, (0, True))
        if line.kind in _DIRECTIVE_KINDS and component in broken and not separator:
            kept.setdefault(component, []).append(text)
    return last.span.end + len(last.newline), kept, broken


def _component_zero(settings: tuple[Setting, ...], data: dict[str, Any], version: Version) -> None:
    context: dict[Any, Any] = {"raw": {s.name for s in settings}, "version": version}
    raw: list[str] = []
    for setting in settings:
        text = _effective_text(setting)
        typed = typed_spelling(setting.name, text, context) if _single(setting) or text is not None else None
        if typed is None:
            raw.extend(_raw_words(setting))
            continue
        section, key, value = typed
        if key in ("gpus_per_node", "gpus_per_task"):
            gpu_type, value = value
            if gpu_type is not None:
                data.setdefault("resources", {})["gpu_type"] = gpu_type
                context[("resources", "gpu_type")] = gpu_type
        data.setdefault(section, {})[key] = list(value) if isinstance(value, tuple) else value
        context[(section, key)] = value
    if raw:
        data.setdefault("sbatch", {})["options"] = raw


def _single(setting: Setting) -> bool:
    return not setting.overridden or not setting.directive.option.accumulates


def _effective_text(setting: Setting) -> str | None:
    """The value text that asks for the effective value in one occurrence (None if there is none)."""
    if _single(setting):
        return setting.raw
    value = setting.value
    if setting.name == "mail-type" and getattr(value, "types", None):
        return ",".join(value.types)
    if setting.name == "signal" and getattr(value, "seconds", None) is not None:
        flags = "".join(value.flags)
        return f"{flags}:{value.name or value.signal}@{value.seconds}" if flags else None
    return None


def _raw_words(setting: Setting) -> list[str]:
    """One raw option per occurrence when Slurm accumulates them, else the deciding one."""
    directives = (*setting.overridden, setting.directive) if not _single(setting) else (setting.directive,)
    words = []
    for directive in directives:
        value = directive.value
        words.append(f"--{setting.name}" if value is None else f"--{setting.name}={value}")
    return words


def _generated_sections(header_spec: Spec, body: str, script: Script) -> dict[str, Any] | None:
    from slurmspec.emit import MARKER, generated_body
    from slurmspec.spec.load import SpecError, spec_from_data

    marker_line = next((line for line in body.splitlines()[:3] if line.startswith(MARKER)), None)
    if marker_line is None:
        return None
    try:
        sections = json.loads(marker_line[len(MARKER):])
        data = {k: v for k, v in header_spec.to_data().items() if k != "body"}
        candidate = spec_from_data({**data, **sections}, script.version)
    except (ValueError, TypeError, AttributeError, RecursionError, SpecError):  # deep JSON: not ours
        return None
    return sections if isinstance(sections, dict) and generated_body(candidate, script.version) == body else None
