"""Named version gates: the Slurm release from which a behaviour holds.

Every comparison of a target version with a release goes through a name here,
so a reader sees *what* changed rather than ``(23, 2)``, and a gate proven
wrong by a real sbatch is corrected in one place. Each gate is the first
release with the new behaviour; ``version >= GATE`` means "has it". The
comment cites where Slurm's source or NEWS says so.
"""

from __future__ import annotations

from slurmspec.version import Version

# --- reading #SBATCH lines ----------------------------------------------------
# src/common/read_config.c / sbatch get_argument(): "\ " joins words (24.05 NEWS).
ESCAPED_SPACE_JOINS: Version = (24, 5)
# src/sbatch/opt.c: --mail-type given twice: the last one wins from 25.05 (before, the types were OR-ed).
MAIL_TYPE_LAST_WINS: Version = (25, 5)
# src/common/slurm_opt.c: --get-user-env takes no argument from 25.05.
GET_USER_ENV_TAKES_NO_ARGUMENT: Version = (25, 5)
# src/common/slurm_opt.c: --requeue takes an optional argument (=expedite) from 25.11.
REQUEUE_TAKES_OPTIONAL_ARGUMENT: Version = (25, 11)
# src/common/slurm_opt.c: --export-file was missing from the option table from 23.11 until 24.05.
EXPORT_FILE_REMOVED: Version = (23, 11)
EXPORT_FILE_RESTORED: Version = (24, 5)
# src/common/slurm_opt.c: --exclusive=topo from 24.05, --exclusive=allocation from 26.05.
EXCLUSIVE_TOPO: Version = (24, 5)
EXCLUSIVE_ALLOCATION: Version = (26, 5)
# src/common/proc_args.c: --export=NIL (like NONE) from 23.02.
EXPORT_NIL: Version = (23, 2)

# --- filename patterns (src/common/proc_args.c / slurmstepd io.c) -------------
FILENAME_ARRAY_MODULO: Version = (24, 11)  # %b
FILENAME_RESTART_AND_SLUID: Version = (25, 11)  # %r, %S
# slurmstepd creates missing stdout/stderr folders (mkdir -p, 0755) from 23.02 (commit ecc671a).
CREATES_LOG_DIRS: Version = (23, 2)

# --- client-side checks that changed (src/sbatch/opt.c, src/common/slurm_opt.c) ----
# _validate_share_options(): --exclusive with --oversubscribe is refused from 23.02
# (22.05 kept one field; the last one silently won).
SHARE_OPTIONS_EXCLUSIVE: Version = (23, 2)
# _opt_verify(): --ntasks-per-core above --threads-per-core is refused from 23.02.
NTASKS_PER_CORE_CHECKED: Version = (23, 2)
# --cpus-per-gpu without any GPU is refused from 23.02 (cpus_per_tres without a GPU);
# --mem-per-gpu without one is refused on every release.
CPUS_PER_GPU_NEEDS_GPU: Version = (23, 2)
# 22.05 derives the task count from -N/--ntasks-per-node/-B/-m arbitrary before the GPU
# checks; from 23.02 the client no longer implies one (checked against sbatch 22.05.8).
TASKS_NOT_IMPLIED: Version = (23, 2)
# 22.05 raises the node minimum to the node list's host count (and refuses a list longer
# than -N's maximum: "invalid number of nodes"); 23.02 leaves it to the controller.
NODELIST_COUNT_LEFT_TO_CONTROLLER: Version = (23, 2)
# --nodes with --distribution=arbitrary is refused from 23.11.
NODES_WITH_ARBITRARY_REFUSED: Version = (23, 11)
# _validate_cpus_per_tres(): --cpus-per-task set on the command line or in #SBATCH resets an
# SBATCH_CPUS_PER_GPU from the environment ("Ignoring SBATCH_CPUS_PER_GPU since ...") from 23.11.
CPUS_PER_TASK_BEATS_ENVIRONMENT_CPUS_PER_GPU: Version = (23, 11)
# _validate_gres_vs_gpus_per_node(): --gres=gpu with --gpus-per-node is refused from 26.05.
GRES_WITH_GPUS_PER_NODE_REFUSED: Version = (26, 5)
# --hint is dropped by more layout options from 25.11.
HINT_DROPPED_BY_MORE_OPTIONS: Version = (25, 11)

