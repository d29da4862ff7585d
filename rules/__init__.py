"""The rule registry: every module that declares rules, listed explicitly.

Codes are the public interface: SB0xx parse, SB1xx reject, SB2xx traps,
SB3xx launch, SB4xx cluster, SB9xx meta; a rule lives in the folder of its
family (``rules/<family>/``), which the registry checks, with its doc and its
fix. A retired code is never reused. ``slurmspec.lint.engine.registry()``
collects the ``@rule`` functions of each module in the order they are declared.
To add a rule, see "How to add a rule" in the README.
"""

from importlib import import_module

# Family folder -> the modules in it that declare rules (a module missing here is never run).
FAMILIES = {
    "parse": (
        "unknown_option",
        "option_names",
        "option_arguments",
        "directive_words",
    ),
    "reject": (
        "script_sanity",
        "script_too_large",
        "time_values",
        "resource_values",
        "job_control_values",
        "time_min_exceeds_time",
        "array_in_hetjob",
        "memory_options",
        "core_spec_with_thread_spec",
        "bb_with_bbf",
        "deadline_before_begin",
        "arbitrary_distribution",
        "exclusive_with_oversubscribe",
        "ntasks_per_core_exceeds_threads",
        "nodelist_exceeds_nodes",
        "cpus_per_gpu_with_cpus_per_task",
        "gpu_counts",
        "per_gpu_option_without_gpu",
        "gpu_typed_and_untyped",
        "ntasks_per_gpu",
        "gres_with_gpus_per_node",
    ),
    "traps": (
        "late_directives",
        "near_miss_directives",
        "legacy_prefix",
        "repeated_options",
        "glued_hash",
        "shell_expansion",
        "mail_options",
        "suspicious_values",
        "exclusive_memory",
        "hint_dropped",
        "shared_settings",
        "redundant_gpu_request",
        "task_geometry",
        "early_pass_options",
        "hetjob_inheritance",
        "abbreviated_options",
        "log_directories",
        "shebang_arguments",
        "filename_patterns",
        "batch_step_filenames",
        "cuda_visible_devices",
        "slurm_tmpdir",
        "rank_variables",
        "nodelist_hostname",
        "unset_slurm_variables",
        "export_restricts_steps",
        "swallowed_option",
        "batch_signal_trap",
    ),
    "launch": (
        "launcher_tasks_per_node",
        "launcher_on_first_node",
        "launcher_nodes",
        "launcher_gpus",
        "torchrun_rendezvous",
        "launcher_node_rank",
        "single_process_gpus",
        "srun_tasks_gpus",
        "gpus_per_task_local_rank",
        "lightning_ntasks",
        "mpi_process_count",
        "srun_cpus_per_task",
        "slurm_ntasks_unset",
        "few_cpus_per_gpu",
        "missing_time_limit",
        "requeue_without_signal",
        "background_launcher",
    ),
    "cluster": (  # SB4xx: filled as the cluster rules land (rules/cluster/)
        # SB401-SB415 the request against the partitions and nodes
        "unknown_partition",
        "partition_unavailable",
        "partition_access",
        "time_over_partition_limit",
        "time_min_over_partition_limit",
        "request_exceeds_nodes",
        "unknown_gres",
        "unknown_feature",
        "constraint_unsatisfiable",
        "node_count_over_partition",
        "nodelist_not_in_partition",
        "array_over_max_array_size",
        "signal_without_preemption",
        "memory_over_partition_max",
        "cpus_over_partition",
        # SB450-SB454 waste, SB460-SB465 site policy
        "cpus_over_gpu_share",
        "memory_over_gpu_share",
        "gpus_spread_over_nodes",
        "exclusive_small_request",
        "host_memory_below_gpu_memory",
        "policy_required_option",
        "policy_forbidden_option",
        "policy_value_not_allowed",
        "policy_per_gpu_limit",
        "policy_untyped_gpus",
        "policy_gpu_partition_without_gpus",
    ),
    "meta": (
        "internal_error",
        "suppressions",
        "noqa",
        "script_too_long",
    ),
}

MODULES = tuple(
    import_module(f"slurmspec.rules.{family}.{name}") for family, names in FAMILIES.items() for name in names
)
