"""SB230–SB259: output files that go astray, and job-environment traps in the script body.

Output files (slurm-semantics.md §6): ``--output``/``--error``/``--input`` name
files that slurmstepd opens on the compute node, after expanding ``%``
patterns. sbatch accepts any string, so a missing directory, a ``%a`` in a
non-array job or a stray backslash only shows once the job runs (or fails to
start, with no log to say why). The pattern problems come from the typed
``FilenamePattern`` value (``rejected=False`` problems); this module is where
they are reported.

Body environment (slurm-semantics.md §8): variables Slurm sets, or does not
set, in the batch step, read by the script body. References are found by a
small shell-aware scanner (comments skipped, single quotes, escapes and quoted
here-documents marked as *deferred*: they are expanded later, typically by a
``bash -c`` inside ``srun``, not by the batch shell).
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right

import attrs

from slurmspec.rules._legacy import Context, Rule
from slurmspec.model.script import Directive, Script
from slurmspec.rules.values import problem_span
from slurmspec.span import Span

_CREATES_DIRS = (23, 2)  # commit ecc671a: stdout/stderr directories are created (mkdir -p, 0755)
_SHELL_CHARS = ("$", "~", "`")


# ---------------------------------------------------------------------------
# Where relative paths resolve
# ---------------------------------------------------------------------------


def _submit_dirs(script: Script) -> list[str]:
    """Directories that stand in for sbatch's working directory, best first.

    sbatch resolves relative paths against the directory it runs in, which the
    linter cannot know. The folder of the script file is the usual one; the
    linter's own working directory is the other (``sbatch jobs/train.sbatch``
    from the project root). For standard input only the working directory is left.
    """
    dirs: list[str] = []
    path = script.path
    try:
        if path and os.path.isfile(path):
            dirs.append(os.path.dirname(os.path.abspath(path)))
        cwd = os.getcwd()
    except (OSError, ValueError):
        return dirs
    if cwd not in dirs:
        dirs.append(cwd)
    return dirs


def _isdir(path: str) -> bool:
    try:
        return os.path.isdir(path)
    except (OSError, ValueError):
        return False


def _shell_free(text: str) -> bool:
    return not any(c in text for c in _SHELL_CHARS) and "%" not in text and "\\" not in text


def _absolute_missing(directory: str) -> bool:
    """True when absolute ``directory`` is missing but its parent exists here.

    When more than the last component is missing (``/scratch/alice/logs`` on a
    laptop) the linter is most likely not running on the cluster's file
    system, so saying "missing" would be noise.
    """
    directory = os.path.normpath(directory)
    if _isdir(directory):
        return False
    parent = os.path.dirname(directory)
    return parent not in ("/", "", directory) and _isdir(parent)


@attrs.frozen
class _Base:
    """Where a component's relative file names resolve: a folder that exists here, or None."""

    dirs: tuple[str, ...]  # candidate folders (all exist here)
    via_chdir: bool
    known: bool  # False: --chdir cannot be resolved here, so nothing relative is checked


def _component_base(ctx: Context, component) -> _Base:
    submit = tuple(_submit_dirs(ctx.script))
    chdir = component.request.get("chdir")
    if chdir is None or not isinstance(chdir.raw, str):
        return _Base(submit, False, bool(submit))
    value = chdir.raw
    if not value or not _shell_free(value):
        return _Base((), True, False)
    if os.path.isabs(value):
        return _Base((value,), True, _isdir(value))
    found = tuple(os.path.join(d, value) for d in submit if _isdir(os.path.join(d, value)))
    return _Base(found, True, bool(found))


# ---------------------------------------------------------------------------
# SB230–SB232: missing directories
# ---------------------------------------------------------------------------

_FILE_OPTIONS = ("output", "error", "input")


def _file_settings(ctx: Context):
    """(component, setting) for each effective --output/--error/--input, once per directive."""
    seen = set()
    for component in ctx.script.components:
        for name in _FILE_OPTIONS:
            setting = component.request.get(name)
            if setting is None or id(setting.directive) in seen:
                continue
            seen.add(id(setting.directive))
            yield component, setting


def _show(directive: Directive) -> str:
    raw = directive.raw
    return raw if len(raw) <= 60 else raw[:57] + "..."


def _late_mkdir(ctx: Context, directory: str) -> tuple[str, ...]:
    """A note when the body itself creates ``directory``: too late for the job's own log."""
    name = re.escape(directory.rstrip("/").removeprefix("./"))
    if not name:
        return ()
    found = re.search(r"^[ \t]*mkdir\b[^\n]*?(?<![\w/.-])(\./)?" + name + r"/?(?![\w/.-])",
                      ctx.script.source[ctx.script.header_end:], re.M)
    if found is None:
        return ()
    line = ctx.script.index.line_col(ctx.script.header_end + found.start())[0]
    return (f"the `mkdir` on line {line} runs too late: slurmstepd opens the log file before"
            " the script starts",)


