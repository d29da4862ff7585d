"""The judged corpus: every finding of every rule on ``../shared/corpus/real``, and the judgements of them.

Each script of the shared corpus is linted with every rule (``--select ALL``) in four configurations::

    22.05        --slurm-version 22.05
    newest       --slurm-version <newest supported release>
    22.05+lab    22.05 and --cluster tests/cluster/profiles/lab.toml
    newest+lab   newest and the lab profile

A finding is keyed by (file relative to corpus/real, line, code). ``tests/corpus/judgements.tsv`` holds
one judgement per key, tab-separated, ``#`` lines are comments::

    file<TAB>line<TAB>code<TAB>configs<TAB>verdict<TAB>reason

``configs`` is ``*`` (every configuration the finding appears in) or a comma list of the names above
(two rows may judge one key differently in different configurations; no configuration twice).
``verdict`` is ``real`` (a real problem for the author: the job is refused, fails, or does not do what
the script says), ``low`` (correct, but of little value to the author) or ``wrong`` (false). ``reason``
is one line. docs/rules.md ("Judged precision") states the criteria.

Run it from the project root::

    python tests/corpus/judge.py                  # summary: findings, judged, unjudged, stale
    python tests/corpus/judge.py --unjudged       # unjudged findings as rows to fill in (with message, line)
    python tests/corpus/judge.py --stale          # judgements that name no finding anymore
    python tests/corpus/judge.py --precision      # real/low/wrong per rule, and the default selection's share
    python tests/corpus/judge.py --check          # exit 1 when something is unjudged or stale
    python tests/corpus/judge.py --write          # regenerate rules/judged.py (the counts docs and `rule` show)

tests/test_judged_corpus.py runs the same checks. The corpus is read-only: nothing here writes to it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "real"
JUDGEMENTS = Path(__file__).resolve().parent / "judgements.tsv"
LAB = ROOT / "tests" / "cluster" / "profiles" / "lab.toml"
JUDGED_MODULE = ROOT / "rules" / "judged.py"
VERDICTS = ("real", "low", "wrong")
COLUMNS = ("file", "line", "code", "configs", "verdict", "reason")
ANY = "*"


def _newest() -> str:
    from slurmspec.version import DEFAULT

    return DEFAULT


CONFIGS: dict[str, tuple[str, ...]] = {
    "22.05": ("--slurm-version", "22.05"),
    "newest": ("--slurm-version", "{newest}"),
    "22.05+lab": ("--slurm-version", "22.05", "--cluster", str(LAB)),
    "newest+lab": ("--slurm-version", "{newest}", "--cluster", str(LAB)),
}

Key = tuple[str, int, str]  # (file relative to corpus/real, line, code)


@dataclass
class Finding:
    """One key's findings: in which configurations, and what they said (a key may hold several messages)."""

    key: Key
    configs: set[str] = field(default_factory=set)
    messages: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Judgement:
    key: Key
    configs: frozenset[str] | None  # None: every configuration
    verdict: str
    reason: str
    row: int  # line number in judgements.tsv

    def covers(self, config: str) -> bool:
        return self.configs is None or config in self.configs


def corpus_scripts(corpus: Path = CORPUS) -> list[Path]:
    return sorted(corpus.glob("*.sbatch")) if corpus.is_dir() else []


def lint(config: str, corpus: Path = CORPUS) -> list[dict]:
    """Every diagnostic of every rule on the corpus in one configuration (the CLI's JSON report)."""
    args = [a.format(newest=_newest()) for a in CONFIGS[config]]
    files = [p.name for p in corpus_scripts(corpus)]
    command = [sys.executable, "-m", "slurmspec", "lint", "--no-config", "--select", "ALL", "--format", "json",
               "--exit-zero", *args, *files]
    done = subprocess.run(command, cwd=corpus, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr[-2000:]}")
    return json.loads(done.stdout)["diagnostics"]


def collect(corpus: Path = CORPUS, configs: Iterable[str] = CONFIGS) -> dict[Key, Finding]:
    """Every finding key on the corpus, with the configurations it appears in."""
    configs = list(configs)
    with ThreadPoolExecutor(max_workers=2) as pool:  # each run is its own process
        reports = dict(zip(configs, pool.map(lambda c: lint(c, corpus), configs)))
    found: dict[Key, Finding] = {}
    for config, diagnostics in reports.items():
        for d in diagnostics:
            path = os.path.relpath(os.path.join(corpus, d["path"]), corpus)
            key = (path, int(d["line"]), d["code"])
            finding = found.setdefault(key, Finding(key))
            finding.configs.add(config)
            finding.messages.add(d["message"])
    return found


class JudgementError(ValueError):
    """A malformed row of judgements.tsv (the message names the row)."""


