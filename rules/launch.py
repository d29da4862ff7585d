"""(being written) Rules of this module are registered in rules/__init__.py."""

RULES = ()
