"""The script as written: lines, directives and their options with exact positions (``script.py``),
options left without a value that take the next line's option (``swallowed.py``), facts memoised per
parsed script (``memo.py``), and the plain-data form `slurmspec parse --format json` prints
(``serialize.py``)."""
