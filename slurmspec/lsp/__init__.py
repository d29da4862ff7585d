"""``slurmspec lsp``: a language server for batch scripts, built on pygls (the optional ``lsp`` extra).

Importing this package imports nothing else; ``slurmspec.lsp.server`` needs pygls.
"""
