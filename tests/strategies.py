"""Hypothesis strategies shared by slurmspec's tests, one marked section per area."""

from __future__ import annotations

import functools
import re

from hypothesis import strategies as st


@functools.lru_cache(maxsize=None)
def _sampled_once(items: tuple) -> st.SearchStrategy:
    return st.sampled_from(items)


def _sampled(items) -> st.SearchStrategy:
    """``st.sampled_from(items)``, built once per distinct sequence.

    The composites below pick from fixed sequences on every draw; a new strategy
    each time is validated and labelled again by Hypothesis (cProfile of the
    directive differential: strategy validation was a third of drawing a script).
    Measured: ``sbatch_scripts`` 9.6 -> 7.7 ms of CPU per example (loaded machine).
    """
    key = tuple(items)
    try:
        return _sampled_once(key)
    except TypeError:  # unhashable items
        return st.sampled_from(key)

# --- body (shell) strategies ---
# Fragments chosen to hit every branch of slurmspec.body: launchers and their
# options, wrappers, quoting, continuations, here-docs, compound commands and
# the characters that open something that might never be closed.
_BODY_FRAGMENTS = (
    "srun", "mpirun", "mpiexec", "torchrun", "horovodrun", "accelerate launch", "deepspeed",
    "python", "python3 -m torch.distributed.run", "python -m torch.distributed.launch", "python -u",
    "train.py", "x.py", "-n", "-N", "-np", "8", "-n8", "--ntasks=4", "--nodes", "--gpus-per-task=1",
    "--nproc_per_node=8", "--nproc-per-node", "gpu", "--nnodes=1:4", "--rdzv_endpoint=$H:29500",
    "--container-image=img", "--map-by", "ppr:4:node", "-H", "localhost:8", "--num_processes",
    "--num_gpus", "--", "-m", "-c", "exec", "time", "nohup", "env", "A=1", "X=\"a b\"", "export",
    "export CUDA_VISIBLE_DEVICES=0,1", "declare -x", "stdbuf -oL", "numactl --cpunodebind=0",
    "apptainer exec --nv img.sif", "singularity run -B /a:/b", "bash -c", "sh -c", "eval",
    "'", '"', "\\", "\\\n", "`", "$", "$(", "${", ")", "}", "((", "))", "$((1+2))", "$SLURM_NTASKS",
    "${GPUS:-8}", "<<EOF", "<<-'EOF'", "<<<", "EOF", "\tEOF", "<(", ">", "2>&1", ">>", "&>", "|",
    "||", "&&", "&", ";", ";;", "\n", " ", "\t", "#", "# comment\n", "if", "then", "else", "elif",
    "fi", "for i in 1 2", "while true", "do", "done", "case $x in", "a)", "*)", "esac", "{", "}",
    "(", "f()", "function g", "[[", "]]", "!", "\r\n", "é", "\x00",
)


@st.composite
def shell_bodies(draw: st.DrawFn) -> str:
    """Shell-flavoured text: mostly fragments glued by spaces, sometimes raw noise."""
    parts = draw(st.lists(
        st.one_of(_sampled(_BODY_FRAGMENTS), st.text(max_size=6)),
        max_size=40,
    ))
    seps = draw(st.lists(_sampled(["", " ", " ", "\n", " \\\n  "]), min_size=len(parts), max_size=len(parts)))
    return "".join(p + s for p, s in zip(parts, seps))


@st.composite
def bodies_with_prefix(draw: st.DrawFn) -> tuple[str, str]:
    """(prefix, body): a header-like prefix so that the body starts at a non-zero offset."""
    prefix = draw(_sampled(["", "#!/bin/bash\n", "#!/bin/bash\n#SBATCH -N 2\n\n", "é\n"]))
    return prefix, draw(shell_bodies())


# --- script text strategies (round trip, never-raise) ---
# Lines built from the pieces that steer the grammar and the tokeniser, so that
# random text often lands on directive, near-miss, comment and command lines.
_LINE_PIECES = (
    "#!/bin/bash", "#SBATCH", "#SBATCH ", "#SLURM ", "# SBATCH ", "#sbatch ", "  #SBATCH ", "##SBATCH ",
    "#", " ", "\t", "\r", "\v", "\f", "\\", "'", '"', ":", "-", "--", "=", "hetjob", "packjob",
    "--time=5", "-N2", "--nod", "-J", "x y", "#c", "srun", "echo", "\x00", "\ufeff", "é", "\udcff",
)


@st.composite
def script_texts(draw: st.DrawFn) -> str:
    """Text shaped like batch scripts, with every line ending and oddity mixed in."""
    lines = draw(
        st.lists(
            st.one_of(
                st.lists(_sampled(_LINE_PIECES), max_size=6).map("".join),
                st.text(max_size=20),
            ),
            max_size=12,
        )
    )
    newline = draw(_sampled(["\n", "\r\n", "\n\n"]))
    text = newline.join(lines)
    return text + draw(_sampled(["", "\n", "\\"]))


script_bytes = st.one_of(st.binary(max_size=300), script_texts().map(lambda t: t.encode("utf-8", "surrogateescape")))


# --- sbatch header strategies ---
# Whole batch scripts for the differential test against a real `sbatch
# --test-only` (tests/test_differential_sbatch.py).  Every spelling sbatch
# accepts or rejects is generated: long/short/glued/bundled forms, abbreviations
# (unique and ambiguous), optional arguments with and without `=`, quoting,
# escapes, comments, hetjob separators, values on the next directive line, and
# typed values on both sides of each parser's edge.
#
# Configuration independence: resource numbers stay small (nodes <= 4, tasks
# <= 32, cpus-per-task <= 8, memory <= 64G in total, GPUs <= 8 of type
# v100/a100 or untyped), features are only ones the test cluster has, GRES
# names are only `gpu`, and options whose verdict depends on site data
# (nodelist, licenses, reservations, clusters, files on disk) are left out.
# Cross-option conflicts that sbatch rejects (two memory options, --time-min
# above --time, GPU option mixes, -m arbitrary/plane, --deadline) are never
# generated here (see `_CONFLICTS`).

_MEM_OK = ("100", "100M", "100mb", "1G", "1gb", "2g", "1500K", "0", " 512")
_MEM_BAD = ("1.5G", "1P", "1GiB", "1Gi", "-1", "", "1X", "G", "1 G", "1GB2")
_MEM_PER_CPU_OK = ("100", "512M", "1G", "2G", "0", "1500K", "1024mb")

