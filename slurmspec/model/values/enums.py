"""Parse keyword-valued options: --mail-type, --open-mode, --hint, --exclusive, --export, ...

Each parser mirrors the ``arg_set_*()`` function of ``src/common/slurm_opt.c``
(or the helper it calls) in the version it cites. Optional-argument options
receive ``None`` when given without ``=value``. Verdicts marked "checked
against sbatch 22.05.8" in the tests were confirmed with a real sbatch.
"""

from __future__ import annotations


import attrs

from slurmspec.frozen import as_tuple, frozen, to
from slurmspec.gates import (
    EXCLUSIVE_ALLOCATION,
    EXCLUSIVE_TOPO,
    EXPORT_NIL,
    GET_USER_ENV_TAKES_NO_ARGUMENT,
    GRES_FLAGS_NEW_NAMES,
    REQUEUE_TAKES_OPTIONAL_ARGUMENT,
    REQUEUE_VALUE_CHECKED,
)
from slurmspec.kinds import ExportMode
from slurmspec.lazy_regex import lazy_compile
from slurmspec.version import NEWEST, OLDEST, Version, format_version

from ._base import Parsed
from ._common import bad, problem, split_spans, strtol, tick
from .counts import Count

MAIL_TYPES = ("NONE", "BEGIN", "END", "FAIL", "REQUEUE", "ALL", "INVALID_DEPEND", "STAGE_OUT",
              "TIME_LIMIT", "TIME_LIMIT_90", "TIME_LIMIT_80", "TIME_LIMIT_50", "ARRAY_TASKS")
_MAIL_ALL = ("BEGIN", "END", "FAIL", "REQUEUE", "INVALID_DEPEND", "STAGE_OUT")
RLIMITS = ("AS", "CORE", "CPU", "DATA", "FSIZE", "MEMLOCK", "NOFILE", "NPROC", "RSS", "STACK")
PROFILES = ("all", "none", "energy", "task", "lustre", "network")
HINTS = ("compute_bound", "memory_bound", "multithread", "nomultithread")
_ENV_NAME = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]*")


@frozen
class Choice:
    """A single keyword value (canonical lower-case spelling)."""

    value: str


@frozen
class Flags:
    """A set of keyword flags (canonical spelling, in input order)."""

    values: tuple[str, ...] = attrs.field(converter=as_tuple)


@frozen
class MailTypes:
    types: tuple[str, ...] = attrs.field(converter=as_tuple)  # after ALL expansion; () = NONE


@frozen
class ExportSpec:
    mode: ExportMode = attrs.field(converter=to(ExportMode))
    include_all: bool = False
    variables: tuple[tuple[str, str | None], ...] = attrs.field(default=(), converter=as_tuple)


@frozen
class UserEnv:
    timeout: int | None = None
    mode: str | None = None  # "S" or "L"


def parse_mail_type(text: str, version: object = None) -> Parsed:
    # proc_args.c:parse_mail_type(): strtok on ',', NONE resets and stops the
    # scan, unknown tokens are skipped; only "nothing recognised" is an error.
    types: list[str] = []
    problems = []
    none_at = None
    for tok, start, end in split_spans(text, ","):
        if tok == "":
            continue
        up = tok.upper()
        if none_at is not None:
            problems.append(problem(text, f"{tick(tok)} after `NONE` is ignored", start, end,
                                    rejected=False))
            continue
        if up == "NONE":
            none_at = start
            if types:
                problems.append(problem(text, "`NONE` cancels the mail types before it",
                                        start, end, rejected=False))
            types = []
        elif up == "ALL":
            types += [t for t in _MAIL_ALL if t not in types]
        elif up in MAIL_TYPES:
            if up not in types:
                types.append(up)
        else:
            hint = " (remove the blank)" if tok.strip().upper() in MAIL_TYPES else ""
            problems.append(problem(text, f"{tick(tok)} is not a mail type{hint}; sbatch "
                                    "silently ignores it", start, end, rejected=False))
    if not types and none_at is None:
        return bad(text, f"{tick(text)} names no valid mail type; use "
                   + ", ".join(f"`{t}`" for t in MAIL_TYPES))
    return Parsed(MailTypes(types), tuple(problems))


def parse_open_mode(text: str, version: object = None) -> Parsed:
    # slurm_opt.c:arg_set_open_mode(): only the first letter is looked at.
    first = text[:1].lower()
    if first not in ("a", "t"):
        return bad(text, f"{tick(text)} is not an open mode; use `append` or `truncate`")
    word = "append" if first == "a" else "truncate"
    problems = ()
    if text.lower() != word:
        problems = (problem(text, f"{tick(text)} is read as `{word}` (only the first letter "
                            "counts); write it in full", rejected=False),)
    return Parsed(Choice(word), problems)


