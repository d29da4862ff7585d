"""Merge an invocation into a parsed script, in the order sbatch applies the three sources.

``src/sbatch/opt.c:process_options_second_pass()`` (22.05 to 26.05), once per
hetjob component: the component's ``#SBATCH`` lines, then the ``SBATCH_*``
environment (``_opt_env()``), then the command line (``_set_options()``), then
the checks (``_opt_verify()``). Each setting replaces the previous one, so the
command line beats the environment, which beats the script (man sbatch, INPUT
ENVIRONMENT VARIABLES: "Environment variables will override any options set in
a batch script, and command line options will override any environment
variables"); options that accumulate (``--mail-type`` before 25.05,
``--signal``) accumulate across sources too. The merged occurrences are the
components' directives, in that order, so ``build_request`` gives every rule,
the job model and the cluster rules the request sbatch sends; the script's own
lines, bytes and fixes are untouched.

Three checks then treat a setting from the environment as weaker than one from
the command line or an ``#SBATCH`` line (both are "set by CLI" for sbatch:
``slurm_option_set_by_cli()``), and quietly drop the environment's
(``settle_sources``; each checked against sbatch 22.05.8 or 24.11 ``--test-only -v``):

- ``--mem``/``--mem-per-cpu``/``--mem-per-gpu`` (``_validate_memory_options()``):
  one set by CLI resets the others set by the environment
  (``#SBATCH --mem=1G --mem-per-cpu=1G`` with ``SBATCH_MEM_PER_CPU=2G`` is
  accepted with ``--mem=1G``); two from the environment alone are refused.
- ``--hint`` against ``--threads-per-core`` and the other layout options
  (``validate_hint_option()``): the one set by CLI wins, the environment's is reset.
- from 23.11, ``--cpus-per-task`` set by CLI resets ``SBATCH_CPUS_PER_GPU``
  ("Ignoring SBATCH_CPUS_PER_GPU since --cpus-per-task ... given as command line option").
"""

from __future__ import annotations

import attrs

from slurmspec.gates import CPUS_PER_TASK_BEATS_ENVIRONMENT_CPUS_PER_GPU
from slurmspec.invocation.command_line import names_script, read_command_line
from slurmspec.invocation.environment import Reset, environment_settings, environment_text, read_variables
from slurmspec.invocation.layer import InvocationLayer
from slurmspec.invocation.sources import SyntheticSource, command_line_text, command_line_words
from slurmspec.kinds import Origin
from slurmspec.model.job.request import JobRequest, build_request, hint_dropped_by
from slurmspec.model.syntax.script import Component, Directive, Script
from slurmspec.parser.script import _with_typed_value
from slurmspec.version import Version

_MEMORY = ("mem", "mem-per-cpu", "mem-per-gpu")


