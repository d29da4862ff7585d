"""The language server shows hostile script text as the CLI does (``slurmspec.printable``, issue 21).

An editor's problems panel, hover popup and message window render what they get; an ESC, a bidi
override or a line separator from the script must arrive as visible text there too.
"""

from __future__ import annotations

from slurmspec.lint import lint_text
from slurmspec.lsp.diagnostics import configuration_problem, to_lsp
from slurmspec.lsp.hover import finding_hover, option_hover
from slurmspec.lsp.positions import PositionMap
from slurmspec.parser.script import parse_script
from slurmspec.version import NEWEST
from tests.strategies import RAW_CONTROLS

SOURCE = "#!/bin/bash\n#SBATCH --time=\x1b[2J\u202e\x07\u2028\n#SBATCH --bogus\nsrun true\n"


def _script_and_findings():
    script = parse_script(SOURCE.encode(), "job.sbatch", NEWEST)
    return script, [d for d in lint_text(SOURCE, path="job.sbatch", version=NEWEST) if d.span.line == 2]


def test_diagnostic_messages_show_controls_and_keep_only_their_own_line_breaks():
    script, found = _script_and_findings()
    assert found
    for index, diagnostic in enumerate(found):
        message = to_lsp(diagnostic, index, 1, script, PositionMap(script.source), "file:///job.sbatch").message
        assert RAW_CONTROLS.search(message) is None
        assert message.count("\n") == len(diagnostic.notes)  # the breaks between message and notes only
    assert any("\u241b[2J\\u202e\u2407\\u2028" in to_lsp(d, 0, 1, script, PositionMap(script.source), "u").message
               for d in found)


def test_hover_and_configuration_messages_show_controls():
    script, found = _script_and_findings()
    assert all(RAW_CONTROLS.search(finding_hover(d)) is None for d in found)
    assert RAW_CONTROLS.search(option_hover(script.directives[0], script)) is None
    assert configuration_problem("bad \x1b[2J.toml").message == "slurmspec cannot lint this file: bad \u241b[2J.toml"
