"""Group shell tokens into simple commands, tracking the compound construct each one sits in.

Tolerant by design: control keywords (``if``, ``then``, ``do``, ``{``, ``(``...)
are stripped from the front of a command and only used to keep a stack of
enclosing constructs; headers we cannot read (``for x in ...``, ``case ... in``,
``[[ ... ]]``, function names) are skipped; mismatched closers are ignored.
A command that is never closed simply ends at the end of the text.
"""

from __future__ import annotations

import re
from array import array
from typing import Iterable, Iterator, Sequence

import attrs

from slurmspec.body.nesting import Nesting
from slurmspec.body.lexicon import Lexicon
from slurmspec.body.shell import token_batches
from slurmspec.body.tokens import Op, Token, TokenStream, Word
from slurmspec.frozen import define, frozen
from slurmspec.kinds import AssignmentKind

__all__ = ["Assignment", "Command", "CommandHeads", "split_commands", "iter_commands", "declarations", "ASSIGNMENT", "MAX_WORDS"]

# NAME=value or NAME+=value, optionally NAME[index]=...; the name must be unquoted.
ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?(\+?)=")

_OPENERS = {"if": "if", "while": "while", "until": "until"}
_CLOSERS = {"fi": ("if",), "done": ("for", "while", "until"), "esac": ("case",), "}": ("group", "function")}
_SKIPPED = frozenset({"then", "do", "else", "elif", "!", "coproc"})
_SEPARATORS = frozenset({"\n", ";", "&", ";;", ";&", ";;&"})
_DECLARERS = frozenset({"export", "declare", "typeset", "local", "readonly"})
# Words a command keeps: its launcher, options and program are at the front. A command of more
# (4 MiB of `echo a a a ...` is two million words) keeps its span but not the rest of its words.
MAX_WORDS = 4096


@frozen(slots=True)
class Assignment:
    """``NAME=value`` as a command prefix, a bare statement, or an argument of ``export``."""

    name: str
    value: str | None  # unquoted value text; None for ``export NAME``
    raw: str | None  # value as written
    start: int
    end: int
    value_start: int
    kind: AssignmentKind
    append: bool = False


@frozen(slots=True)
class Command:
    """One simple command: prefix assignments, then words (redirections removed)."""

    words: tuple[Word, ...]
    assignments: tuple[Assignment, ...]
    start: int
    end: int
    background: bool = False  # the and-or list it belongs to ends in ``&``
    piped: bool = False  # one side of a ``|`` pipeline
    context: tuple[str, ...] = ()  # enclosing constructs, outermost first


def assignment_of(word: Word, kind: AssignmentKind) -> Assignment | None:
    """Read ``word`` as NAME=value, or None when it is not an assignment."""
    m = ASSIGNMENT.match(word.text)
    if not m:
        return None
    eq = word.value.find("=")
    cut = word.start + m.end()
    return Assignment(
        m.group(1), word.value[eq + 1 :], word.text[m.end() :], word.start, word.end,
        min(cut, word.end), kind, bool(m.group(3)),
    )


def declarations(cmd: Command) -> tuple[Assignment, ...]:
    """Variables set by ``export``/``declare``/``local``/``readonly`` in ``cmd``."""
    if not cmd.words or cmd.words[0].text not in _DECLARERS:
        return ()
    exported = cmd.words[0].text == "export"
    out = []
    for w in cmd.words[1:]:
        if w.text.startswith("-"):
            # declare -x / typeset -x mark exports; export -n removes the export flag.
            flags = w.text[1:]
            exported = (exported or "x" in flags) and not (cmd.words[0].text == "export" and "n" in flags)
            if "f" in flags:
                return tuple(out)  # -f names functions, not variables
            continue
        kind = AssignmentKind.EXPORT if exported else AssignmentKind.SHELL
        a = assignment_of(w, kind)
        if a is not None:
            out.append(a)
        elif w.plain and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", w.text):
            out.append(Assignment(w.text, None, None, w.start, w.end, w.end, kind))
    return tuple(out)


@define
class _Builder:
    words: list[Word] = attrs.Factory(list)
    assigns: list[Word] = attrs.Factory(list)
    start: int = -1
    end: int = -1
    piped: bool = False
    context: tuple[str, ...] = ()

    def touch(self, start: int, end: int) -> None:
        if self.start < 0:
            self.start = start
        self.end = max(self.end, end)

    @property
    def empty(self) -> bool:
        return not self.words and not self.assigns