# long name -> (short letter or "", "none"|"required"|"optional", values)
# `values` are the *unquoted* argument texts to try (None: a flag).
_SBATCH_OPTIONS: dict[str, tuple[str, str, tuple[str, ...] | None]] = {
    "time": ("t", "required", (
        "5", "0", "00:00:00", "10:00", "1:00:00", "2-", "2-0", "1-12", "1-12:30", "1-12:30:15",
        "1:99", "25:00:00", "0:30", "-1", "-5", "UNLIMITED", "infinite", "Infinite",
        "1h", "1:2:3:4", "1-1-1", "1:-2", "", "abc", "5m", "1-2:3:4:5", "1:2-3", "+5", "1 day",
    )),
    "time-min": ("", "required", ("5", "0", "10:00", "2-", "1-1:1:1", "UNLIMITED", "-5", "1h", "1:2:3:4", "x")),
    "begin": ("b", "required", (
        "now", "now+1hour", "now+60", "now+1hours", "now+2days", "now+1week", "now+5min", "now+5minutes",
        "now-1hour", "now+1 hour", "16:00", "16:00:30", "4pm", "4:00PM", "16:00PM", "2030-01-01",
        "2030-01-01T10:00", "2030-01-01T10:00:00", "2030-13-01", "2030-02-30", "2030-01-01T25:00",
        "tomorrow", "today", "midnight", "noon", "fika", "teatime", "elevenses", "0101", "12/31",
        "12.31.30", "uts2000000000", "yesterday", "soon", "", "T10:00",
    )),
    "mem": ("", "required", _MEM_OK + _MEM_BAD + ("8G", "64G", "64000")),
    "mem-per-cpu": ("", "required", _MEM_PER_CPU_OK + _MEM_BAD),
    "tmp": ("", "required", ("0", "0M", "0G", "-1", "1.5G", "1P", "x", "")),
    "ntasks": ("n", "required", ("1", "2", "4", "32", "0", "-2", "4x", "x", "", " 3", "03", "0x4", "2.0")),
    "cpus-per-task": ("c", "required", ("1", "2", "8", "0", "-1", "4x", "abc", "")),
    "ntasks-per-node": ("", "required", ("1", "2", "8", "0", "-2", "4x")),
    "tasks-per-node": ("", "required", ("1", "2", "0", "x")),
    "ntasks-per-socket": ("", "required", ("1", "0", "y")),
    "ntasks-per-core": ("", "required", ("1", "0", "1x")),
    "mincpus": ("", "required", ("1", "2", "0", "q")),
    "nodes": ("N", "required", (
        "1", "2", "4", "1-3", "2-4", "0", "0-2", "3-1", "2k", "1-2k", "abc", "-1", "1-", "", "2,4", "1-4:2", "1x",
    )),
    "gres": ("", "required", (
        "gpu", "gpu:1", "gpu:2", "gpu:8", "gpu:v100:2", "gpu:a100", "gpu:a100:4", "gpu:0", "none",
        "gpu::1", "gpu:", "gpu:v100:", "gpu:-1", "gpu:1.5", "gpu:2,gpu:1", ":2", "gpu:v100:2:3",
    )),
    "gpus": ("G", "required", ("1", "2", "8", "v100:2", "a100:1", "0", "v100:", ":2", "", "1,2")),
    "gpus-per-node": ("", "required", ("1", "2", "a100:2", "v100:8", "0", "v100:", ":1")),
    "signal": ("", "required", (
        "USR1", "USR1@60", "B:USR2", "R:TERM@30", "RB:USR1", "BR:USR1", "B:USR1@0", "SIGUSR1", "usr1", "10",
        "10@65535", "KILL", "B:FOO", "USR1@abc", "0", "@70000", "USR1@70000", "USR1@-1", "X:USR1", "B:", "",
        "HUP@", "65",
    )),
    "distribution": ("m", "required", (
        "block", "cyclic", "block:cyclic", "cyclic:fcyclic", "block:block:block", "*:*", "pack", "nopack",
        "block,pack", "Cyclic", "BLOCK:CYCLIC,NoPack", "foo", "block:foo", "block:cyclic:cyclic:cyclic", "",
        "block,", ",pack", "fcyclic",
    )),
    "mail-type": ("", "required", (
        "END", "END,FAIL", "BEGIN,BOGUS", "START", "all", "none", "TIME_LIMIT_90", "ARRAY_TASKS", "BOGUS,",
        ",END", "", "end, fail", "INVALID_DEPEND,STAGE_OUT",
    )),
    "mail-user": ("", "required", ("a@b.c", "user")),
    "hint": ("", "required", (
        "compute_bound", "memory_bound", "multithread", "nomultithread", "foo", "compute_bound,multithread", "",
    )),
    "open-mode": ("", "required", ("append", "truncate", "apple", "t", "A", "x", "")),
    "exclusive": ("", "optional", ("user", "mcs", "exclusive", "oversubscribe", "bogus", "", "USER", "topo")),
    "array": ("a", "required", (
        "0-15%4", "1,3,5", "1-5%2", "[1-3]", "1-3%0", "1%2%3", "1-10:1000", "0-1000", "10-1", "1-10:0",
        "0-1001", "1001", "a", "-1", "1-", "1-10:2", "", "1,,2", "0-7:2%1",
    )),
    "dependency": ("d", "required", (
        "afterok:123", "afterok:abc", "foo:1", "singleton", "1", "afterok:1+5", "after:1_2", "afterok:1?afterany:2",
        "afterok", "afterany:1:2", "afterok:1,afternotok:2", "", "aftercorr:5", "afterok:1_*",
    )),
    "constraint": ("C", "required", (
        "v100", "a100&ib", "[v100|a100]", "v100|a100", "(v100|a100)&ib", "v100*2", "v100&", "",
        "v100|", "[a100", "a100&&ib", "[v100|a100", "v100)", "skylake&ib", "a100&rome", "ib",
    )),
    "kill-on-invalid-dep": ("", "required", ("yes", "no", "YES", "maybe", "")),
    "wait-all-nodes": ("", "required", ("0", "1", "2", "x", "")),
    "profile": ("", "required", ("all", "none", "energy", "energy,task", "lustre,network", "bogus", "task,bogus", "")),
    "propagate": ("", "optional", ("ALL", "NONE", "STACK", "STACK,CORE", "as,nofile", "FOO", "STACK,FOO", "")),
    "gpu-bind": ("", "required", (
        "closest", "none", "cheese", "nope", "map_gpu:0,1", "mask_gpu:0x3", "single:1", "per_task:1",
        "verbose,closest", "bogus", "", "map_gpu:", "single:x",
    )),
    "mem-bind": ("", "required", (
        "local", "none", "rank", "map_mem:0,1", "mask_mem:0x1", "verbose,local", "quiet,none", "prefer", "sort",
        "bogus", "",
    )),
    "cpu-freq": ("", "required", (
        "low", "high", "medium", "highm1", "2000000", "low-high", "Performance", "OnDemand", "low-high:OnDemand",
        "bogus", "", "-1", "0", "low-0", "1",
    )),
    "no-kill": ("k", "optional", ("off", "no", "set", "bogus", "")),
    "nice": ("", "optional", ("5", "-5", "0", "abc", "")),
    "get-user-env": ("", "optional", ("10", "10L", "S", "bogus")),
    "acctg-freq": ("", "required", ("30", "task=30", "energy=0", "bogus=1", "task=x")),
    "gres-flags": ("", "required", ("enforce-binding", "disable-binding", "bogus")),
    "delay-boot": ("", "required", ("5", "1:00:00", "1h")),
    "switches": ("", "required", ("1", "1@10", "1@1h")),
    "priority": ("", "required", ("10", "TOP", "abc")),
    "export": ("", "required", ("ALL", "NONE", "ALL,FOO=bar", "FOO")),
    "job-name": ("J", "required", ("job", "a b", "run#1", "x=y", "-x", "hetjob", "", "'q'", "a\"b", "é")),
    "output": ("o", "required", ("out.txt", "none", "slurm-%j.out", "$HOME/x", "a b.log")),
    "error": ("e", "required", ("err.txt", "none", "%x-%A_%a.err")),
    "input": ("i", "required", ("none", "/dev/null")),
    "comment": ("", "required", ("hello world", "x", "#hash")),
    "account": ("A", "required", ("proj", "Foo")),
    "qos": ("q", "required", ("normal", "high")),
    "partition": ("p", "required", ("debug", "gpu", "nosuch", "cpu,gpu")),
    "chdir": ("D", "required", ("/tmp", ".")),
    "hold": ("H", "none", None),
    "overcommit": ("O", "none", None),
    "oversubscribe": ("s", "none", None),
    "contiguous": ("", "none", None),
    "requeue": ("", "none", None),
    "no-requeue": ("", "none", None),
    "spread-job": ("", "none", None),
    "use-min-nodes": ("", "none", None),
    "parsable": ("", "none", None),
    "ignore-pbs": ("", "none", None),
    "reboot": ("", "none", None),
    "test-only": ("", "none", None),
    # Early-pass options: ignored inside #SBATCH.
    "verbose": ("v", "none", None),
    "quiet": ("Q", "none", None),
    "wrap": ("", "required", ("echo hi", "true")),
    "usage": ("", "none", None),
    "version": ("V", "none", None),
    "help": ("h", "none", None),
}

# Options of one conflict set are never combined in one script: sbatch checks
# them against each other (--mem vs --mem-per-cpu, --time-min above --time,
# typed/untyped GPU mixes, --gpus < -N), which is the rules issue's business.
_CONFLICTS = (
    frozenset({"mem", "mem-per-cpu"}),
    frozenset({"time", "time-min"}),
    frozenset({"gres", "gpus", "gpus-per-node"}),
    frozenset({"gpus", "nodes"}),
)


def _conflicts(name: str, chosen: set[str]) -> bool:
    return any(name in c and (c - {name}) & chosen for c in _CONFLICTS)


_LONG_NAMES = tuple(_SBATCH_OPTIONS)
_SHORT_TO_LONG = {spec[0]: name for name, spec in _SBATCH_OPTIONS.items() if spec[0]}

# Prefixes of option names; sbatch's getopt_long decides whether each is unique.
# (Never an exact option name: `--mem` is not an abbreviation of --mem-per-cpu.)
_ABBREVIATIONS = (
    "part", "ntasks-per-n", "nod", "tim", "mem-per", "cpus", "cpus-per", "exclus", "mail-t", "job-n", "sig",
    "constr", "depend", "arr", "gre", "gpus-per-n", "begi", "dist", "ho", "ker", "ntask", "ti", "nic",
    "propag", "no-k", "outp", "err", "wait-all", "open", "kill-on", "acc", "chd",
)
_UNKNOWN_LONG = (
    "--foo", "--tiem=5", "--nodes2", "--ntasks_per_node=2", "--cpus_per_task=2", "--mem_per_cpu=1G",
    "--job_name=x", "--mail_type=END", "--jobname=x", "--gpu=1", "--memory=1G", "--walltime=5",
)
_SRUN_ONLY = (
    "--mpi=pmix", "--cpu-bind=cores", "--cpu_bind=cores", "--exact", "--overlap", "--pty", "--label", "-l",
    "--unbuffered", "-u", "-K", "-X", "-Z", "-E", "-I", "--multi-prog", "--whole", "--het-group=0",
    "--kill-on-bad-exit", "--relative=0", "--task-prolog=x", "--x11", "--bcast",
)
_BAD_SHORT = ("-y", "-z", "-j", "-P", "-R", "-Y", "-1")
_FLAGS_WITH_VALUE = ("--hold=yes", "--requeue=1", "--contiguous=x", "--overcommit=1", "--parsable=", "--spread-job=no")
_STRAY = ("extra", "5", "-", "--", "x=y", "echo", "srun", "true", "%j")
_COLON = (":", ":foo", "::", ":-J")
_HETJOB = ("hetjob", "packjob", "HETJOB", "HetJob")
_EMPTY = ('""', "''")
# Tokeniser corners: `#` inside quotes or escaped, escapes inside quotes,
# `=` after a short option, empty `--opt=`, case, signs, bases, whitespace.
_TRICKY = (
    '-J "a#b"', "-J 'a#b'", "-J a\\#b", "-J '#'", '-J "a\\"b"', "-J 'a\\'", '-J "it\'s"', "-J=x",
    "--time=", "--job-name=", "--comment=", "--TIME=5", "--Time=5", "-n +4", "-n 010", "-n 0x4", '-n " 4"',
    '-n "4 "', "-n 99999999999", "-c 2147483648", "--mem=1K", "--mem=1m", "--mem=+1G", "--mem=01G",
    "-t +5", "-t 05:00", "-t 1:2:", "-t :5", "-t 1-", "-t 1--1", "---time=5", "--=5", "-\\t 5",
    "--time\\=5", '"--time" 5', "'-t' '5'", "-t'5'", '--"time"=5', "\\--time=5", "-J\\", "-J x\\",
    "--signal=usr1@+5", "--signal=SIGusr2", "--nice=+5", "--nice=-0", "--begin=NOW+1HOUR", "--begin=now +1hour",
    "--mail-type=end,", "--array=0", "--array=[0-3]%2", "--array=1-3,5-7:2", "--dependency=afterok:1:2+3",
)


def _quote_word(draw: st.DrawFn, word: str) -> str:
    """Render one argv word the way a person might type it on a #SBATCH line."""
    plain = word != "" and not any(c in word for c in " \t\"'\\#")
    how = draw(_sampled(["plain"] * 6 + ["dq", "sq", "mid", "esc"]))
    if how == "plain" and plain:
        return word
    if how == "sq" and "'" not in word:
        return f"'{word}'"
    if how == "mid" and len(word) >= 2 and '"' not in word:
        i = draw(st.integers(1, len(word) - 1))
        return f'{word[:i]}"{word[i:]}"'
    if how == "esc" and word and '"' not in word and "'" not in word:
        # backslash before a character: \" \# and \  keep their meaning in 22.05,
        # except that an escaped space still splits the word
        i = draw(st.integers(0, len(word) - 1))
        return word[:i] + "\\" + word[i:]
    if '"' not in word and "\\" not in word:
        return f'"{word}"'
    if "'" not in word:
        return f"'{word}'"
    return word


@st.composite
def sbatch_option_words(draw: st.DrawFn, name: str) -> list[str]:
    """One occurrence of option `name` in any spelling: a list of rendered words."""
    short, arg, values = _SBATCH_OPTIONS[name]
    value = draw(_sampled(values)) if values else None
    if arg == "none":
        if short and draw(st.booleans()):
            return [f"-{short}"]
        return [f"--{draw(_long_spelling(name))}"]
    if arg == "optional":
        form = draw(_sampled(["bare", "eq", "sep", "short"] if short else ["bare", "eq", "eq", "sep"]))
        if form == "bare" or value is None:
            return [f"-{short}" if short and draw(st.booleans()) else f"--{draw(_long_spelling(name))}"]
        if form == "eq":
            return [_quote_word(draw, f"--{draw(_long_spelling(name))}={value}")]
        if form == "short":
            return [_quote_word(draw, f"-{short}{value}")]
        return [f"--{draw(_long_spelling(name))}", _quote_word(draw, value)]  # value is a stray word
    assert value is not None
    forms = ["eq", "sep"] + (["short-sep", "short-glued"] if short else [])
    form = draw(_sampled(forms))
    if form == "eq":
        return [_quote_word(draw, f"--{draw(_long_spelling(name))}={value}")]
    if form == "sep":
        return [f"--{draw(_long_spelling(name))}", _quote_word(draw, value)]
    if form == "short-sep":
        return [f"-{short}", _quote_word(draw, value)]
    return [_quote_word(draw, f"-{short}{value}")]


