"""Parse binding, frequency and topology options: --gpu-bind, --mem-bind, --cpu-freq, -B, --switches, ...

Sources: ``tres_bind.c:tres_bind_verify_cmdline()`` (--gpu-bind/--tres-bind),
``slurm_resource_info.c:slurm_verify_mem_bind()``,
``cpu_frequency.c:cpu_freq_verify_cmdline()``, ``gpu plugin``
``gpu_common_verify_freq`` (--gpu-freq), ``proc_args.c:validate_acctg_freq()``,
``proc_args.c:verify_socket_core_thread_count()`` (-B) and
``slurm_opt.c:arg_set_switches()``.
"""

from __future__ import annotations

import re

import attrs

from slurmspec.frozen import as_tuple, frozen
from slurmspec.gates import CPU_FREQ_RANGE_NEEDS_GOVERNOR, GPU_BIND_CHECKED, GPU_BIND_STRICT
from slurmspec.lazy_regex import lazy_compile
from slurmspec.version import NEWEST, Version

from ._base import Parsed
from ._common import bad, problem, split_spans, strtol, tick
from .counts import Count
from .time import NO_VAL, duration_seconds

_LIST_ITEM = lazy_compile(r"(0x[0-9a-fA-F]+|[0-9a-fA-F]+)(\*\d+)?")
_FREQ_WORDS = ("low", "medium", "high", "highm1")
GOVERNORS = ("conservative", "ondemand", "performance", "powersave", "schedutil", "userspace")
_DEFAULT_GOVERNORS = ("ondemand", "performance", "userspace")


@frozen
class Binding:
    """--gpu-bind/--mem-bind/--tres-bind: ``kind`` (closest, map_gpu, none, ...) and its argument."""

    kind: str
    argument: str | None = None
    verbose: bool = False
    resource: str | None = None  # gres/gpu for --tres-bind


@frozen
class Frequency:
    """--cpu-freq/--gpu-freq: settings as (key, value) pairs, e.g. ("min", "1000")."""

    settings: tuple[tuple[str, str], ...] = attrs.field(converter=as_tuple)


@frozen
class SocketCoreThread:
    """-B S[:C[:T]]: each level is (min, max); None means `*` (any)."""

    levels: tuple[tuple[int, int] | None, ...] = attrs.field(converter=as_tuple)


@frozen
class Switches:
    count: int
    wait_seconds: int | None = None


@frozen
class MemUpdate:
    margin_percent: int
    delay_seconds: int


def _bind_list(arg: str) -> bool:
    return bool(arg) and all(_LIST_ITEM.fullmatch(x) for x in arg.split(","))


def parse_gpu_bind(text: str, version: Version = NEWEST) -> Parsed:
    if version < GPU_BIND_STRICT:
        return _gpu_bind_checked(text, version)
    body, verbose = text, False
    if body.lower().startswith("verbose,"):
        body, verbose = body[8:], True
    elif body.lower().endswith(",verbose"):
        body, verbose = body[:-8], True
    parsed = _gpu_bind_body(text, body, version)
    if parsed.value is not None:
        parsed = Parsed(attrs.evolve(parsed.value, verbose=verbose), parsed.problems)
    return parsed


def _gpu_bind_body(text: str, body: str, version: Version) -> Parsed:
    low = body.lower()
    old = version < GPU_BIND_STRICT
    start = len(text) - len(body) if text.lower().endswith(body.lower()) else 0
    for word in ("closest", "none"):
        if low == word or (not old and low.startswith(word)):
            return Parsed(Binding(word))
        if old and low[:1] == word[0]:
            # 22.05 tres_bind_verify_cmdline() only compares the first letter.
            return Parsed(Binding(word), (problem(text, f"{tick(body)} is read as `{word}` "
                                                  "because only the first letter is checked; "
                                                  "newer Slurm rejects it", start, len(text),
                                                  rejected=False),))
    prefixes = ["map_gpu:", "mask_gpu:", "per_task:", "single:"]
    if not old:
        prefixes += ["map:", "mask:"]
    for prefix in prefixes:
        if low.startswith(prefix):
            arg = body[len(prefix):]
            kind = prefix[:-1]
            if kind in ("per_task", "single"):
                ok = arg.isascii() and arg.isdigit() and int(arg) > 0
            else:
                ok = _bind_list(arg)
            if not ok:
                # 22.05 accepts any argument here (checked against sbatch 22.05.8).
                what = "a positive count" if kind in ("per_task", "single") else "a GPU list"
                return Parsed(Binding(kind, arg), (problem(
                    text, f"{tick(arg)} is not {what} for `{kind}:`", start + len(prefix),
                    len(text), rejected=not old),))
            return Parsed(Binding(kind, arg))
    return bad(text, f"{tick(body)} is not a GPU binding; use `closest`, `none`, "
               "`map_gpu:<list>`, `mask_gpu:<list>`, `per_task:<n>` or `single:<n>`")