# --- controller checks at submission (src/slurmctld/job_mgr.c) -------------------
# An empty --gres (or an empty item, `gpu:1,`) is refused by slurmctld 22.05.8 ("Invalid Trackable RESource"),
# accepted by 24.11.5, whose sbatch rewrites every item as `gres/<item>` (src/interfaces/gres.c
# gres_prepend_tres_type()). The release between that changed it was not checked: not refused from 23.02.
EMPTY_GRES_ITEMS_PASSED: Version = (23, 2)
# _part_access_check(): a --deadline is measured from the later of now and --begin from 23.02 (NEWS 23.02.0rc1
# "Reject jobs submitted with impossible --time, --deadline, and --begin combinations"; 22.05 measured from now).
DEADLINE_COUNTS_FROM_BEGIN: Version = (23, 2)

# --- job steps (srun inside the job) ------------------------------------------------
# src/srun/opt.c: an `srun --gpus` drops the SLURM_GPUS_PER_NODE the job exported, from 24.11 (NEWS 24.11.0rc1
# "SLURM_GPUS_PER_NODE environment variable will be ignored by srun if --gpus is specified").
SRUN_GPUS_DROPS_GPUS_PER_NODE: Version = (24, 11)
# src/srun/opt.c: `srun -N k --ntasks-per-node=m` drops the job's SLURM_NTASKS (24.11.5 runs k x m tasks; 22.05.8
# kept the job's count, "can't honor --ntasks-per-node"); placed at 24.05, whose NEWS reworks this ("--ntasks
# option will now take precedence"), the releases between unchecked. Without -N on the line both keep SLURM_NTASKS.
SRUN_NODES_DROP_JOB_NTASKS: Version = (24, 5)
# src/common/gres.c (22.05.8) refuses a step whose per-task/per-node GRES count is above the job's own option
# ("Step requested gres_per_task=gpu:2 is more than the job's gres_per_task=gpu:1"); 24.11.5 has no such check
# and runs the step when the GPUs are there. The release between was not checked: not claimed from 23.02.
STEP_GRES_NOT_CAPPED_PER_OPTION: Version = (23, 2)

# --- the job's environment (src/common/env.c) -----------------------------------
# srun inherits --cpus-per-task from the batch step again from 23.11 (22.05 and 23.02
# read only SRUN_CPUS_PER_TASK).
SRUN_INHERITS_CPUS: Version = (23, 11)
# SLURM_GPUS_PER_TASK / SLURM_GPU_BIND give way to SLURM_TRES_PER_TASK / SLURM_TRES_BIND from 23.11.
TRES_PER_TASK_ENV: Version = (23, 11)
# SLURM_CPUS_PER_TASK is also set from --tres-per-task=cpu:N from 23.02.
CPUS_PER_TASK_FROM_TRES: Version = (23, 2)

