#!/bin/sh
# bad_args_fresh.sh: fails when tests/mpi/bad_args.c is older than the headers it is generated
# from (regenerate with the command below). Skips (77) without python3.
cd "$(dirname "$0")/../.." || exit 1
command -v python3 >/dev/null 2>&1 || { echo "python3 not installed: skipped"; exit 77; }
fresh=$(mktemp) || exit 1
trap 'rm -f "$fresh"' EXIT
python3 tests/gen/bad_args.py mini_mpi/include/mpi.h mini_mpi/include/mini_mpi/*.h \
    mini_mpi/include/mpi-ext.h >"$fresh" || exit 1
if ! cmp -s "$fresh" tests/mpi/bad_args.c; then
    echo "tests/mpi/bad_args.c is stale; regenerate it:"
    echo "  python3 tests/gen/bad_args.py mini_mpi/include/mpi.h mini_mpi/include/mini_mpi/*.h mini_mpi/include/mpi-ext.h > tests/mpi/bad_args.c"
    exit 1
fi
echo "tests/mpi/bad_args.c is up to date"