def _gpu_bind_checked(text: str, version: Version) -> Parsed:
    """--gpu-bind as 22.05 to 25.11 check it (``src/common/tres_bind.c``: ``_valid_gpu_bind()`` in
    22.05.8, ``_valid_gres_bind()`` in 24.11.5).

    After an optional ``verbose,``: ``closest`` and ``none`` pass whatever follows them
    (``closest,verbose``, ``nonex``) -- and up to 22.05 only their first letter is compared
    (``cheese`` is ``closest``); ``map_gpu:``/``mask_gpu:`` need a list of decimal/hex numbers
    (``N*count`` items; ``map_gpu:x`` is refused by both); ``per_task:``/``single:`` only
    refuse a negative number; anything else is refused ("Invalid --gpu-bind argument"). From
    23.02 (NEWS: "Validate --gpu-bind options more strictly") the whole word is compared and
    the short ``map:``/``mask:`` are accepted, their list checked from the offset of the long
    form (``map:0,x`` passes, ``map:0,1,2,x`` does not; 24.11.5 refuses ``c``).
    """
    first_letter = version < GPU_BIND_CHECKED
    verbose = text[:8].lower() == "verbose,"
    body = text[8:] if verbose else text
    low, start = body.lower(), len(text) - len(body)
    for word in ("closest", "none"):
        if low.startswith(word):
            return Parsed(Binding(word, verbose=verbose))
        if first_letter and low[:1] == word[0]:
            return Parsed(Binding(word, verbose=verbose), (problem(
                text, f"{tick(body)} is read as `{word}` because only the first letter is checked; "
                "newer Slurm rejects it", start, len(text), rejected=False),))
    forms = [("map_gpu:", "map_gpu", 8, False), ("mask_gpu:", "mask_gpu", 9, True)]
    if not first_letter:
        forms += [("map:", "map_gpu", 8, False), ("mask:", "mask_gpu", 9, True)]
    for prefix, kind, checked_from, hex_digits in forms:
        if low.startswith(prefix):
            if not _number_list_ok(body[checked_from:], hex_digits):
                return bad(text, f"{tick(body[len(prefix):])} is not a GPU list for `{prefix[:-1]}:`",
                           start + len(prefix))
            return Parsed(Binding(kind, body[len(prefix):], verbose))
    for prefix in ("per_task:", "single:"):
        if low.startswith(prefix):
            arg = body[len(prefix):]
            m = re.match(r"\s*-(0[xX][0-9a-fA-F]+|\d+)", arg)  # strtol(arg, NULL, 0) < 0 is refused
            if m and int(m.group(1), 16 if m.group(1)[1:2] in "xX" and len(m.group(1)) > 1 else 10):
                return bad(text, f"{tick(arg)} is negative", start + len(prefix))
            return Parsed(Binding(prefix[:-1], arg, verbose))
    return bad(text, f"{tick(body)} is not a GPU binding; use `closest`, `none`, "
               "`map_gpu:<list>`, `mask_gpu:<list>`, `per_task:<n>` or `single:<n>`", start)


def _number_list_ok(arg: str, hex_digits: bool) -> bool:
    """tres_bind.c:_valid_num_list(): comma-separated numbers, each optionally ``*count``."""
    digits = "0123456789abcdefABCDEF*" if hex_digits else "0123456789*"
    for tok in (t for t in arg.split(",") if t):
        if hex_digits and tok.startswith("0x"):
            tok = tok[2:]
        if any(c not in digits for c in tok):
            return False
        number, star, count = tok.partition("*")
        if (number and not number.isdigit() and not hex_digits) or (star and not (count == "" or count.isdigit())):
            return False
    return True