class CommandHeads:
    """Each command's start, end and name (its first word's value, "" for none), in file order, kept
    compactly: a body's index needs them after its commands and their words are gone."""

    __slots__ = ("starts", "ends", "names", "_seen")

    def __init__(self) -> None:
        self.starts, self.ends = array("q"), array("q")
        self.names: list[str] = []
        self._seen: dict[str, str] = {}  # one string per distinct name

    def add(self, command: Command) -> None:
        self.starts.append(command.start)
        self.ends.append(command.end)
        name = command.words[0].value if command.words else ""
        self.names.append(self._seen.setdefault(name, name))

    @classmethod
    def of(cls, commands: Iterable[Command]) -> "CommandHeads":
        heads = cls()
        for command in commands:
            heads.add(command)
        return heads


def split_commands(text: str, base: int = 0, posmap: Sequence[int] | None = None) -> list[Command]:
    """Split ``text`` into simple commands; never raises on any input."""
    return list(iter_commands(text, base, posmap))


def iter_commands(text: str, base: int = 0, posmap: Sequence[int] | None = None,
                  lexicon: Lexicon | None = None) -> Iterator[Command]:
    """The simple commands of ``text`` in file order, each as soon as its and-or list ends.

    O(len(text)): tokens are read as needed and dropped once grouped, so what is held
    at any time is the command at hand (at most ``MAX_WORDS`` words of it) and the
    rest of its and-or list, never the whole body. A ``lexicon`` receives what the lexer
    sees besides the tokens (``slurmspec.body.shell.token_batches``).
    """
    return _Grouper(TokenStream(token_batches(text, base, posmap, lexicon))).run()