# --- option values (slurmspec/model/values) ----------------------------------------
# src/common/proc_args.c parse_int(): a count above INT_MAX is refused ("too large") from 23.02 (22.05 cast it to int).
COUNTS_ABOVE_INT_MAX_REFUSED: Version = (23, 2)
# src/common/proc_args.c verify_node_count(): -N takes a job size list (`1,4,8`, `1-15:4`) from 23.02.
NODE_SIZE_LISTS: Version = (23, 2)
# src/common/slurm_opt.c: --tres-per-task stops reading the `gres:gpu:2` / `gres/gpu:2` (colon count) item form.
# Read once as 23.11, but sbatch and slurmctld 24.11.5 accept `gres/gpu:1`, `gres:gpu:1` and `cpu:2`
# (slurm_protocol_defs.c:slurm_get_next_tres() takes a count after ':' or '='), so not before 25.05.
TRES_PER_TASK_GRES_COLON_FORM_DROPPED: Version = (25, 5)
# src/common/parse_time.c: --begin/--deadline know the `elevenses` keyword (11:00) from 24.05.
TIME_ELEVENSES: Version = (24, 5)
# src/common/slurm_opt.c arg_set_gres_flags(): a comma list plus one-task-per-sharing / multiple-tasks-per-sharing from 24.05.
GRES_FLAGS_NEW_NAMES: Version = (24, 5)
# src/common/cpu_frequency.c cpu_freq_verify_cmdline(): a --cpu-freq range without a governor is refused unless
# slurm.conf sets CpuFreqDef, from 23.11 (NEWS 23.11.0rc1 "Fix --cpu-freq with userspace governor and frequency
# ranges"; 22.05.8 accepts `low-high`, 24.11.5 refuses it).
CPU_FREQ_RANGE_NEEDS_GOVERNOR: Version = (23, 11)
# src/common/tres_bind.c _valid_gres_bind(): --gpu-bind is checked from 23.02 (NEWS 23.02.0rc1: "Validate
# --gpu-bind options more strictly"; 22.05 compared only the first letter): a value starting with closest/none,
# map_gpu:/mask_gpu: number lists, per_task:/single: not negative (sbatch 24.11.5 refuses `cheese`, `c`, `map_gpu:x`).
GPU_BIND_CHECKED: Version = (23, 2)
# ... and, read from the 26.05 source, words compared whole, arguments checked, map:/mask: accepted from 26.05.
GPU_BIND_STRICT: Version = (26, 5)
# src/common/slurm_opt.c arg_set_requeue(): a --requeue value other than `expedite` is refused from 26.05 (25.11 ignored it).
REQUEUE_VALUE_CHECKED: Version = (26, 5)

# --- the controller against a cluster profile (rules/cluster/, SB4xx) --------------------------------
# src/slurmctld/job_mgr.c: a job whose --signal has the R flag (signal only on preemption) is refused when
# PreemptType=preempt/none ("Preemption is required but is disabled on this system"). Measured: 22.05.8
# accepts it, 24.11.5 refuses it; the releases in between were not checked, so the gate is the first
# release seen refusing (a target between them gets no finding rather than a wrong one).
SIGNAL_R_NEEDS_PREEMPTION: Version = (24, 11)
# src/slurmctld/job_mgr.c:_part_access_check(): a job without --nodes in a partition with MinNodes > 1 is
# refused under EnforcePartLimits=ALL/ANY ("Node count specification invalid") on 24.11.5; 22.05.8 raises
# the job to MinNodes and accepts it. Releases in between not checked (same policy as above).
PARTITION_MIN_NODES_WITHOUT_NODES_REFUSED: Version = (24, 11)
# ... and with EnforcePartLimits=NO, a --nodes above the partition's node count or tasks × CPUs above its CPUs
# are no longer partition limits that hold the job pending (22.05.8: reason PartitionConfig) but node checks that
# refuse it ("Requested node configuration is not available", 24.11.5); on 24.11.5 a --time over MaxTime no longer
# holds the job before the nodes are checked either (`-p a100 -N 1 -n 33 -t 100:00:00` is refused).
PARTITION_SIZE_CHECKED_WITH_NODES: Version = (24, 11)
# select/cons_tres: memory per CPU on a hyper-threaded node is charged for whole cores on 22.05.8
# (`-c 3 --mem-per-cpu=64001` on a 2-thread node with 256000 MB is refused: 4 CPUs); 24.11.5 does it only
# sometimes (-c 1 and -c 5 rounded, -c 3 not). Releases from 23.02 on are treated as "either way".
MEM_PER_CPU_WHOLE_CORES_UNCERTAIN: Version = (23, 2)
# --exclude/--nodelist with a name the cluster lacks: 22.05.8 always refuses ("Invalid node name specified");
# 24.11.5 refuses `-x nonode` and `-x a100-01,nonode` but accepts `-x nonode,c48-01` and
# `-w a100-01,smt-01,nonode`. From 23.02 (releases between unchecked) only a list of unknown names is judged.
NODE_LIST_UNKNOWN_NAMES_UNCERTAIN: Version = (23, 2)