def check_directories(ctx: Context) -> None:
    for component, setting in _file_settings(ctx):
        pattern = setting.value
        text = getattr(pattern, "text", None)
        if not isinstance(text, str) or getattr(pattern, "is_none", True) or getattr(pattern, "escaped", True):
            continue
        directory = os.path.dirname(text)
        if not directory or not _shell_free(directory):
            continue
        directive = setting.directive
        if os.path.isabs(directory):
            if not _absolute_missing(directory):
                continue
            where = "here"
        else:
            base = _component_base(ctx, component)
            if not base.known or not base.dirs:
                continue
            if any(_isdir(os.path.join(d, directory)) for d in base.dirs):
                continue
            where = (f"here (relative to `--chdir`, `{base.dirs[0]}`)" if base.via_chdir
                     else f"here (relative to `{base.dirs[0]}`, standing in for the submit directory)")
        span = problem_span(ctx, directive, 0, len(directory))
        option = "--" + setting.name
        notes = _late_mkdir(ctx, directory) if setting.name != "input" else ()
        if setting.name == "input":
            ctx.report(
                "SB231", span,
                f"directory `{directory}` of `{option}` does not exist {where}; the job cannot open"
                f" its standard input and fails at start. Create it, or fix the path in `{_show(directive)}`",
            )
        elif ctx.version < _CREATES_DIRS:
            ctx.report(
                "SB230", span,
                f"directory `{directory}` of `{option}` does not exist {where}; Slurm"
                f" {ctx.version[0]:02d}.{ctx.version[1]:02d} does not create it, so the job fails at"
                f" start without writing any log. Run `mkdir -p {directory}` before `sbatch`",
                notes=notes,
            )
        else:
            ctx.report(
                "SB230", span,
                f"directory `{directory}` of `{option}` does not exist {where}; Slurm 23.02 and"
                " newer create it when the job starts, so make sure the name is the one you meant",
                severity="info", notes=notes,
            )
    for component in ctx.script.components:
        chdir = component.request.get("chdir")
        if chdir is None or chdir.inherited or not isinstance(chdir.raw, str):
            continue
        value = chdir.raw
        if not value or not _shell_free(value):
            continue
        if os.path.isabs(value):
            missing = _absolute_missing(value)
        else:
            submit = _submit_dirs(ctx.script)
            missing = bool(submit) and not any(_isdir(os.path.join(d, value)) for d in submit)
        if missing:
            directive = chdir.directive
            ctx.report(
                "SB232", directive.value_span or directive.span,
                f"`--chdir` directory `{value}` does not exist here; if it is missing on the compute"
                " node too, the job runs in `/tmp` instead and relative paths (including its log"
                " files) land there. Create it or fix the path",
            )


# ---------------------------------------------------------------------------
# SB233–SB240: filename patterns
# ---------------------------------------------------------------------------

_PER_TASK_ARRAY = frozenset("ajJb")  # specs that differ between array tasks


def _is_array(ctx: Context, component) -> bool:
    return component.request.has("array")


def _array_count(component) -> int | None:
    from slurmspec.model.values.array import ArraySpec

    value = component.request.value("array")
    return value.count if isinstance(value, ArraySpec) else None


def _classify(text: str, pattern, problem) -> str | None:
    """The rule code of one accepted-but-suspicious filename problem."""
    start, end = problem.start, problem.end
    if text == "":
        return "SB240"
    if "\\" in text and text[start:end] == "\\":
        return "SB235"
    if text.isascii() and text.isdigit():
        return "SB236"
    for token in getattr(pattern, "tokens", ()):
        if token.start == start and token.end == end:
            if not token.known:
                return "SB234"
            return "SB238"
    if text[start:start + 1] == "%":
        return "SB234"  # a lone `%` at the end
    return None


def check_patterns(ctx: Context) -> None:
    for component, setting in _file_settings(ctx):
        directive = setting.directive
        if directive.typed is None:
            continue
        pattern = directive.typed.value
        text = directive.value if directive.value is not None else ""
        option = "--" + setting.name
        for problem in directive.typed.problems:
            if problem.rejected:
                continue
            code = _classify(text, pattern, problem)
            if code is None:
                continue
            span = problem_span(ctx, directive, problem.start, problem.end)
            piece = text[problem.start:problem.end]
            if code == "SB240":
                ctx.report(code, directive.span,
                           f"`{option}` is empty; sbatch ignores it and the job writes to the default"
                           " `slurm-%j.out`. Give a file name or remove the line")
            elif code == "SB235":
                ctx.report(code, span,
                           f"a backslash in `{option}` turns off every `%` pattern in the name: the"
                           " `%` sequences are written literally (the backslash itself is dropped)."
                           " Remove the backslash")
            elif code == "SB236":
                target = "`/dev/null`" if text.strip("0") else "task 0 only"
                ctx.report(code, span,
                           f"`{option}={text}` is read as a task number, not a file name: the batch"
                           f" script's {'input comes from' if setting.name == 'input' else 'output goes to'}"
                           f" {target}. Use a name such as `{text}.out`")
            elif code == "SB234":
                ctx.report(code, span, _capital(problem.message))
            elif code == "SB238":
                ctx.report(code, span, _capital(problem.message))
        if not hasattr(pattern, "tokens") or pattern.is_none or pattern.escaped or setting.name == "input":
            continue
        _check_tokens(ctx, component, setting, directive, pattern, option)


def _capital(message: str) -> str:
    return message[:1].upper() + message[1:] if message[:1].isalpha() else message


_ARRAY_VARS = re.compile(r"SLURM_ARRAY_(TASK|JOB)_ID")


def _check_tokens(ctx, component, setting, directive, pattern, option) -> None:
    array = _is_array(ctx, component)
    # A body that reads SLURM_ARRAY_TASK_ID is meant for `sbatch --array=...` on the command line.
    array_on_cli = not array and bool(_ARRAY_VARS.search(ctx.script.source, ctx.script.header_end))
    for token in pattern.tokens:
        if not token.known:
            continue
        span = problem_span(ctx, directive, token.start, token.end)
        piece = pattern.text[token.start:token.end]
        if token.spec in ("a", "b") and not array and not array_on_cli:
            ctx.report(
                "SB233", span,
                f"`{piece}` in `{option}` is the array task id, but this is not an array job: it"
                " expands to `4294967294`. Use `%j` for the job id, or add `--array`",
            )
        elif token.spec in ("t", "n"):
            what = "task id" if token.spec == "t" else "node id"
            ctx.report(
                "SB237", span,
                f"`{piece}` ({what}) in `{option}` is always `0`: the file belongs to the batch"
                " step, which is one task on the first node; per-task files need"
                f" `srun {option}=...` on the step",
            )
        elif token.spec == "N" and _may_span(ctx)[0]:
            ctx.report(
                "SB237", span,
                f"`{piece}` in `{option}` is the host name of the first node only: the batch"
                " step runs there, so one file is written, not one per node",
                severity="info",
            )
    count = _array_count(component)
    if array and (count is None or count > 1) and setting.name in ("output", "error"):
        if not any(t.known and t.spec in _PER_TASK_ARRAY for t in pattern.tokens):
            ctx.report(
                "SB239", directive.value_span or directive.span,
                f"every task of this job array writes to the same `{option}` file `{pattern.text}`,"
                " so the tasks overwrite each other's logs. Add `%a` (task id) or `%A_%a`",
            )