def parse_hint(text: str, version: object = None) -> Parsed:
    # proc_args.c:verify_hint(): a ',' not followed by a digit separates tokens.
    values = []
    for tok, start, end in split_spans(text, ","):
        low = tok.lower()
        if low == "help":
            return bad(text, "`help` makes sbatch print the hint list and exit", start, end)
        if low not in HINTS:
            return bad(text, f"{tick(tok)} is not a hint; use " +
                       ", ".join(f"`{h}`" for h in HINTS), start, end)
        values.append(low)
    return Parsed(Flags(values))


def parse_profile(text: str, version: object = None) -> Parsed:
    # acct_gather_profile_from_string(): unknown tokens are skipped unless none is known.
    values, problems = [], []
    for tok, start, end in split_spans(text, ","):
        if not tok:
            continue
        if tok.lower() in PROFILES:
            values.append(tok.lower())
        else:
            problems.append(problem(text, f"{tick(tok)} is not a profile type and is ignored",
                                    start, end, rejected=False))
    if not values:
        return bad(text, f"{tick(text)} names no profile type; use " +
                   ", ".join(f"`{p}`" for p in PROFILES))
    if "none" in values and len(values) > 1 or "all" in values and len(values) > 1:
        problems.append(problem(text, "`all`/`none` should not be combined with other types",
                                rejected=False))
    return Parsed(Flags(values), tuple(problems))


def parse_propagate(text: str | None, version: object = None) -> Parsed:
    # sbatch.c:_set_rlimit_env() -> parse_rlimits(): names are case-sensitive
    # upper case, optionally with an RLIMIT_ prefix (checked against sbatch 22.05.8).
    if text is None or text == "" or text == "ALL":
        return Parsed(Flags(["ALL"]))
    if text == "NONE":
        return Parsed(Flags(["NONE"]))
    values = []
    for tok, start, end in split_spans(text, ","):
        if not tok:
            continue
        name = tok[7:] if tok.startswith("RLIMIT_") else tok
        if name not in RLIMITS:
            fix = f"; names are upper case: `{tok.upper()}`" if tok.upper() in RLIMITS + (
                "ALL", "NONE") else ""
            return bad(text, f"{tick(tok)} is not a resource limit name{fix}; use `ALL`, "
                       "`NONE` or " + ", ".join(RLIMITS), start, end)
        values.append(name)
    return Parsed(Flags(values))


def parse_gres_flags(text: str, version: Version = NEWEST) -> Parsed:
    newer = version >= GRES_FLAGS_NEW_NAMES
    allowed = ("disable-binding", "enforce-binding")
    if newer:
        allowed += ("one-task-per-sharing", "multiple-tasks-per-sharing")
    pieces = split_spans(text, ",") if newer else [(text, 0, len(text))]
    values = []
    for tok, start, end in pieces:
        if tok.lower() not in allowed:
            extra = " (lists need Slurm 24.05+)" if "," in text and not newer else ""
            return bad(text, f"{tick(tok)} is not a --gres-flags value{extra}; use " +
                       ", ".join(f"`{a}`" for a in allowed), start, end)
        values.append(tok.lower())
    for a, b in (("disable-binding", "enforce-binding"),
                 ("one-task-per-sharing", "multiple-tasks-per-sharing")):
        if a in values and b in values:
            return bad(text, f"`{a}` and `{b}` are mutually exclusive")
    return Parsed(Flags(values))


def parse_kill_on_invalid_dep(text: str, version: object = None) -> Parsed:
    if text.lower() not in ("yes", "no"):
        return bad(text, f"{tick(text)} is not `yes` or `no`")
    return Parsed(Choice(text.lower()))


def parse_wait_all_nodes(text: str, version: object = None) -> Parsed:
    # parse_int(positive=false) then a 0..1 check; "" is read as 0.
    value, end = strtol(text)
    if value is None and text == "":
        value, end = 0, 0
    if value is None or end != len(text) or value not in (0, 1):
        return bad(text, f"{tick(text)} is not `0` or `1`")
    return Parsed(Choice(str(value)))


def parse_no_kill(text: str | None, version: object = None) -> Parsed:
    if text is None or text == "" or text.lower() == "set":
        return Parsed(Choice("set"))
    if text.lower() in ("off", "no"):
        return Parsed(Choice("off"))
    return bad(text, f"{tick(text)} is not a --no-kill value; use `off`, `no` or `set`")


