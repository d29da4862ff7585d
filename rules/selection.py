"""The default selection: the rules a run without ``select`` reports, chosen by judged precision.

Every finding of every rule on the shared corpus of real batch scripts (``../shared/corpus/real``,
linted for 22.05 and the newest release, with and without the lab cluster profile) is judged by hand
in ``tests/corpus/judgements.tsv``: *real* (a real problem for the author), *low* (correct, of little
value) or *wrong* (false). ``JUDGED`` (rules/judged.py, generated from that file) holds the counts.

A rule with a judged finding that is wrong is opt-in until it is fixed. Otherwise a rule is in the
default selection when it is a meta rule (SB9xx: about slurmspec itself, such as a rule that crashed or
a suppression comment that does nothing), or when

* it has at least ``MIN_JUDGED`` judged findings, at least ``BAR`` of them real; or
* it has fewer (too few to measure), and they meet ``BAR`` or the rule says sbatch or the controller
  refuses the script (outcome ``refused``: the claim is checked against real sbatch in the
  differential tests, and a refused script is a real problem unless it is not meant to be submitted
  as it stands, like a template); or
* it has none, and its outcome is a problem for the job (``UNJUDGED_OUTCOMES``: refused, pends,
  fails, or runs other than written); advice waits for the corpus to show it is worth saying.

Every other rule is opt-in: by code, prefix or name, by its outcome as a group (``advice``,
``wrong``, ...), or all of them with ``ALL``. ``DEFAULT`` is written out here, not computed, so a
change of judgement changes the selection only when someone edits this list;
tests/test_judged_corpus.py fails while ``DEFAULT`` and the policy above disagree, naming the rule.

The policy as code (``BAR``, ``MIN_JUDGED``, ``UNJUDGED_OUTCOMES``, ``qualifies``) is
rules/selection_policy.py: only the tests and tests/corpus/judge.py need it, so a lint run, which
reads ``DEFAULT`` alone, does not import it (nor ``fractions`` and ``decimal`` with it).
"""

from __future__ import annotations

DEFAULT = frozenset({
    # parse, reject: sbatch or the controller refuses the script
    "SB001", "SB002", "SB003", "SB004", "SB005", "SB006", "SB007", "SB008", "SB009", "SB010",
    "SB101", "SB102", "SB103", "SB104", "SB105", "SB106", "SB110", "SB111", "SB112", "SB113",
    "SB114", "SB115", "SB116", "SB117", "SB118", "SB119", "SB120", "SB121", "SB122", "SB123",
    "SB124", "SB125", "SB126", "SB127", "SB128", "SB129", "SB130", "SB131", "SB132", "SB133",
    "SB140", "SB141", "SB142", "SB143", "SB144", "SB145", "SB146", "SB147", "SB148", "SB149",
    "SB150",
    # traps: judged real on the corpus, or no finding there and not advice
    "SB201", "SB202", "SB204", "SB206", "SB207", "SB208", "SB209", "SB213", "SB215", "SB216",
    "SB220", "SB230", "SB231", "SB232", "SB234", "SB235", "SB236", "SB239", "SB248", "SB250", "SB251",
    "SB253", "SB254", "SB256",
    # launch: judged real on the corpus, or no finding there and not advice
    "SB301", "SB302", "SB303", "SB304", "SB305", "SB306", "SB311", "SB312", "SB313", "SB314",
    "SB320", "SB322", "SB343",
    # cluster: refused, never starting or run other than written on the profile's cluster
    # (SB415 is out: one finding judged wrong, on a #PBS script)
    "SB401", "SB402", "SB403", "SB404", "SB405", "SB406", "SB407", "SB408", "SB409", "SB410",
    "SB411", "SB412", "SB413", "SB414", "SB452", "SB453", "SB454", "SB460", "SB461", "SB462",
    "SB463", "SB464", "SB465",
    # meta: about slurmspec itself
    "SB900", "SB901", "SB902", "SB903", "SB904", "SB905", "SB906",
})
