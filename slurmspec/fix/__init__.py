"""Autofixes: text edits on the original source, never a re-render from the model.

``edit.py`` has the one ``Edit`` and ``Fix`` types that diagnostics carry,
``apply.py`` applies non-overlapping edits, ``loop.py`` runs the
lint → fix → re-parse rounds with their safety checks, ``write.py`` writes the
result atomically and ``diff.py`` renders the change as a unified diff.
"""