# ---------------------------------------------------------------------------
# Body: variable references
# ---------------------------------------------------------------------------


@attrs.frozen
class _Ref:
    name: str
    start: int  # absolute offsets of `$NAME` / `${...}`
    end: int
    deferred: bool  # single-quoted, escaped or in a quoted here-document: not expanded by the batch shell
    default: bool  # ${NAME:-x}, ${NAME-x}, ${NAME:=x}, ${NAME:+x}...


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BRACED = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[-=+?])?")
_HEREDOC = re.compile(r"<<(-?)[ \t]*(['\"]?)([A-Za-z_.\-][A-Za-z0-9_.\-]*)\2")
_WORD_START = " \t\n;&|()<>"


def variable_refs(source: str, start: int) -> list[_Ref]:
    """Every ``$NAME``/``${NAME...}`` in ``source[start:]``, skipping comments."""
    refs: list[_Ref] = []
    i, n = start, len(source)
    squote = dquote = False
    heredocs: list[tuple[bool, bool, str]] = []  # (strip tabs, quoted, delimiter)
    while i < n:
        c = source[i]
        if squote:
            if c == "'":
                squote = False
            elif c == "$":
                i = _read_ref(source, i, refs, True)
                continue
            i += 1
            continue
        if c == "\\":
            if i + 1 < n and source[i + 1] == "$":
                i = _read_ref(source, i + 1, refs, True)
                continue
            i += 2
            continue
        if c == "$":
            i = _read_ref(source, i, refs, False)
            continue
        if c == '"':
            dquote = not dquote
        elif dquote:
            pass
        elif c == "'":
            squote = True
        elif c == "#" and (i == start or source[i - 1] in _WORD_START):
            end = source.find("\n", i)
            i = n if end == -1 else end
            continue
        elif c == "<" and source.startswith("<<", i) and not source.startswith("<<<", i):
            m = _HEREDOC.match(source, i)
            if m:
                heredocs.append((bool(m.group(1)), bool(m.group(2)), m.group(3)))
                i = m.end()
                continue
        elif c == "\n" and heredocs:
            i = _skip_heredocs(source, i + 1, heredocs, refs)
            heredocs = []
            continue
        i += 1
    return refs


def _skip_heredocs(source: str, i: int, heredocs, refs: list[_Ref]) -> int:
    n = len(source)
    for strip, quoted, delimiter in heredocs:
        while i < n:
            end = source.find("\n", i)
            end = n if end == -1 else end
            line = source[i:end]
            if (line.lstrip("\t") if strip else line) == delimiter:
                i = end + 1
                break
            j = line.find("$")
            while j != -1:
                k = _read_ref(source, i + j, refs, quoted, escaped=j > 0 and line[j - 1] == "\\")
                j = line.find("$", k - i) if k - i < len(line) else -1
            i = end + 1
    return min(i, n)


def _read_ref(source: str, i: int, refs: list[_Ref], deferred: bool, escaped: bool = False) -> int:
    """Read a reference at ``source[i] == "$"``; return the offset after it."""
    m = _BRACED.match(source, i)
    if m:
        close = source.find("}", m.end())
        end = m.end() if close == -1 else close + 1
        refs.append(_Ref(m.group(1), i, end, deferred or escaped, bool(m.group(2))))
        return m.end()
    m = _NAME.match(source, i + 1)
    if m:
        refs.append(_Ref(m.group(0), i, m.end(), deferred or escaped, False))
        return m.end()
    return i + 1


@attrs.frozen
class _Body:
    refs: tuple[_Ref, ...]
    commands: tuple  # slurmspec.body.commands.Command, absolute offsets, sorted by start
    starts: tuple[int, ...] = ()


def _body(script: Script) -> _Body:
    from slurmspec.body.commands import split_commands

    start = min(script.header_end, len(script.source))
    try:
        refs = tuple(variable_refs(script.source, start))
    except Exception:  # pragma: no cover - the scanner is total, this is a last defence
        refs = ()
    try:
        commands = tuple(split_commands(script.source[start:], start))
    except Exception:  # pragma: no cover
        commands = ()
    commands = tuple(sorted(commands, key=lambda c: c.start))
    return _Body(refs, commands, tuple(c.start for c in commands))


def _command_at(body: _Body, offset: int):
    """The innermost-starting command whose range holds ``offset`` (commands come in file order)."""
    i = bisect_right(body.starts, offset) - 1
    # Commands may nest (a loop body inside its header's range): look back a little.
    for command in body.commands[max(0, i - 8):i + 1][::-1]:
        if command.start <= offset < command.end:
            return command
    return None


def _first_word(command) -> str:
    if command is None or not command.words:
        return ""
    return os.path.basename(command.words[0].value)


# ---------------------------------------------------------------------------
# Request facts
# ---------------------------------------------------------------------------


def _gpu_request(ctx: Context) -> str | None:
    """How the job asks for GPUs (the option text), or None."""
    for component in ctx.script.components:
        request = component.request
        for name in ("gpus", "gpus-per-node", "gpus-per-task", "gpus-per-socket"):
            setting = request.get(name)
            if setting is not None:
                return f"--{name}={setting.raw}"
        for name in ("gres", "tres-per-task"):
            setting = request.get(name)
            if setting is None:
                continue
            items = getattr(setting.value, "items", None)
            if items is not None:
                if any(getattr(item, "name", None) == "gpu" for item in items):
                    return f"--{name}={setting.raw}"
            elif isinstance(setting.raw, str) and "gpu" in setting.raw:
                return f"--{name}={setting.raw}"
    return None


