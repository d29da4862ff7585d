#!/usr/bin/env bash
# Install what the `slurmspec audit` tests need besides Slurm (tests/audit/): MariaDB and slurmdbd
# 22.05 for the real accounting lab (tests/slurm_accounting.py starts its own private instances)
# and Chromium for the HTML report's screenshot test. Idempotent and non-interactive.
set -euo pipefail

have_all() {
    local b
    for b in mariadbd mariadb-install-db mariadb slurmdbd sacct sacctmgr chromium; do
        command -v "$b" >/dev/null 2>&1 || [ -x "/usr/sbin/$b" ] || return 1
    done
}

if have_all; then
    echo "setup-audit: mariadb-server, slurmdbd and chromium already installed"
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo -n"
fi
$SUDO apt-get update -q
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends mariadb-server slurmdbd chromium
have_all || { echo "setup-audit: installed, but a program is still missing" >&2; exit 1; }
echo "setup-audit: installed $(dpkg-query -W -f='slurmdbd ${Version}, chromium ${Version}' slurmdbd chromium 2>/dev/null | head -c 200)"