class _Grouper:
    def __init__(self, tokens: TokenStream) -> None:
        self.toks = tokens
        self.out: list[Command] = []  # the commands of the and-or list being read
        self.stack = Nesting()
        self.cur = _Builder()
        self.list_start = 0  # index in out of the first command of the current and-or list
        self.skip: str | None = None  # reading a header we do not interpret
        self.pending_function = False

    def run(self) -> Iterator[Command]:
        toks, i = self.toks, 0
        while toks.has(i):
            tok = toks.held[i - toks.first]
            i += 1
            if self.skip is not None:
                i = self._skipping(tok, i)
            elif isinstance(tok, Op):
                i = self._op(tok, i)
            else:
                i = self._word(tok, i)
                if i - toks.first > 4096:  # a long line of words: let the read ones go
                    toks.forget(i)
                continue  # a word ends no and-or list
            toks.forget(i)
            if not self.list_start and len(self.out) > MAX_WORDS:
                # An and-or list of thousands of commands (`a && a && ...`): those read so far are
                # let go, and a `&` ending the list backgrounds only the ones still held.
                self.list_start = len(self.out)
            if self.list_start:  # an and-or list ended: its commands are final
                yield from self.out[:self.list_start]
                del self.out[:self.list_start]
                self.list_start = 0
        self._finish()
        yield from self.out

    # -- words -------------------------------------------------------------------------
    def _word(self, w: Word, i: int) -> int:
        cur = self.cur
        if cur.empty and w.plain:
            frame = self.stack.top
            if frame and frame[0] == "case" and not frame[1] and w.text != "esac":
                self.skip = ")"  # a case pattern up to its ")"
                return i
            if self._keyword(w.text, i):
                return i
        if not cur.words:
            if ASSIGNMENT.match(w.text):
                cur.touch(w.start, w.end)
                # NAME=( ... ) array literal: swallow the parenthesised list.
                toks = self.toks
                if w.text.endswith("=") and toks.has(i) and _is_op(toks[i], "(") and toks[i].start == w.end:
                    j = i + 1
                    while toks.has(j) and not _is_op(toks[j], ")"):
                        j += 1
                    end_tok = toks[j] if toks.has(j) else toks[j - 1]
                    cur.touch(w.start, end_tok.end)
                    items = " ".join(t.text for t in toks.between(i + 1, j) if isinstance(t, Word))
                    value = f"({items})"
                    cur.assigns.append(Word(w.text + value, w.value + value, w.start, end_tok.end, True, True))
                    return j + 1
                if len(cur.assigns) < MAX_WORDS:
                    cur.assigns.append(w)
                return i
            self.pending_function = False
            cur.context = self.stack.context()
        if cur.start < 0:  # cur.touch(w.start, w.end), inline: once per word of the body
            cur.start = w.start
        if w.end > cur.end:
            cur.end = w.end
        if len(cur.words) < MAX_WORDS:
            cur.words.append(w)
        return i

    def _keyword(self, kw: str, i: int) -> bool:
        stack = self.stack
        if kw in _OPENERS:
            stack.push(_OPENERS[kw])
        elif kw in _SKIPPED:
            pass
        elif kw in _CLOSERS:
            stack.close(_CLOSERS[kw])
        elif kw == "{":
            stack.push("function" if self.pending_function else "group")
            self.pending_function = False
        elif kw in ("for", "select"):
            stack.push("for")
            self.skip = "sep"
        elif kw == "case":
            stack.push("case")
            self.skip = "in"
        elif kw == "function":
            self.pending_function = True
            self.skip = "{"
        elif kw == "[[":
            self.skip = "]]"
        else:
            return False
        return True

    def _skipping(self, tok: Token, i: int) -> int:
        skip = self.skip
        if isinstance(tok, Op):
            if skip == ")" and tok.kind in (")", "\n"):
                # A pattern ends at ")"; at a newline we lost track, so assume an arm began.
                self.skip = None
                if self.stack:
                    self.stack.top[1] = True  # now inside a case arm
            elif tok.kind == "\n" and skip in ("sep", "in", "]]") or tok.kind in _SEPARATORS and skip == "sep":
                self.skip = None
                self._op(tok, i)
            elif skip == "{" and tok.kind in ("(", ")"):
                pass
            elif skip == "{" and tok.kind in _SEPARATORS:
                self.skip = None
        else:
            if skip == "in" and tok.text == "in":
                self.skip = None
            elif skip == "]]" and tok.text == "]]":
                self.skip = None
            elif skip == "{" and tok.text == "{":
                self.skip = None
                self._keyword("{", i)
        return i

    # -- operators -----------------------------------------------------------------------
    def _op(self, op: Op, i: int) -> int:
        kind = op.kind
        if kind == "redir":
            self.cur.touch(op.start, op.end)
            if self.toks.has(i) and isinstance(self.toks[i], Word):
                self.cur.touch(self.toks[i].start, self.toks[i].end)
                return i + 1  # the redirection target is not a command word
            return i
        if kind == "(":
            cur = self.cur
            if len(cur.words) == 1 and not cur.assigns and self.toks.has(i) and _is_op(self.toks[i], ")"):
                self.cur = _Builder()  # name() — a function definition follows
                self.pending_function = True
                return i + 1
            if cur.empty:
                frame = self.stack.top
                if not (frame and frame[0] == "case" and not frame[1]):
                    self.stack.push("subshell")
            return i
        self._finish(piped_next=kind in ("|", "|&"))
        if kind == ")":
            self.stack.close(("subshell",))
        elif kind in ("&&", "||", "|", "|&"):
            pass
        else:
            if kind == "&":
                for k in range(self.list_start, len(self.out)):
                    self.out[k] = attrs.evolve(self.out[k], background=True)
            if kind in (";;", ";&", ";;&") and self.stack and self.stack.top[0] == "case":
                self.stack.top[1] = False
            self.list_start = len(self.out)
        return i

    def _finish(self, piped_next: bool = False) -> None:
        cur = self.cur
        if not cur.empty:
            kind = AssignmentKind.PREFIX if cur.words else AssignmentKind.SHELL
            assigns = tuple(a for a in (assignment_of(w, kind) for w in cur.assigns) if a is not None)
            ctx = cur.context if cur.words else self.stack.context()
            piped = cur.piped or piped_next
            self.out.append(Command(tuple(cur.words), assigns, cur.start, cur.end, False, piped, ctx))
        self.cur = _Builder(piped=piped_next)


def _is_op(tok: Token, kind: str) -> bool:
    return isinstance(tok, Op) and tok.kind == kind