def parse_tres_bind(text: str, version: Version = NEWEST) -> Parsed:
    values = []
    problems = []
    for piece, start, end in split_spans(text, "+"):
        res, colon, rest = piece.partition(":")
        if not res.startswith("gres/") or not colon:
            return bad(text, f"{tick(piece)} is not `gres/<name>:<binding>`", start, end)
        sub = parse_gpu_bind(rest, NEWEST)
        for p in sub.problems:
            problems.append(problem(text, p.message, start + len(res) + 1 + p.start,
                                    start + len(res) + 1 + p.end, p.rejected))
        if sub.value is None:
            return Parsed(None, tuple(problems))
        values.append(attrs.evolve(sub.value, resource=res))
    return Parsed(tuple(values), tuple(problems))


def parse_mem_bind(text: str, version: object = None) -> Parsed:
    verbose, kind, arg = False, None, None
    for tok, start, end in split_spans(text, ","):
        low = tok.lower()
        if kind in ("map_mem", "mask_mem") and _LIST_ITEM.fullmatch(tok):
            arg += "," + tok
            continue
        if low in ("q", "quiet"):
            verbose = False
        elif low in ("v", "verbose"):
            verbose = True
        elif low in ("no", "none", "rank", "local", "p", "prefer", "sort", "nosort"):
            kind = {"no": "none", "p": "prefer"}.get(low, low)
        elif low == "help":
            return bad(text, "`help` makes sbatch print the options and exit", start, end)
        elif re.match(r"(?i)(map_mem|mapmem|mask_mem|maskmem):", tok):
            name, _, arg = tok.partition(":")
            kind = "map_mem" if name.lower().startswith("map") else "mask_mem"
            if not arg:
                return bad(text, f"missing list after {tick(name + ':')}", start, end)
        else:
            return bad(text, f"{tick(tok)} is not a memory binding; use `none`, `rank`, "
                       "`local`, `map_mem:<list>`, `mask_mem:<list>`, `prefer` or `sort`",
                       start, end)
    return Parsed(Binding(kind or "none", arg, verbose))


def _freq_value(tok: str) -> bool:
    # A frequency of 0 kHz is refused ("unrecognized --cpu-freq argument"), checked
    # against sbatch 22.05.8.
    return tok.lower() in _FREQ_WORDS or (tok.isascii() and tok.isdigit() and int(tok) > 0)


def parse_cpu_freq(text: str, version: object = None) -> Parsed:
    # p1[-p2][:governor] or a governor alone.
    problems = []
    body, colon, gov = text.partition(":")
    settings: list[tuple[str, str]] = []
    if not colon and body.lower() in GOVERNORS:
        gov, body = body, ""
    if body:
        low, dash, high = body.partition("-")
        for part in (low, high) if dash else (low,):
            if not _freq_value(part):
                return bad(text, f"{tick(part)} is not a frequency (kHz or `low`, `medium`, "
                           "`high`, `highm1`)")
        settings += [("min", low.lower()), ("max", high.lower())] if dash else [("value", low.lower())]
    if colon and not gov:
        return bad(text, "missing governor after `:`", len(body), len(text))
    if colon and not (body and "-" in body):
        return bad(text, "a governor after `:` needs a `min-max` range before it")
    if body and "-" in body and not gov and isinstance(version, tuple) and version >= CPU_FREQ_RANGE_NEEDS_GOVERNOR:
        return bad(text, f"the range {tick(body)} needs a governor (`{body}:performance`, ...), unless the"
                   " cluster sets CpuFreqDef; sbatch refuses it (\"You must explicitly choose a governor when"
                   " defining a range\")")
    if gov:
        if gov.lower() not in GOVERNORS:
            return bad(text, f"{tick(gov)} is not a CPU governor", len(text) - len(gov))
        if gov.lower() not in _DEFAULT_GOVERNORS:
            problems.append(problem(text, f"governor {tick(gov)} must be allowed by "
                                    "CpuFreqGovernors in slurm.conf (default OnDemand, "
                                    "Performance, UserSpace)", len(text) - len(gov), len(text),
                                    rejected=False))
        settings.append(("governor", gov.lower()))
    if not settings:
        return bad(text, "empty --cpu-freq value")
    return Parsed(Frequency(settings), tuple(problems))


