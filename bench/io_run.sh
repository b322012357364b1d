#!/usr/bin/env bash
# bench/io_run.sh: the MPI-IO figures of bench/io.c, side by side with Debian's MPICH (ROMIO)
# and Open MPI (ompio) when installed, at several rank counts, per-rank sizes, views and file
# systems. Prints the RESULT lines of each run prefixed by library, file system and view.
#   bench/io_run.sh [--ranks "1 4 16 64"] [--bytes "1048576 16777216"] [--dirs "/dev/shm /tmp"]
# Numbers, never pass/fail. Each run is limited to 120 s (MPICH busy-polls on an
# oversubscribed machine and may not finish: its line is then missing).
set -u
top=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
out=$top/build/bench/io
ranks="1 4 16 64"
bytes="1048576 16777216"
dirs="/dev/shm /tmp"
while [ $# -gt 0 ]; do
    case $1 in
        --ranks) ranks=$2; shift ;;
        --bytes) bytes=$2; shift ;;
        --dirs) dirs=$2; shift ;;
        *) echo "io_run.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
mkdir -p "$out"
# Each run writes in a directory of its own, removed after it whatever its outcome (a run
# killed by the time limit leaves its files behind), and on the way out.
scratch=
trap '[ -n "$scratch" ] && rm -rf -- "$scratch"' EXIT
trap 'exit 130' INT TERM HUP
libs=(mini)
"$top/bin/mpicc" -O2 -I"$top/bench" "$top/bench/io.c" -o "$out/io_mini" || exit 1
if command -v mpicc.mpich >/dev/null && mpicc.mpich -O2 -I"$top/bench" "$top/bench/io.c" -o "$out/io_mpich"; then
    libs+=(mpich)
fi
if command -v mpicc.openmpi >/dev/null && mpicc.openmpi -O2 -I"$top/bench" "$top/bench/io.c" -o "$out/io_openmpi"; then
    libs+=(openmpi)
fi
for d in $dirs; do
    for b in $bytes; do
        for view in contig strided; do
            flag=; [ $view = strided ] && flag=-s
            for n in $ranks; do
                for lib in "${libs[@]}"; do
                    case $lib in
                        mini) cmd=("$top/bin/mpiexec" -n "$n") ;;
                        mpich) cmd=(mpiexec.mpich -n "$n") ;;
                        openmpi) cmd=(mpiexec.openmpi --oversubscribe --allow-run-as-root -n "$n") ;;
                    esac
                    scratch=$(mktemp -d "$d/bench_io_run.XXXXXX") || exit 1
                    timeout -k 5 120 "${cmd[@]}" "$out/io_$lib" -d "$scratch" -b "$b" $flag \
                        2>/dev/null | sed -n "s|^RESULT |$lib fs=$d view=$view |p"
                    rm -rf -- "$scratch"
                    scratch=
                done
            done
        done
    done
done