def apply_invocation(script: Script, argv: tuple[str, ...], environ) -> Script:
    """``script`` as sbatch sees it when run as ``sbatch ARGV SCRIPT`` with ``environ``.

    Raises ``InvocationError`` when ``argv`` holds a word sbatch would not read as an option
    of this script (see ``slurmspec.invocation.command_line``).
    """
    version = script.version
    variables = read_variables(environ, version)
    environment = SyntheticSource.place(Origin.ENVIRONMENT, environment_text(variables), len(script.source) + 1)
    # The rendered line ends with the script, unless the arguments name it or it came on standard input.
    shown = None if script.path is None or script.path.startswith("<") else script.path
    named = shown is not None and any(names_script(word, shown) for word in argv)
    text, placed = command_line_text(argv, None if named else shown)
    command_line = SyntheticSource.place(Origin.COMMAND_LINE, text, environment.end + 1)
    read = read_command_line(command_line_words(command_line, argv, placed), version,
                             command_line.local_span, text, script.path)
    from_environment = [_typed(s, version) for s in environment_settings(variables, version, environment.local_span)]
    groups = [[_typed(d, version) for d in group] for group in read.groups]

    layer_origin = InvocationLayer(len(script.source), environment, command_line).origin_of
    components: list[Component] = []
    added: list[Directive] = []  # every occurrence of every component: each is checked where it applies
    replaced: list[tuple[Directive, object]] = []
    previous: JobRequest | None = None
    for number in range(max(len(script.components), len(groups))):
        own = script.components[number].directives if number < len(script.components) else ()
        group_number = min(number, len(groups) - 1)
        sequence = list(own)
        for setting in from_environment:
            if isinstance(setting, Reset):
                cancelled = [d for d in sequence if d.option is setting.option]
                replaced.extend((d, setting) for d in cancelled if layer_origin(d.span.start) is Origin.SCRIPT)
                sequence = [d for d in sequence if d.option is not setting.option]
            else:
                sequence.append(_in_component(setting, number))
        sequence.extend(_in_component(d, number) for d in groups[group_number])
        added.extend(d for d in sequence if layer_origin(d.span.start) is not Origin.SCRIPT)
        request = build_request(number, sequence, version, inherited_from=previous)
        request = settle_sources(request, version, lambda s: layer_origin(s.directive.span.start) is Origin.ENVIRONMENT)
        components.append(Component(number, sequence, request))
        previous = request
        replaced.extend(_replaced_in(request, layer_origin))

    layer = InvocationLayer(len(script.source), environment, command_line, tuple(_unique(replaced)))
    issues = sorted((*script.issues, *read.issues), key=lambda issue: issue.span.start)
    return attrs.evolve(
        script, directives=(*script.directives, *sorted(added, key=lambda d: (d.span.start, d.component))),
        components=components, issues=issues, invocation=layer,
    )


def check_arguments(argv: tuple[str, ...], version: Version, script_path: str | None) -> None:
    """Raise ``InvocationError`` if ``argv`` cannot be sbatch's arguments for the script ``script_path``."""
    text, placed = command_line_text(argv, None)
    source = SyntheticSource.place(Origin.COMMAND_LINE, text, 0)
    read_command_line(command_line_words(source, argv, placed), version, source.local_span, text, script_path)


def settle_sources(request: JobRequest, version: Version, from_environment) -> JobRequest:
    """Drop the settings sbatch resets because the command line (or script) set a rival option."""
    drop: set[str] = set()
    memory = [s for s in map(request.get, _MEMORY) if s is not None]
    if sum(1 for s in memory if not from_environment(s)) == 1:
        drop.update(s.name for s in memory if from_environment(s))
    hint = request.get("hint")
    layout = [request.get(name) for name in hint_dropped_by(request, version)]
    if hint is not None and layout:
        layout_by_cli = [s for s in layout if not from_environment(s)]
        if not from_environment(hint) and not layout_by_cli:
            drop.update(s.name for s in layout)
        elif from_environment(hint) and layout_by_cli:
            drop.add("hint")
    per_gpu, per_task = request.get("cpus-per-gpu"), request.get("cpus-per-task")
    if (version >= CPUS_PER_TASK_BEATS_ENVIRONMENT_CPUS_PER_GPU and per_gpu is not None and per_task is not None
            and from_environment(per_gpu) and not from_environment(per_task)):
        drop.add("cpus-per-gpu")
    if not drop:
        return request
    return JobRequest(request.component, tuple(s for s in request.settings if s.name not in drop))


def _typed(setting, version: Version):
    # The same typed-value parsing the parser gives #SBATCH occurrences.
    return _with_typed_value(setting, version) if isinstance(setting, Directive) else setting


def _in_component(directive: Directive, number: int) -> Directive:
    # One object per component it applies to: rules look components up by it (and by identity).
    return directive if directive.component == number else attrs.evolve(directive, component=number)


def _replaced_in(request: JobRequest, origin_of) -> list[tuple[Directive, Directive]]:
    """(#SBATCH occurrence, what replaced it) for settings decided by the environment or command line."""
    found = []
    for setting in request.settings:
        if setting.inherited or origin_of(setting.directive.span.start) is Origin.SCRIPT:
            continue
        found.extend((d, setting.directive) for d in setting.overridden if origin_of(d.span.start) is Origin.SCRIPT)
    return found


def _unique(pairs):
    seen = set()
    for earlier, later in pairs:
        if id(earlier) not in seen:
            seen.add(id(earlier))
            yield earlier, later