def parse_exclusive(text: str | None, version: Version = NEWEST) -> Parsed:
    # slurm_opt.c:arg_set_exclusive(); topo added 24.05, allocation 26.05.
    if text is None or text == "":
        return Parsed(Choice("exclusive"))
    low = text.lower()
    allowed = {"user": OLDEST, "mcs": OLDEST, "exclusive": OLDEST,
               "oversubscribe": OLDEST, "topo": EXCLUSIVE_TOPO, "allocation": EXCLUSIVE_ALLOCATION}
    if low not in allowed:
        return bad(text, f"{tick(text)} is not an --exclusive mode; use `user`, `mcs`"
                   + (", `topo`" if version >= EXCLUSIVE_TOPO else "")
                   + (" or `allocation`" if version >= EXCLUSIVE_ALLOCATION else ""))
    if version < allowed[low]:
        return bad(text, f"`--exclusive={low}` needs Slurm {format_version(allowed[low])} or newer")
    problems = ()
    if low in ("exclusive", "oversubscribe"):
        problems = (problem(text, f"`{low}` is an undocumented --exclusive value",
                            rejected=False),)
    return Parsed(Choice(low), problems)


def parse_get_user_env(text: str | None, version: Version = NEWEST) -> Parsed:
    if text is None:
        return Parsed(UserEnv())
    if version >= GET_USER_ENV_TAKES_NO_ARGUMENT:
        return bad(text, "--get-user-env takes no value since Slurm 25.05 (the timeout and "
                   "mode were removed)")
    value, end = strtol(text)
    mode = text[end:end + 1].upper() if value is not None else text[:1].upper()
    if mode and mode not in ("S", "L"):
        return bad(text, f"{tick(text)} is not `[seconds][S|L]`")
    return Parsed(UserEnv(value, mode or None))


def parse_requeue(text: str | None, version: Version = NEWEST) -> Parsed:
    if text is None:
        return Parsed(Choice("requeue"))
    if version < REQUEUE_TAKES_OPTIONAL_ARGUMENT:
        return bad(text, "--requeue takes no value before Slurm 25.11")
    if text.lower() != "expedite":
        return Parsed(None, (problem(text, f"{tick(text)} is not a --requeue value; the only "
                                     "one is `expedite`",
                                     rejected=version >= REQUEUE_VALUE_CHECKED),))
    return Parsed(Choice("expedite"))


def parse_oom_kill_step(text: str | None, version: object = None) -> Parsed:
    if text is None:
        return Parsed(Choice("1"))
    if text not in ("0", "1"):
        return bad(text, f"{tick(text)} is not `0` or `1`")
    return Parsed(Choice(text))


def parse_export(text: str, version: Version = NEWEST) -> Parsed:
    up = text.upper()
    if up in ("ALL", "NONE") or (up == "NIL" and version >= EXPORT_NIL):
        return Parsed(ExportSpec(up))
    problems = []
    if up == "NIL":
        return Parsed(ExportSpec(ExportMode.LIST, False, [(text, None)]), (problem(
            text, "`NIL` is special only from Slurm 23.02; older versions export a variable "
            "named `NIL`", rejected=False),))
    variables: list[tuple[str, str | None]] = []
    include_all = False
    for tok, start, end in split_spans(text, ","):
        name, eq, value = tok.partition("=")
        if tok.upper() == "ALL":
            include_all = True
            continue
        if tok.upper() in ("NONE", "NIL"):
            problems.append(problem(text, f"`{tok}` only works on its own; here it is taken "
                                    "as a variable name", start, end, rejected=False))
            continue
        if not _ENV_NAME.fullmatch(name):
            if not eq and variables and variables[-1][1] is not None:
                problems.append(problem(text, f"{tick(tok)} is a separate item: commas split "
                                        "--export values", start, end, rejected=False))
            else:
                problems.append(problem(text, f"{tick(name)} is not an environment variable "
                                        "name", start, end, rejected=False))
            continue
        variables.append((name, value if eq else None))
    return Parsed(ExportSpec(ExportMode.LIST, include_all, variables), tuple(problems))


def parse_resv_ports(text: str | None, version: object = None) -> Parsed:
    if text is None:
        return Parsed(None)
    value, end = strtol(text)
    if value is None or end != len(text) or value < 0:
        return bad(text, f"{tick(text)} is not a port count")
    return Parsed(Count(value))
