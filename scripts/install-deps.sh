#!/bin/sh
# scripts/install-deps.sh [--quiet]: installs the Debian packages mini_mpi needs to build and
# test (called by `make deps`, `make demo`, `make test` and .ci/run).
#
# Owns only the package list and the apt-get call. A no-op when everything is present (one line
# saying so; none with --quiet); runs `apt-get update` once, and only when something is missing;
# uses sudo when not root. --quiet (for `make test`) also lets a non-Debian system through with a
# note, since the build then says what is missing.
# It does not install the MPI implementations used for comparison (scripts/install-compare-mpis.sh).
set -eu

quiet=0
case ${1-} in
    --quiet) quiet=1 ;;
    '') ;;
    *) echo "usage: scripts/install-deps.sh [--quiet]" >&2; exit 2 ;;
esac

packages="build-essential gfortran pkg-config liburcu-dev libcmocka-dev valgrind cmake python3"

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "install-deps: not a Debian system; install by hand: $packages" >&2
    [ "$quiet" = 1 ] && exit 0
    exit 1
fi

missing=
for p in $packages; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing="$missing $p"
done

if [ -z "$missing" ]; then
    [ "$quiet" = 1 ] || echo "all dependencies present"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    sudo=
elif command -v sudo >/dev/null 2>&1; then
    sudo=sudo
else
    echo "install-deps: missing:$missing; run as root or install sudo" >&2
    exit 1
fi

echo "install-deps: installing$missing"
$sudo apt-get update
# shellcheck disable=SC2086 # the package list is meant to split
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