def parse_gpu_freq(text: str, version: object = None) -> Parsed:
    settings = []
    for tok, start, end in split_spans(text, ","):
        key, eq, value = tok.partition("=")
        if not eq:
            key, value = ("verbose", "") if tok.lower() == "verbose" else ("graphics", tok)
        elif key.lower() != "memory":
            return bad(text, f"{tick(key)} is not a GPU frequency type; only `memory=` may "
                       "be named", start, end)
        if key != "verbose" and not _freq_value(value):
            return bad(text, f"{tick(value)} is not a GPU frequency (MHz or `low`, "
                       "`medium`, `high`, `highm1`)", start, end)
        settings.append((key.lower(), value.lower()))
    return Parsed(Frequency(settings))


def parse_acctg_freq(text: str, version: object = None) -> Parsed:
    settings = []
    for tok, start, end in split_spans(text, ","):
        if tok == "":
            continue
        key, eq, value = tok.partition("=")
        if not eq:
            key, value = "task", tok
        if key.lower() not in ("task", "energy", "network", "filesystem") or not (
                value.isascii() and value.isdigit()):
            return bad(text, f"{tick(tok)} is not `<task|energy|network|filesystem>=<seconds>`",
                       start, end)
        settings.append((key.lower(), value))
    return Parsed(Frequency(settings))


def _range(field: str) -> tuple[int, int] | None | str:
    # proc_args.c:get_resource_arg_range(): `*`/empty, N or N-M with k/m suffix.
    if field in ("", "*"):
        return None
    m = re.fullmatch(r"(\d{1,12})([kKmM]?)(?:-(\d{1,12})([kKmM]?))?", field)
    if not m:
        return "bad"
    scale = {"": 1, "k": 1024, "m": 1048576}
    lo = int(m.group(1)) * scale[m.group(2).lower()]
    hi = int(m.group(3)) * scale[m.group(4).lower()] if m.group(3) else lo
    if hi > 2**31 - 1 or (m.group(3) and hi <= 0):
        return "bad"
    return lo, hi


def parse_extra_node_info(text: str, version: object = None) -> Parsed:
    fields = text.split(":")
    problems = []
    if len(fields) > 3:
        cut = len(":".join(fields[:3]))
        problems.append(problem(text, "only three levels (sockets:cores:threads) are read; "
                                f"{tick(text[cut:])} is ignored", cut, len(text), rejected=False))
        fields = fields[:3]
    levels = []
    pos = 0
    for name, field in zip(("sockets", "cores", "threads"), fields):
        r = _range(field)
        if r == "bad":
            return bad(text, f"{tick(field)} is not a valid {name} count (`N`, `min-max` or "
                       "`*`)", pos, pos + len(field))
        levels.append(r)
        pos += len(field) + 1
    return Parsed(SocketCoreThread(levels), tuple(problems))


def parse_switches(text: str, version: object = None) -> Parsed:
    count_text, at, wait = text.partition("@")
    value, end = strtol(count_text)
    if value is None or end != len(count_text) or value <= 0 or value > 2**31 - 1:
        return bad(text, f"{tick(count_text)} is not a positive switch count", 0, len(count_text))
    seconds = None
    if at:
        seconds = duration_seconds(wait)
        if seconds == NO_VAL:
            # arg_set_switches() stores NO_VAL without complaint (checked
            # against sbatch 22.05.8): the wait is silently dropped.
            return Parsed(Switches(value, None), (problem(
                text, f"{tick(wait)} is not a Slurm duration (minutes, `M:S`, `H:M:S` or "
                "`D-H[:M[:S]]`), so the wait time is silently ignored",
                len(count_text) + 1, len(text), rejected=False),))
    return Parsed(Switches(value, seconds))


def parse_segment(text: str, version: object = None) -> Parsed:
    value, end = strtol(text)
    if value is None or end != len(text) or not 0 < value < 0xFFFF:
        return bad(text, f"{tick(text)} is not a segment size (1 to 65534)")
    return Parsed(Count(value))


def parse_mem_update(text: str, version: object = None) -> Parsed:
    margin, at, delay = text.partition("@")
    if not at:
        return bad(text, "--mem-update needs `MARGIN@DELAY`, e.g. `10@5`")
    value, end = strtol(margin)
    if value is None or end != len(margin) or value < 0:
        return bad(text, f"{tick(margin)} is not a margin percentage", 0, len(margin))
    seconds = duration_seconds(delay)
    if seconds == NO_VAL:
        return bad(text, f"{tick(delay)} is not a Slurm duration", len(margin) + 1)
    return Parsed(MemUpdate(value, seconds))