@functools.lru_cache(maxsize=None)
def _long_spelling(name: str) -> st.SearchStrategy[str]:
    """The full name, or (sometimes) one of its prefixes, unique or not."""
    prefixes = [p for p in _ABBREVIATIONS if name.startswith(p) and p != name]
    if not prefixes:
        return st.just(name)
    return st.one_of(st.just(name), st.just(name), _sampled(prefixes))


@st.composite
def sbatch_bundle_words(draw: st.DrawFn, chosen: set[str] | None = None) -> list[str]:
    """Bundled short options: flags then one letter that may take a value (`-Hn3`, `-Op gpu`)."""
    flags = "".join(draw(st.lists(_sampled("HOsvQk"), min_size=1, max_size=3)))
    last = draw(_sampled(["", "n", "N", "J", "p", "c", "t", "y", "H"]))
    if last in ("", "H", "y"):
        return [f"-{flags}{last}"]
    name = _SHORT_TO_LONG[last]
    if chosen is not None:
        if _conflicts(name, chosen):
            return [f"-{flags}"]
        chosen.add(name)
    value = draw(_sampled([v for v in _SBATCH_OPTIONS[name][2] or () if v and " " not in v][:6]))
    if draw(st.booleans()):
        return [f"-{flags}{last}{value}"]
    return [f"-{flags}{last}", value]


@st.composite
def sbatch_noise_words(draw: st.DrawFn) -> list[str]:
    """Things sbatch rejects or treats specially: unknown/srun-only/bad options, stray words..."""
    kind = draw(_sampled([
        "unknown", "srun", "badshort", "flagvalue", "stray", "colon", "hetjob", "empty", "comment",
        "unmatched", "backslash", "missing", "tricky", "tricky",
    ]))
    if kind == "unknown":
        return [draw(_sampled(_UNKNOWN_LONG))]
    if kind == "srun":
        return [draw(_sampled(_SRUN_ONLY))]
    if kind == "badshort":
        return [draw(_sampled(_BAD_SHORT))]
    if kind == "flagvalue":
        return [draw(_sampled(_FLAGS_WITH_VALUE))]
    if kind == "stray":
        return [draw(_sampled(_STRAY))]
    if kind == "colon":
        return [draw(_sampled(_COLON))]
    if kind == "hetjob":
        return [draw(_sampled(_HETJOB))]
    if kind == "empty":
        return [draw(_sampled(_EMPTY))]
    if kind == "tricky":
        return draw(_sampled(_TRICKY)).split(" ")
    if kind == "comment":
        return [draw(_sampled(["#", "# comment", "#c", "#SBATCH", "# --time=5"]))]
    if kind == "unmatched":
        return [draw(_sampled(['"', "'", '"abc', "a'b", '-J "x', "--comment='y"]))]
    if kind == "backslash":
        return [draw(_sampled(["\\", "a\\ b", "\\-J", "-J\\ x", "\\#", "--comment=a\\#b", '-J a\\"b']))]
    # an option that needs an argument, written last (the value may come on the next line)
    # (never one of a _CONFLICTS set: a stray word after it could make it valid)
    return [draw(_sampled(["-J", "--job-name", "-n", "-p", "--array", "--comment", "-o", "--mail-user"]))]


@st.composite
def sbatch_header_items(draw: st.DrawFn) -> list[list[str]]:
    """A list of items (each a list of rendered words) for one script's directives.

    Options of one `_CONFLICTS` set are never mixed (cross-option checks are
    out of scope); repeating the same option is fine (the last one wins).
    """
    n = draw(st.integers(0, 7))
    items: list[list[str]] = []
    chosen: set[str] = set()
    for _ in range(n):
        what = draw(_sampled(["opt"] * 6 + ["bundle", "noise", "noise"]))
        if what == "bundle":
            items.append(draw(sbatch_bundle_words(chosen)))
            continue
        if what == "noise":
            items.append(draw(sbatch_noise_words()))
            continue
        name = draw(_sampled(_LONG_NAMES))
        if _conflicts(name, chosen):
            continue
        chosen.add(name)
        items.append(draw(sbatch_option_words(name)))
    return items


_IGNORED_LINES = (
    "# SBATCH --bogus", "#sbatch --bogus", "  #SBATCH --bogus", "\t#SBATCH --bogus", "##SBATCH --bogus",
    "# a comment", "#", "", "   ", "#!/bin/other", "#SBATCh --x",
)


@st.composite
def sbatch_header_lines(draw: st.DrawFn) -> list[str]:
    """Directive lines: the items' words split at arbitrary points, so a value may
    sit on the line after its option; plus ignored look-alikes and comments."""
    items = draw(sbatch_header_items())
    words = [w for item in items for w in item]
    lines: list[str] = []
    i = 0
    while i < len(words) or (not lines and not words):
        take = draw(st.integers(1, 4))
        chunk = words[i:i + take]
        i += take
        prefix = draw(_sampled(["#SBATCH "] * 12 + ["#SBATCH\t", "#SBATCH  ", "#SBATCH", "#SLURM "]))
        if prefix == "#SBATCH" and chunk and not chunk[0].startswith("-"):
            prefix = "#SBATCH "  # `#SBATCHFOO` is its own case below
        sep = draw(_sampled([" "] * 6 + ["  ", "\t"]))
        tail = draw(_sampled([""] * 10 + [" # comment", "   # ten minutes", " #", "\t#x", " "]))
        lines.append(prefix + sep.join(chunk) + tail)
        if draw(st.integers(0, 9)) == 0:
            lines.append(draw(_sampled(_IGNORED_LINES + ("#SBATCHFOO", "#SBATCH", "#SBATCH hetjob"))))
        if not words:
            break
    return lines


_BODIES = (
    "true\n", "echo hello\n", "srun hostname\n",
    "echo start\n#SBATCH --bogus-after-command\nsrun true\n",
    "\n\n# trailing\n", "hostname\n#SBATCH -J late\n",
)


@st.composite
def sbatch_scripts(draw: st.DrawFn) -> str:
    """A batch script with a correct `#!` line: header directives, then a body."""
    shebang = draw(_sampled(["#!/bin/bash"] * 6 + ["#!/bin/sh", "#! /bin/bash -l", "#!/usr/bin/env bash"]))
    lines = draw(sbatch_header_lines())
    mid = draw(_sampled(["", "", "", "\n", "# comment\n", "\n   \n"]))
    return shebang + "\n" + mid + "".join(line + "\n" for line in lines) + draw(_sampled(_BODIES))


_SCRIPT_START_OK = ("#!/bin/bash\n", "#!/bin/sh\n", "#!\n", "#!bash\n")
_SCRIPT_START_ODD = ("", "\ufeff#!/bin/bash\n", " #!/bin/bash\n", "\t#!/bin/bash\n", "#/bin/bash\n", "echo hi\n",
                     "# !/bin/bash\n", "\n#!/bin/bash\n", "#!/bin/bash", "! #\n")


@st.composite
def sbatch_odd_scripts(draw: st.DrawFn) -> str | bytes:
    """Script-level cases: empty, whitespace-only, no/indented `#!`, BOM, NUL, CRLF, lone CR,
    `#SLURM`, directives after the first command and ignored `# SBATCH` look-alikes."""
    kind = draw(_sampled(
        ["empty", "space", "start", "nul", "crlf", "cr", "late", "lookalike", "slurm", "bytes"]
    ))
    if kind == "empty":
        return ""
    if kind == "space":
        return "".join(draw(st.lists(_sampled([" ", "\t", "\n", "\v", "\f", "\r"]), min_size=1, max_size=6)))
    header = draw(st.lists(_sampled([
        "#SBATCH -t 5", "#SBATCH --bogus", "#SBATCH -J x", "# SBATCH --bogus", "#sbatch --time=x",
        "  #SBATCH --nodes=abc", "#SLURM --time=5", "#SLURM --time=1h", "#SLURM --bogus", "", "# c",
    ]), max_size=4))
    body = draw(_sampled(_BODIES + ("", "echo a\r\n", "x\x00y\n")))
    start = draw(_sampled(_SCRIPT_START_OK + _SCRIPT_START_ODD if kind == "start" else _SCRIPT_START_OK))
    text = start + "".join(h + "\n" for h in header) + body
    if kind == "nul":
        i = draw(st.integers(0, len(text)))
        text = text[:i] + "\x00" + text[i:]
    elif kind in ("crlf", "cr"):
        nl = [i for i, c in enumerate(text) if c == "\n"]
        if nl:
            i = draw(_sampled(nl))
            text = text[:i] + "\r" + text[i:] if kind == "crlf" else text[:i] + "\r" + text[i:].replace("\n", " ", 1)
    elif kind == "late":
        text += draw(_sampled(["#SBATCH --bogus\n", "#SBATCH -t 1h\n", "#SBATCH --nod=2\n"]))
    elif kind == "lookalike":
        text = start + draw(_sampled(_IGNORED_LINES)) + "\n" + "#SBATCH -J ok\n" + body
    elif kind == "slurm":
        slurm = draw(_sampled(["#SLURM -t 5", "#SLURM -t 1h", "#SLURM --nod=2", "#SLURMX -t 5"]))
        text = start + slurm + "\n" + body
    elif kind == "bytes":
        return text.encode("utf-8") + draw(_sampled([b"\xff\xfe", b"\xc3", b"\xe9\n"]))
    return text


