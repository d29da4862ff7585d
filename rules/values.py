"""TRANSITIONAL (the lead deletes it): ``problem_span`` for legacy modules not yet ported. No rules."""


def problem_span(ctx, directive, start, end):
    return ctx.script.span_in_value(directive, start, end)
