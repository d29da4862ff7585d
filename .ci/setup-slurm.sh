#!/usr/bin/env bash
# Install the real Slurm (22.05 on Debian bookworm) and munge that the
# differential tests use as an oracle.  Idempotent and non-interactive.
# Installs packages only: tests/slurm_cluster.py starts (and stops) the
# daemons itself, with a private config on 127.0.0.1.
set -euo pipefail

have_all() {
    local b
    for b in sbatch scontrol sinfo scancel slurmctld slurmd munged; do
        command -v "$b" >/dev/null 2>&1 \
            || [ -x "/usr/sbin/$b" ] || [ -x "/sbin/$b" ] || return 1
    done
}

if have_all; then
    echo "setup-slurm: slurm-wlm and munge already installed ($(dpkg-query -W -f='slurm-client ${Version}' slurm-client 2>/dev/null || echo 'not from dpkg'))"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo -n"
    else
        echo "setup-slurm: need root (or sudo) to install slurm-wlm and munge" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurm-wlm munge

if ! have_all; then
    echo "setup-slurm: installation finished but Slurm/munge binaries are still missing" >&2
    exit 1
fi
echo "setup-slurm: installed $(dpkg-query -W -f='slurm-client ${Version}' slurm-client)"