# Conflict-heavy headers for the cross-option differential test: the options
# sbatch checks against each other (memory triplet, the GPU counts and their
# geometry, --ntasks-per-gpu, core/thread spec, bb/bbf, begin/deadline,
# arbitrary distribution, node lists, exclusive/oversubscribe, -v/-Q...), with
# small values so that the answer seldom depends on the cluster. Options repeat
# freely, several share a line, some lines come after the first command
# (ignored) and some scripts are hetjobs. Two `now+` values never have the same
# offset: sbatch reads the clock once per option, so equal offsets would race.
_CONFLICT_VALUES: dict[str, tuple[str, ...] | None] = {
    "--mem": ("1G", "2G", "500M"),
    "--mem-per-cpu": ("1G", "512M"),
    "--mem-per-gpu": ("1G", "4G"),
    "--cpus-per-gpu": ("1", "2", "4"),
    "-c": ("1", "2", "4"),
    "--gpus": ("0", "1", "2", "3", "4", "6", "8", "v100:2", "v100:4", "a100:2", "a100:8", "2,1", "1,2"),
    "--gpus-per-node": ("0", "1", "2", "3", "4", "v100:2", "a100:4"),
    "--gpus-per-task": ("1", "2", "3", "v100:1", "a100:2"),
    "--gpus-per-socket": ("1", "2", "v100:1"),
    "--gres": ("gpu:1", "gpu:2", "gpu:3", "gpu:4", "gpu:v100:2", "gpu:a100:4", "none", "gpu:0", "gpu:2,gpu:1"),
    "-n": ("1", "2", "3", "4", "8"),
    # (not -N 0: GPU counts derived from a zero node count have corners of
    # their own, e.g. "Can't set num_tasks = gpus * *ntasks_per_tres because
    # there are no allocated GPUs", that slurmspec does not model)
    "-N": ("1", "2", "3", "4", "1-2", "2-3", "1-4", "2-2"),
    "--ntasks-per-node": ("1", "2", "4"),
    "--ntasks-per-gpu": ("1", "2"),
    "--ntasks-per-tres": ("1", "2", "3"),
    "--sockets-per-node": ("1", "2"),
    "--ntasks-per-socket": ("1", "2"),
    "-B": ("2:1:1", "1"),
    "--core-spec": ("1",),
    "--thread-spec": ("1",),
    "--bb": ("capacity=1G",),
    "--bbf": ("/etc/passwd",),
    "--begin": ("2031-01-02", "2031-01-01T10:00", "now+1hour", "now+2hours", "uts1924992000"),
    "--deadline": ("2031-01-01", "2031-01-03", "2031-01-01T09:00", "now+90minutes", "now+3hours"),
    "-m": ("arbitrary", "block", "cyclic", "Arbitrary", "arbitrary,pack"),
    "-w": ("v100-01", "v100-[01-02]", "v100-[01-03]", "v100-01,v100-02", "a100-[01-02],a100-03",
           "v100-01,v100-01", "cpu-[001-004]"),
    "--exclusive": None,
    "-s": None,
    "--ntasks-per-core": ("1", "2"),
    "--threads-per-core": ("1", "2"),
    "-v": None,
    "-Q": None,
    "-t": ("10", "1:00:00"),
    "--time-min": ("5", "2:00:00"),
    "-J": ("conflicts",),
}
# Pairs sbatch checks, so that conflicting combinations come up often.
_CONFLICT_PAIRS = (
    ("--mem", "--mem-per-cpu"), ("--mem", "--mem-per-gpu"), ("--mem-per-cpu", "--mem-per-gpu"),
    ("--cpus-per-gpu", "-c"), ("--gpus-per-task", "-N"), ("--gpus-per-task", "-n"), ("--gpus", "-N"),
    ("--gpus", "--gpus-per-node"), ("--gpus", "--gres"), ("--gpus", "--gpus-per-task"),
    ("--gres", "--gpus-per-task"), ("--gpus-per-node", "--gres"), ("--mem-per-gpu", "--gpus"),
    ("--ntasks-per-gpu", "--gpus-per-task"), ("--ntasks-per-gpu", "--ntasks-per-node"),
    ("--ntasks-per-gpu", "--ntasks-per-tres"), ("--gpus-per-socket", "--sockets-per-node"),
    ("-m", "-w"), ("-w", "-N"), ("--exclusive", "-s"), ("--core-spec", "--thread-spec"), ("--bb", "--bbf"),
    ("--begin", "--deadline"), ("--ntasks-per-core", "--threads-per-core"), ("-v", "-Q"),
)


@st.composite
def _conflict_item(draw: st.DrawFn, name: str) -> str:
    values = _CONFLICT_VALUES[name]
    if values is None:
        return name
    value = draw(_sampled(values))
    if name.startswith("--"):
        return draw(_sampled([f"{name}={value}", f"{name}={value}", f"{name} {value}"]))
    return draw(_sampled([f"{name} {value}", f"{name}{value}"]))


@st.composite
def sbatch_conflict_scripts(draw: st.DrawFn) -> str:
    """A script whose header mixes options sbatch checks against each other."""
    names: list[str] = []
    for _ in range(draw(st.integers(0, 3))):
        names.extend(draw(_sampled(_CONFLICT_PAIRS)))
    names.extend(draw(st.lists(_sampled(tuple(_CONFLICT_VALUES)), max_size=5)))
    names = draw(st.permutations(names)) if names else names
    items = [draw(_conflict_item(name)) for name in names]
    lines: list[str] = []
    i = 0
    while i < len(items):
        take = draw(st.integers(1, 3))
        lines.append("#SBATCH " + " ".join(items[i:i + take]))
        i += take
    # Not with --bbf: sbatch 22.05.8 then skips the checks of later hetjob
    # components (`--bbf=F`, `hetjob`, `--mem=1G --mem-per-cpu=1G` is accepted),
    # an oddity slurmspec does not model.
    if lines and "--bbf" not in names and draw(st.integers(0, 5)) == 0:
        lines.insert(draw(st.integers(1, len(lines))), "#SBATCH hetjob")
    late = [draw(_conflict_item(n)) for n in draw(st.lists(_sampled(tuple(_CONFLICT_VALUES)), max_size=2))]
    body = "srun true\n" + "".join(f"#SBATCH {item}\n" for item in late)
    return "#!/bin/bash\n" + "".join(line + "\n" for line in lines) + body


# =====================================================================
# --- autofix strategies (tests/fix/): broken-but-fixable scripts ---
# =====================================================================
# A script is built as (shebang, header lines, body lines) and then mutated
# by problems that `slurmspec lint --fix [--unsafe-fixes]` is meant to repair:
# CRLF, a missing/indented `#!`, late directives, exact duplicates, near-miss
# prefixes, duplicate --constraint, --mem beside --mem-per-gpu, --gres=gpu:N
# beside --gpus-per-node=N, misspelt options, --tasks-per-node, an unquoted
# `#`, srun geometry that does not match the request.  `fixable_cases()`
# returns (script, mutation kinds) so a test can tell which problems it made.

# Directive items sbatch 22.05 accepts on the test cluster (tests/slurm_cluster.py)
# when submitted with --partition=all: small resources, known features. Each
# group is a conflict set (`--mem` vs `--mem-per-cpu`, the GPU options): at most
# one item per group goes into a header.
_VALID_ITEM_GROUPS: dict[str, tuple[str, ...]] = {
    "time": ("-t 10", "--time=1:00:00", "--time 30", "-t 0:30"),
    "name": ("-J fixjob", "--job-name=fix-me", "--job-name fixjob"),
    "nodes": ("-N 1", "--nodes=1", "--nodes=1-2"),
    "tasks": ("-n 2", "--ntasks=1", "--ntasks 4"),
    "cpus": ("-c 2", "--cpus-per-task=1"),
    "mem": ("--mem=1G", "--mem=500M", "--mem-per-cpu=512M"),
    "gpu": ("--gres=gpu:1", "--gpus-per-node=1", "--gres=gpu:v100:1", "--gpus=1"),
    "mail": ("--mail-type=END", "--mail-type=BEGIN,FAIL"),
    "signal": ("--signal=USR1@60", "--signal=B:USR2"),
    "array": ("--array=1-3", "-a 0-7%2"),
    "output": ("-o slurm-%j.out", "--output=out.txt"),
    "requeue": ("--requeue", "--no-requeue"),
    "misc": ("--comment=hello", "--open-mode=append", "--hint=nomultithread", "--export=ALL", "--nice=5",
             "--distribution=block", "--dependency=singleton", "--kill-on-invalid-dep=yes"),
}
_FIX_BODIES = (
    ("srun hostname",), ("echo hello",), ("true",), ("module load foo", "srun python train.py"),
    ("cd $SLURM_SUBMIT_DIR", "echo start", "srun true"),
)


@st.composite
def valid_header_lines(draw: st.DrawFn) -> list[str]:
    """`#SBATCH` lines that sbatch 22.05 accepts (one item per conflict group, 1-3 items a line)."""
    groups = draw(st.lists(_sampled(sorted(_VALID_ITEM_GROUPS)), unique=True, max_size=6))
    items = [draw(_sampled(_VALID_ITEM_GROUPS[g])) for g in groups]
    lines, i = [], 0
    while i < len(items):
        take = draw(st.integers(1, 3))
        lines.append("#SBATCH " + " ".join(items[i:i + take]))
        i += take
    return lines


def _has(lines: list[str], *needles: str) -> bool:
    return any(n in line for line in lines for n in needles)


# kind -> header lines to add; `None` marks the kinds handled in fixable_cases().
# Misspellings are one edit away from exactly one real long option.
# (Not prefixes of a real name: sbatch accepts those as abbreviations.)
_MISSPELT = ("--tiem=10", "--job-nmae=x", "--partiton=all", "--mail-tpye=END", "--commnet=hi", "--nodse=1",
             "--ntaskss=1")
# What each misspelling's correction is checked against: a generated header that already sets one
# of these may conflict with the corrected option (`--tiem=10` -> `--time=10` under `--time-min=2-`
# makes SB123), and the fix loop rightly refuses such a fix.
_MISSPELT_RELATED = {"--tiem=10": ("time", "-t"), "--nodse=1": ("node", "-N", "-w", "task", "-n", "gpu"),
                     "--ntaskss=1": ("task", "-n", "node", "-N", "gpu", "cpu", "-c", "mem")}
_NEAR_MISS = ("#SBATCh --time=10", "#sbatch -J nm", "#Sbatch --comment=nm", "  #SBATCH --nice=3", "#SBTACH --comment=nm")
FIX_KINDS = (
    "crlf", "no-shebang", "indented-shebang", "late", "duplicate", "near-miss", "constraint", "mem-gpu",
    "gres-gpn", "misspelt", "tasks-per-node", "hash", "geometry",
)
# Kinds whose broken form real sbatch 22.05 rejects (the rest sbatch accepts).
FIX_KINDS_REJECTED = ("crlf", "no-shebang", "indented-shebang", "misspelt", "mem-gpu")


