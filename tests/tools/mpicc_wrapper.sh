#!/usr/bin/env bash
# tests/tools/mpicc_wrapper.sh: bin/mpicc behaves like MPICH's and Open MPI's wrappers.
#
# Checks the information options (-show, -compile_info, -link_info, -showme:*), pass-through of
# ordinary compiler arguments (-c, -o, several sources and objects, -I -D -O -g -W -l -std),
# the shape of what it links (PIE, main exported, libmini_mpi needed), CC=mpicc under make,
# the probes autoconf makes (and a real configure script when autoconf is installed),
# MINI_MPI_CC, a symlinked wrapper and the installed layout. Exit 0 pass, 1 fail.
set -u

repo=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
mpicc=$repo/bin/mpicc
mpiexec=$repo/bin/mpiexec
[ -e "$repo/build/lib/libmini_mpi.so" ] || { echo "FAIL: build/lib/libmini_mpi.so missing (make lib)"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mini_mpi_mpicc.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

failures=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; failures=$((failures + 1)); }
# check DESCRIPTION COMMAND...: the command must succeed.
check() {
    local what=$1
    shift
    if "$@" >"$work/log" 2>&1; then ok "$what"; else bad "$what"; sed 's/^/    /' "$work/log" | tail -n 15; fi
}
# contains DESCRIPTION TEXT ERE: TEXT must match ERE.
contains() {
    if printf '%s\n' "$2" | grep -Eq -- "$3"; then ok "$1"; else bad "$1: '$2' does not match /$3/"; fi
}

# ---- Information options ------------------------------------------------------------------
# Paths go into EREs below: escape the characters that are special there.
ere() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g'; }
inc=$(ere "$repo/mini_mpi/include") lib=$(ere "$repo/build/lib") wk=$(ere "$work")
contains "-show" "$("$mpicc" -show)" "^cc -I$inc .*-lmini_mpi"
contains "-show with arguments" "$("$mpicc" -show -O2 x.c -o x)" \
    "^cc -I$inc -fPIC -ftls-model=global-dynamic -pthread -O2 x.c -o x -pie .*-lmini_mpi"
contains "-show -c (no link flags)" "$("$mpicc" -show -c x.c)" "^cc -I$inc -fPIC -ftls-model=global-dynamic -pthread -c x\.c$"
contains "-compile_info" "$("$mpicc" -compile_info)" "^cc -I$inc -fPIC -ftls-model=global-dynamic -pthread$"
contains "-compile-info" "$("$mpicc" -compile-info)" "^cc -I$inc "
contains "-link_info" "$("$mpicc" -link_info)" "-L$lib .*-Wl,-rpath,$lib .*-lmini_mpi"
contains "-link-info" "$("$mpicc" -link-info)" "-lmini_mpi"
contains "-showme" "$("$mpicc" -showme)" "^cc -I$inc .*-lmini_mpi"
contains "-showme:compile" "$("$mpicc" -showme:compile)" "^-I$inc -fPIC -ftls-model=global-dynamic -pthread$"
contains "-showme:link" "$("$mpicc" -showme:link)" "^-pie -Wl,--export-dynamic-symbol=main -Wl,-z,noseparate-code -Wl,-z,norelro -L$lib .*-lmini_mpi .*-ldl$"
contains "--showme:compile" "$("$mpicc" --showme:compile)" "^-I$inc "
contains "-showme:incdirs" "$("$mpicc" -showme:incdirs)" "^$inc$"
contains "-showme:libdirs" "$("$mpicc" -showme:libdirs)" "^$lib$"
contains "-showme:libs" "$("$mpicc" -showme:libs)" "^mini_mpi"
contains "-showme:version" "$("$mpicc" -showme:version)" "^mini_mpi [0-9]+\.[0-9]+\.[0-9]+$"
contains "--showme:version" "$("$mpicc" --showme:version)" "^mini_mpi [0-9]"
contains "--version goes to cc" "$("$mpicc" --version 2>&1)" "[0-9]+\.[0-9]+"
contains "-dumpversion goes to cc" "$("$mpicc" -dumpversion 2>&1)" "^[0-9]+"
if "$mpicc" >/dev/null 2>&1; then bad "no arguments should fail like cc"; else ok "no arguments fails like cc"; fi

