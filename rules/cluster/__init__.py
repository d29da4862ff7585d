"""SB4xx cluster: the request against the cluster it is submitted to.

Each rule reads the cluster profile (``ctx.cluster``, from ``lint --cluster``
or the configuration's ``cluster`` key; ``slurmspec/cluster/profile.py``) and
does nothing without one: partitions and their limits, node shapes, GRES and
features, and the site's policy are properties of a cluster, not of Slurm.

The fitting views (``slurmspec/cluster/fit/``: ``need``, ``nodes``, ``where``, ``waste``...) and the
profile's modules are imported inside each check, after its no-profile return:
most runs have no profile, and a cold ``lint`` should not build their classes.
"""
