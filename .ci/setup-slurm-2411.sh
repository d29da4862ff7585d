#!/usr/bin/env bash
# Install the second real Slurm the differential tests use as an oracle: Debian trixie's
# slurm-wlm 24.11 (with munge, and python3 for the job-model test's batch scripts), in a
# `debootstrap --variant=minbase trixie` chroot, because trixie's packages need libc6 >= 2.38
# and this (bookworm) machine has 2.36. The host's libc and apt sources are left alone.
# Idempotent and non-interactive; installs files only: tests/slurm_cluster.py starts (and
# stops) the daemons itself, chrooted, in a private mount namespace (tests/slurm_release.py).
# About 2.5 minutes from nothing (debootstrap ~2 min, packages ~30 s), a second when done.
#
# env: SLURMSPEC_TRIXIE_ROOT (default /srv/trixie; the tests read the same variable),
#      DEBIAN_MIRROR (default: the mirror the host's apt uses), DEBIAN_SECURITY_MIRROR.
set -euo pipefail
ROOT=${SLURMSPEC_TRIXIE_ROOT:-/srv/trixie}
case "$ROOT" in /?*) ;; *) echo "setup-slurm-2411: SLURMSPEC_TRIXIE_ROOT must be an absolute path" >&2; exit 1 ;; esac
[ "$ROOT" != / ] || { echo "setup-slurm-2411: refusing to use / as the chroot" >&2; exit 1; }
PACKAGES="slurmctld slurmd slurm-client munge python3-minimal"
export DEBIAN_FRONTEND=noninteractive LC_ALL=C

have_all() {
    local f
    for f in usr/sbin/slurmctld usr/sbin/slurmd usr/bin/sbatch usr/bin/scontrol usr/sbin/munged usr/bin/python3; do
        [ -x "$ROOT/$f" ] || return 1
    done
    [ ! -e "$ROOT/debootstrap" ]
}

if have_all; then
    echo "setup-slurm-2411: $ROOT has $(chroot "$ROOT" dpkg-query -W -f='slurm-client ${Version}' slurm-client 2>/dev/null || echo 'slurm')"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "setup-slurm-2411: needs root (debootstrap, chroot)" >&2
    exit 1
fi

# The mirrors the host's apt already uses (deb822 .sources or one-line .list), else Debian's own.
mirror_of() {  # $1: "security" to pick the security mirror, "main" for the other
    { grep -hs -v '^#' /etc/apt/sources.list.d/*.sources |
        awk -v want="$1" '/^URIs:/{u=$2} /^Suites:/{s=($0 ~ /security/); if (u != "" && s == (want == "security")) print u}'
      grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
        awk -v want="$1" '{s=($0 ~ /security/); if (s == (want == "security") && $2 ~ /debian(-security)?\/?$/) print $2}'
    } 2>/dev/null | head -n1 || true
}
MIRROR=${DEBIAN_MIRROR:-$(mirror_of main)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SECURITY=${DEBIAN_SECURITY_MIRROR:-$(mirror_of security)}
SECURITY=${SECURITY:-${MIRROR%/debian}/debian-security}

if [ ! -x "$ROOT/usr/bin/apt-get" ] || [ -e "$ROOT/debootstrap" ]; then
    if ! command -v debootstrap >/dev/null 2>&1 || [ ! -e /usr/share/debootstrap/scripts/trixie ]; then
        apt-get -o DPkg::Lock::Timeout=300 install -y -q debootstrap >/dev/null ||
            { apt-get update -q && apt-get -o DPkg::Lock::Timeout=300 install -y -q debootstrap >/dev/null; }
    fi
    # a half-finished debootstrap leaves $ROOT/debootstrap behind: start over
    if [ -e "$ROOT/debootstrap" ]; then rm -rf --one-file-system "$ROOT"; fi
    echo "setup-slurm-2411: debootstrap trixie -> $ROOT from $MIRROR (about 2 minutes)"
    mkdir -p "$(dirname "$ROOT")"
    log=$(mktemp)
    debootstrap --variant=minbase trixie "$ROOT" "$MIRROR" >"$log" 2>&1 ||
        { tail -n 20 "$log" >&2; exit 1; }
    rm -f "$log"
fi

echo "setup-slurm-2411: installing $PACKAGES in $ROOT"
cat > "$ROOT/etc/apt/sources.list" <<EOF
deb $MIRROR trixie main
deb $MIRROR trixie-updates main
deb $SECURITY trixie-security main
EOF
# no service may start inside the chroot while packages install
printf '#!/bin/sh\nexit 101\n' > "$ROOT/usr/sbin/policy-rc.d"
chmod +x "$ROOT/usr/sbin/policy-rc.d"
log=$(mktemp)
# apt's maintainer scripts want /proc: mount it in a private namespace that ends with the install
if ! unshare -m --propagation private -- sh -ec "
    mount -t proc proc '$ROOT/proc' 2>/dev/null || true
    chroot '$ROOT' apt-get update -q
    chroot '$ROOT' apt-get install -y -q --no-install-recommends $PACKAGES
    chroot '$ROOT' apt-get clean" >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    exit 1
fi
rm -f "$log"
# the tests bind-mount the host's /etc/hosts over the chroot's; minbase trixie has none
[ -e "$ROOT/etc/hosts" ] || : > "$ROOT/etc/hosts"
have_all || { echo "setup-slurm-2411: installation finished but programs are missing in $ROOT" >&2; exit 1; }
echo "setup-slurm-2411: installed $(chroot "$ROOT" dpkg-query -W -f='slurm-client ${Version}' slurm-client) in $ROOT"