def _gpus_per_node(ctx: Context) -> int | None:
    """GPUs per node of the first component, when written as a plain count."""
    request = ctx.script.request
    value = request.value("gpus-per-node")
    total = getattr(value, "total", None)
    if isinstance(total, int) and not isinstance(value, str):
        return total
    value = request.value("gres")
    items = getattr(value, "items", None)
    if items is not None and not isinstance(value, str):
        counts = [item.count for item in items if getattr(item, "name", None) == "gpu"]
        if counts and all(isinstance(c, int) for c in counts):
            return sum(counts)
    return None


def _count_of(request, name: str) -> int | None:
    value = request.value(name)
    count = getattr(value, "value", value)
    return count if isinstance(count, int) and not isinstance(count, bool) else None


def _may_span(ctx: Context) -> tuple[bool, bool]:
    """(the job may have several nodes, the job may have several tasks), from the header.

    Without `--nodes` a job of one task is on one node; one of several tasks may be spread.
    """
    request = ctx.script.request
    bounds = _node_bounds(ctx)
    tasks = [_count_of(request, n) for n in ("ntasks", "ntasks-per-node", "ntasks-per-gpu")]
    many_tasks = any(t is not None and t > 1 for t in tasks) or any(
        request.has(n) for n in ("ntasks-per-socket", "ntasks-per-core", "gpus-per-task"))
    if len(ctx.script.components) > 1:
        return True, True
    if bounds is not None:
        multi_node = bounds[1] > 1
    else:
        multi_node = many_tasks
    return multi_node, multi_node or many_tasks


def _node_bounds(ctx: Context) -> tuple[int, int] | None:
    value = ctx.script.request.value("nodes")
    minimum = getattr(value, "minimum", None)
    maximum = getattr(value, "maximum", None)
    if not isinstance(minimum, int):
        return None
    sizes = getattr(value, "sizes", ()) or ()
    top = max([minimum, maximum or 0, *sizes]) if maximum != 0 else 2**31
    return minimum, top


# ---------------------------------------------------------------------------
# SB245–SB250: body environment traps
# ---------------------------------------------------------------------------

_RANK_VARS = frozenset({"SLURM_PROCID", "SLURM_LOCALID", "SLURM_NODEID"})
_NODELIST_VARS = frozenset({"SLURM_JOB_NODELIST", "SLURM_NODELIST"})
_HOST_NAME = re.compile(r"(ADDR|HOST|MASTER|HEAD|SERVER|ENDPOINT|IP)", re.I)
_HOST_OPTIONS = frozenset({"master-addr", "main-process-ip", "rdzv-endpoint", "host", "hosts", "H"})
_HOST_COMMANDS = frozenset({"ssh", "ping", "nc", "scp", "rsync", "curl", "telnet"})
_EXPANDERS = ("scontrol", "hostlist", "nodeset", "hostname")


def check_body(ctx: Context) -> None:
    script = ctx.script
    if script.header_end >= len(script.source):
        return
    body = _body(script)
    _check_cuda_visible(ctx)
    _check_tmpdir(ctx, body)
    _check_ranks(ctx, body)
    _check_nodelist(ctx, body)
    _check_unset(ctx, body)
    _check_export_env(ctx)


def _check_cuda_visible(ctx: Context) -> None:
    gpus = _gpu_request(ctx)
    for assignment in ctx.script.body.exports:
        if assignment.name != "CUDA_VISIBLE_DEVICES" or assignment.value is None:
            continue
        value = assignment.value
        if "CUDA_VISIBLE_DEVICES" in value or "SLURM_JOB_GPUS" in value or "SLURM_STEP_GPUS" in value:
            continue  # derived from Slurm's own binding
        per_node = _gpus_per_node(ctx)
        if gpus is not None and per_node and value.replace(" ", "") == ",".join(map(str, range(per_node))):
            ctx.report(
                "SB245", assignment.span,
                f"`CUDA_VISIBLE_DEVICES={assignment.raw or value}` repeats what Slurm sets where it"
                f" confines jobs to their GPUs (device cgroups), but on a cluster without them it"
                f" picks the node's first {per_node} GPU(s) whether or not they are this job's."
                " Let Slurm set it",
                severity="info",
            )
        elif gpus is not None:
            ctx.report(
                "SB245", assignment.span,
                f"setting `CUDA_VISIBLE_DEVICES={assignment.raw or value}` overrides the GPUs Slurm"
                f" bound to this job (`{gpus}`): without device cgroups the program may use GPUs"
                " another job owns, with them it may see no GPU at all. Let Slurm set it",
            )
        else:
            ctx.report(
                "SB245", assignment.span,
                f"`CUDA_VISIBLE_DEVICES={assignment.raw or value}` selects GPUs, but the job requests"
                " none: the program either sees no GPU or uses GPUs allocated to other jobs."
                " Request GPUs (`--gpus-per-node`, `--gres=gpu:N`) and let Slurm set the variable",
                severity="info",
            )


def _assigned(ctx: Context, name: str) -> bool:
    names = getattr(ctx, "_traps_output_assigned", None)
    if names is None:
        names = frozenset(a.name for a in ctx.script.body.exports)
        ctx._traps_output_assigned = names  # one set per script, not one scan per reference
    return name in names


def _check_tmpdir(ctx: Context, body: _Body) -> None:
    if _assigned(ctx, "SLURM_TMPDIR"):
        return
    for ref in body.refs:
        if ref.name == "SLURM_TMPDIR" and not ref.default:
            ctx.report(
                "SB246", ctx.script.span(ref.start, ref.end),
                "`SLURM_TMPDIR` is not set by Slurm: only some sites define it (in a prolog or"
                " module). Elsewhere it is empty and paths built on it point at `/`. Use `$TMPDIR`"
                " or `${SLURM_TMPDIR:-/tmp}`",
            )
            return  # once per script is enough


_STEP_AWARE = re.compile(r"SLURM_STEP_?ID|srun\b[^\n]*(\$0\b|\$\{?BASH_SOURCE)")


