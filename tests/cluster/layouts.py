"""Cluster layouts for the cluster-rule tests (tests/cluster/): several node shapes and partition limits.

The default layout of tests/slurm_cluster.py has one node shape per
partition and no node or array limits; these layouts give the SB4xx rules
something to disagree about: a partition mixing two shapes (one with
hyper-threads), GPU nodes of two types, a node with two GPU types, node
features, partition MaxTime/DefaultTime/MaxNodes/MinNodes/MaxCPUsPerNode/
MaxMemPerCPU/MaxMemPerNode, DOWN and INACTIVE partitions, a partition only
one group may use, a small MaxArraySize, and ``EnforcePartLimits`` both ways.

``SHAPES_ALL`` and ``SHAPES_NO`` have the same nodes and partitions and differ
in ``EnforcePartLimits`` (``ALL`` refuses a job over a partition's limits at
submission; ``NO`` accepts it and lets it pend) and ``MaxArraySize``.
"""

from __future__ import annotations

from tests.slurm_layout import ClusterLayout

__all__ = ["SHAPES_ALL", "SHAPES_NO", "LAYOUTS"]

_NODES = """\
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} {topo} RealMemory={real_mem} Gres=gpu:2 Feature=local State=UNKNOWN
NodeName=c48-[01-04] NodeAddr=127.0.0.1 Port={dead_port} CPUs=48 Boards=1 SocketsPerBoard=2 CoresPerSocket=24 ThreadsPerCore=1 RealMemory=192000 Feature=cascadelake,ib State=CLOUD
NodeName=smt-[01-02] NodeAddr=127.0.0.1 Port={dead_port} CPUs=64 Boards=1 SocketsPerBoard=2 CoresPerSocket=16 ThreadsPerCore=2 RealMemory=256000 Feature=rome,smt State=CLOUD
NodeName=v100-[01-02] NodeAddr=127.0.0.1 Port={dead_port} CPUs=32 Boards=1 SocketsPerBoard=2 CoresPerSocket=16 ThreadsPerCore=1 RealMemory=192000 Gres=gpu:v100:4 Feature=v100,skylake,ib State=CLOUD
NodeName=a100-[01-02] NodeAddr=127.0.0.1 Port={dead_port} CPUs=64 Boards=1 SocketsPerBoard=2 CoresPerSocket=32 ThreadsPerCore=1 RealMemory=512000 Gres=gpu:a100:8,nic:2 Feature=a100,rome,ib State=CLOUD
NodeName=mix-01 NodeAddr=127.0.0.1 Port={dead_port} CPUs=16 Boards=1 SocketsPerBoard=1 CoresPerSocket=16 ThreadsPerCore=1 RealMemory=64000 Gres=gpu:a100:1,gpu:v100:1 Feature=mixed State=CLOUD
"""

_PARTITIONS = """\
PartitionName=debug Nodes={host} Default=YES MaxTime=00:30:00 DefaultTime=00:05:00 State=UP
PartitionName=cpu Nodes=c48-[01-04],smt-[01-02] MaxTime=1-00:00:00 DefaultTime=01:00:00 MaxNodes=4 State=UP
PartitionName=gpu Nodes=v100-[01-02],a100-[01-02],mix-01 MaxTime=2-00:00:00 DefaultTime=02:00:00 MaxNodes=2 State=UP
PartitionName=a100 Nodes=a100-[01-02] MaxTime=12:00:00 MaxCPUsPerNode=32 State=UP
PartitionName=long Nodes=c48-[01-02] MaxTime=7-00:00:00 DefaultTime=1-00:00:00 MinNodes=2 MaxMemPerNode=100000 State=UP
PartitionName=lowmem Nodes=c48-[03-04] MaxTime=04:00:00 MaxMemPerCPU=2000 DefMemPerCPU=1000 State=UP
PartitionName=down Nodes=c48-[03-04] MaxTime=04:00:00 State=DOWN
PartitionName=inactive Nodes=smt-[01-02] MaxTime=04:00:00 State=INACTIVE
PartitionName=private Nodes=c48-04 MaxTime=04:00:00 AllowGroups=nosuchgroup State=UP
PartitionName=all Nodes=ALL MaxTime=INFINITE State=UP
"""

_GRES = """\
NodeName={host} Name=gpu File={dev}/nvidia[0-1]
"""

SHAPES_ALL = ClusterLayout(
    name="shapes-all",
    nodes=_NODES,
    partitions=_PARTITIONS,
    gres=_GRES,
    extra="GresTypes=gpu,nic\nEnforcePartLimits=ALL\nMaxArraySize=101\n",
)

SHAPES_NO = ClusterLayout(
    name="shapes-no",
    nodes=_NODES,
    partitions=_PARTITIONS,
    gres=_GRES,
    extra="GresTypes=gpu,nic\nEnforcePartLimits=NO\nMaxArraySize=51\n",
)

LAYOUTS = (SHAPES_ALL, SHAPES_NO)