@st.composite
def fixable_cases(draw: st.DrawFn, valid: bool = False, kinds: tuple[str, ...] = FIX_KINDS,
                  required: tuple[str, ...] = ()) -> tuple[str, tuple[str, ...]]:
    """(script, kinds applied): a header made broken by 1-3 fixable mutations
    (at least one of ``required``, when given).

    ``valid``: start from `valid_header_lines()` (sbatch accepts it) and only
    add mutations that keep the other directives valid; otherwise the header
    is any generated one (`sbatch_header_lines()`), broken or not.
    """
    shebang = draw(_sampled(["#!/bin/bash", "#!/bin/bash", "#!/bin/sh", "#!/usr/bin/env bash"]))
    header = draw(valid_header_lines()) if valid else draw(st.one_of(valid_header_lines(), sbatch_header_lines()))
    body = list(draw(_sampled(_FIX_BODIES)))
    chosen = draw(st.lists(_sampled(kinds), min_size=1, max_size=3, unique=True))
    if required and not set(chosen) & set(required):
        chosen[0] = draw(_sampled(required))
        chosen = list(dict.fromkeys(chosen))
    # Late and duplicate lines come from the base header, before the other mutations
    # add theirs (a misspelt option moved after the first command would be ignored).
    chosen.sort(key=lambda kind: kind not in ("late", "duplicate"))
    applied = []
    late: list[str] = []
    for kind in chosen:
        if kind == "duplicate" and header:
            i = draw(st.integers(0, len(header) - 1))
            header.insert(draw(st.integers(i + 1, len(header))), header[i])
        elif kind == "late" and header:
            late.append(header.pop(draw(st.integers(0, len(header) - 1))))
        elif kind == "near-miss":
            header.insert(draw(st.integers(0, len(header))), draw(_sampled(_NEAR_MISS)))
        elif kind == "constraint" and not _has(header + late, "-C", "--constraint"):
            header += [draw(_sampled(["#SBATCH --constraint=ib", "#SBATCH -C v100"])),
                       draw(_sampled(["#SBATCH --constraint=v100", "#SBATCH -C skylake"]))]
        elif kind == "mem-gpu" and not _has(header + late, "--mem", "--gres", "--gpus"):
            header += ["#SBATCH --gpus-per-node=1", "#SBATCH --mem=1G", "#SBATCH --mem-per-gpu=4G"]
        elif kind == "gres-gpn" and not _has(header + late, "--gres", "--gpus"):
            n = draw(_sampled(["1", "2"]))
            header += [f"#SBATCH --gres=gpu:{n}", f"#SBATCH --gpus-per-node={n}"]
        elif kind == "misspelt":
            misspelt = draw(_sampled(_MISSPELT))
            if _has(header + late, *_MISSPELT_RELATED.get(misspelt, ())):
                continue
            header.insert(draw(st.integers(0, len(header))), "#SBATCH " + misspelt)
        elif kind == "tasks-per-node" and not _has(header + late, "tasks-per-node", "-n ", "--ntasks", "-N ", "--nodes"):
            header.append("#SBATCH --tasks-per-node=1")
        elif kind == "hash" and not _has(header + late, "-J", "--job-name"):
            header.append("#SBATCH " + draw(_sampled(["-J run#1 --time=5", "--job-name=a#b -t 5"])))
        elif kind == "geometry" and not _has(header + late, "--gres", "--gpus", "-n", "--ntasks", "-N", "--nodes"):
            header += ["#SBATCH -N 1 --gpus-per-node=2"]
            body = [draw(_sampled(["srun -n 8 python train.py", "srun --ntasks-per-node=4 python x.py",
                                          "srun torchrun --nproc_per_node=2 train.py"]))]
        elif kind in ("crlf", "no-shebang", "indented-shebang"):
            pass  # applied when rendering
        else:
            continue
        applied.append(kind)
    if not applied or (required and not set(applied) & set(required)):
        applied.append("crlf")  # every case has a problem to fix (a required one; CRLF always applies)
    if late:
        body = body[:1] + late + body[1:]
    lines = ([] if "no-shebang" in applied else [shebang]) + header + body
    text = "".join(line + "\n" for line in lines)
    if "indented-shebang" in applied:
        text = draw(_sampled([" ", "\t", "  ", "\n", "\n\n", " \n", "\ufeff"])) + text
    if "crlf" in applied:
        breaks = [i for i, c in enumerate(text) if c == "\n"]
        every = draw(st.booleans())
        picked = set(breaks) if every else set(draw(st.lists(_sampled(breaks), min_size=1, unique=True)))
        text = "".join("\r\n" if i in picked else c for i, c in enumerate(text))
    return text, tuple(applied)


def fixable_scripts() -> st.SearchStrategy[str]:
    """Broken-but-fixable scripts, plus the generic script shapes (for fix properties)."""
    return st.one_of(
        fixable_cases().map(lambda case: case[0]),
        fixable_cases().map(lambda case: case[0]),
        sbatch_scripts(),
        sbatch_odd_scripts().map(lambda s: s if isinstance(s, str) else s.decode("utf-8", "surrogateescape")),
        script_texts(),
    )


# =====================================================================
# --- report strategies (tests/report/): file names that formats must escape ---
# =====================================================================
# Paths end up inside workflow commands (`,` `:` `%` are separators there),
# URIs (spaces, `#`, `?`, non-ASCII) and JSON; a path is never empty. A file
# name may hold anything but `/` and NUL: terminal escapes, line breaks, bidi
# overrides, and bytes that are not UTF-8 (os.fsdecode: "\udcff").
HOSTILE_NAME_PARTS = ("\x1b[2J", "\x1b]0;title\x07", "\x07", "a\nb", "\r", "\x0b", "\x85", "\x9b31m", "\u202e",
                      "\u2066", "\u2028", "\udcff", "\udc80x", "\x7f")
# What none of them may put out raw, in any format: controls but tab and newline, C1, bidi
# controls, line/paragraph separators, lone surrogates (output that is not UTF-8).
RAW_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                          "\u2028\u2029\ud800-\udfff]")
report_paths = st.lists(
    st.one_of(
        _sampled(["jobs", "a b", "x,y", "c:d", "50%", "é", "🚀", "#tag", "q?", "..", "-"]),
        _sampled(HOSTILE_NAME_PARTS),
        st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=8).filter(
            lambda part: "/" not in part),
    ),
    min_size=1, max_size=3,
).map(lambda parts: "/".join(parts) + ".sbatch")


# --- job specs (slurmspec.spec) ---
from slurmspec.spec.values import shell_syntax  # noqa: E402
# Valid TOML job specs as plain data (what tomllib would return): every launch
# kind with the geometry it needs, the workflow sections, raw options, hetjobs.
# Free-text values are hostile on purpose: quotes, `$(...)`, backticks, `#`,
# `;`, newlines (body values only: a header value cannot hold a line break).
_HOSTILE = ("'", '"', "$(touch CANARY)", "`touch CANARY`", "$((1+1))", "${X}", "$SLURM_JOB_ID", ";", "&&",
            "#", "\\", " ", "\t", "*", "?", "~", "!", "|", ">", "<", "é", "\u00a0", "x", "--", "=", ",", "%")


def hostile_text(newlines: bool = True, min_size: int = 0) -> st.SearchStrategy[str]:
    pieces = _HOSTILE + (("\n", "\r\n"),)[0] if newlines else _HOSTILE
    return st.lists(st.one_of(_sampled(pieces), st.text(st.characters(
        blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=4)), min_size=min_size, max_size=8).map("".join) \
        .filter(lambda s: len(s) >= min_size)


_IDENT = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True)
_GPU_KINDS = ("srun", "horovod", "lightning", "deepspeed")
_RAW_OPTIONS = ("--exclude=node[1-2]", "--comment=nightly run", "--reservation=maint", "--wckey=proj",
                "--nice=10", "--open-mode=append", "--kill-on-invalid-dep=yes", "--hint=nomultithread")


@st.composite
def job_spec_data(draw: st.DrawFn) -> dict:
    kind = draw(_sampled(("torchrun", "srun", "horovod", "lightning", "accelerate",
                                 "deepspeed", "mpi", "plain")))
    data: dict = {"job": {}, "resources": {}, "launch": {"kind": kind}}
    job, res, launch = data["job"], data["resources"], data["launch"]
    # sbatch takes header values literally, so `$(...)`/backticks there are refused by the loader.
    job["name"] = draw(hostile_text(newlines=False, min_size=1).filter(
        lambda s: s.strip() == s and s and not shell_syntax(s)))
    job["partition"] = draw(_sampled(("gpu", "a100", "debug")))
    job["time"] = draw(_sampled(("30", 90, "1:00:00", "1-00:00:00", "45:00")))
    job["output"] = "slurm-%j.out"
    if draw(st.booleans()):
        job["mail_type"] = draw(_sampled(("END,FAIL", ["BEGIN", "END"], "ALL")))
        job["mail_user"] = "me@example.org"
    if draw(st.booleans()):
        job["account"] = draw(_IDENT)
    if draw(st.booleans()):
        job["requeue"] = draw(st.booleans())
    if draw(st.booleans()):
        job["signal"] = draw(_sampled(("B:USR1@300", "USR2@60")))
    res["nodes"] = draw(st.integers(1, 4))
    gpn = draw(_sampled((None, 1, 2, 4, 8)))
    if kind in ("torchrun", "accelerate"):
        res["ntasks_per_node"] = 1
        if gpn is None:
            launch["procs_per_node"] = draw(st.integers(1, 4))
    elif kind in (*_GPU_KINDS, "mpi") and gpn is not None:
        res["ntasks_per_node"] = gpn  # one rank per GPU (a mismatch is lint's SB311)
    elif kind == "plain" and gpn is not None:
        gpn = 1  # one process using several GPUs is lint's SB310, a warning
    elif draw(st.booleans()):
        res["ntasks_per_node"] = draw(st.integers(1, 4))
    if gpn is not None:
        res["gpus_per_node"] = gpn
        if draw(st.booleans()):
            res["gpu_type"] = draw(_sampled(("a100", "v100")))
    if draw(st.booleans()):
        res["cpus_per_task"] = draw(st.integers(1, 8))
    if draw(st.booleans()):
        res["mem"] = draw(_sampled(("16G", 32000, "64G")))
    if draw(st.booleans()):
        res["constraint"] = draw(_sampled((["ib"], ["a100", "ib"], "[rack1|rack2]", "ib&rome")))
    if draw(st.booleans()):
        res["exclusive"] = True
    launch["program"] = draw(st.one_of(st.just("train.py"), hostile_text(min_size=1).map(lambda s: s + ".py"),
                                       hostile_text(min_size=1)))
    launch["args"] = draw(st.lists(hostile_text(), max_size=4))
    if draw(st.booleans()):
        launch["python"] = draw(_sampled(("python3", "/opt/venv/bin/python")))
    if kind in ("mpi", "horovod") and draw(st.booleans()):
        launch["launcher"] = "mpirun" if kind == "mpi" else "horovodrun"
        res.setdefault("ntasks_per_node", gpn or 2)  # -np "$SLURM_NTASKS" needs a task count
    elif kind in ("mpi", "horovod") and draw(st.booleans()):
        launch["mpi"] = "pmix"
    if draw(st.booleans()) and launch.get("launcher") is None:
        container = {"image": draw(hostile_text(min_size=1))}
        if draw(st.booleans()):
            container["runtime"] = draw(_sampled(("pyxis", "apptainer")))
        if draw(st.booleans()):
            container["mounts"] = draw(st.lists(hostile_text(min_size=1), min_size=1, max_size=2))
        launch["container"] = container
    if draw(st.booleans()):
        data["env"] = draw(st.dictionaries(_IDENT, hostile_text(), max_size=3))
    if draw(st.booleans()):
        data["staging"] = {"inputs": draw(st.lists(hostile_text(min_size=1), min_size=1, max_size=3))}
        if draw(st.booleans()):
            data["staging"]["dest"] = draw(hostile_text(min_size=1))
    if draw(st.booleans()):
        data["checkpoint"] = {"persistent": draw(hostile_text(min_size=1)),
                              "interval": draw(st.integers(10, 3600))}
    if draw(st.booleans()):
        data["monitor"] = {"gpu": True, "tensorboard": draw(hostile_text(min_size=1))}
    if draw(st.booleans()):
        data["chain"] = {"count": draw(st.integers(1, 5))}
    if draw(st.booleans()):
        data["sbatch"] = {"options": draw(st.lists(_sampled(_RAW_OPTIONS), max_size=3, unique=True)),
                          "lines": ["# " + draw(hostile_text(newlines=False))]}
    return data


