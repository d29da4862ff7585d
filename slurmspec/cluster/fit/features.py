"""Node features against a ``--constraint`` expression (``slurmspec/model/values/constraint.py``).

slurmctld (``src/slurmctld/job_mgr.c:build_feature_list()``, ``node_scheduler.c``)
refuses an expression naming a feature no node of the cluster has ("Invalid
feature specification"), and one that no node of the job's partitions
satisfies ("Requested node configuration is not available"). Each node must
satisfy the expression by itself (``a&b``: both on the node; ``a|b`` and
``[a|b]``: either), except counted features: ``a*2`` asks for two nodes having
``a`` and lets the job's other nodes be any (``-N 3 -C rome*2`` runs on two
``rome`` nodes and one other; ``-C rome*3`` with two ``rome`` nodes is refused),
measured on Slurm 22.05.8 and 24.11.5.
"""

from __future__ import annotations

from slurmspec.kinds import ConstraintGroup
from slurmspec.model.values.constraint import Constraint, Expression, Feature, Group


def names(constraint: Constraint | None) -> tuple[str, ...]:
    return () if constraint is None else constraint.features


def counted(constraint: Constraint | None) -> tuple[Feature, ...] | None:
    """The ``name*N`` features when the whole expression is one, or a ``[a*1&b*2]`` group; () without counts.

    None when counts appear in a form not modelled (mixed with ``|`` or with plain features).
    """
    if constraint is None or constraint.expr is None:
        return ()
    features = _all_features(constraint.expr)
    with_counts = [f for f in features if f.count is not None]
    if not with_counts:
        return ()
    expr = constraint.expr
    if len(expr.terms) == 1 and isinstance(expr.terms[0], Group) and expr.terms[0].kind is ConstraintGroup.BRACKET:
        expr = expr.terms[0].expr
    if all(isinstance(t, Feature) and t.count is not None for t in expr.terms) and set(expr.operators) <= {"&"}:
        return tuple(expr.terms)
    return None


def satisfied(constraint: Constraint | None, features: frozenset[str]) -> bool | None:
    """Does a node with ``features`` satisfy the (count-free) expression? None: cannot say."""
    if constraint is None or constraint.expr is None:
        return True
    return _evaluate(constraint.expr, features)


def _evaluate(expr: Expression, features: frozenset[str]) -> bool | None:
    if len(set(expr.operators)) > 1:
        return None  # `a&b|c` without parentheses: the precedence is not modelled
    values = []
    for term in expr.terms:
        if isinstance(term, Feature):
            if term.count is not None:
                return None
            values.append(term.name in features)
        else:
            value = _evaluate(term.expr, features)
            if value is None:
                return None
            values.append(value)
    return any(values) if expr.operators and expr.operators[0] == "|" else all(values)


def _all_features(expr: Expression) -> list[Feature]:
    found = []
    for term in expr.terms:
        if isinstance(term, Feature):
            found.append(term)
        else:
            found.extend(_all_features(term.expr))
    return found


def alternatives(constraint: Constraint | None) -> tuple[Constraint, ...] | None:
    """``[a|b]`` (the whole expression): one constraint per alternative, since every node of the job must then
    have the same one (a "matching OR", man sbatch); None for any other expression.

    Measured on Slurm 24.11.5: `-N 3 -C [a100|skylake]` with one a100 node and two skylake nodes left is refused.
    """
    if constraint is None or constraint.expr is None or len(constraint.expr.terms) != 1:
        return None
    group = constraint.expr.terms[0]
    if not isinstance(group, Group) or group.kind is not ConstraintGroup.BRACKET or set(group.expr.operators) != {"|"}:
        return None
    return tuple(Constraint(Expression((term,), ())) for term in group.expr.terms)
