"""Hypothesis strategies shared by slurmspec's tests, one marked section per area."""

from __future__ import annotations

from hypothesis import strategies as st

# --- body (shell) strategies ---
# Fragments chosen to hit every branch of slurmspec.body: launchers and their
# options, wrappers, quoting, continuations, here-docs, compound commands and
# the characters that open something that might never be closed.
_BODY_FRAGMENTS = (
    "srun", "mpirun", "mpiexec", "torchrun", "horovodrun", "accelerate launch", "deepspeed",
    "python", "python3 -m torch.distributed.run", "python -m torch.distributed.launch", "python -u",
    "train.py", "x.py", "-n", "-N", "-np", "8", "-n8", "--ntasks=4", "--nodes", "--gpus-per-task=1",
    "--nproc_per_node=8", "--nproc-per-node", "gpu", "--nnodes=1:4", "--rdzv_endpoint=$H:29500",
    "--container-image=img", "--map-by", "ppr:4:node", "-H", "localhost:8", "--num_processes",
    "--num_gpus", "--", "-m", "-c", "exec", "time", "nohup", "env", "A=1", "X=\"a b\"", "export",
    "export CUDA_VISIBLE_DEVICES=0,1", "declare -x", "stdbuf -oL", "numactl --cpunodebind=0",
    "apptainer exec --nv img.sif", "singularity run -B /a:/b", "bash -c", "sh -c", "eval",
    "'", '"', "\\", "\\\n", "`", "$", "$(", "${", ")", "}", "((", "))", "$((1+2))", "$SLURM_NTASKS",
    "${GPUS:-8}", "<<EOF", "<<-'EOF'", "<<<", "EOF", "\tEOF", "<(", ">", "2>&1", ">>", "&>", "|",
    "||", "&&", "&", ";", ";;", "\n", " ", "\t", "#", "# comment\n", "if", "then", "else", "elif",
    "fi", "for i in 1 2", "while true", "do", "done", "case $x in", "a)", "*)", "esac", "{", "}",
    "(", "f()", "function g", "[[", "]]", "!", "\r\n", "é", "\x00",
)


@st.composite
def shell_bodies(draw: st.DrawFn) -> str:
    """Shell-flavoured text: mostly fragments glued by spaces, sometimes raw noise."""
    parts = draw(st.lists(
        st.one_of(st.sampled_from(_BODY_FRAGMENTS), st.text(max_size=6)),
        max_size=40,
    ))
    seps = draw(st.lists(st.sampled_from(["", " ", " ", "\n", " \\\n  "]), min_size=len(parts), max_size=len(parts)))
    return "".join(p + s for p, s in zip(parts, seps))


@st.composite
def bodies_with_prefix(draw: st.DrawFn) -> tuple[str, str]:
    """(prefix, body): a header-like prefix so that the body starts at a non-zero offset."""
    prefix = draw(st.sampled_from(["", "#!/bin/bash\n", "#!/bin/bash\n#SBATCH -N 2\n\n", "é\n"]))
    return prefix, draw(shell_bodies())


# --- script text strategies (round trip, never-raise) ---
# Lines built from the pieces that steer the grammar and the tokeniser, so that
# random text often lands on directive, near-miss, comment and command lines.
_LINE_PIECES = (
    "#!/bin/bash", "#SBATCH", "#SBATCH ", "#SLURM ", "# SBATCH ", "#sbatch ", "  #SBATCH ", "##SBATCH ",
    "#", " ", "\t", "\r", "\v", "\f", "\\", "'", '"', ":", "-", "--", "=", "hetjob", "packjob",
    "--time=5", "-N2", "--nod", "-J", "x y", "#c", "srun", "echo", "\x00", "\ufeff", "é", "\udcff",
)


@st.composite
def script_texts(draw: st.DrawFn) -> str:
    """Text shaped like batch scripts, with every line ending and oddity mixed in."""
    lines = draw(
        st.lists(
            st.one_of(
                st.lists(st.sampled_from(_LINE_PIECES), max_size=6).map("".join),
                st.text(max_size=20),
            ),
            max_size=12,
        )
    )
    newline = draw(st.sampled_from(["\n", "\r\n", "\n\n"]))
    text = newline.join(lines)
    return text + draw(st.sampled_from(["", "\n", "\\"]))


script_bytes = st.one_of(st.binary(max_size=300), script_texts().map(lambda t: t.encode("utf-8", "surrogateescape")))
