"""Parse node-feature expressions for --constraint, --prefer, --batch and --cluster-constraint.

sbatch passes these strings through untouched; slurmctld parses them in
``job_mgr.c:build_feature_list()`` and answers "Invalid feature specification"
(ESLURM_INVALID_FEATURE) for malformed ones, so every syntax error here is
``rejected=True``. Grammar: features joined by ``&`` (AND) or ``|`` (OR), a
feature may carry ``*count``, ``[ ... ]`` is a matching-OR / multiple-count
group (not nestable, not inside parentheses), ``( ... )`` groups. A comma is
read exactly like ``&`` (checked against slurmctld 22.05.8 with ``sbatch
--test-only``: ``a100,ib`` is accepted and means both features, ``a100,v100``
on nodes having one of them is "Requested node configuration is not available",
``a100,,ib``, ``,a100`` and ``a100,&ib`` are refused like ``&&``, ``a100,`` is
accepted like ``a100&``); the expression stores it as ``&``. Blanks are not
allowed (there is no feature with such a name).
"""

from __future__ import annotations

from typing import Union

import attrs

from slurmspec.frozen import as_tuple, frozen
from slurmspec.kinds import ConstraintGroup

from ._base import Parsed
from ._common import problem, tick

_SPECIAL = "&|*[]()"
HINT = "combine features with `&` and `|`, e.g. `a100&ib`, `[rack1|rack2]` or `(a|b)&c`"


@frozen
class Feature:
    name: str
    count: int | None = None


@frozen
class Group:
    """A ``[...]`` or ``(...)`` part of a constraint."""

    kind: ConstraintGroup
    expr: "Expression"


@frozen
class Expression:
    """``operators[i]`` ("&" or "|") joins ``terms[i]`` and ``terms[i+1]``."""

    terms: tuple[Union[Feature, Group], ...] = attrs.field(converter=as_tuple)
    operators: tuple[str, ...] = attrs.field(converter=as_tuple)


@frozen
class Constraint:
    expr: Expression | None
    negated: bool = False

    @property
    def features(self) -> tuple[str, ...]:
        out: list[str] = []

        def walk(expr: Expression) -> None:
            for term in expr.terms:
                if isinstance(term, Feature):
                    out.append(term.name)
                else:
                    walk(term.expr)

        if self.expr is not None:
            walk(self.expr)
        return tuple(out)


class _Error(Exception):
    def __init__(self, message: str, start: int, end: int):
        self.message, self.start, self.end = message, start, end


class _Parser:
    def __init__(self, text: str):
        self.s = text
        self.i = 0
        self.trailing_operator: int | None = None

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def expression(self, depth: int, in_bracket: bool) -> Expression:
        terms = [self.term(depth, in_bracket)]
        ops: list[str] = []
        while self.peek() in ("&", "|", ","):
            ops.append("|" if self.peek() == "|" else "&")  # `,` is read as `&`
            self.i += 1
            if self.i == len(self.s) and not depth and not in_bracket:
                # slurmctld accepts a dangling operator at the very end ("v100&"),
                # checked against 22.05.8; it adds nothing.
                self.trailing_operator = self.i - 1
                ops.pop()
                break
            terms.append(self.term(depth, in_bracket))
        return Expression(terms, ops)

    def term(self, depth: int, in_bracket: bool) -> Union[Feature, Group]:
        ch = self.peek()
        start = self.i
        if ch == "[":
            if in_bracket:
                raise _Error("`[` groups cannot be nested", start, start + 1)
            if depth:
                raise _Error("a `[` group cannot be inside parentheses", start, start + 1)
            self.i += 1
            expr = self.expression(depth, True)
            if self.peek() != "]":
                raise _Error("missing `]`", start, self.i)
            self.i += 1
            return Group(ConstraintGroup.BRACKET, expr)
        if ch == "(":
            self.i += 1
            expr = self.expression(depth + 1, in_bracket)
            if self.peek() != ")":
                raise _Error("missing `)`", start, self.i)
            self.i += 1
            return Group(ConstraintGroup.PAREN, expr)
        while self.i < len(self.s) and self.s[self.i] not in _SPECIAL and self.s[self.i] != ",":
            c = self.s[self.i]
            if c.isspace():
                raise _Error(f"{tick(c)} is not allowed in a feature expression; {HINT}",
                             self.i, self.i + 1)
            self.i += 1
        name = self.s[start:self.i]
        if not name:
            what = f"unexpected {tick(ch)}" if ch else "missing feature at the end"
            raise _Error(f"{what}; {HINT}", start, min(start + 1, len(self.s)))
        count = None
        if self.peek() == "*":
            self.i += 1
            digits_start = self.i
            while self.i < len(self.s) and self.s[self.i].isascii() and self.s[self.i].isdigit():
                self.i += 1
            digits = self.s[digits_start:self.i]
            if not digits or int(digits) <= 0:
                raise _Error(f"`*` after {tick(name)} needs a positive node count",
                             digits_start - 1, self.i)
            count = int(digits)
        return Feature(name, count)


def parse_constraint(text: str, version: object = None) -> Parsed:
    if text == "":
        return Parsed(Constraint(None), (problem(text, "empty feature expression requests "
                                                 "nothing", rejected=False),))
    parser = _Parser(text)
    try:
        expr = parser.expression(0, False)
        if parser.i != len(text):
            ch = text[parser.i]
            raise _Error(f"unexpected {tick(ch)}; {HINT}", parser.i, parser.i + 1)
    except _Error as err:
        return Parsed(None, (problem(text, f"invalid feature specification: {err.message}",
                                     err.start, max(err.end, err.start + 1)),))
    except RecursionError:
        return Parsed(None, (problem(text, "feature expression is nested too deeply"),))
    if parser.trailing_operator is not None:
        at = parser.trailing_operator
        return Parsed(Constraint(expr), (problem(
            text, f"the {tick(text[at])} at the end joins nothing; Slurm ignores it", at, at + 1,
            rejected=False),))
    return Parsed(Constraint(expr))


def parse_cluster_constraint(text: str, version: object = None) -> Parsed:
    """--cluster-constraint=[!]feature[,feature...]: any listed feature matches."""
    negated = text.startswith("!")
    body = text[1:] if negated else text
    names = []
    pos = 1 if negated else 0
    for name in body.split(","):
        if not name or any(c in _SPECIAL or c.isspace() for c in name):
            return Parsed(None, (problem(text, f"{tick(name)} is not a cluster feature name",
                                         pos, pos + max(1, len(name))),))
        names.append(Feature(name))
        pos += len(name) + 1
    expr = Expression(names, ["|"] * (len(names) - 1))
    return Parsed(Constraint(expr, negated))