# ---------------------------------------------------------------- node names (tests/cluster/test_hostlist.py)
@st.composite
def node_names(draw: st.DrawFn) -> list[str]:
    """Node names as sites spell them: a prefix, an optional zero-padded or plain number, an optional suffix."""
    prefixes = _sampled(["a", "a100-", "cpu", "gpu-n", "r1n", "node", "x-1-", "login"])
    names = []
    for _ in range(draw(st.integers(0, 30))):
        prefix = draw(prefixes)
        if draw(st.booleans()) and draw(st.integers(0, 9)) == 0:
            names.append(prefix.rstrip("-") or "n")  # no number at all
            continue
        number = draw(st.integers(0, 1200))
        width = draw(_sampled([0, 0, 2, 3, 4]))
        suffix = draw(_sampled(["", "", "", "-ib", "b"]))
        names.append(f"{prefix}{str(number).zfill(width)}{suffix}")
    return names


# --- cluster requests (tests/cluster/test_differential_cluster.py) ---
# Headers that ask a cluster for partitions, times, node counts and shapes, GPUs by type, GRES,
# features, node lists and arrays, with values around the limits of the cluster they are drawn
# for (`ClusterFacts`, read from its profile): about half the values fit, half sit just past a
# limit. One option per line; the memory options and --cpus-per-gpu/--cpus-per-task are never
# combined (sbatch refuses those pairs itself, which tests/test_differential_sbatch.py covers).
class ClusterFacts:
    """What the strategy draws names and limits from: one cluster's profile."""

    def __init__(self, profile) -> None:
        self.partitions = tuple(p.name for p in profile.partitions)
        self.up = tuple(p.name for p in profile.partitions if p.state.upper() == "UP")
        self.members = {p.name: tuple(p.nodes) for p in profile.partitions}
        self.nodes = tuple(profile.nodes)
        self.features = tuple(sorted({f for s in profile.shapes for f in s.features}))
        self.gpu_types = tuple(sorted({g.type for s in profile.shapes for g in s.gres if g.name == "gpu" and g.type}))
        self.gres = tuple(sorted({g.name for s in profile.shapes for g in s.gres if g.name != "gpu"}))
        self.max_array_size = profile.config.max_array_size
        times = {p.max_time for p in profile.partitions if p.max_time} | {
            p.default_time for p in profile.partitions if p.default_time}
        self.minutes = tuple(sorted(times | {t + 1 for t in times} | {10}))
        self.short = tuple(sorted(t for t in times | {10} if t <= 60))


def _clock(minutes: int) -> str:
    days, rest = divmod(minutes, 1440)
    text = f"{rest // 60:02d}:{rest % 60:02d}:00"
    return f"{days}-{text}" if days else text


# Hypothesis draws floats and integers near their bounds far more often than uniformly;
# an index into a range is close enough to uniform for the odds below.
_PERCENT = _sampled(range(100))


def _pick(draw: st.DrawFn, usual: tuple, edgy: tuple, edgy_odds: float = 0.4):
    """A usual value, or one past a limit with probability `edgy_odds`."""
    return draw(_sampled(edgy if draw(_PERCENT) < edgy_odds * 100 else usual))


@st.composite
def _cluster_gpu_lines(draw: st.DrawFn, facts: ClusterFacts) -> list[str]:
    typed = _pick(draw, (None, *facts.gpu_types), ("h100",), 0.1)
    count = _pick(draw, (1, 1, 2, 4), (5, 8, 9, 16, 17))
    item = f"{typed}:{count}" if typed else str(count)
    option = draw(_sampled(("gres", "gpus-per-node", "gpus", "gpus-per-task")))
    return [f"--gres=gpu:{item}" if option == "gres" else f"--{option}={item}"]


@st.composite
def _cluster_constraint(draw: st.DrawFn, facts: ClusterFacts) -> str:
    a, b, c = (_pick(draw, facts.features, ("nosuch",), 0.05) for _ in range(3))
    return draw(_sampled((a, a, f"{a}&{b}", f"{a}|{b}", f"[{a}|{b}]", f"({a}|{b})&{c}", f"{a}*2", f"{a}*3")))


@st.composite
def _cluster_nodes(draw: st.DrawFn, facts: ClusterFacts, partition: str | None) -> str:
    pool = facts.members.get(partition or "", ()) or facts.nodes
    pool = _pick(draw, (pool,), ((*facts.nodes, "nonode"),), 0.2)
    picks = draw(st.lists(_sampled(pool), min_size=1, max_size=3, unique=True))
    return ",".join(picks)


@st.composite
def cluster_request_scripts(draw: st.DrawFn, facts: ClusterFacts) -> str:
    """One batch script asking the cluster of `facts` for resources (see the section comment)."""
    lines: list[str] = []

    def maybe(p: float) -> bool:
        return draw(_PERCENT) < p * 100

    names: list[str] = []
    if maybe(0.9):
        # Mostly partitions that are up: a DOWN one makes the controller skip most checks.
        pool = _pick(draw, (facts.up,), ((*facts.partitions, "nosuch"),), 0.25)
        names = draw(st.lists(_sampled(pool), min_size=1, max_size=draw(_sampled((1, 1, 1, 2))),
                              unique=True))
        lines.append(f"--partition={','.join(names)}")
    if maybe(0.7):
        lines.append("--time=" + _pick(draw, tuple(map(_clock, facts.short)),
                                       (*map(_clock, facts.minutes), "UNLIMITED"), 0.5))
    if maybe(0.12):
        lines.append("--time-min=" + _clock(draw(_sampled(facts.minutes))))
    if maybe(0.35):
        lines.append("--nodes=" + _pick(draw, ("1", "1", "2", "1-2"), ("3", "4", "5", "7", "13", "2-3", "1-3")))
    if maybe(0.3):
        lines.append(f"--ntasks={_pick(draw, (1, 2, 4), (3, 9, 65, 100))}")
    if maybe(0.3):
        lines.append(f"--ntasks-per-node={_pick(draw, (1, 2, 4), (10, 33, 48, 64, 65))}")
    gpus = maybe(0.35)
    if gpus:
        lines += draw(_cluster_gpu_lines(facts))
    if maybe(0.35):
        lines.append(f"--cpus-per-task={_pick(draw, (1, 2, 4, 8), (3, 5, 16, 32, 33, 40, 48, 49, 64, 65))}")
    elif gpus and maybe(0.3):
        lines.append(f"--cpus-per-gpu={_pick(draw, (1, 4, 8), (9, 16, 32, 33, 64, 65))}")
    if maybe(0.35):
        memory = draw(_sampled(("mem", "mem-per-cpu") + (("mem-per-gpu",) if gpus else ())))
        usual, edgy = {
            "mem": (("0", "1000", "4G", "64G"), ("96001", "100000", "150G", "192000", "256000", "256001", "300G")),
            "mem-per-cpu": (("500", "1000", "2000"), ("3000", "4000", "8000", "64001", "128001")),
            "mem-per-gpu": (("1000", "10G"), ("60000", "64001", "100G")),
        }[memory]
        lines.append(f"--{memory}={_pick(draw, usual, edgy)}")
    if facts.gres and maybe(0.06):
        lines.append(f"--gres={_pick(draw, facts.gres, ('foo',), 0.2)}:{draw(_sampled((1, 2, 3)))}")
    if maybe(0.2):
        lines.append("--constraint=" + draw(_cluster_constraint(facts)))
    if maybe(0.12):
        lines.append(draw(_sampled((
            "--hint=nomultithread", "--threads-per-core=1", "--threads-per-core=2", "--sockets-per-node=1",
            "--sockets-per-node=3", "--cores-per-socket=16", "--cores-per-socket=25", "--cores-per-socket=33",
            "--extra-node-info=2:16:2", "--extra-node-info=2:24:1", "--mincpus=64", "--mincpus=65"))))
    if maybe(0.08):
        lines.append("--nodelist=" + draw(_cluster_nodes(facts, names[0] if names else None)))
    if maybe(0.06):
        lines.append("--exclude=" + draw(_cluster_nodes(facts, names[0] if names else None)))
    if maybe(0.08):
        m = facts.max_array_size
        lines.append("--array=" + _pick(draw, ("0-3%2", "1-10", f"{m - 1}", f"1-10:{m - 1}"),
                                        (f"0-{m}", f"{m}", f"1-10:{m}", f"0-{m}:2")))
    if maybe(0.06):
        lines.append("--signal=" + draw(_sampled(("R:USR1@60", "B:USR1@60", "RB:USR1@60", "USR1@60"))))
    order = draw(st.permutations(lines))
    return "#!/bin/bash\n" + "".join(f"#SBATCH {line}\n" for line in order) + "true\n"


# ---------------------------------------------------------------- invocations (tests/test_invocation_sbatch.py)
# Option -> (short letter or "", values for #SBATCH lines and the command line (None: a flag),
#            its SBATCH_* variable or None, values for that variable). Values stay clear of the
# test cluster's limits, so sbatch's verdict depends on the options, not on the nodes.
INVOKED_OPTIONS: dict[str, tuple[str, tuple[str, ...] | None, str | None, tuple[str, ...]]] = {
    "time": ("t", ("5", "9", "10:00", "1-0", "2h", "", "x"), "SBATCH_TIMELIMIT", ("7", "1:00:00", "2h", "")),
    "job-name": ("J", ("s", "c", "a b"), "SBATCH_JOB_NAME", ("e", "e f", "")),
    "comment": ("", ("sc", "cc"), None, ()),
    "mem": ("", ("1G", "2G", "1024", "1.5G"), "SBATCH_MEM_PER_NODE", ("1G", "3G", "x")),
    "mem-per-cpu": ("", ("1G", "512M", "1.5G"), "SBATCH_MEM_PER_CPU", ("2G", "1G", "")),
    "requeue": ("", None, "SBATCH_REQUEUE", ("", "yes", "no", "0", "2", "-1", "1x")),
    "no-requeue": ("", None, "SBATCH_NO_REQUEUE", ("", "1", "no")),
    "overcommit": ("O", None, "SBATCH_OVERCOMMIT", ("", "no", "yes")),
    "hold": ("H", None, None, ()),
    "exclusive": ("", None, "SBATCH_EXCLUSIVE", ("", "user", "bogus")),
    "hint": ("", ("nomultithread", "compute_bound", "foo"), "SBATCH_HINT", ("nomultithread", "bogus")),
    "threads-per-core": ("", ("1", "0"), "SBATCH_THREADS_PER_CORE", ("1", "0", "x")),
    "cpus-per-task": ("c", ("1", "2", "0"), None, ()),
    "cpus-per-gpu": ("", ("2",), "SBATCH_CPUS_PER_GPU", ("2", "x")),
    "mail-type": ("", ("END", "BEGIN", "NONE", "bogus"), None, ()),
    "export": ("", ("NONE", "ALL"), "SBATCH_EXPORT", ("NONE", "ALL")),
    "signal": ("", ("USR1@60", "B:USR2", "bogus"), "SBATCH_SIGNAL", ("USR1@60", "bogus")),
    "open-mode": ("", ("append", "truncate", "bad"), "SBATCH_OPEN_MODE", ("append", "bad")),
    # (No malformed GRES: 24.11 leaves `gpu::1` to slurmctld, whose answer depends on the rest of the job.)
    "gres": ("", ("gpu:1", "gpu:v100:1"), "SBATCH_GRES", ("gpu:1", "gpu:v100:1")),
    "gpus-per-node": ("", ("1", "v100:1"), "SBATCH_GPUS_PER_NODE", ("v100:2", "1")),
    "ntasks": ("n", ("1", "2"), None, ()),
}
# Command-line words sbatch refuses (or reads oddly): unknown, srun-only, bad short, ambiguous, flag=value.
# (Never an option that needs a value as the last word: sbatch would take the script's path for it.)
_INVOKED_NOISE = ("--foo", "--mpi=pmix", "-y", "--nod=2", "--tim=5", "--hold=1")
_HET_SECOND = ("-n 1", "-J h2", "--comment=h2", "-t 3")


