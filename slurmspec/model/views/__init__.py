"""Views of the job a rule compares, built from the same component requests as the job model.

The job model (``slurmspec/model/job/model.py``, ``ctx.job`` in rules) says what the job
does; these modules say how each party that reads the script sees it, so a rule
reads facts and compares them instead of working them out again:

- ``values``: a setting's parsed value, typed (a count, a node range, GPU items...),
  None when the value did not parse or is not that kind;
- ``hosts``: the hosts a ``--nodelist`` names;
- ``sbatch_gpus`` and ``sbatch_tasks``: what the sbatch client derives before the
  job reaches the controller (its GPU records by type, and the node and task
  counts it checks them against), per release;
- ``launch_steps``: the steps, tasks and processes the body's launchers start,
  as the launch rules compare them;
- ``request_facts``: what the job-environment traps ask of the header (how the job
  asks for GPUs, whether it may span nodes or tasks).

What a node must hold for the controller, and whether a cluster's nodes hold it,
needs the cluster profile: it is ``slurmspec/cluster/fit/``.
"""
