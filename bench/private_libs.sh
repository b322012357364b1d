#!/usr/bin/env bash
# bench/private_libs.sh: what private shared libraries cost at start-up. Builds bench/startup.c
# (MPI_Init and MPI_Finalize) linked against 0, 1 and 4 small MPI libraries of its own (each
# built with `mpicc -shared`, a static counter and one MPI call, so each is private to every
# rank: README "Shared libraries in each rank"), runs each at the given rank counts and prints
# one markdown table: median wall time of the whole `mpiexec -n N` run, and the job's peak
# resident memory (GNU time's %M), with the memory each private library adds per rank.
#
#   bench/private_libs.sh [--ranks 256,1024] [--reps 3]
#
# Numbers, never pass/fail. Builds under build/bench/private_libs/.
set -u

top=$(cd -- "$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")/.." && pwd -P)
out=$top/build/bench/private_libs
ranks=256,1024
reps=3
while [ $# -gt 0 ]; do
    case $1 in
        --ranks) ranks=$2; shift ;;
        --reps) reps=$2; shift ;;
        -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench/private_libs.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
[ -x /usr/bin/time ] || { echo "bench/private_libs.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
mkdir -p "$out"

# Library k: a counter and a call into MPI, so that it needs libmini_mpi.
for k in 1 2 3 4; do
    cat >"$out/bl$k.c" <<SRC
#include <mpi.h>
static int count;
int bl${k}_next(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r); return ++count + 0 * r; }
SRC
    "$top/bin/mpicc" -shared -O2 "$out/bl$k.c" -o "$out/libbl$k.so" || exit 1
done
build() { # name, libraries
    local name=$1; shift
    "$top/bin/mpicc" -O2 "$top/bench/startup.c" -o "$out/$name" -Wl,--no-as-needed \
        -L"$out" -Wl,-rpath,"$out" "$@" || exit 1
}
build startup_0
build startup_1 -lbl1
build startup_4 -lbl1 -lbl2 -lbl3 -lbl4

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

echo "| ranks | private libraries | start-up wall (s) | peak memory (MiB) | per library and rank (KiB) |"
echo "|---:|---:|---:|---:|---:|"
IFS=, read -ra counts <<<"$ranks"
for n in "${counts[@]}"; do
    base_kib=
    for libs in 0 1 4; do
        walls=() mems=()
        for ((r = 0; r < reps; r++)); do
            line=$( { /usr/bin/time -f 'TIME %e %M' "$top/bin/mpiexec" -n "$n" \
                      "$out/startup_$libs" >/dev/null; } 2>&1 | grep '^TIME ')
            walls+=("$(awk '{print $2}' <<<"$line")")
            mems+=("$(awk '{print $3}' <<<"$line")")
        done
        wall=$(printf '%s\n' "${walls[@]}" | median)
        kib=$(printf '%s\n' "${mems[@]}" | median)
        [ "$libs" = 0 ] && base_kib=$kib
        per=$( [ "$libs" = 0 ] && echo - ||
               awk -v m="$kib" -v b="$base_kib" -v n="$n" -v l="$libs" \
                   'BEGIN {printf "%.1f", (m - b) / n / l}')
        printf '| %s | %s | %s | %.0f | %s |\n' "$n" "$libs" "$wall" "$(awk -v k="$kib" \
            'BEGIN {print k / 1024}')" "$per"
    done
done