def _check_ranks(ctx: Context, body: _Body) -> None:
    text = ctx.script.source[ctx.script.header_end:]
    if _STEP_AWARE.search(text):
        return  # the script also runs as a step (or checks whether it does)
    multi_node, multi_task = _may_span(ctx)
    printed = set()
    for ref in body.refs:
        if ref.name not in _RANK_VARS or ref.deferred or _assigned(ctx, ref.name):
            continue
        if not (multi_node if ref.name == "SLURM_NODEID" else multi_task):
            continue  # one node (one task): 0 is the right value
        command = _command_at(body, ref.start)
        word = _first_word(command)
        span = ctx.script.span(ref.start, ref.end)
        if word in ("echo", "printf"):
            if ref.name in printed:
                continue  # one note per variable for log lines
            printed.add(ref.name)
            ctx.report(
                "SB247", span,
                f"`${ref.name}` is always `0` in the batch script, which runs as a single task;"
                " this prints the rank of the batch step, not of the tasks `srun` starts",
                severity="info",
            )
            continue
        ctx.report(
            "SB247", span,
            f"`${ref.name}` is expanded by the batch script, where it is always `0` (the batch"
            " script is a single task): every process gets the same value. Expand it inside the"
            f" step: `srun bash -c '... ${ref.name} ...'` (or `\\${ref.name}` inside double quotes)",
        )


def _check_nodelist(ctx: Context, body: _Body) -> None:
    bounds = _node_bounds(ctx)
    if bounds is not None and bounds[1] <= 1:
        return  # one node: the list is a single host name
    host_values = []  # spans (start, end) of values that are used as a host
    for assignment in ctx.script.body.exports:
        if _HOST_NAME.search(assignment.name) and assignment.value_span is not None:
            host_values.append((assignment.value_span.start, assignment.value_span.end, assignment.value or ""))
    for launch in ctx.script.body.all_launches():
        for option in launch.options:
            if option.name in _HOST_OPTIONS and option.value_span is not None:
                host_values.append((option.value_span.start, option.value_span.end, option.value or ""))
    host_values.sort()
    starts = [v[0] for v in host_values]
    for ref in body.refs:
        if ref.name not in _NODELIST_VARS:
            continue
        command = _command_at(body, ref.start)
        if command is not None and any(w.value.startswith(_EXPANDERS) for w in command.words[:1]):
            continue
        used = _first_word(command) in _HOST_COMMANDS
        i = bisect_right(starts, ref.start) - 1
        for start, end, value in host_values[max(0, i - 4):i + 1]:
            if start <= ref.start < end and not any(x in value for x in _EXPANDERS):
                used = True
        if not used:
            continue
        severity = None if bounds is not None else "info"
        when = ("this job can span several nodes" if bounds is not None
                else "with more than one node")
        ctx.report(
            "SB248", ctx.script.span(ref.start, ref.end),
            f"`${ref.name}` is a compressed host list such as `gpu[01-04]`, not a host name;"
            f" {when} it cannot be resolved. Take the first host with"
            f" `$(scontrol show hostnames \"${ref.name}\" | head -n 1)`",
            severity=severity,
        )


@attrs.frozen
class _Var:
    set_by: tuple[str, ...]  # options whose presence sets it
    hint: str
    severity: str = "warning"
    until: tuple[int, int] | None = None  # not exported from this version


_UNSET = {
    "SLURM_GPUS_PER_NODE": _Var(("gpus-per-node",), "use `$SLURM_GPUS_ON_NODE`, which every GPU job has"),
    "SLURM_CPUS_PER_TASK": _Var(("cpus-per-task",), "request `--cpus-per-task`, or write `${SLURM_CPUS_PER_TASK:-1}`"),
    "SLURM_NTASKS_PER_NODE": _Var(("ntasks-per-node",), "request `--ntasks-per-node`"),
    "SLURM_GPUS": _Var(("gpus",), "request `--gpus`, or use `$SLURM_GPUS_ON_NODE`"),
    "SLURM_CPUS_PER_GPU": _Var(("cpus-per-gpu",), "request `--cpus-per-gpu`"),
    "SLURM_MEM_PER_GPU": _Var(("mem-per-gpu",), "request `--mem-per-gpu`"),
    "SLURM_NTASKS_PER_GPU": _Var(("ntasks-per-gpu",), "request `--ntasks-per-gpu`"),
    "SLURM_GPUS_PER_TASK": _Var(("gpus-per-task",), "read `SLURM_TRES_PER_TASK`", until=(23, 11)),
    "SLURM_GPU_BIND": _Var(("gpu-bind",), "read `SLURM_TRES_BIND`", until=(23, 11)),
}
_TESTED = re.compile(r"-[zn]\s+\"?\$\{?(\w+)|\$\{(\w+):?[-+=?]")


def _check_unset(ctx: Context, body: _Body) -> None:
    if len(ctx.script.components) > 1:
        return  # hetjob variables carry _HET_GROUP_<n> suffixes
    request = ctx.script.request
    text = ctx.script.source[ctx.script.header_end:]
    tested = {a or b for a, b in _TESTED.findall(text)}
    reported = set()
    for ref in body.refs:
        var = _UNSET.get(ref.name)
        if var is None or ref.default or ref.name in tested or ref.name in reported:
            continue
        if _assigned(ctx, ref.name):
            continue
        span = ctx.script.span(ref.start, ref.end)
        given = [name for name in var.set_by if request.has(name)]
        if ref.name == "SLURM_CPUS_PER_TASK" and not given and ctx.version >= (23, 2):
            tres = request.get("tres-per-task")
            if tres is not None and "cpu" in str(tres.raw):
                given = ["tres-per-task"]
        if var.until is not None and ctx.version >= var.until:
            reported.add(ref.name)
            ctx.report(
                "SB249", span,
                f"`${ref.name}` is no longer set from Slurm {var.until[0]}.{var.until[1]:02d}"
                f" (it is empty here); {var.hint}",
            )
            continue
        if not given:
            reported.add(ref.name)
            option = "--" + var.set_by[0]
            why = f"Slurm sets it only with `{option}`, which this script does not use"
            if ref.name == "SLURM_GPUS_PER_NODE":
                gpus = _gpu_request(ctx)
                if gpus is not None:
                    why = f"`{gpus}` does not set it, only `--gpus-per-node` does"
            printed = _first_word(_command_at(body, ref.start)) in ("echo", "printf")
            ctx.report(
                "SB249", span,
                f"`${ref.name}` is empty in this job: {why}; {var.hint}",
                severity="info" if printed else var.severity,
            )
            continue
        if ref.name == "SLURM_GPUS_PER_NODE":
            value = request.value("gpus-per-node")
            types = getattr(value, "types", ())
            if types:
                reported.add(ref.name)
                ctx.report(
                    "SB249", span,
                    f"`$SLURM_GPUS_PER_NODE` holds the option text `{request.get('gpus-per-node').raw}`,"
                    " not a number, because the request names a GPU type; use `$SLURM_GPUS_ON_NODE`",
                )