def read_judgements(path: Path = JUDGEMENTS) -> list[Judgement]:
    rows: list[Judgement] = []
    if not path.exists():
        return rows
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        cells = raw.split("\t")
        if len(cells) != len(COLUMNS):
            raise JudgementError(f"{path.name}:{number}: {len(cells)} columns, expected {len(COLUMNS)}: {raw!r}")
        file, line, code, configs, verdict, reason = cells
        if not line.isdigit():
            raise JudgementError(f"{path.name}:{number}: line {line!r} is not a number")
        if verdict not in VERDICTS:
            raise JudgementError(f"{path.name}:{number}: verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
        if not reason.strip():
            raise JudgementError(f"{path.name}:{number}: a judgement needs a reason")
        names = None if configs == ANY else frozenset(configs.split(","))
        if names is not None and not names <= set(CONFIGS):
            raise JudgementError(f"{path.name}:{number}: unknown configuration in {configs!r}; "
                                 f"use {ANY} or some of {', '.join(CONFIGS)}")
        rows.append(Judgement((file, int(line), code), names, verdict, reason, number))
    return rows


@dataclass
class Comparison:
    """Findings against judgements: what is judged how, what is missing, what is stale or ambiguous."""

    verdicts: dict[tuple[Key, str], Judgement]  # (key, config) -> its judgement
    unjudged: dict[Key, set[str]]  # key -> configurations it appears in without a judgement
    stale: list[Judgement]  # rows that match no finding in any configuration they name
    ambiguous: list[tuple[Key, str, list[int]]]  # (key, config, rows): judged twice


def compare(found: dict[Key, Finding], judgements: list[Judgement]) -> Comparison:
    by_key: dict[Key, list[Judgement]] = defaultdict(list)
    for j in judgements:
        by_key[j.key].append(j)
    verdicts: dict[tuple[Key, str], Judgement] = {}
    unjudged: dict[Key, set[str]] = defaultdict(set)
    ambiguous = []
    used: set[int] = set()
    for key, finding in found.items():
        for config in sorted(finding.configs):
            matching = [j for j in by_key.get(key, ()) if j.covers(config)]
            if not matching:
                unjudged[key].add(config)
                continue
            if len(matching) > 1:
                ambiguous.append((key, config, [j.row for j in matching]))
            verdicts[(key, config)] = matching[0]
            used.update(j.row for j in matching)
    stale = [j for j in judgements if j.row not in used]
    return Comparison(verdicts, dict(unjudged), stale, ambiguous)


def default_codes() -> frozenset[str]:
    from slurmspec.lint.engine import select_rules

    return frozenset(rule.code for rule in select_rules())


@dataclass
class Tally:
    real: int = 0
    low: int = 0
    wrong: int = 0

    def add(self, verdict: str) -> None:
        setattr(self, verdict, getattr(self, verdict) + 1)

    @property
    def total(self) -> int:
        return self.real + self.low + self.wrong

    @property
    def share(self) -> float | None:
        return self.real / self.total if self.total else None


def per_rule(comparison: Comparison) -> dict[str, Tally]:
    """real/low/wrong per rule, each key counted once per verdict it was given (over all configurations)."""
    seen: set[tuple[Key, str]] = set()
    tallies: dict[str, Tally] = defaultdict(Tally)
    for (key, _config), judgement in comparison.verdicts.items():
        if (key, judgement.verdict) not in seen:
            seen.add((key, judgement.verdict))
            tallies[key[2]].add(judgement.verdict)
    return dict(sorted(tallies.items()))


def per_config(comparison: Comparison, codes: frozenset[str]) -> dict[str, Tally]:
    """real/low/wrong of the findings of ``codes`` in each configuration."""
    tallies = {config: Tally() for config in CONFIGS}
    for (key, config), judgement in comparison.verdicts.items():
        if key[2] in codes:
            tallies[config].add(judgement.verdict)
    return tallies


def judged_module(tallies: dict[str, Tally], scripts: int) -> str:
    """The text of rules/judged.py: the judged counts per rule, which the docs and ``slurmspec rule`` show."""
    lines = [
        '"""Judged findings per rule on the shared corpus of real batch scripts: (real, low, wrong).',
        "",
        "Generated from tests/corpus/judgements.tsv by ``python tests/corpus/judge.py --write``; do not edit.",
        "tests/test_judged_corpus.py fails when it differs from the judgements. rules/selection.py says how the",
        'counts choose the default selection, and docs/rules.md ("Judged precision") what the verdicts mean.',
        '"""',
        "",
        f"SCRIPTS = {scripts}  # scripts in the corpus when it was judged",
        "",
        "JUDGED: dict[str, tuple[int, int, int]] = {",
        *(f'    "{code}": ({t.real}, {t.low}, {t.wrong}),' for code, t in sorted(tallies.items())),
        "}",
        "",
    ]
    return "\n".join(lines)


def _line_text(file: str, line: int, corpus: Path) -> str:
    try:
        lines = (corpus / file).read_text(encoding="utf-8", errors="replace").splitlines()
        return lines[line - 1].strip() if 0 < line <= len(lines) else ""
    except OSError:
        return ""


def _configs_cell(configs: set[str]) -> str:
    return ANY if configs == set(CONFIGS) else ",".join(c for c in CONFIGS if c in configs)


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{share:.0%}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--unjudged", action="store_true", help="print the unjudged findings as rows to fill in")
    what.add_argument("--stale", action="store_true", help="print the judgements that name no finding")
    what.add_argument("--precision", action="store_true", help="real/low/wrong per rule and for the default set")
    what.add_argument("--check", action="store_true", help="exit 1 when a finding is unjudged or a row stale")
    what.add_argument("--write", action="store_true", help=f"regenerate {JUDGED_MODULE.relative_to(ROOT)}")
    parser.add_argument("--code", action="append", default=[], help="only these codes or code prefixes")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--judgements", type=Path, default=JUDGEMENTS)
    args = parser.parse_args(argv)
    if not corpus_scripts(args.corpus):
        print(f"no corpus at {args.corpus}: nothing to judge", file=sys.stderr)
        return 0
    found = collect(args.corpus)
    judgements = read_judgements(args.judgements)
    if args.code:
        keep = tuple(c.upper() for c in args.code)
        found = {k: f for k, f in found.items() if k[2].startswith(keep)}
        judgements = [j for j in judgements if j.key[2].startswith(keep)]
    comparison = compare(found, judgements)
    out = sys.stdout
    if args.unjudged:
        out.write("# file\tline\tcode\tconfigs\tverdict\treason    (then: message | script line)\n")
        for key in sorted(comparison.unjudged, key=lambda k: (k[2], k[0], k[1])):
            file, line, code = key
            messages = " || ".join(sorted(found[key].messages))
            out.write(f"{file}\t{line}\t{code}\t{_configs_cell(comparison.unjudged[key])}\t\t"
                      f"    # {messages} | {_line_text(file, line, args.corpus)}\n")
        return 0
    if args.stale:
        for j in comparison.stale:
            out.write(f"{args.judgements.name}:{j.row}: {j.key[0]}:{j.key[1]} {j.key[2]} ({j.verdict}: {j.reason})\n")
        return 0
    if args.write:
        if args.code:
            parser.error("--write needs every code: leave out --code")
        JUDGED_MODULE.write_text(judged_module(per_rule(comparison), len(corpus_scripts(args.corpus))),
                                 encoding="utf-8")
        out.write(f"wrote {JUDGED_MODULE.relative_to(ROOT)}\n")
        return 0
    if args.precision:
        from slurmspec.lint.engine import registry
        from slurmspec.rules.selection_policy import qualifies

        defaults = default_codes()
        tallies = per_rule(comparison)
        judged = {code: (t.real, t.low, t.wrong) for code, t in tallies.items()}
        out.write("code    default  real  low  wrong  real share  policy\n")
        for code, rule in registry().items():
            tally = tallies.get(code, Tally())
            mark = "yes" if code in defaults else "opt-in"
            wanted, why = qualifies(rule, judged)
            flag = "" if wanted == (code in defaults) else "  <- policy says " + ("default" if wanted else "opt-in")
            if tally.total or flag:
                out.write(f"{code:<7} {mark:<7} {tally.real:>5} {tally.low:>4} {tally.wrong:>6}  "
                          f"{_percent(tally.share):>10}  {why}{flag}\n")
        out.write("\ndefault selection, per configuration: real/low/wrong (real share)\n")
        for config, tally in per_config(comparison, defaults).items():
            out.write(f"  {config:<11} {tally.real}/{tally.low}/{tally.wrong} ({_percent(tally.share)})\n")
        return 0
    keys_by_config = Counter(c for f in found.values() for c in f.configs)
    out.write(f"{len(found)} finding keys; per configuration: "
              + ", ".join(f"{c} {keys_by_config[c]}" for c in CONFIGS) + "\n")
    out.write(f"{len(judgements)} judgements; {len(comparison.unjudged)} keys unjudged in some configuration; "
              f"{len(comparison.stale)} stale rows; {len(comparison.ambiguous)} judged twice\n")
    for key, config, rows in comparison.ambiguous:
        out.write(f"  judged twice: {key[0]}:{key[1]} {key[2]} in {config} (rows {rows})\n")
    if args.check and (comparison.unjudged or comparison.stale or comparison.ambiguous):
        return 1
    return 0


if __name__ == "__main__":
    import signal

    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the listing quietly
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