# ---- Compiling and linking ----------------------------------------------------------------
mkdir -p inc
cat >inc/answer.h <<'EOF'
int answer(void);
EOF
cat >answer.c <<'EOF'
#include "answer.h"
int answer(void) { return ANSWER; }
EOF
cat >main.c <<'EOF'
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include "answer.h"
int rank;                /* one per rank: each rank runs its own copy of the program */
static int calls;
int main(int argc, char **argv)
{
    int size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i <= rank; i++)
        calls++;
    if (calls != rank + 1 || answer() != 42 || sqrt(16.0) != 4.0)
        bad = 1;
    MPI_Finalize();
    if (bad)
        printf("rank %d: calls %d\n", rank, calls);
    else if (rank == 0)
        printf(" No Errors\n");
    return bad;
}
EOF
check "-c with -I -D -O2 -g -Wall -std" "$mpicc" -std=c11 -O2 -g -Wall -Werror -Iinc -DANSWER=42 -c answer.c
check "-c -o" "$mpicc" -std=c11 -Iinc -c main.c -o main.o
check "link objects with -lm" "$mpicc" main.o answer.o -o app_objs -lm
check "several sources in one command" "$mpicc" -O1 -Iinc -DANSWER=42 main.c answer.c -o app_srcs -lm
check "run objects-linked program, 8 ranks" "$mpiexec" -n 8 ./app_objs
check "run sources-linked program, 3 ranks" "$mpiexec" -n 3 ./app_srcs
dyn=$(readelf -dW app_srcs 2>/dev/null)
contains "needs libmini_mpi.so" "$dyn" "NEEDED.*\[libmini_mpi\.so\]"
contains "is a PIE" "$dyn" "FLAGS_1.*PIE"
contains "exports main" "$(nm -D --defined-only app_srcs 2>/dev/null)" " T main$"

# ---- CC=mpicc under make ------------------------------------------------------------------
cat >Makefile <<'EOF'
CFLAGS = -O2 -Iinc -DANSWER=42
LDLIBS = -lm
app_make: main.o answer.o
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)
EOF
rm -f main.o answer.o
check "make CC=mpicc" make CC="$mpicc"
check "run make-built program" "$mpiexec" -n 4 ./app_make

# ---- What autoconf does ---------------------------------------------------------------------
cat >conftest.c <<'EOF'
#include <stdio.h>
int main(void) { printf("plain\n"); return 0; }
EOF
check "probe: -E" "$mpicc" -E conftest.c
check "probe: -c" "$mpicc" -c conftest.c
check "probe: link a program without MPI calls" "$mpicc" conftest.c -o conftest
contains "probe: run it" "$(./conftest 2>&1)" "^plain$"
check "probe: link to a.out" "$mpicc" conftest.c
check "probe: -E of mpi.h" sh -c "printf '#include <mpi.h>\n' | '$mpicc' -E -x c -"
if command -v autoconf >/dev/null 2>&1; then
    mkdir ac && cd ac || exit 1
    cat >configure.ac <<'EOF'
AC_INIT([mpiprobe], [1.0])
AC_PROG_CC
AC_CHECK_HEADERS([mpi.h], [], [AC_MSG_ERROR([no mpi.h])])
AC_CHECK_FUNC([MPI_Init], [], [AC_MSG_ERROR([no MPI_Init])])
AC_CHECK_FUNCS([MPI_Init_thread])
AC_RUN_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[return MPI_VERSION < 3;]])], [],
              [AC_MSG_ERROR([MPI_VERSION test failed])])
AC_OUTPUT
EOF
    if autoconf >"$work/log" 2>&1 && ./configure CC="$mpicc" >>"$work/log" 2>&1; then
        ok "autoconf configure with CC=mpicc"
    else
        bad "autoconf configure with CC=mpicc"
        tail -n 20 config.log 2>/dev/null | sed 's/^/    /'
    fi
    cd "$work" || exit 1
else
    echo "skip autoconf configure (autoconf not installed)"
fi

# ---- MINI_MPI_CC, symlinks, installed layout ------------------------------------------------
contains "MINI_MPI_CC" "$(MINI_MPI_CC='ccache gcc' "$mpicc" -show -c x.c)" "^ccache gcc -I$inc "
mkdir -p links && ln -s "$mpicc" links/mpicc
contains "symlinked wrapper finds the tree" "$(links/mpicc -showme:incdirs)" "^$inc$"
mkdir -p prefix/bin prefix/include prefix/lib
cp "$mpicc" prefix/bin/mpicc
contains "installed layout" "$(prefix/bin/mpicc -showme:incdirs) $(prefix/bin/mpicc -showme:libdirs)" \
    "^$wk/prefix/include $wk/prefix/lib$"

[ "$failures" = 0 ]