_EXPORT_FIX = re.compile(r"\bSLURM_EXPORT_ENV\b")


def _check_export_env(ctx: Context) -> None:
    for component in ctx.script.components[:1]:
        setting = component.request.get("export")
        mode = getattr(setting.value, "mode", None) if setting is not None else None
        if mode is None or mode == "ALL" or (mode == "LIST" and getattr(setting.value, "include_all", False)):
            continue
        text = ctx.script.source
        for launch in ctx.script.body.all_launches():
            if launch.kind != "srun" or launch.under_srun:
                continue
            if launch.has("export") or any(a.name == "SLURM_EXPORT_ENV" for a in launch.env):
                continue
            if _EXPORT_FIX.search(text, ctx.script.header_end, launch.span.start):
                return  # the script sets or unsets SLURM_EXPORT_ENV before its steps
            ctx.report(
                "SB250", launch.command_span,
                f"`--export={setting.raw}` also applies to this `srun` (sbatch passes it on in"
                " `SLURM_EXPORT_ENV`): the step starts without the variables the script set,"
                " such as a changed `PATH` or loaded modules. Add `export SLURM_EXPORT_ENV=ALL`"
                " before the first `srun`",
                notes=(f"line {setting.directive.line}: `{_show(setting.directive)}`",),
            )
            return


# ---------------------------------------------------------------------------
# The rules
# ---------------------------------------------------------------------------

def _dirs(code, name, severity, doc):
    return Rule(code, name, severity, check_directories, doc)


def _pat(code, name, severity, doc):
    return Rule(code, name, severity, check_patterns, doc)


def _env(code, name, severity, doc):
    return Rule(code, name, severity, check_body, doc)


