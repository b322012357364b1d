#!/bin/sh
# scripts/install-compare-mpis.sh: installs the MPI libraries that `make bench-compare` measures
# mini_mpi against and that the PMPI injector (inject/) is built and tested for: Debian's MPICH
# (mpicc.mpich, mpiexec.mpich) and Open MPI (mpicc.openmpi, mpiexec.openmpi), runtime and
# development packages. .ci/run calls it.
#
# Uses apt-get only (one `apt-get update`, only if something is missing); runs through sudo when
# not root. A no-op when everything is already installed. Safe to run repeatedly.
set -eu

pkgs="mpich libmpich-dev openmpi-bin libopenmpi-dev"

missing=
for p in $pkgs; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing="$missing $p"
    fi
done

if [ -z "$missing" ]; then
    echo "install-compare-mpis: already installed:$(printf ' %s' $pkgs)"
else
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "install-compare-mpis: apt-get not found; install$missing with your package manager" >&2
        exit 1
    fi
    if [ "$(id -u)" = 0 ]; then
        sudo=
    elif command -v sudo >/dev/null 2>&1; then
        sudo=sudo
    else
        echo "install-compare-mpis: not root and no sudo; install$missing as root" >&2
        exit 1
    fi
    echo "install-compare-mpis: installing$missing"
    $sudo apt-get update
    # shellcheck disable=SC2086 # word splitting of the package list is intended
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $missing
fi

# Report what bench/run.sh --compare will find.
for t in mpicc.mpich mpiexec.mpich mpicc.openmpi mpiexec.openmpi; do
    if command -v "$t" >/dev/null 2>&1; then
        printf '  %-16s %s\n' "$t" "$(command -v "$t")"
    else
        printf '  %-16s MISSING\n' "$t"
    fi
done
