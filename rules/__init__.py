"""The rule registry: every module that declares rules, listed explicitly.

Codes are the public interface: SB0xx parse, SB1xx reject, SB2xx traps,
SB3xx launch, SB4xx cluster, SB9xx meta; a rule lives in the folder of its
family (``rules/<family>/``), which the registry checks. A retired code is
never reused. ``slurmspec.lint.engine.registry()`` collects the ``@rule``
functions of each module in the order they are declared.
"""

# --- TRANSITIONAL: legacy modules (each block is replaced by its family's modules) ---
from slurmspec.rules.parse import directive_words, option_arguments, option_names, unknown_option  # H1
from slurmspec.rules.reject import script_sanity  # H1
from slurmspec.rules.reject import job_control_values, resource_values, time_values  # H1
from slurmspec.rules import conflicts, conflicts_gpu  # H2
from slurmspec.rules.traps import late_directives, near_miss_directives, legacy_prefix, glued_hash, repeated_options, shared_settings, shell_expansion, mail_options, suspicious_values, early_pass_options, exclusive_memory, hint_dropped, redundant_gpu_request, task_geometry, hetjob_inheritance, abbreviated_options  # H3
from slurmspec.rules.traps import log_directories, filename_patterns, batch_step_filenames, cuda_visible_devices, slurm_tmpdir, rank_variables, nodelist_hostname, unset_slurm_variables, export_restricts_steps  # H4
from slurmspec.rules.launch import launcher_tasks_per_node, launcher_on_first_node, launcher_nodes, launcher_gpus, torchrun_rendezvous, launcher_node_rank, single_process_gpus, srun_tasks_gpus, lightning_ntasks, mpi_process_count, srun_cpus_per_task, slurm_ntasks_unset, few_cpus_per_gpu, missing_time_limit, requeue_without_signal  # H5
# --- end TRANSITIONAL ---
from slurmspec.rules.meta import internal_error, suppressions

MODULES = (
    unknown_option, option_names, option_arguments, directive_words,  # H1
    script_sanity, time_values, resource_values, job_control_values,  # H1
    conflicts, conflicts_gpu,  # H2
    late_directives, near_miss_directives, legacy_prefix, repeated_options, glued_hash, shell_expansion, mail_options, suspicious_values, exclusive_memory, hint_dropped, shared_settings, redundant_gpu_request, task_geometry, early_pass_options, hetjob_inheritance, abbreviated_options,  # H3
    log_directories, filename_patterns, batch_step_filenames, cuda_visible_devices, slurm_tmpdir, rank_variables, nodelist_hostname, unset_slurm_variables, export_restricts_steps,  # H4
    launcher_tasks_per_node, launcher_on_first_node, launcher_nodes, launcher_gpus, torchrun_rendezvous, launcher_node_rank, single_process_gpus, srun_tasks_gpus, lightning_ntasks, mpi_process_count, srun_cpus_per_task, slurm_ntasks_unset, few_cpus_per_gpu, missing_time_limit, requeue_without_signal,  # H5
    internal_error, suppressions,
)
