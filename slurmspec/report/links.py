"""Where each code is documented: one base URL for every format that links to rule docs.

``docs/rules.md`` is generated from the registry with one ``## CODE name``
heading per rule, so GitHub's heading anchor is ``code-name`` in lower case.
ShellCheck codes (``SCxxxx``, from the optional ShellCheck bridge) link to the
ShellCheck wiki, which has one page per code.
"""

from __future__ import annotations

# The project's public repository; the only place this address is written.
REPOSITORY = "https://github.com/slurmspec/slurmspec"
RULES_DOC = f"{REPOSITORY}/blob/main/docs/rules.md"
SHELLCHECK_WIKI = "https://www.shellcheck.net/wiki/"


def rule_url(code: str, name: str) -> str:
    if code.startswith("SC"):
        return SHELLCHECK_WIKI + code
    return f"{RULES_DOC}#{code.lower()}-{name.lower()}"
