"""Settings: the configuration file (``config``), the release to target (``release``) and, resolved in
one place (``resolve``), the frozen ``LintSettings`` every lint runs with.

Above the engine (``slurmspec.lint``, whose selectors check a configuration) and the reports (whose
formats ``output-format`` names); below the CLI and the language server, which both resolve through it.
"""