RULES = (
    _dirs("SB230", "output-directory-missing", "error", """
        ## What it does
        Finds `--output` and `--error` file names whose directory does not exist. Relative names
        are resolved against `--chdir` when it is given, otherwise against the submit directory.
        The linter cannot know where you will run `sbatch`, so it stands in the folder of the
        script file and its own working directory (standard input: the working directory only)
        and reports only when the directory exists in neither. Names whose directory part holds a
        `%` pattern, `$`, `~` or a backslash are not checked; nor are absolute paths whose parent
        folder is missing too (the linter is then most likely not running on the cluster).

        ## Why is this bad?
        Up to Slurm 22.05 slurmstepd does not create the directory: opening the file fails, the
        job ends at once with an I/O setup error, and there is no log file to say why (the reason
        is only in the slurmd log). From 23.02 slurmstepd creates the missing directories
        (`mkdir -p`, mode 0755), so the finding is only `info` there: a typo in the name creates
        a stray folder instead of failing.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=slurm-logs-of-example/%x-%j.out
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=%x-%j.out
        srun ./app
        ```

        Or run `mkdir -p slurm-logs-of-example` before `sbatch`.

        ## Slurm versions
        22.05: `error`, the job fails at start without a log. 23.02 and newer: `info`, the
        directory is created when the job starts.

        ## References
        - `man sbatch`, `--output` ("The directory ... must exist" in 22.05)
        - Slurm commit ecc671a, "Allow recursive directory creation for job stderr/stdout files"
        - `src/slurmd/slurmstepd/io.c`
    """),
    _dirs("SB231", "input-directory-missing", "error", """
        ## What it does
        Finds an `--input` file name whose directory does not exist (resolved as for SB230).

        ## Why is this bad?
        slurmstepd never creates anything for standard input: the file cannot be opened and the
        batch step fails at start.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --input=inputs-of-example/params.txt
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --input=params.txt
        srun ./app
        ```

        ## Slurm versions
        All (the 23.02 directory creation covers `--output` and `--error` only).

        ## References
        - `man sbatch`, `--input`
    """),
    _dirs("SB232", "chdir-missing", "warning", """
        ## What it does
        Finds a `--chdir` directory that does not exist on the machine where the linter runs
        (relative values are resolved like output files, see SB230). Absolute paths whose parent
        is missing too are not reported: the linter is then most likely not on the cluster.

        ## Why is this bad?
        When slurmstepd cannot change into the directory it logs `couldn't chdir to ...: going to
        /tmp instead` and runs the script in `/tmp` of the compute node: relative paths, including
        the output files, end up there and vanish with the node's `/tmp`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --chdir=project-of-example/run1
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --chdir=/tmp
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--chdir`
        - `src/slurmd/slurmstepd/mgr.c`
    """),
    _pat("SB233", "array-index-without-array", "warning", """
        ## What it does
        Finds `%a` (array task id) and `%b` (task id modulo 10) in `--output` or `--error` of a
        job that is not an array job. A script whose body reads `SLURM_ARRAY_TASK_ID` or
        `SLURM_ARRAY_JOB_ID` is taken to be submitted with `sbatch --array=...` and is not reported.

        ## Why is this bad?
        Outside an array the task id is `NO_VAL`, so `%a` expands to `4294967294`. (`%A` is fine:
        for a plain job it is the job id.) If you submit the script with `sbatch --array=...`
        on the command line, move `--array` into the script so it documents itself.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=train-%a.out
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=train-%j.out
        srun ./app
        ```

        ## Slurm versions
        All; `%b` exists from 24.11.

        ## References
        - `man sbatch`, filename pattern
        - `src/slurmd/common/fname.c`
    """),
    _pat("SB234", "unknown-filename-pattern", "warning", """
        ## What it does
        Finds `%` sequences in `--output`, `--error` and `--input` that Slurm does not expand:
        unknown letters (`%q`), a `%` at the end, and letters that are newer than the target
        Slurm version (`%b` before 24.11, `%r`/`%S` before 25.11).

        ## Why is this bad?
        Unknown sequences are copied literally, so the file is called `run-%q.out`, and every
        job writes to the same file. Write `%%` for a literal percent sign.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=run-%i.out
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=run-%j.out
        srun ./app
        ```

        ## Slurm versions
        All; the set of letters grows in 24.11 (`%b`) and 25.11 (`%r`, `%S`).

        ## References
        - `man sbatch`, filename pattern
    """),
    _pat("SB235", "backslash-in-filename", "warning", """
        ## What it does
        Finds a backslash in an `--output`, `--error` or `--input` name that also uses `%`
        patterns.

        ## Why is this bad?
        Any backslash turns off all `%` expansion for the whole name (`remove_path_slashes()`):
        the file is called `job-%j.out` literally and the backslash is dropped.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=logs\\\\job-%j.out
        srun ./app
        ```

        (sbatch's directive reader turns `\\\\` into one backslash; a single `\\` escapes
        the next character and disappears.)

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=logs/job-%j.out
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, filename pattern ("If the filename contains a backslash ...")
    """),
    _pat("SB236", "numeric-filename", "warning", """
        ## What it does
        Finds `--output`, `--error` or `--input` values made only of digits.

        ## Why is this bad?
        A number is read as a task id ("single task" I/O, `fname_single_task_io()`): only that
        task's output is kept. The batch script is task 0, so any other number sends its output
        to `/dev/null`, and no file of that name is ever written.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=2024
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=2024.out
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/slurmd/common/fname.c:fname_single_task_io()`
    """),
    _pat("SB237", "task-pattern-in-batch-output", "warning", """
        ## What it does
        Finds `%t` (task id) and `%n` (node id) in `--output`/`--error` of the batch script, and
        `%N` (host name) as `info` in a job that may span several nodes.

        ## Why is this bad?
        These files belong to the batch step, a single task on the first node: `%t` and `%n` are
        always `0` and `%N` is the first node's name. Output of every `srun` task still goes to
        that one file. For one file per task, give the pattern to the step:
        `srun --output=task-%t.out ...`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=8
        #SBATCH --output=rank-%t.out
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=8
        #SBATCH --output=job-%j.out
        srun --output=rank-%t.out ./app
        ```

        ## Slurm versions
        All; 26.05 documents `%N` as the first node of the step.

        ## References
        - `man sbatch`, filename pattern
    """),
    _pat("SB238", "filename-pattern-padding", "info", """
        ## What it does
        Finds padding in a `%` pattern that does not do what it says: a width above 10, which
        Slurm caps at 10, or a width on a non-numeric pattern (`%5x`, `%3u`), which is ignored.

        ## Why is this bad?
        The file name differs from the one you expect to find.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=job-%12j.out
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=job-%10j.out
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/slurmd/common/fname.c` (`MAX_WIDTH`)
    """),
    _pat("SB239", "array-tasks-share-output", "warning", """
        ## What it does
        Finds a job array with more than one task whose `--output` or `--error` name has no
        pattern that differs between tasks (`%a`, `%j`, `%J` or `%b`).

        ## Why is this bad?
        Every task opens the same file; with the default `--open-mode=truncate` each task wipes
        the log of the previous one, and tasks running at the same time interleave their lines.
        `%A` alone is the same for all tasks.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --array=1-20
        #SBATCH --output=sweep-%A.out
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --array=1-20
        #SBATCH --output=sweep-%A_%a.out
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--array` and filename pattern
    """),
    _pat("SB240", "empty-filename", "warning", """
        ## What it does
        Finds an empty `--output`, `--error` or `--input` value (`--output=`).

        ## Why is this bad?
        sbatch accepts it and falls back to the default, `slurm-%j.out` in the submit directory,
        which is rarely what an explicit line meant; often a variable was meant to be there.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=job-%j.out
        srun ./app
        ```

        ## Slurm versions
        All (checked against sbatch 22.05.8).

        ## References
        - `src/common/slurm_opt.c:arg_set_output()`
    """),
    _env("SB245", "cuda-visible-devices-override", "warning", """
        ## What it does
        Finds `CUDA_VISIBLE_DEVICES` set in the script body (`export`, plain assignment or a
        prefix of one command). It is `info` when the job requests no GPU, or when the value is
        exactly `0,1,...,N-1` for the N GPUs per node the job requests (what Slurm sets anyway on
        clusters with device cgroups). Values built from
        `$CUDA_VISIBLE_DEVICES`, `$SLURM_JOB_GPUS` or `$SLURM_STEP_GPUS` are not reported.

        ## Why is this bad?
        Slurm sets `CUDA_VISIBLE_DEVICES` to the GPUs it allocated to the job. Overriding it with
        fixed numbers either points at GPUs that belong to other jobs (clusters without device
        cgroups) or at devices that do not exist inside the job's cgroup (with them): the program
        runs on the wrong GPU, shares one with someone else, or finds none.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu:2
        export CUDA_VISIBLE_DEVICES=2,3
        python train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu:2
        python train.py
        ```

        ## Slurm versions
        All.

        ## References
        - Slurm GRES documentation, "GPU Management"
        - `src/plugins/gres/common/gres_common.c`
    """),
    _env("SB246", "slurm-tmpdir-not-set", "info", """
        ## What it does
        Finds `$SLURM_TMPDIR` used in the body without a default (`${SLURM_TMPDIR:-/tmp}`) and
        without the script setting it.

        ## Why is this bad?
        Slurm itself never sets `SLURM_TMPDIR`; some sites (Compute Canada/Alliance, Mila) define
        it in a prolog. Elsewhere it is empty, so `cp data $SLURM_TMPDIR/` copies to `/`. Slurm
        only guarantees `TMPDIR`.

        ## Example
        ```sbatch
        #!/bin/bash
        cp -r data "$SLURM_TMPDIR/data"
        python train.py --data "$SLURM_TMPDIR/data"
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        cp -r data "$TMPDIR/data"
        python train.py --data "$TMPDIR/data"
        ```

        ## Slurm versions
        All (no release sets it).

        ## References
        - slurm-semantics.md §8 "Not standard"
        - `src/slurmd/slurmstepd/task.c:_make_tmpdir()`
    """),
    _env("SB247", "rank-variable-in-batch-script", "warning", """
        ## What it does
        Finds `$SLURM_PROCID`, `$SLURM_LOCALID` and `$SLURM_NODEID` expanded by the batch script
        itself, including on an `srun` command line, where the batch shell expands them before
        `srun` starts the tasks. References in single quotes, escaped as `\\$SLURM_PROCID`, or in a
        quoted here-document are expanded later, inside the step, and are fine. Scripts that also
        run themselves as a step (they mention `SLURM_STEP_ID`, or `srun` runs `$0`) are skipped,
        and so are jobs where the value 0 is right: `SLURM_NODEID` on one node, the others in a
        job of one task.
        In `echo`/`printf` the finding is `info`, once per variable.

        ## Why is this bad?
        The batch script runs as one task: these variables are `0` there. `--node_rank=$SLURM_NODEID`
        on `srun torchrun ...` gives every node rank 0, and the rendezvous hangs or trains twice.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        srun torchrun --nnodes=2 --node_rank=$SLURM_NODEID train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        srun bash -c 'torchrun --nnodes=2 --node_rank=$SLURM_NODEID train.py'
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, OUTPUT ENVIRONMENT VARIABLES; `man srun`, `SLURM_PROCID`
        - slurm-semantics.md §8 "Rank variables"
    """),
    _env("SB248", "nodelist-as-hostname", "warning", """
        ## What it does
        Finds `$SLURM_JOB_NODELIST` (or `$SLURM_NODELIST`) used as a host name: in a variable
        whose name says host or address (`MASTER_ADDR`, `HEAD_NODE`, `*_HOST`, `*_IP`...), in a
        launcher's host option (`--master_addr`, `--rdzv_endpoint`, `--main_process_ip`,
        `--host`), or after `ssh`/`ping`. Uses that go through `scontrol show hostnames`,
        `hostlist` or `nodeset` are fine. Jobs limited to one node (`-N 1`) are skipped; jobs
        without `--nodes` get `info`.

        ## Why is this bad?
        The variable is a compressed host list such as `gpu[01-04]`, which no resolver knows:
        the rendezvous cannot connect.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4
        export MASTER_ADDR=$SLURM_JOB_NODELIST
        srun python train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4
        export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
        srun python train.py
        ```

        ## Slurm versions
        All.

        ## References
        - `man scontrol`, `show hostnames`
        - slurm-semantics.md §8
    """),
    _env("SB249", "unset-slurm-variable", "warning", """
        ## What it does
        Finds Slurm variables that the script reads but that Slurm does not set for this request:
        `SLURM_GPUS_PER_NODE` without `--gpus-per-node` (`--gres=gpu:N` does not set it; with a
        GPU type it holds `a100:4`, not a number), `SLURM_CPUS_PER_TASK` without
        `--cpus-per-task`, `SLURM_NTASKS_PER_NODE`, `SLURM_GPUS`, `SLURM_CPUS_PER_GPU`,
        `SLURM_MEM_PER_GPU` and `SLURM_NTASKS_PER_GPU` without their options,
        and `SLURM_GPUS_PER_TASK`/`SLURM_GPU_BIND` from 23.11 (no longer exported). A
        variable that is only printed (`echo`, `printf`) gets `info`. (`SLURM_NTASKS` is SB321's; the array variables
        are left alone, since the array usually comes from `sbatch --array=...`.)
        References with a default (`${SLURM_CPUS_PER_TASK:-1}`), variables the script sets or
        tests with `-z`/`-n`, and hetjobs are skipped.

        ## Why is this bad?
        The variable is empty: `--nproc_per_node=$SLURM_GPUS_PER_NODE` becomes
        `--nproc_per_node=` and the launcher fails, or arithmetic silently uses 0.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu:4
        torchrun --nproc_per_node=$SLURM_GPUS_PER_NODE train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu:4
        torchrun --nproc_per_node=$SLURM_GPUS_ON_NODE train.py
        ```

        ## Slurm versions
        `SLURM_GPUS_PER_TASK` and `SLURM_GPU_BIND` are exported only up to 23.02.

        ## References
        - `man sbatch`, OUTPUT ENVIRONMENT VARIABLES
        - slurm-semantics.md §8
    """),
    _env("SB250", "export-restricts-steps", "warning", """
        ## What it does
        Finds `--export=NONE`, `--export=NIL` or an explicit variable list (without `ALL`) in a
        script whose body runs `srun` without `export SLURM_EXPORT_ENV=ALL` (or any other change
        to `SLURM_EXPORT_ENV`) before it and without `srun --export=...`. Reported once, at the
        first such `srun`.

        ## Why is this bad?
        sbatch hands the `--export` value to the job in `SLURM_EXPORT_ENV`, and every `srun`
        reads it: the steps start with the same restricted environment, without the `PATH`,
        modules or conda environment the script set up, so programs are not found or the wrong
        libraries load. `man sbatch` advises `export SLURM_EXPORT_ENV=ALL` in the script.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --export=NONE
        module load cuda
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --export=NONE
        module load cuda
        export SLURM_EXPORT_ENV=ALL
        srun ./app
        ```

        ## Slurm versions
        All; `--export=NIL` exists from 23.02.

        ## References
        - `man sbatch`, `--export`
        - slurm-semantics.md §8
    """),
)
