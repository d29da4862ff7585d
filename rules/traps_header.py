"""SB201–SB218: silent traps in the ``#SBATCH`` header.

sbatch accepts everything here, but does something other than what the
script says: a directive it never reads, a value it takes literally or cuts
short, a repeated option whose first value is silently dropped, a request
Slurm quietly adjusts. Facts from slurm-semantics.md §4.2, §4.4, §4.5 and §5;
where the reference was silent, from probes of sbatch/slurmctld 22.05.8 (noted
at each rule).
"""

from __future__ import annotations

import re
from typing import Iterable

from slurmspec.rules._legacy import Context, Rule
from slurmspec.model.script import Directive, DirectiveLine, LineKind, Script
from slurmspec.fix import build
from slurmspec.model.request import hint_dropped_by
from slurmspec.rules import _fixes
from slurmspec.rules.values import problem_span

_SPACE = " \t\v\f\r\n"
_MAIL_TYPE_LAST_WINS = (25, 5)
_SHARE_FATAL_SINCE = (23, 2)  # --exclusive with --oversubscribe is refused from 23.02
_GRES_GPN_FATAL_SINCE = (26, 5)  # --gres=gpu with --gpus-per-node is refused from 26.05


# --------------------------------------------------------------------------- helpers


def _clip(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _shown(directive: Directive) -> str:
    """The option as written: ``--time=5``, ``-t 5``, ``--exclusive``."""
    if directive.spelling.startswith("--"):
        return _clip(directive.raw)
    if directive.value is None:
        return directive.spelling
    return _clip(f"{directive.spelling} {directive.value}")


def _span(ctx: Context, directive: Directive):
    """The directive's span, widened to take in the `-` of a short option (`-p gpu`)."""
    span = directive.span
    start = span.start
    if not directive.spelling.startswith("--") and start > 0 and ctx.script.source[start - 1] == "-":
        return ctx.script.span(start - 1, span.end)
    return span


def _command_line(script: Script):
    """The line that ended the header (the first command), or None."""
    for line in script.lines:
        if line.span.start == script.header_end and line.kind == LineKind.COMMAND:
            return line
    return None


_HEREDOC = re.compile(r"<<-?[ \t]*(['\"]?)([A-Za-z0-9_.-]+)\1")


_SHELLS = re.compile(r"\b(?:ba|z|k|c|tc|da|fi)?sh\b")


def _data_lines(script: Script) -> set[int]:
    """Body lines that are data, not code: here-documents of a shell script, or the
    triple-quoted strings of a Python one. Their #SBATCH lines belong to a script
    this one writes or submits."""
    shebang = script.shebang
    if shebang is not None and not _SHELLS.search(shebang.text):
        return _string_lines(script)
    inside: set[int] = set()
    delimiters: list[str] = []
    for line in script.lines:
        if line.span.start < script.header_end:
            continue
        if delimiters:
            inside.add(line.number)
            if line.text.strip() == delimiters[0]:
                delimiters.pop(0)
            continue
        if line.kind == LineKind.COMMAND:
            text = line.text.replace("<<<", "   ")
            delimiters.extend(m.group(2) for m in _HEREDOC.finditer(text))
    return inside


def _string_lines(script: Script) -> set[int]:
    inside: set[int] = set()
    quote = None
    for line in script.lines:
        if quote is not None:
            inside.add(line.number)
        for match in re.finditer(r"\'\'\'|\"\"\"", line.text):
            if quote is None:
                quote = match.group()
            elif match.group() == quote:
                quote = None
    return inside


def _effective_ids(script: Script) -> set[int]:
    return {
        id(setting.directive)
        for component in script.components
        for setting in component.request.settings
        if not setting.inherited
    }


def _line_no(directive: Directive) -> int:
    return directive.span.line


# --------------------------------------------------------------------------- directive lines


def check_directive_lines(ctx: Context) -> None:
    """SB201 late directives, SB202 near-misses, SB203 #SLURM, SB206 a glued `#`."""
    script = ctx.script
    first_command = None
    heredoc: set[int] | None = None
    late: list[DirectiveLine] = []
    for dline in script.directive_lines:
        if not dline.in_header:
            if not dline.words and not dline.separator:
                continue  # a bare "#SBATCH" below the header asks for nothing
            if script.shebang is None:
                continue  # sbatch refuses the whole script (SB103); nothing is read at all
            if heredoc is None:
                heredoc = _data_lines(script)
                first_command = _command_line(script)
            if dline.line.number in heredoc:
                continue  # part of a script this one writes or submits
            late.append(dline)
            continue
        if dline.prefix == "#SLURM":
            ctx.report(
                "SB203", ctx.script.span(dline.line.span.start, dline.line.span.start + 6),
                "`#SLURM` is a legacy directive prefix: sbatch still reads the line but prints"
                " an error asking to change it; write `#SBATCH`",
            )
        _check_glued_hash(ctx, dline)
    if late:
        data = _fixes.multiline_words(script)
        movable = [dline for dline in late if _fixes.movable(script, dline, data)]
        fix = _fixes.move_into_header(script, movable) if movable else None
        for dline in late:
            _report_late(ctx, dline, first_command, fix if dline in movable else None)
    for line in script.lines:
        if line.kind == LineKind.NEAR_MISS and line.span.start < script.header_end:
            _check_near_miss(ctx, line)


def _report_late(ctx: Context, dline: DirectiveLine, first_command, fix) -> None:
    text = dline.line.text
    if first_command is not None:
        where = (f"the first command (line {first_command.number}:"
                 f" `{_clip(first_command.text.strip(), 40)}`)")
        advice = f"move it above line {first_command.number}"
    else:  # pragma: no cover - a late line implies a command before it
        where = "the first command"
        advice = "move it above the first command"
    ctx.report(
        "SB201", dline.line.span,
        f"`{_clip(text, 50)}` comes after {where}; sbatch stops reading directives at the"
        f" first command and silently ignores this line, so {advice}",
        fix=fix,
    )


_OPTION_WORD = re.compile(r"-{1,2}[A-Za-z]")


def _only_options(words: list[str]) -> bool:
    """True when ``words`` read like directive options (no script names or prose)."""
    if not words or not _OPTION_WORD.match(words[0]):
        return False
    expecting_value = False
    for word in words:
        if _OPTION_WORD.match(word):
            expecting_value = "=" not in word and not (word[1] != "-" and len(word) > 2)
            continue
        if word.startswith("#"):
            return True  # a trailing comment
        if not expecting_value:
            return False
        expecting_value = False
    return True


_NEAR_MISS = re.compile(r"([ \t\v\f\r]*)(#[# \t\v\f\r]*?)(sbatch)(.*)", re.IGNORECASE | re.S)


def _check_near_miss(ctx: Context, line) -> None:
    match = _NEAR_MISS.match(line.text)
    if match is None:
        return
    indent, hashes, word, rest = match.groups()
    if hashes.count("#") > 1:
        return  # "##SBATCH", "# #SBATCH": a directive disabled on purpose
    spaced = hashes != "#"
    if rest[:1] not in ("", " ", "\t", "-"):
        return  # "#SBATCHED", "# sbatchrc": another word
    if not _only_options(rest.split()):
        return  # "# sbatch train.sh", "# SBATCH options:": a note, not a directive
    if word == "sbatch" and spaced:
        return  # "#   sbatch --gres=gpu:4 train.sbatch": a usage note, not a directive
    if indent:
        why = "it is indented (only `#SBATCH` at the very start of a line counts)"
    elif word != "SBATCH":
        why = f"`{word}` is not `SBATCH` (the prefix is case-sensitive)"
    else:
        why = "of the blank between `#` and `SBATCH`"
    start = line.span.start + len(indent)
    end = start + len(hashes) + len(word)
    ctx.report(
        "SB202", ctx.script.span(start, end),
        f"`{_clip(line.text.strip(), 50)}` is not a directive because {why}; sbatch silently"
        " ignores the line. Write `#SBATCH` at column 1 (or `##SBATCH` to disable it on"
        " purpose)",
        fix=_fixes.near_miss_to_directive(ctx.script, line, end, rest),
    )


_VALUE_KINDS_WITH_HASH = frozenset({"string", "filename", "constraint", "dependency", "export"})


def _check_glued_hash(ctx: Context, dline: DirectiveLine) -> None:
    comment = dline.comment
    if comment is None:
        return
    source = ctx.script.source
    at = comment.start
    line_start = dline.line.span.start + len(dline.prefix)
    if at <= line_start or source[at - 1] in _SPACE:
        return  # " # a comment": fine
    dropped = source[at + 1:comment.end].strip()
    if not dropped:
        return
    owner = next((d for d in ctx.script.directives if d.span.end == at and not d.ignored), None)
    has_options = any(_OPTION_WORD.match(word) for word in dropped.split())
    glued_value = (
        owner is not None and owner.value is not None
        and (owner.option.kind or "string") in _VALUE_KINDS_WITH_HASH
        and source[at + 1:at + 2] not in _SPACE
    )
    if not (has_options or glued_value):
        return  # "--time=5#ten minutes": just a comment without the blank
    what = f"`{_shown(owner)}`" if owner is not None else "the directive"
    lost = f"`{_clip(source[at:comment.end], 40)}`"
    if has_options:
        consequence = f"sbatch reads {what} and ignores {lost}, so those options are never set"
    else:
        consequence = f"sbatch reads {what} and drops {lost}"
    ctx.report(
        "SB206", ctx.script.span(at, comment.end),
        f"an unquoted `#` starts a comment even in the middle of a word: {consequence};"
        " quote the value or escape the `#` as `\\#`",
        fix=_fixes.escape_hash(ctx.script, at, dline.line),
    )


# --------------------------------------------------------------------------- repeated options


def _accumulates(directive: Directive, version) -> bool:
    if directive.option.long == "mail-type":
        return version < _MAIL_TYPE_LAST_WINS
    return directive.option.accumulates


def _override_message(earlier: Directive, final: Directive) -> str:
    name = final.option.long
    old, new = _shown(earlier), _shown(final)
    head = f"`{old}` is replaced by `{new}` on line {_line_no(final)}"
    if name == "constraint":
        merged = f"{earlier.value}&{final.value}" if earlier.value and final.value else None
        tail = (f"; the features `{earlier.value}` are no longer required. To require all of"
                f" them, write one `--constraint={merged}`" if merged else
                "; only the last `--constraint` counts")
        return head + tail
    if name == "partition":
        return (head + f": the job goes to partition `{final.value}` only. To let Slurm use"
                f" whichever is free first, write one `--partition={earlier.value},{final.value}`")
    if name == "time":
        return head + f": the time limit is `{final.value}`, not `{earlier.value}`; keep one `--time`"
    if name in ("mem", "mem-per-cpu", "mem-per-gpu"):
        return (head + f": the job gets `{final.value}`, not `{earlier.value}`; keep one"
                f" `--{name}`")
    if name == "gres":
        return (head + ": `--gres` lines are not merged, only the last one is requested;"
                f" list everything in one option, e.g. `--gres={earlier.value},{final.value}`")
    return head + "; sbatch keeps only the last value of a repeated option, delete the one you do not want"


def check_repeats(ctx: Context) -> None:
    """SB204 overridden options, SB205 exact duplicates, SB213 pairs sharing one setting."""
    from slurmspec.model.options import CHECKED_WHEN_EFFECTIVE as _CHECKED_WHEN_EFFECTIVE

    for component in ctx.script.components:
        request = component.request
        for setting in request.settings:
            if setting.inherited or not setting.overridden:
                continue
            occurrences = (*setting.overridden, setting.directive)
            final = setting.directive
            if setting.name == "mail-type" and ctx.version >= _MAIL_TYPE_LAST_WINS:
                _report_mail_type_repeat(ctx, occurrences)
                continue
            seen: dict[object, Directive] = {}
            reported: set[object] = set()
            for occurrence in occurrences:
                key = occurrence.value
                if key in seen:
                    ctx.report(
                        "SB205", _span(ctx, occurrence),
                        f"`{_shown(occurrence)}` repeats line {_line_no(seen[key])}; remove one"
                        " of them",
                        fix=build.drop_directive(ctx.script, seen[key], f"Remove the first `{_shown(seen[key])}`"),
                    )
                    continue
                seen[key] = occurrence
                if occurrence is final or key == final.value or key in reported:
                    continue
                if _accumulates(occurrence, ctx.version):
                    continue
                typed = occurrence.typed
                if (typed is not None and not typed.ok
                        and occurrence.option.kind not in _CHECKED_WHEN_EFFECTIVE):
                    continue  # sbatch refuses this value outright; the reject family says so
                reported.add(key)
                ctx.report("SB204", _span(ctx, occurrence), _override_message(occurrence, final),
                           fix=_fixes.merge_constraints(ctx.script, occurrences, final))
        _check_shared_setting(ctx, request)


def _report_mail_type_repeat(ctx: Context, occurrences) -> None:
    # From 25.05 each --mail-type replaces the previous one (before: ORed together).
    final = occurrences[-1]
    lost = [d for d in occurrences[:-1] if d.value != final.value]
    if not lost:
        for earlier, occurrence in zip(occurrences, occurrences[1:]):
            ctx.report("SB205", _span(ctx, occurrence),
                       f"`{_shown(occurrence)}` repeats line {_line_no(occurrences[0])}; remove one"
                       " of them",
                       fix=build.drop_directive(ctx.script, earlier, f"Remove the first `{_shown(earlier)}`"))
        return
    words = []
    for occurrence in occurrences:
        for word in (occurrence.value or "").split(","):
            if word and word.upper() not in (w.upper() for w in words):
                words.append(word)
    merged = ",".join(w.upper() for w in words if w.upper() != "NONE")
    lost_text = ", ".join(f"`{_shown(d)}`" for d in lost)
    ctx.report(
        "SB204", _span(ctx, lost[0]),
        f"{lost_text} {'is' if len(lost) == 1 else 'are'} replaced by `{_shown(final)}` on line"
        f" {_line_no(final)}: from Slurm 25.05 repeated `--mail-type` options no longer add up,"
        f" only the last one counts" + (f"; write one `--mail-type={merged}`" if merged else ""),
    )


# Options that write one field, so the last one silently wins (slurm-semantics.md §4.2).
_SHARED_PAIRS = (
    ("nodelist", "nodefile", "the node list"),
    ("requeue", "no-requeue", "whether the job may be requeued"),
    ("exclusive", "oversubscribe", "whether nodes are shared"),
)


def _check_shared_setting(ctx: Context, request) -> None:
    for first, second, field in _SHARED_PAIRS:
        if first == "exclusive" and ctx.version >= _SHARE_FATAL_SINCE:
            continue  # refused from 23.02: the reject family reports it
        a, b = request.get(first), request.get(second)
        if a is None or b is None or a.inherited or b.inherited:
            continue
        loser, winner = sorted((a.directive, b.directive), key=lambda d: d.span.start)
        extra = (" (Slurm 23.02 and newer refuse the combination)" if first == "exclusive" else "")
        ctx.report(
            "SB213", _span(ctx, loser),
            f"`{_shown(loser)}` and `{_shown(winner)}` (line {_line_no(winner)}) set the same"
            f" thing ({field}); sbatch silently keeps the last one, so `{_shown(loser)}` has no"
            f" effect{extra}. Keep only the one you mean",
        )


# --------------------------------------------------------------------------- values


_EXPANSION = re.compile(
    r"\$\{[^}]*\}?|\$\([^)]*\)?|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9]|`[^`]*`?|(?:(?<=^)|(?<=[=:,]))~[A-Za-z0-9_]*(?=/|$|,|:)"
)
_PATH_OPTIONS = frozenset({"output", "error", "input", "chdir"})


def _check_expansion(ctx: Context, directive: Directive) -> None:
    value = directive.value
    if not value or ("$" not in value and "`" not in value and "~" not in value):
        return
    match = _EXPANSION.search(value)
    if match is None:
        return
    token = match.group()
    if directive.option.long in _PATH_OPTIONS:
        effect = f"it names a directory literally called `{token}`"
        if directive.option.long != "chdir":
            effect += "; use a relative path or a `%` pattern such as `%u` or `%x` instead"
        else:
            effect += "; use an absolute path"
    else:
        effect = "the option gets the literal text; write the value out, or pass it on the sbatch command line"
    ctx.report(
        "SB207", problem_span(ctx, directive, match.start(), match.end()),
        f"`{_clip(token, 30)}` in `{_shown(directive)}` is not expanded: sbatch reads `#SBATCH`"
        f" lines itself, without a shell, so {effect}",
        fix=_fixes.expansion_to_pattern(ctx.script, directive, directive.option.long in ("output", "error", "input")),
    )


def _problem_message(directive: Directive, message: str) -> str:
    return f"{message} (in `{_shown(directive)}`)"


def check_values(ctx: Context) -> None:
    """SB207 shell syntax, SB209 mail types, SB210 suspicious values, SB217 early-pass options."""
    from slurmspec.model.request import hint_is_dropped

    script = ctx.script
    effective = _effective_ids(script)
    for directive in script.directives:
        if directive.ignored:
            if directive.option.early_pass and directive.span.start < script.header_end:
                ctx.report(
                    "SB217", _span(ctx, directive),
                    f"`{_shown(directive)}` has no effect in a `#SBATCH` line: sbatch reads"
                    f" `--{directive.option.long}` only on its command line and silently"
                    " ignores it here; delete it",
                )
            continue
        _check_expansion(ctx, directive)
        typed = directive.typed
        if typed is None or not typed.problems:
            continue
        kind = directive.option.kind
        if kind == "filename":
            continue  # the output-traps rules explain file name patterns
        if kind == "mail-type":
            for problem in typed.problems:
                if not problem.rejected:
                    ctx.report(
                        "SB209", problem_span(ctx, directive, problem.start, problem.end),
                        _problem_message(directive, problem.message),
                    )
            continue
        if id(directive) not in effective:
            continue  # replaced by a later occurrence: SB204 reports that
        if kind == "hint" and hint_is_dropped(ctx.script.components[directive.component].request, ctx.version):
            continue  # dropped unread: SB212
        if kind == "memory" and directive.option.long in ("mem", "tmp"):
            megabytes = getattr(typed.value, "megabytes", None)
            if megabytes == 0:
                continue  # --mem=0 asks for all memory on purpose
        for problem in typed.problems:
            if problem.rejected or _harmless(directive, problem):
                continue
            ctx.report(
                "SB210", problem_span(ctx, directive, problem.start, problem.end),
                _problem_message(directive, problem.message),
            )
    _check_mail_none_repeat(ctx)


# Accepted-but-odd readings that are almost always what the author meant; reporting
# them fired on many real scripts for no benefit (checked on the corpus).
_HARMLESS_MESSAGES = ("is not whole minutes", "has hours out of range")
_SMALL_MB = {"mem": 256, "mem-per-cpu": 64, "mem-per-gpu": 64}


def _harmless(directive: Directive, problem) -> bool:
    message = problem.message
    if any(text in message for text in _HARMLESS_MESSAGES):
        return True  # `0-24:00` is one day, `30:59:59` rounds up by a second
    if "megabytes (the default unit is MB)" in message:
        megabytes = getattr(getattr(directive.typed, "value", None), "megabytes", None)
        limit = _SMALL_MB.get(directive.option.long, 64)
        return megabytes is None or megabytes > limit  # `--mem-per-cpu=500` is a normal MB value
    return False


def _check_mail_none_repeat(ctx: Context) -> None:
    # <= 24.11 ORs repeated --mail-type lines: a later NONE cancels nothing.
    if ctx.version >= _MAIL_TYPE_LAST_WINS:
        return
    for component in ctx.script.components:
        setting = component.request.get("mail-type")
        if setting is None or setting.inherited or not setting.overridden:
            continue
        occurrences = (*setting.overridden, setting.directive)
        for index, occurrence in enumerate(occurrences):
            types = getattr(getattr(occurrence.typed, "value", None), "types", None)
            if types != () or index == 0:
                continue
            earlier = [d for d in occurrences[:index]
                       if getattr(getattr(d.typed, "value", None), "types", None)]
            if earlier:
                ctx.report(
                    "SB209", _span(ctx, occurrence),
                    f"`{_shown(occurrence)}` does not cancel `{_shown(earlier[0])}` on line"
                    f" {_line_no(earlier[0])}: before Slurm 25.05 repeated `--mail-type` options"
                    " are combined, so mail is still sent; delete the earlier line",
                )


# --------------------------------------------------------------------------- request




def _gpu_items(value) -> list:
    items = getattr(value, "items", None) or ()
    return [item for item in items if getattr(item, "name", None) == "gpu"]


def _fixed_nodes(request) -> int | None:
    nodes = request.nodes
    if nodes is None:
        return 1 if not request.has("nodes") else None
    if getattr(nodes, "minimum", None) and nodes.minimum == nodes.maximum:
        return nodes.minimum
    return None


def check_request(ctx: Context) -> None:
    """SB208, SB211, SB212, SB214, SB215, SB216, SB218: what the request as a whole does."""
    components = ctx.script.components
    for component in components:
        request = component.request
        _check_mail_user(ctx, request)
        _check_exclusive_memory(ctx, request)
        _check_hint(ctx, request)
        _check_gpus(ctx, request)
        _check_task_geometry(ctx, request)
        if component.index >= 2:
            _check_inherited(ctx, component)


def _own(request, name: str):
    setting = request.get(name)
    return None if setting is None or setting.inherited else setting


def _check_mail_user(ctx: Context, request) -> None:
    user = _own(request, "mail-user")
    if user is None or request.has("mail-type"):
        return
    ctx.report(
        "SB208", _span(ctx, user.directive),
        f"`{_shown(user.directive)}` alone sends no mail: `--mail-type` defaults to `NONE`;"
        " add e.g. `--mail-type=END,FAIL`",
    )


def _check_exclusive_memory(ctx: Context, request) -> None:
    exclusive = _own(request, "exclusive")
    if exclusive is None or getattr(exclusive.value, "value", None) != "exclusive":
        return
    if any(request.has(name) for name in ("mem", "mem-per-cpu", "mem-per-gpu")):
        return
    ctx.report(
        "SB211", _span(ctx, exclusive.directive),
        "`--exclusive` gives the job whole nodes but not all of their memory: without a"
        " memory option it still gets the site default (DefMemPerCPU/DefMemPerNode); add"
        " `--mem=0` to use all memory of each node",
    )


def _check_hint(ctx: Context, request) -> None:
    hint = _own(request, "hint")
    if hint is None:
        return
    culprits = [request.get(name) for name in hint_dropped_by(request, ctx.version)]
    if not culprits:
        return
    culprit = culprits[0].directive
    ctx.report(
        "SB212", _span(ctx, hint.directive),
        f"`{_shown(hint.directive)}` is silently dropped because `{_shown(culprit)}`"
        f" (line {_line_no(culprit)}) also sets the CPU layout; sbatch ignores `--hint` next"
        " to it without a message. Keep only one of them",
    )


def _check_gpus(ctx: Context, request) -> None:
    gres = _own(request, "gres")
    per_node = _own(request, "gpus-per-node")
    total = _own(request, "gpus")
    gres_gpus = _gpu_items(gres.value) if gres is not None else []
    gres_count = sum(item.count for item in gres_gpus)
    gres_types = {item.type for item in gres_gpus}
    nodes = _fixed_nodes(request)

    if gres_gpus and per_node is not None and ctx.version < _GRES_GPN_FATAL_SINCE:
        gpn_items = _gpu_items(per_node.value)
        gpn_count = sum(item.count for item in gpn_items)
        gpn_types = {item.type for item in gpn_items}
        if gpn_items and (None in gres_types) == (None in gpn_types):  # mixed: refused
            later = max(gres.directive, per_node.directive, key=lambda d: d.span.start)
            both = f"`{_shown(gres.directive)}` and `{_shown(per_node.directive)}`"
            if gpn_count == gres_count and gpn_types == gres_types:
                message = (f"{both} ask for the same GPUs twice; keep one of them (Slurm 26.05"
                           " refuses `--gres=gpu` together with `--gpus-per-node`)")
            else:
                message = (f"{both} ask for different GPU counts per node; Slurm keeps both"
                           f" requests and allocates the `--gres` one ({gres_count}),"
                           " ignoring `--gpus-per-node`; keep only one")
            ctx.report("SB214", _span(ctx, later), message,
                       fix=build.drop_gres_same_as_gpus_per_node(ctx.script, gres, per_node))
    if total is not None and nodes is not None:
        total_count = getattr(total.value, "total", None)
        for other, count in ((gres, gres_count if gres_gpus else None),
                             (per_node, sum(i.count for i in _gpu_items(per_node.value))
                              if per_node is not None else None)):
            if other is None or not count or total_count is None:
                continue
            if count * nodes == total_count:
                later = max(total.directive, other.directive, key=lambda d: d.span.start)
                ctx.report(
                    "SB214", _span(ctx, later),
                    f"`{_shown(total.directive)}` and `{_shown(other.directive)}` request the"
                    " same GPUs twice; keep one of them (two GPU options invite"
                    " inconsistent edits, which sbatch refuses)",
                )
                break


def _check_task_geometry(ctx: Context, request) -> None:
    ntasks = _own(request, "ntasks")
    nodes = _own(request, "nodes")
    if ntasks is None or nodes is None:
        return
    n = getattr(ntasks.value, "value", None)
    minimum = getattr(nodes.value, "minimum", None)
    maximum = getattr(nodes.value, "maximum", None)
    if not isinstance(n, int) or not isinstance(minimum, int) or n <= 0:
        return
    if minimum > n:
        ctx.report(
            "SB215", _span(ctx, nodes.directive),
            f"`{_shown(nodes.directive)}` asks for more nodes than `{_shown(ntasks.directive)}`"
            f" has tasks; Slurm silently reduces the job to {n} node{'s' if n != 1 else ''}"
            f" (\"can't run {n} processes on {minimum} nodes\"). Raise the task count or lower"
            " the node count",
        )
        return
    per_node = _own(request, "ntasks-per-node")
    k = getattr(getattr(per_node, "value", None), "value", None)
    if per_node is None or not isinstance(k, int) or not maximum:
        return
    if n > k * maximum:
        ctx.report(
            "SB216", _span(ctx, ntasks.directive),
            f"`{_shown(ntasks.directive)}` does not fit in `{_shown(per_node.directive)}` on at"
            f" most {maximum} node{'s' if maximum != 1 else ''} ({k * maximum} tasks); the"
            " controller refuses the job (\"Requested node configuration is not available\")."
            " Raise the node count or tasks per node, or lower `--ntasks`",
        )


_LEAK_REPORTED = frozenset({"time", "mem", "time-min", "tmp", "qos", "account", "dependency",
                            "begin", "job-name", "output", "error", "chdir", "export"})


def _check_inherited(ctx: Context, component) -> None:
    separator = next(
        (dl for dl in ctx.script.directive_lines
         if dl.separator and dl.in_header and dl.component == component.index),
        None,
    )
    if separator is None:
        return
    for setting in component.request.settings:
        origin = setting.directive
        if not setting.inherited or origin.component == 0 or setting.name not in _LEAK_REPORTED:
            continue
        ctx.report(
            "SB218", separator.line.span,
            f"hetjob component {component.index} inherits `{_shown(origin)}` from component"
            f" {origin.component} (line {_line_no(origin)}): `--{setting.name}` is not reset"
            " between components; repeat the option here if this component needs another value",
        )


# --------------------------------------------------------------------------- registry


# Rules that offer an autofix (see rules/_fixes.py and each rule's doc).
_FIXABLE = frozenset({"SB201", "SB202", "SB204", "SB205", "SB206", "SB207", "SB214"})


def _rules(entries: Iterable[tuple]) -> tuple[Rule, ...]:
    return tuple(
        Rule(code, name, severity, check, doc, fixable=code in _FIXABLE)
        for code, name, severity, check, doc in entries
    )


RULES = _rules((
    ("SB201", "directive-after-command", "warning", check_directive_lines, """
        ## What it does
        Finds `#SBATCH` (and `#SLURM`) lines that come after the first command of the script,
        and names the command that ended the header.

        ## Why is this bad?
        sbatch reads directives only up to the first line that is not a comment or blank; every
        `#SBATCH` line after it is silently ignored. A `module load` or `export` placed above the
        directives, or a directive appended at the end, quietly drops time limits, GPUs or
        partitions. Lines inside a here-document (a script the job writes or submits) are not
        reported.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --job-name=train
        module load cuda
        #SBATCH --gpus-per-node=4
        srun python train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --job-name=train
        #SBATCH --gpus-per-node=4
        module load cuda
        srun python train.py
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`: "sbatch will stop processing further #SBATCH directives once the first
          non-comment non-whitespace line has been reached"
        - `src/sbatch/opt.c:_opt_batch_script()`
    """),
    ("SB202", "near-miss-directive", "warning", check_directive_lines, """
        ## What it does
        Finds header comments that look like directives but are not: `# SBATCH --time=10`,
        `#sbatch -N 2`, `#Sbatch ...`, or an indented `  #SBATCH ...`. Deliberately disabled
        lines (`##SBATCH`, `# #SBATCH`) and usage notes such as `# sbatch job.sh` are not
        reported.

        ## Why is this bad?
        sbatch only reads a line that starts, at column 1 and in upper case, with `#SBATCH`.
        Everything else is a plain comment: the option is silently not applied.

        ## Example
        ```sbatch
        #!/bin/bash
        # SBATCH --time=02:00:00
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=02:00:00
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/opt.c:_opt_batch_script()` (`xstrncmp(line, "#SBATCH", 7)`)
    """),
    ("SB203", "legacy-slurm-prefix", "warning", check_directive_lines, """
        ## What it does
        Finds directives written with the old `#SLURM` prefix.

        ## Why is this bad?
        sbatch still honours them, but prints `error: Change from #SLURM to #SBATCH in your
        script and verify the options are valid in sbatch` on every submission, and other tools
        that read `#SBATCH` headers do not see them.

        ## Example
        ```sbatch
        #!/bin/bash
        #SLURM --time=10
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=10
        srun ./app
        ```

        ## Slurm versions
        All releases up to 26.05 honour `#SLURM` with this error message.

        ## References
        - `src/sbatch/opt.c:_opt_batch_script()`
    """),
    ("SB204", "overridden-option", "warning", check_repeats, """
        ## What it does
        Finds an option given twice with different values in the same job (or hetjob
        component), where the later one silently replaces the earlier. It has special advice for
        `--constraint` (merge features with `&`), `--partition` (list partitions with `,`),
        `--gres` (one comma list), `--time` and `--mem`.

        ## Why is this bad?
        Each `#SBATCH` option overwrites the previous value: `--constraint=v100` followed by
        `--constraint=ib` asks only for `ib`, and a template's `--time` plus a user's extra
        `--time` keeps whichever comes last. Options that accumulate (`--signal`,
        `--kill-on-invalid-dep`, and `--mail-type` before 25.05) are not reported, and a later
        hetjob component may set an inherited option again.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --constraint=v100
        #SBATCH --constraint=ib
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --constraint=v100&ib
        srun ./app
        ```

        ## Slurm versions
        All. `--mail-type` repeats combine up to 24.11 and replace from 25.05.

        ## References
        - slurm-semantics.md §4.2 (`arg_set_*` replaces the previous value)
    """),
    ("SB205", "duplicate-directive", "info", check_repeats, """
        ## What it does
        Finds the same option with the same value given twice.

        ## Why is this bad?
        It does no harm today, but the next edit changes one copy and not the other, and the
        last one silently wins.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --partition=gpu
        #SBATCH --time=60
        #SBATCH -p gpu
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --partition=gpu
        #SBATCH --time=60
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - slurm-semantics.md §4.2
    """),
    ("SB206", "hash-truncates-directive", "warning", check_directive_lines, r"""
        ## What it does
        Finds an unquoted `#` glued to a word of a directive, as in
        `#SBATCH --job-name=run#1 --time=5`, where it cuts the line short.

        ## Why is this bad?
        sbatch treats every unquoted `#` as the start of a comment, even inside a word: the job
        name becomes `run` and `--time=5` is never read. A `#` after a blank (`--time=5 # ten
        minutes`) is an ordinary comment and is not reported.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --job-name=run#1 --time=5
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --job-name="run#1" --time=5
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/opt.c:get_argument()`; slurm-semantics.md §5
    """),
    ("SB207", "shell-expansion-in-directive", "warning", check_values, """
        ## What it does
        Finds `$VAR`, `${VAR}`, `$(...)`, backticks and a leading `~` in `#SBATCH` values.

        ## Why is this bad?
        sbatch reads `#SBATCH` lines itself, without a shell, so nothing is expanded:
        `--output=$HOME/logs/%j.out` writes into a directory literally named `$HOME` under the
        submit directory (or fails when it does not exist), and `--account=$PROJECT` asks for an
        account called `$PROJECT`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=$HOME/logs/%j.out
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=logs/%j.out
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - slurm-semantics.md §5 ("No shell expansion at all")
        - Pass computed values on the command line instead: `sbatch --account="$PROJECT" job.sh`
    """),
    ("SB208", "mail-user-without-mail-type", "warning", check_request, """
        ## What it does
        Finds `--mail-user` without any `--mail-type`.

        ## Why is this bad?
        `--mail-user` only says where mail goes; which events send mail is `--mail-type`, whose
        default is `NONE`. The job runs and no mail ever arrives.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --mail-user=me@example.org
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --mail-user=me@example.org
        #SBATCH --mail-type=END,FAIL
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--mail-type` and `--mail-user`
    """),
    ("SB209", "ignored-mail-type", "warning", check_values, """
        ## What it does
        Finds `--mail-type` values that sbatch silently drops or that cancel each other: unknown
        tokens next to valid ones (`BEGIN,FINISH`), `NONE` mixed with other types, and (before
        25.05) a later `--mail-type=NONE` that does not cancel an earlier line.

        ## Why is this bad?
        An unknown mail type is dropped without a message when at least one token is valid, so
        `--mail-type=BEGIN,FINISH` only mails at the start. Before 25.05 repeated `--mail-type`
        options are ORed together.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --mail-user=me@example.org
        #SBATCH --mail-type=BEGIN,FINISH
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --mail-user=me@example.org
        #SBATCH --mail-type=BEGIN,END
        srun ./app
        ```

        ## Slurm versions
        All; the repeat behaviour changed in 25.05 (last wins).

        ## References
        - `src/common/proc_args.c:parse_mail_type()`; slurm-semantics.md §1, §4.2
    """),
    ("SB210", "suspicious-value", "warning", check_values, """
        ## What it does
        Reports values that sbatch accepts but that almost surely do not mean what was intended:
        `--time=0` (no limit), `--mem=16` (16 megabytes), `--open-mode=apple` (read as
        `append`), a non-numeric `--nice` (becomes 0), `--nodes=0`, an array throttle after the
        first `%`, a `--begin` date in the past, and similar.

        ## Why is this bad?
        sbatch takes these without a word and the job runs with a different limit, size or
        priority than the script suggests.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --mem=16
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --mem=16G
        srun ./app
        ```

        ## Slurm versions
        All; some values depend on the version (e.g. `--export=NIL` is special from 23.02).

        ## References
        - slurm-semantics.md §2, §3, §4.5 and "Checks a linter can make"
    """),
    ("SB211", "exclusive-without-all-memory", "info", check_request, """
        ## What it does
        Finds `--exclusive` with no memory option.

        ## Why is this bad?
        `--exclusive` reserves whole nodes, but the job's memory limit is still the site default
        (`DefMemPerCPU` or `DefMemPerNode`), not the node's memory. Jobs that expect the whole
        node's memory are killed for running out of it.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --exclusive
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --exclusive
        #SBATCH --mem=0
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--mem` (NOTE: `--mem=0` requests all memory) and `--exclusive`
    """),
    ("SB212", "hint-dropped", "warning", check_request, """
        ## What it does
        Finds `--hint` together with `--threads-per-core`, `--ntasks-per-core` or `-B`
        (from 25.11 also `--cores-per-socket` or `--sockets-per-node`).

        ## Why is this bad?
        These options conflict with `--hint`, and sbatch drops the hint without a message (one
        appears only with `-v`), so `--hint=nomultithread` does nothing.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --hint=nomultithread
        #SBATCH --threads-per-core=1
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --hint=nomultithread
        srun ./app
        ```

        ## Slurm versions
        All; 25.11 adds `--cores-per-socket` and `--sockets-per-node` to the list.

        ## References
        - slurm-semantics.md §4.4 ("Following options are mutually exclusive with --hint")
    """),
    ("SB213", "conflicting-options-last-wins", "warning", check_repeats, """
        ## What it does
        Finds pairs of options that write the same setting: `--nodelist` and `--nodefile`,
        `--requeue` and `--no-requeue`, and on 22.05 `--exclusive` and `--oversubscribe`.

        ## Why is this bad?
        sbatch keeps whichever comes last without a message, so the other one has no effect.
        From 23.02 `--exclusive` with `--oversubscribe` is refused (reported by the reject
        rules instead).

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --requeue
        #SBATCH --no-requeue
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --requeue
        srun ./app
        ```

        ## Slurm versions
        All; `--exclusive`/`--oversubscribe` only before 23.02.

        ## References
        - slurm-semantics.md §4.2 ("Options sharing one field")
    """),
    ("SB214", "redundant-gpu-request", "warning", check_request, """
        ## What it does
        Finds GPUs requested twice: `--gres=gpu:N` together with `--gpus-per-node` (before
        26.05), or `--gpus` that only repeats `--gres=gpu`/`--gpus-per-node` times the nodes.

        ## Why is this bad?
        Two requests for the same GPUs drift apart at the next edit. With different counts in
        `--gres=gpu` and `--gpus-per-node`, Slurm keeps both and allocates the `--gres` count
        (probed on 22.05), silently ignoring `--gpus-per-node`; Slurm 26.05 refuses the pair.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --gpus=4
        #SBATCH --gres=gpu:4
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu:4
        srun ./app
        ```

        ## Slurm versions
        `--gres=gpu` with `--gpus-per-node` is reported here before 26.05 (refused from
        26.05); the `--gpus` duplicates in all versions.

        ## References
        - slurm-semantics.md §4.3 (26.05 `--gpus-per-node and --gres=gpu are mutually exclusive`)
    """),
    ("SB215", "ntasks-below-nodes", "warning", check_request, """
        ## What it does
        Finds `--nodes` larger than `--ntasks`.

        ## Why is this bad?
        A node without a task makes no sense to Slurm, so it lowers the node count to the task
        count (`can't run 2 processes on 4 nodes, setting nnodes to 2`); the job runs on fewer
        nodes than the script asks for.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4
        #SBATCH --ntasks=2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4
        #SBATCH --ntasks-per-node=1
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - slurm-semantics.md §4.4
    """),
    ("SB216", "ntasks-exceed-nodes-capacity", "error", check_request, """
        ## What it does
        Finds `--ntasks` larger than `--ntasks-per-node` times the (maximum) node count.

        ## Why is this bad?
        With `--ntasks`, `--ntasks-per-node` is a maximum per node, so the tasks cannot fit on
        the nodes allowed; slurmctld refuses the job with `Requested node configuration is not
        available` (probed on 22.05), which reads like a cluster problem.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=4
        #SBATCH --ntasks=16
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4
        #SBATCH --ntasks-per-node=4
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--ntasks-per-node` ("treated as a maximum count of tasks per node")
    """),
    ("SB217", "early-pass-option-in-script", "warning", check_values, """
        ## What it does
        Finds `--wrap`, `-v`/`--verbose`, `-Q`/`--quiet`, `--help`, `--usage` and `--version`
        in `#SBATCH` lines.

        ## Why is this bad?
        sbatch handles these in a first pass over its command line only; inside a script they
        are silently ignored, so `#SBATCH --wrap=...` runs nothing and `#SBATCH -v` prints
        nothing extra.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --time=10
        #SBATCH --verbose
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=10
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - slurm-semantics.md §5 ("Early-pass options inside #SBATCH are silently ignored")
    """),
    ("SB218", "hetjob-inherited-option", "info", check_request, """
        ## What it does
        Finds hetjob components (from the third on) that inherit an option such as `--mem`,
        `--time` or `--output` from a component other than the first.

        ## Why is this bad?
        Options that Slurm does not reset per component carry over from the previous component,
        not only from the job's first block: a `--mem` meant for component 1 silently applies to
        component 2 as well.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=1
        #SBATCH hetjob
        #SBATCH --ntasks=8 --mem=64G
        #SBATCH hetjob
        #SBATCH --ntasks=1
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=1
        #SBATCH hetjob
        #SBATCH --ntasks=8 --mem=64G
        #SBATCH hetjob
        #SBATCH --ntasks=1 --mem=4G
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - slurm-semantics.md §4.2 (hetjob inheritance, `reset_each_pass`)
    """),
))