def _invoked_words(draw: st.DrawFn, name: str, for_script: bool) -> list[str]:
    short, values, _, _ = INVOKED_OPTIONS[name]
    if values is None:
        return [f"-{short}" if short and draw(st.booleans()) else f"--{name}"]
    value = draw(_sampled(values))
    forms = ["eq", "sep"] + (["short", "glued"] if short else [])
    prefixes = [p for p in _ABBREVIATIONS if name.startswith(p) and p != name]
    spelled = draw(_sampled([name, name, *prefixes]))
    form = draw(_sampled(forms))
    if for_script and (" " in value or value == ""):
        value = f'"{value}"'  # an #SBATCH line needs the quotes a shell would have removed
    if form == "eq":
        return [f"--{spelled}={value}"]
    if form == "sep":
        return [f"--{spelled}", value]
    if form == "short":
        return [f"-{short}", value]
    return [f"-{short}{value}"]


@st.composite
def sbatch_invocations(draw: st.DrawFn) -> tuple[str, list[str], dict[str, str]]:
    """(script, sbatch arguments before the script, SBATCH_* environment) mixing the same options in all three."""
    names = sorted(INVOKED_OPTIONS)
    header = [" ".join(_invoked_words(draw, name, True)) for name in draw(st.lists(_sampled(names), max_size=4))]
    hetjob = draw(st.integers(0, 9)) == 0
    if hetjob:
        header += ["hetjob", draw(_sampled(_HET_SECOND))]
    script = "#!/bin/bash\n" + "".join(f"#SBATCH {line}\n" for line in header) + "true\n"
    argv: list[str] = []
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.integers(0, 11)) == 0:
            argv.append(draw(_sampled(_INVOKED_NOISE)))
        else:
            argv.extend(_invoked_words(draw, draw(_sampled(names)), False))
    if hetjob and draw(st.booleans()):
        argv += [":", *_invoked_words(draw, draw(_sampled(names)), False)]
    with_variables = [n for n in names if INVOKED_OPTIONS[n][2]]
    environ = {}
    for name in draw(st.lists(_sampled(with_variables), max_size=3, unique=True)):
        _, _, variable, values = INVOKED_OPTIONS[name]
        environ[variable] = draw(_sampled(values))
    if draw(st.integers(0, 9)) == 0:
        environ["SLURM_HINT"] = draw(_sampled(("memory_bound", "bogus")))
    return script, argv, environ


# =====================================================================
# --- hostile CLI inputs (tests/test_hostile_cli.py): files, names and settings from an attacker ---
# =====================================================================
# Bytes a value may hold: terminal escapes (CSI, OSC with BEL, 8-bit CSI), bidi overrides,
# line breaks of every kind, NUL, bytes that are not UTF-8, and plain text around them.
_HOSTILE_BYTES = (b"\x1b[2J", b"\x1b]0;pwned\x07", b"\x07", b"\xc2\x9b2J", b"\xe2\x80\xae", b"\xe2\x81\xa6",
                  b"\x00", b"\r", b"\x0b", b"\x0c", b"\xc2\x85", b"\xe2\x80\xa8", b"\xff", b"\xfe\xfe", b"\x7f",
                  b"\t", b" ", b"=", b",", b'"', b"'", b"[", b"]", b"%", b"a", b"1", b"gpu", b"\xc3\xa9")
_HOSTILE_OPTIONS = (b"--time=", b"--job-name=", b"--output=", b"-p ", b"--gres=", b"--constraint=", b"--mem=",
                    b"--array=", b"--bogus=", b"-J", b"--dependency=", b"--mail-user=", b"--chdir=", b"--")
hostile_fragments = st.lists(_sampled(_HOSTILE_BYTES), min_size=1, max_size=6).map(b"".join)


@st.composite
def hostile_scripts(draw: st.DrawFn) -> bytes:
    """A batch script whose directive values, comments and body carry hostile bytes (or arbitrary bytes)."""
    if draw(st.integers(0, 4)) == 0:
        return draw(script_bytes)
    lines = [draw(_sampled((b"#!/bin/bash", b"#!bash \x0b", b"#!/bin/sh\x1b[2J", b"")))]
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.integers(0, 3))
        if kind < 2:
            lines.append(b"#SBATCH " + draw(_sampled(_HOSTILE_OPTIONS)) + draw(hostile_fragments))
        elif kind == 2:
            lines.append(b"# slurmspec: ignore[" + draw(hostile_fragments) + b"]")
        else:
            lines.append(b"srun " + draw(hostile_fragments))
    return draw(_sampled((b"\n", b"\r\n"))).join(lines) + draw(_sampled((b"\n", b"")))


@st.composite
def hostile_file_names(draw: st.DrawFn, suffixes: tuple[str, ...] = (".sbatch", ".sh", ".slurm")) -> bytes:
    """A file name as the file system holds it: any bytes but `/` and NUL, at most 255 of them."""
    stem = draw(hostile_fragments).replace(b"/", b"").replace(b"\0", b"")[:200]
    return stem + draw(_sampled(suffixes)).encode()


def _deep_toml(draw: st.DrawFn) -> bytes:
    depth = draw(_sampled((40, 400, 3000)))
    form = draw(_sampled(("array", "inline", "header")))
    if form == "array":
        return b"x = " + b"[" * depth + b"]" * depth + b"\n"
    if form == "inline":
        return b"x = " + b"{a = " * depth + b"1" + b"}" * depth + b"\n"
    return b"[" + b".".join([b"a"] * depth) + b"]\nx = 1\n"


def _toml_string(draw: st.DrawFn) -> bytes:
    """A TOML basic string holding hostile text (escaped as TOML needs, so the file parses)."""
    text = draw(hostile_fragments).decode("utf-8", "replace")
    escaped = "".join(ch if ch.isprintable() and ch not in '"\\' else f"\\u{ord(ch):04x}" for ch in text)
    return f'"{escaped}"'.encode()


@st.composite
def hostile_configs(draw: st.DrawFn) -> bytes:
    """A slurmspec.toml that is broken on purpose: too deep, wrong types, hostile keys and values, not UTF-8."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return _deep_toml(draw)
    if kind == 1:
        return draw(hostile_fragments) + b" = 1\n"
    if kind == 2:
        key = draw(_sampled((b"select", b"ignore", b"fail-on", b"slurm-version", b"cluster", b"policy",
                                    b"output-format", b"shellcheck", b"extend-select")))
        value = draw(_sampled((b"5", b"true", b"[1, 2]", b"{a = 1}", _toml_string(draw),
                                      b"[" + _toml_string(draw) + b"]")))
        return key + b" = " + value + b"\n"
    if kind == 3:
        return b"[per-file-ignores]\n" + _toml_string(draw) + b" = [" + _toml_string(draw) + b"]\n"
    if kind == 4:
        return b"[severity]\n" + _toml_string(draw) + b" = " + _toml_string(draw) + b"\n"
    return b"select = [\"SB1\"]\n" + draw(hostile_fragments) + b"\n"


@st.composite
def hostile_profiles(draw: st.DrawFn) -> bytes:
    """A cluster profile that is broken on purpose (or valid with hostile names)."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return _deep_toml(draw)
    name = _toml_string(draw)
    config = b'[config]\nslurm-version = "24.11.5"\n'
    if kind == 1:
        return b"name = " + name + b"\n" + config + b'[[shape]]\nnodes = "n[1-2]"\ncpus = 8\nmemory = "8G"\n' \
            + b"[[partition]]\nname = " + _toml_string(draw) + b'\nnodes = "n[1-2]"\ndefault = true\n'
    if kind == 2:
        key = draw(_sampled((b"name", b"shape", b"partition", b"config", b"policy")))
        return config + key + b" = " + draw(_sampled((b"5", b"[1]", b'"x"', b"{}", name))) + b"\n"
    return config + b"[[partition]]\nname = " + name + b"\nmax-time = " + _toml_string(draw) + b"\n"


