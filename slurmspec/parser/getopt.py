"""Split directive words into option occurrences exactly as sbatch's getopt_long does.

sbatch collects the words of every ``#SBATCH`` line of a hetjob component into
one argv and hands it to glibc ``getopt_long`` with the option table of
``src/common/slurm_opt.c`` and a short-option string starting with ``+``
(stop at the first non-option). Facts relied on (slurm-semantics.md §1, §5):
``--opt=value`` and ``--opt value`` for required arguments, optional arguments
only with ``=`` (or glued to a short option), bundled short flags (``-Hn3``),
unambiguous abbreviations of long names, exact names beating abbreviations, and
abbreviations shared by aliases of one option (``--clu`` is not ambiguous
between ``--cluster`` and ``--clusters`` alone).
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import attrs

from slurmspec.frozen import frozen
from slurmspec.kinds import IssueKind
from slurmspec.model.catalogue.options import NONE, OPTIONAL, PLUGIN_OPTIONS, RENAMED, REQUIRED, SRUN_ONLY, OptionSpec
from slurmspec.model.catalogue.options import all_options, by_short_name
from slurmspec.model.syntax.script import Directive, ParseIssue, Word
from slurmspec.parser.hints import Hints
from slurmspec.span import Span
from slurmspec.version import Version, format_version


@frozen
class GetoptResult:
    directives: tuple[Directive, ...]
    issues: tuple[ParseIssue, ...]


class _Getopt:
    def __init__(
        self,
        words: list[Word],
        version: Version,
        component: int,
        ignored: bool,
        make_span: Callable[[int, int], Span],
        source: str,
        typed: Callable[[OptionSpec, str | None], Any] | None = None,
        hints: Hints | None = None,
    ) -> None:
        self.hints = hints or Hints()
        self.words = words
        self.version = version
        self.component = component
        self.ignored = ignored
        self.span = make_span
        self.source = source
        self.typed = typed
        self.directives: list[Directive] = []
        self.issues: list[ParseIssue] = []
        self._runs: dict[int, int] = {}  # index of a stray-word issue -> where its run of stray words ends

    # -- results ------------------------------------------------------------
    def issue(self, kind: IssueKind, message: str, start: int, end: int, candidates=()) -> None:
        self.issues.append(
            ParseIssue(kind, message, self.span(start, end), self.component, self.ignored, candidates)
        )

    def directive(
        self, spec: OptionSpec, spelling: str, name_start: int, name_end: int,
        value: str | None, value_start: int | None, value_end: int | None, whole: Word | None = None,
    ) -> None:
        """``whole``: the one word the option and its value are written in (``--time=10``), whose
        text and span the directive shares when they are the same: a script may hold a hundred
        thousand of them (the command line's words have spans of their own text, not these)."""
        end = value_end if value_end is not None else name_end
        raw, span = self.source[name_start:end], self.span(name_start, end)
        if whole is not None:
            raw = whole.raw if whole.raw == raw else raw
            span = whole.span if whole.span == span else span
        self.directives.append(
            Directive(
                option=spec,
                spelling=sys.intern(spelling),
                raw=raw,
                value=value,
                span=span,
                name_span=self.span(name_start, name_end),
                value_span=None if value_start is None else self.span(value_start, value_end),
                component=self.component,
                # Early-pass options are skipped inside scripts (slurm_process_option()).
                ignored=self.ignored or spec.early_pass,
                typed=None if self.typed is None else self.typed(spec, value),
            )
        )

    # -- the scan -----------------------------------------------------------
    def run(self) -> GetoptResult:
        i = 0
        words = self.words
        while i < len(words):
            word = words[i]
            text = word.value
            if text == "--":
                # "--" ends the options; sbatch then reports the next word as
                # an invalid directive (there is no script argument in a script).
                if i + 1 < len(words):
                    self.stray(words[i + 1], after_dashes=True)
                break
            if len(text) < 2 or not text.startswith("-"):
                self.stray(word)
                i += 1
            elif text.startswith("--"):
                i = self.long_option(i)
            else:
                i = self.short_options(i)
        return GetoptResult(tuple(self.directives), tuple(self._with_runs()))

    def _with_runs(self) -> list[ParseIssue]:
        """The issues, each run of stray words (``stray``) as one."""
        for index, end in self._runs.items():
            start = self.issues[index].span.start
            self.issues[index] = ParseIssue(
                IssueKind.STRAY_WORD,
                f"`{self.source[start:end]}` is not a list of options, and sbatch rejects the script"
                " (\"Invalid directive found in batch script\")",
                self.span(start, end), self.component, self.ignored,
            )
        self._runs.clear()
        return self.issues

    def stray(self, word: Word, after_dashes: bool = False) -> None:
        hint = ""
        previous = self.directives[-1] if self.directives else None
        if (
            previous is not None
            and previous.value is None
            and previous.option.argument_in(self.version) == OPTIONAL
            and previous.span.end <= word.span.start
        ):
            hint = (
                f"; `{previous.spelling}` takes an optional value only when it is"
                f" attached: `{previous.spelling}={word.value}`"
            )
        elif after_dashes:
            hint = "; `--` ends the options, so nothing may follow it"
        last = self.issues[-1] if self.issues else None
        if (
            last is not None
            and last.kind == IssueKind.STRAY_WORD
            and last.span.end_line == word.span.line
            and not hint
        ):
            # A run of stray words on one line (a placeholder sentence, say) is
            # one problem; sbatch names only the first word of it anyway. Its text is
            # written once the run ends (rewriting it per word was O(n²) for n words).
            self._runs[len(self.issues) - 1] = word.span.end
            return
        self.issue(
            IssueKind.STRAY_WORD,
            f"`{word.value}` is not an option, and sbatch rejects the script"
            f" (\"Invalid directive found in batch script\"){hint}",
            word.span.start,
            word.span.end,
        )

    def next_value(self, i: int) -> Word | None:
        return self.words[i + 1] if i + 1 < len(self.words) else None

    def long_option(self, i: int) -> int:
        word = self.words[i]
        body = word.value[2:]
        name, has_eq, arg = body.partition("=")
        name_end_index = 2 + len(name)  # index in word.value just past the name
        name_start = word.span.start
        name_end = _offset_after(word, name_end_index)
        spec = self.resolve_long(name, word, name_start, name_end)
        if spec is None:
            # getopt consumes nothing more for an unknown option; sbatch stops there. Where a plugin
            # provides it, its value is the next word: that word is the plugin's, not a stray one.
            plugin = PLUGIN_OPTIONS.get(name)
            if plugin is not None and plugin.takes_value and not has_eq and self.next_value(i) is not None:
                return i + 2
            return i + 1
        spelling = "--" + name
        argument = spec.argument_in(self.version)
        if has_eq:
            value_start = _offset_after(word, name_end_index + 1)
            if argument == NONE:
                self.issue(
                    IssueKind.UNEXPECTED_ARGUMENT,
                    f"`--{spec.long}` takes no value, but `={arg}` was given;"
                    " sbatch rejects the script",
                    name_start,
                    word.span.end,
                )
                return i + 1
            self.directive(spec, spelling, name_start, name_end, arg, value_start, word.span.end, whole=word)
            return i + 1
        if argument == REQUIRED:
            following = self.next_value(i)
            if following is None:
                self.missing(spec, spelling, name_start, name_end)
                return i + 1
            self.directive(
                spec, spelling, name_start, name_end,
                following.value, following.span.start, following.span.end,
            )
            return i + 2
        self.directive(spec, spelling, name_start, name_end, None, None, None)
        return i + 1

    def missing(self, spec: OptionSpec, spelling: str, start: int, end: int) -> None:
        self.issue(
            IssueKind.MISSING_ARGUMENT,
            f"`{spelling}` needs a value but nothing follows it; sbatch rejects the script",
            start,
            end,
        )

    def resolve_long(self, name: str, word: Word, start: int, end: int) -> OptionSpec | None:
        table = _long_table(self.version)
        exact = table.get(name)
        if exact is not None:
            return exact
        matches = {spec.long: spec for spelled, spec in table.items() if spelled.startswith(name)}
        if len(matches) == 1:
            return next(iter(matches.values()))
        if len(matches) > 1:
            spelled = sorted(s for s in table if s.startswith(name))
            listing = ", ".join(f"`--{s}`" for s in spelled)
            self.issue(
                IssueKind.AMBIGUOUS_OPTION,
                f"`--{name}` is ambiguous: it abbreviates {listing}; sbatch rejects the"
                " script. Write the option name in full",
                start,
                end,
                candidates=tuple("--" + s for s in spelled),
            )
            return None
        self.unknown_long(name, start, end)
        return None

    def unknown_long(self, name: str, start: int, end: int) -> None:
        other = _any_version_table().get(name)
        if other is not None:
            self.issue(
                IssueKind.OPTION_NOT_IN_VERSION,
                f"`--{name}` does not exist in Slurm {format_version(self.version)}"
                f" ({_availability(other)}); sbatch rejects the script",
                start,
                end,
            )
            return
        plugin = PLUGIN_OPTIONS.get(name)
        if plugin is not None:
            self.issue(
                IssueKind.PLUGIN_OPTION,
                f"`--{name}` is not a stock sbatch option; on a site whose {plugin.plugin} plugin provides it"
                " sbatch accepts it, elsewhere sbatch rejects the script (\"unrecognized option\")",
                start,
                end,
            )
            return
        if name in RENAMED:
            self.issue(
                IssueKind.UNKNOWN_OPTION,
                f"`--{name}` is the old name of `--{RENAMED[name]}`, which sbatch no longer"
                f" accepts; sbatch rejects the script. Write `--{RENAMED[name]}`",
                start,
                end,
                candidates=("--" + RENAMED[name],),
            )
            return
        if name in SRUN_ONLY or name.replace("_", "-") in SRUN_ONLY:
            self.issue(
                IssueKind.SRUN_ONLY_OPTION,
                f"`--{name}` is an srun option, not an sbatch one; sbatch rejects the"
                " script. Put it on the `srun` line in the script body",
                start,
                end,
            )
            return
        candidates = self.hints.of(name, _long_table(self.version))
        # No near name: a typo is unlikely, a site plugin's option (spank.c) is possible.
        hint = (f"; did you mean {' or '.join(f'`--{c}`' for c in candidates)}?" if candidates else
                " (unless a site plugin provides it: `sbatch --help` there lists it under \"Options provided by"
                " plugins:\")")
        self.issue(
            IssueKind.UNKNOWN_OPTION,
            f"`--{name}` is not an sbatch option; sbatch rejects the script{hint}",
            start,
            end,
            candidates=tuple("--" + c for c in candidates),
        )

    def short_options(self, i: int) -> int:
        word = self.words[i]
        text = word.value
        j = 1
        while j < len(text):
            letter = text[j]
            # The first option of a word includes its "-" (raw "-p gpu", not "p gpu").
            start = word.span.start if j == 1 else word.offsets[j]
            end = _offset_after(word, j + 1)
            spec = by_short_name().get(letter)
            if spec is None or not spec.exists_in(self.version):
                self.issue(
                    IssueKind.BAD_SHORT_OPTION,
                    f"`-{letter}` is not an sbatch option (sbatch: \"invalid option --"
                    f" '{letter}'\"); sbatch rejects the script",
                    start,
                    end,
                )
                j += 1
                continue
            argument = spec.argument_in(self.version)
            rest = text[j + 1 :]
            if argument == NONE:
                self.directive(spec, "-" + letter, start, end, None, None, None)
                j += 1
                continue
            if rest:
                self.directive(spec, "-" + letter, start, end, rest, end, word.span.end)
                return i + 1
            if argument == OPTIONAL:
                self.directive(spec, "-" + letter, start, end, None, None, None)
                return i + 1
            following = self.next_value(i)
            if following is None:
                self.missing(spec, "-" + letter, start, end)
                return i + 1
            self.directive(
                spec, "-" + letter, start, end,
                following.value, following.span.start, following.span.end,
            )
            return i + 2
        return i + 1


def _offset_after(word: Word, index: int) -> int:
    """File offset just after ``word.value[:index]`` (the word's end if at its end)."""
    if index >= len(word.value):
        return word.span.end
    return word.offsets[index]


_LONG_TABLES: dict[Version, dict[str, OptionSpec]] = {}


def _long_table(version: Version) -> dict[str, OptionSpec]:
    """Long spellings (names and aliases) that exist in ``version``."""
    table = _LONG_TABLES.get(version)
    if table is None:
        table = {}
        for spec in all_options():
            if spec.exists_in(version):
                table[spec.long] = spec
                for alias in spec.aliases:
                    table[alias] = spec
        _LONG_TABLES[version] = table
    return table


def _any_version_table() -> dict[str, OptionSpec]:
    from slurmspec.model.catalogue.options import by_long_name

    return by_long_name()


def _availability(spec: OptionSpec) -> str:
    if spec.until is not None:
        return f"it was removed in {format_version(spec.until)}"
    if spec.long == "export-file":
        return "it was removed in 23.02.5 and restored in 24.05"
    return f"it was added in {format_version(spec.since)}"


def run_getopt(
    words: list[Word],
    version: Version,
    component: int,
    ignored: bool,
    make_span: Callable[[int, int], Span],
    source: str,
    typed: Callable[[OptionSpec, str | None], Any] | None = None,
    hints: Hints | None = None,
) -> GetoptResult:
    """Run sbatch's option parsing over ``words``, in O(words); never raises. ``typed(option, value)``, when
    given, is each directive's typed value (made with it, not copied in afterwards); ``hints``
    is shared by the runs over one script (``Hints``)."""
    return _Getopt(words, version, component, ignored, make_span, source, typed, hints).run()
