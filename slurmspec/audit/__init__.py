"""``slurmspec audit``: what the mistakes slurmspec finds cost a cluster, from its own accounting.

Layers, each importing only those above it:

* ``sacct`` -- the accounting rows (``sacct -X``), streamed, and the stored scripts and
  environments (``sacct --batch-script`` / ``--env-vars``) fetched a batch of jobs at a time;
* ``judge`` -- each distinct (script, submission context) linted once through the lint engine;
* ``cost`` -- what a job cost (``AllocTRES`` x elapsed) and what a finding lost of it;
* ``tally`` -- integer sums by rule, user, account, partition and week; shards merge exactly;
* ``pipeline`` -- the streaming run that joins the three;
* ``report_*`` -- JSON, text, CSV and HTML (inline SVG charts) from a finished tally.

Slurm's PrivateData applies: everything is read through ``sacct`` as the calling user.
"""
