#!/bin/bash
# demo.sh: what `make demo` runs after building: per-rank globals, then the flagship example, a
# fault-tolerant ring that survives ranks killed by the fault injector (MINI_MPI_FAULTS), then a
# rank that kills itself, all through our mpiexec. Each command is echoed as it can be pasted
# into a shell.
set -u
cd "$(dirname "$0")/.." || exit 1

# quote WORD: WORD as a shell reads it back (VAR=value keeps VAR= outside the quotes).
quote() {
    local w=$1 name=
    case $w in
        [A-Za-z_]*=*) name=${w%%=*}
                      case $name in *[!A-Za-z0-9_]*) name= ;; *) name=$name= w=${w#*=} ;; esac ;;
    esac
    case $w in
        '' | *[!A-Za-z0-9_/.,:=+@%-]*)
            w=${w//\\/\\\\}; w=${w//\"/\\\"}; w=${w//\$/\\\$}; w=${w//\`/\\\`}
            w=\"$w\" ;;
    esac
    printf '%s%s' "$name" "$w"
}

# run [VAR=value...] command [args...]: echoes the command, runs it, shows its exit status.
run() {
    local line='$' a
    for a in "$@"; do line="$line $(quote "$a")"; done
    echo "$line"
    env "$@"
    echo "(exit status $?)"
    echo
}

echo "# Every rank has its own copy of the program's globals:"
run bin/mpiexec -n 64 build/examples/private_counter
echo "# A token ring over 6 ranks:"
run bin/mpiexec -n 6 build/examples/resilient_ring
echo "# The same, rank 2 killed at its 5th MPI_Sendrecv: the others agree, shrink and go on:"
run MINI_MPI_FAULTS="kill 2 at MPI_Sendrecv#5" bin/mpiexec -n 6 build/examples/resilient_ring
echo "# Two deaths, each reported on stderr (MINI_MPI_VERBOSE=1):"
run MINI_MPI_VERBOSE=1 MINI_MPI_FAULTS="kill 2 at MPI_Sendrecv#5; kill 4 at MPIX_Comm_agree#8" \
    bin/mpiexec -n 6 build/examples/resilient_ring
echo "# Rank 2 calls raise(SIGKILL); the survivors learn it from their next MPI_Barrier:"
run bin/mpiexec -n 4 build/examples/rank_dies