@st.composite
def hostile_specs(draw: st.DrawFn) -> bytes:
    """A job spec for `slurmspec emit` that is broken on purpose, or sound with hostile text in it."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return _deep_toml(draw)
    if kind == 1:
        job = b"[job]\nname = " + _toml_string(draw) + b"\ntime = " + _toml_string(draw)
        return job + b'\n[launch]\nkind = "plain"\nprogram = ' + _toml_string(draw) + b"\n"
    if kind == 2:
        section = draw(_sampled((b"job", b"resources", b"launch", b"body", b"env")))
        return b"[" + section + b"]\n" + draw(hostile_fragments) + b" = " + _toml_string(draw) + b"\n"
    return draw(hostile_fragments)


@st.composite
def hostile_scontrol(draw: st.DrawFn, node_text: str, node_json: str) -> bytes:
    """`scontrol show node` output (text or JSON) cut short, or with hostile or wrong-typed fields."""
    import json

    kind = draw(st.integers(0, 3))
    if kind == 0:  # cut anywhere
        text = draw(_sampled((node_text, node_json)))
        return text[: draw(st.integers(0, len(text)))].encode()
    if kind == 1:  # a value replaced by hostile bytes
        text = node_text.encode()
        start = draw(st.integers(0, len(text) - 1))
        return text[:start] + draw(hostile_fragments) + text[start + draw(st.integers(0, 20)):]
    document = json.loads(node_json)
    record = document["nodes"][0]
    wrong = draw(_sampled(([], {}, ["gpu:1"], {"set": True, "number": []}, "x\x1b[2J", 1e308, None, True,
                                  [[[[]]]], -1)))
    record[draw(_sampled(sorted(record)))] = wrong
    if kind == 3:
        document[draw(_sampled(("errors", "meta", "nodes")))] = wrong
    return json.dumps(document).encode()


_HEREDOC_LINES = ("text", "  EOF", "\tEOF", "EOF ", "EOFX", "echo $X", "srun -n 8 x", "")


@st.composite
def heredoc_scripts(draw: st.DrawFn) -> str:
    """A body whose here-document closes (or not) on lines bash may or may not take as its delimiter.

    The opener is ``<<EOF``, ``<<-EOF`` or ``<<'EOF'``; body lines include near-miss delimiters
    (indented by spaces or tabs, trailing space, longer word); the line after it is ``marker``.
    """
    opener = draw(_sampled(["<<EOF", "<<-EOF", "<<'EOF'", "<< EOF"]))
    lines = draw(st.lists(_sampled(_HEREDOC_LINES), max_size=6))
    close = draw(_sampled(["EOF", "\tEOF", "\t\tEOF", "  EOF", None]))
    tail = [] if close is None else [close]
    return "\n".join([f"cat {opener}", *lines, *tail, "marker", "echo after"]) + "\n"


# Fragments of a body whose `$V<n>` bash either expands or leaves alone, by its quoting: `@REF@` is
# written `$V<n>`, `@NAME@` `V<n>`. Read by tests/body/test_lexicon_bash.py.
_REF_FRAGMENTS = (
    "echo @REF@", "echo ${@NAME@}", "echo ${@NAME@:-d}", "echo '@REF@'", 'echo "@REF@"', "echo \\@REF@",
    'echo "\\@REF@"', "echo $(echo @REF@)", "echo \"$(echo '@REF@')\"", "echo \"$(echo \"@REF@\")\"",
    "echo `echo @REF@`", "echo ${NOPE:-@REF@}", "echo ${NOPE:-'@REF@'}", "echo $((0)) # @REF@",
    "echo $'@REF@'", 'echo $"@REF@"', "cat <(echo @REF@)", "x=$(( 1 )); echo @REF@", "echo a#@REF@",
    "(( 1 )) && echo @REF@", "echo $(( @REF@ + 1 ))", "echo \"it's @REF@\"", "echo '\"' @REF@ '\"'",
    "cat <<EOF\n@REF@\nEOF", "cat <<'EOF'\n@REF@\nEOF", "cat <<\\EOF\n@REF@\nEOF", "cat <<\"EOF\"\n@REF@\nEOF",
    "cat <<-EOF\n\t@REF@\n\tEOF", "x=$(cat <<EOF\n@REF@\nEOF\n); echo \"$x\"", "cat <<EOF\n  EOF @REF@\nEOF",
    "cat <<EOF; echo @REF@\nline\nEOF",
)


@st.composite
def bodies_with_references(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A body of echo/cat lines and the names it references, one each: ``V0``, ``V1``, ..."""
    fragments = draw(st.lists(_sampled(_REF_FRAGMENTS), min_size=1, max_size=8))
    lines = [fragment.replace("@REF@", f"$V{n}").replace("@NAME@", f"V{n}") for n, fragment in enumerate(fragments)]
    return "\n".join(lines) + "\n", [f"V{n}" for n in range(len(lines))]


# --------------------------------------------------------------- slurmspec audit (tests/audit/)
_AUDIT_STATES = ("COMPLETED", "FAILED", "CANCELLED by 0", "TIMEOUT", "OUT_OF_MEMORY", "RUNNING", "PENDING")


@st.composite
def sacct_rows(draw: st.DrawFn) -> list[str]:
    """Lines of ``sacct -X -n -P --noconvert --delimiter=$'\\x1f' -o <slurmspec.audit.jobs.FIELDS>``:
    distinct job ids, a few users/accounts/partitions, GPUs or none, jobs that never started, and
    interactive allocations (salloc) that have no script."""
    from slurmspec.audit.jobs import SEP

    ids = draw(st.lists(st.integers(1, 10_000), min_size=1, max_size=40, unique=True))
    rows = []
    for job in ids:
        state = draw(_sampled(_AUDIT_STATES))
        elapsed = 0 if state == "PENDING" else draw(_sampled((0, 1, 59, 3600, 86_399)))
        gpus = draw(_sampled((0, 0, 1, 2, 8)))
        tres = (f"billing=1,cpu={draw(st.integers(1, 64))}" + (f",gres/gpu={gpus}" if gpus else "")
                + ",mem=1024M,node=1")
        day = draw(st.integers(1, 28))
        started = state != "PENDING" and draw(st.booleans())
        start = f"2026-02-{day:02d}T10:00:00" if started else "Unknown"
        command = draw(_sampled(("sbatch job.sh", "sbatch -o logs/%j.out job.sh", "salloc -n1")))
        user, account = draw(_sampled(("ann", "bob", "cy"))), draw(_sampled(("phys", "bio")))
        rows.append(SEP.join((str(job), str(job), user, account,
                              draw(_sampled(("cpu", "gpu"))), state, "0:0", str(elapsed), tres, "1",
                              f"2026-02-{day:02d}T09:00:00", start, f"2026-02-{day:02d}T11:00:00", "/home/u",
                              command)))
    return rows


# Placeholders as real job templates write them (issue 23, slurmspec/parser/templates.py).
TEMPLATE_PLACEHOLDERS = ("{{ name }}", "{{ gpus | default(1) }}", "{{x}}", "XXXmpinodesXXX", "@NTASKS@",
                         "<your account>", "<time as specified by the reqs>", "${{ inputs.nodes }}")


@st.composite
def template_scripts(draw: st.DrawFn) -> tuple[str, int]:
    """(a generated batch script with one `#SBATCH` option's value replaced by a placeholder, the line it is
    on); sometimes the directives also sit between `{% if %}` / `{% endif %}` lines."""
    from slurmspec.model.catalogue.options import all_options

    option = draw(_sampled([o for o in all_options() if o.kind is not None and o.until is None
                                   and o.since <= (22, 5) and not o.early_pass]))
    placeholder = draw(_sampled(TEMPLATE_PLACEHOLDERS))
    before = draw(sbatch_header_lines())
    guarded = draw(st.booleans())
    lines = ["#!/bin/bash", *before, *(["{% if guard %}"] if guarded else []),
             f"#SBATCH --{option.long}={placeholder}", *(["{% endif %}"] if guarded else [])]
    return "\n".join(lines) + "\n" + draw(_sampled(_BODIES)), lines.index(f"#SBATCH --{option.long}={placeholder}") + 1


# --- rule selectors (the default selection, issue 23) ---


def rule_selectors(codes: list[str], names: list[str]) -> st.SearchStrategy[list[str]]:
    """Lists of selectors as a user writes them: codes, prefixes, names, outcome groups, ``default``, ``ALL``."""
    prefixes = sorted({code[:n] for code in codes for n in (3, 4)})
    groups = ["default", "advice", "wrong", "fails", "pends", "refused", "ALL", "Advice", "all"]
    return st.lists(_sampled(sorted(codes) + prefixes + sorted(names) + groups), max_size=4)


# --- misspelt prefixes and swallowed options (issue 24) ---

_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@st.composite
def one_edit_of(draw: st.DrawFn, word: str = "SBATCH") -> str:
    """``word`` with one upper-case letter swapped with its neighbour, replaced, dropped or added (never ``word``)."""
    kind = draw(_sampled(("swap", "replace", "drop", "add")))
    at = draw(st.integers(0, len(word) - 1))
    if kind == "swap":
        at = min(at, len(word) - 2)
        edited = word[:at] + word[at + 1] + word[at] + word[at + 2:]
    elif kind == "replace":
        edited = word[:at] + draw(_sampled(_UPPER)) + word[at + 1:]
    elif kind == "drop":
        edited = word[:at] + word[at + 1:]
    else:
        edited = word[:at] + draw(_sampled(_UPPER)) + word[at:]
    if edited.startswith(word):
        # the same word (a swap of equal letters, a replacement by the same letter), or the word
        # and one more letter (`SBATCHH`): sbatch reads that as `#SBATCH` and a stray word `H`
        edited = word[:-1]
    return edited


def upper_words(min_size: int = 5, max_size: int = 7) -> st.SearchStrategy[str]:
    """Words of upper-case letters near `SBATCH` in length (what a misspelt prefix looks like)."""
    return st.text(alphabet="SBATCHLURMPQ", min_size=min_size, max_size=max_size)


def option_lines() -> st.SearchStrategy[str]:
    """The words of one clean `#SBATCH` line: a long option with its value."""
    return _sampled(("--time=10", "-c 4", "--partition=gpu", "--mem=8G", "-N 2", "--exclusive",
                            "--job-name=train", "--ntasks-per-node=4"))


# --- job geometry (the job model and its views) ---
# Header and srun options that shape a job: node, task, CPU and GPU counts, alone and together
# (also combinations sbatch refuses: the model must still hold together on them).
_GEOMETRY_HEADER = (
    ("", "--nodes=1", "--nodes=2", "--nodes=1-2", "-N 3"),
    ("", "-n 1", "-n 2", "-n 4", "--ntasks-per-node=1", "--ntasks-per-node=2"),
    ("", "-c 1", "-c 2", "-c 4", "--cpus-per-gpu=2"),
    ("", "--gres=gpu:1", "--gres=gpu:2", "--gpus=2", "--gpus-per-task=1", "--gpus-per-node=2",
     "--ntasks-per-gpu=2 --gpus=1", "--gres=gpu:a100:2"),
    ("", "", "", "--gpu-bind=single:1", "--gpu-bind=none", "-m cyclic"),
)
_GEOMETRY_SRUN = ("-n 1", "-n 2", "-c 1", "-c 2", "--gpus-per-task=1", "--gres=gpu:1", "--gpus=1",
                  "--gpus-per-node=1", "--gpu-bind=single:1", "--ntasks-per-node=1", "-N 1", "-N 2")
_GEOMETRY_WORK = ("./a", "python train.py", "torchrun --nproc_per_node=2 train.py",
                  "accelerate launch --num_processes 4 train.py")


@st.composite
def geometry_scripts(draw: st.DrawFn) -> str:
    """A batch script whose header and launch lines shape the job (`#SBATCH -N 2 -n 4`, `srun -n 1 ./a`)."""
    header = [choice for group in _GEOMETRY_HEADER if (choice := draw(_sampled(group)))]
    lines = ["#!/bin/bash", *(f"#SBATCH {option}" for option in header)]
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            lines.append(draw(_sampled(("export SRUN_CPUS_PER_TASK=1", "export SRUN_CPUS_PER_TASK=$SLURM_CPUS_PER_TASK"))))
        options = draw(st.lists(_sampled(_GEOMETRY_SRUN), max_size=2, unique=True))
        launcher = draw(_sampled(("srun", "srun", "")))
        lines.append(" ".join(filter(None, (launcher, *(options if launcher else ()), draw(_sampled(_GEOMETRY_WORK))))))
    return "\n".join(lines) + "\n"
