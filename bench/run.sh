#!/usr/bin/env bash
# bench/run.sh: builds and runs the benchmarks of bench/*.c and prints one markdown table.
#
#   bench/run.sh                 mini_mpi only (`make bench`)
#   bench/run.sh --compare       also Debian's MPICH and Open MPI when installed
#                                (`make bench-compare`; scripts/install-compare-mpis.sh)
#   bench/run.sh --baseline DIR  also another built mini_mpi tree (an A/B of two versions:
#                                its own mpicc and mpiexec, hence its own libmini_mpi.so)
#
# Owns: building every program once per library (build/bench/<lib>/), running each
# (program, ranks) pair R times with the libraries alternating (rep 1: mini mpich openmpi,
# rep 2: mpich openmpi mini, ...), each run under `timeout` in its own session, killing whatever
# a run leaves behind (by session id and by an environment token, pid by pid), and turning the
# RESULT lines (bench/common.h) into the table: median (min-max) per cell, and mini_mpi's ratio
# to each other library (>1 means mini_mpi is better: their time / ours, our bandwidth /
# theirs, their memory / ours). Numbers, never pass/fail: the exit status is 0 unless the
# runner itself could not work.
#
# The table goes to stdout; progress and notes to stderr; raw results are appended to
# build/bench/results-<date>.csv; the logs of every run and this invocation's rows
# (last-session.csv) are kept under build/bench/ until the next invocation.
set -u

top=$(cd -- "$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")/.." && pwd -P)
src=$top/bench
out=${BENCH_OUT:-$top/build/bench} # BENCH_OUT: elsewhere (tests/tools/bench_smoke.sh)

usage() {
    cat <<'EOF'
usage: bench/run.sh [options]
  --compare          also run MPICH (mpicc.mpich, mpiexec.mpich) and Open MPI
                     (mpicc.openmpi, mpiexec.openmpi) when installed
  --baseline DIR     also run another mini_mpi checkout, built (DIR/bin/mpicc, DIR/bin/mpiexec,
                     DIR/build/lib): the same programs against that version, alternating with
                     this one; its "vs" column is this version's advantage over it
  --reps R           repetitions per cell (default 3; --quick: 1)
  --only LIST        programs to run, comma separated: pingpong pingpong_load (8 B latency
                     while a spinning process keeps a CPU busy) ring barrier allreduce
                     startup memory ulfm_detect ulfm_agree ulfm_shrink (or "ulfm") rma
                     rma_detect (failure detection in Win_fence and Win_lock next to
                     MPI_Barrier's, 4 ranks or more) restart (restart in place vs. spawn of
                     one rank) io (MPI-IO: collective bandwidth, contiguous and strided
                     views, 1 MiB per rank, the pwrite floor, shared-pointer appends, small
                     write_at; up to 64 ranks; in $BENCH_IO_DIR, default /dev/shm)
                     io_detect (failure detection in File_write_at_all next to
                     MPI_Barrier's, 3 ranks or more). A name that is not a program selects
                     the programs it prefixes ("ulfm": ulfm_*)
  --ranks LIST       rank counts, comma separated (default 2,4,16,64,256,1024)
  --quick            smoke test: ranks 2,16, one repetition, short measurements
  --timeout S        seconds per run before it is killed (default 60)
  --foreign-max N    largest rank count run with MPICH / Open MPI (default 64)
  --mpich-poll-max N largest rank count for MPICH's ring/barrier/allreduce (default 16;
                     it busy-polls, ~0.1 s per barrier at 16 ranks on 2 cores)
  -h, --help         this help
Environment: BENCH_TIME (seconds of measurement per figure, default 0.2-0.3).
EOF
}

compare=0
baseline=
reps=
only=
ranks_opt=
quick=0
run_timeout=60
foreign_max=64
mpich_poll_max=16
while [ $# -gt 0 ]; do
    case $1 in
        --compare) compare=1 ;;
        --baseline) baseline=${2:?--baseline needs a directory}; shift ;;
        --reps) reps=${2:?--reps needs a value}; shift ;;
        --only) only=${2:?--only needs a value}; shift ;;
        --ranks) ranks_opt=${2:?--ranks needs a value}; shift ;;
        --quick) quick=1 ;;
        --timeout) run_timeout=${2:?--timeout needs a value}; shift ;;
        --foreign-max) foreign_max=${2:?--foreign-max needs a value}; shift ;;
        --mpich-poll-max) mpich_poll_max=${2:?--mpich-poll-max needs a value}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "bench/run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

all_programs=(pingpong pingpong_load ring barrier allreduce startup memory ulfm_detect ulfm_agree
              ulfm_shrink rma rma_detect restart io io_detect)
if [ "$quick" = 1 ]; then
    ranks_list=(2 16)
    : "${reps:=1}"
    export BENCH_TIME=${BENCH_TIME:-0.05}
else
    ranks_list=(2 4 16 64 256 1024)
    : "${reps:=3}"
fi
if [ -n "$ranks_opt" ]; then
    IFS=', ' read -r -a ranks_list <<<"$ranks_opt"
fi
for n in "${ranks_list[@]}"; do
    case $n in
        ''|*[!0-9]*) echo "bench/run.sh: bad rank count '$n'" >&2; exit 2 ;;
    esac
done
mapfile -t ranks_list < <(printf '%s\n' "${ranks_list[@]}" | sort -n -u)
case $reps in ''|*[!0-9]*|0) echo "bench/run.sh: bad --reps '$reps'" >&2; exit 2 ;; esac

programs=()
if [ -n "$only" ]; then
    IFS=', ' read -r -a want <<<"$only"
    for w in "${want[@]}"; do
        found=0
        for p in "${all_programs[@]}"; do
            [ "$p" = "$w" ] && { programs+=("$p"); found=1; }
        done
        if [ "$found" = 0 ]; then # not a program: the programs it prefixes
            for p in "${all_programs[@]}"; do
                case $p in "$w"_*) programs+=("$p"); found=1 ;; esac
            done
        fi
        [ "$found" = 1 ] || { echo "bench/run.sh: no program '$w' (see --help)" >&2; exit 2; }
    done
else
    programs=("${all_programs[@]}")
fi

# ---- Libraries ---------------------------------------------------------------------------
libs=(mini)
declare -A lib_title lib_cc
lib_title[mini]=mini_mpi
lib_cc[mini]=$top/bin/mpicc
if [ ! -x "$top/bin/mpicc" ] || [ ! -x "$top/bin/mpiexec" ]; then
    echo "bench/run.sh: bin/mpicc or bin/mpiexec missing; mini_mpi cells will say so" >&2
fi
if [ -n "$baseline" ]; then
    if [ ! -x "$baseline/bin/mpicc" ] || [ ! -x "$baseline/bin/mpiexec" ] ||
        [ ! -e "$baseline/build/lib/libmini_mpi.so" ]; then
        echo "bench/run.sh: --baseline $baseline: not a built mini_mpi tree (bin/mpicc," \
            "bin/mpiexec, build/lib/libmini_mpi.so)" >&2
        exit 2
    fi
    baseline=$(cd -- "$baseline" && pwd -P)
    libs+=(base)
    lib_title[base]="mini_mpi baseline $(git -C "$baseline" rev-parse --short HEAD 2>/dev/null)"
    lib_cc[base]=$baseline/bin/mpicc
fi
if [ "$compare" = 1 ]; then
    if command -v mpicc.mpich >/dev/null && command -v mpiexec.mpich >/dev/null; then
        v=$(mpiexec.mpich --version 2>/dev/null | awk '/Version:/ {print $2; exit}')
        libs+=(mpich); lib_title[mpich]="MPICH ${v}"; lib_cc[mpich]=mpicc.mpich
    else
        echo "bench/run.sh: MPICH not installed (scripts/install-compare-mpis.sh)" >&2
    fi
    if command -v mpicc.openmpi >/dev/null && command -v mpiexec.openmpi >/dev/null; then
        v=$(mpiexec.openmpi --version 2>/dev/null | awk 'NR==1 {print $NF}')
        libs+=(openmpi); lib_title[openmpi]="Open MPI ${v}"; lib_cc[openmpi]=mpicc.openmpi
        ompi_ft=()
        case $v in [5-9].*) ompi_ft=(--with-ft ulfm) ;; esac
    else
        echo "bench/run.sh: Open MPI not installed (scripts/install-compare-mpis.sh)" >&2
    fi
fi

# Logs and last-session.csv are those of the latest invocation only; results-<date>.csv
# accumulates.
rm -rf "$out/logs"
mkdir -p "$out/logs" "$out/tmp"
stamp=$(date +%Y%m%d-%H%M%S)
results=$out/results-$(date +%Y-%m-%d).csv
session=$out/last-session.csv
[ -s "$results" ] ||
    echo "time,library,program,figure,bytes,ranks,rep,value,unit,status,note" >"$results"
: >"$session"

# ---- Build -------------------------------------------------------------------------------
# build_status[lib:prog]: ok, notimpl (mini_mpi lacks a call), failed.
declare -A build_status
cflags=(-O2 -g -std=gnu11 -Wall -Werror=implicit-function-declaration)
for lib in "${libs[@]}"; do
    mkdir -p "$out/$lib"
    for prog in "${programs[@]}"; do
        log=$out/logs/build-$lib-$prog.log
        if [ "$lib" = mini ] && [ ! -x "$top/bin/mpicc" ]; then
            echo "bin/mpicc missing" >"$log"
            build_status[$lib:$prog]=failed
            continue
        fi
        rm -f "$out/$lib/$prog"
        if "${lib_cc[$lib]}" "${cflags[@]}" -I"$src" "$src/$prog.c" -o "$out/$lib/$prog" \
            >"$log" 2>&1; then
            build_status[$lib:$prog]=ok
        elif grep -Eq "(undefined reference to|implicit declaration of function) [^ ]*MPIX?_|MPIX?_[A-Za-z0-9_]*[^ ]* undeclared" "$log"; then
            build_status[$lib:$prog]=notimpl
        else
            build_status[$lib:$prog]=failed
        fi
    done
done

# The machine's memcpy bandwidth: the ceiling of a one-copy transfer, printed under the table.
memcpy_line= copy_line=
if cc -O2 -std=gnu11 -pthread "$src/memcpy.c" -o "$out/memcpy" >"$out/logs/build-memcpy.log" 2>&1; then
    timeout 30 "$out/memcpy" >"$out/logs/$stamp-memcpy.out" 2>&1
    memcpy_line=$(awk -v now="$(date +%FT%T)" -v csv="$results" '
        /^RESULT name=memcpy_bandwidth/ {
            b = $3; sub("bytes=", "", b); b += 0; v = $5; sub("value=", "", v)
            print now ",machine,memcpy,memcpy_bandwidth," b ",1,1," v ",GB/s,ok," >>csv
            l = (b >= 1048576) ? (b / 1048576) " MiB" : (b / 1024) " KiB"
            s = s (s ? ", " : "") l " " v " GB/s" }
        END { print s }' "$out/logs/$stamp-memcpy.out")
    # The floor of a one-copy message between two cores: a copy of a buffer the other wrote.
    copy_line=$(awk -v now="$(date +%FT%T)" -v csv="$results" '
        /^RESULT name=copy_floor_/ {
            n = $2; sub("name=", "", n); b = $3; sub("bytes=", "", b); b += 0
            v = $5; sub("value=", "", v)
            print now ",machine,memcpy," n "," b ",2,1," v ",GB/s,ok," >>csv
            l = (b >= 1048576) ? (b / 1048576) " MiB" : (b / 1024) " KiB"
            s = s (s ? ", " : "") l " " v " GB/s" }
        END { print s }' "$out/logs/$stamp-memcpy.out")
fi
# Builds and runs bench/<prog>.c, a machine floor (not an MPI program): appends its RESULT lines
# to the CSV and prints them as "label value unit, ...", labels given as name=label pairs
# (underscores in a label print as spaces; the label "threads" prints "N threads: value unit").
# FLOOR_ARGS: arguments for the program.
machine_floor() {
    local prog=$1
    shift
    cc -O2 -std=gnu11 -pthread "$src/$prog.c" -o "$out/$prog" >"$out/logs/build-$prog.log" 2>&1 ||
        return 0
    # Threads as bin/mpiexec starts mini_mpi's: without glibc's rseq unless MINI_MPI_RSEQ=1.
    local tunables=${GLIBC_TUNABLES-}
    [ "${MINI_MPI_RSEQ-0}" = 1 ] || tunables="${tunables:+$tunables:}glibc.pthread.rseq=0"
    # shellcheck disable=SC2086 # FLOOR_ARGS is a list of numbers
    GLIBC_TUNABLES=$tunables timeout 60 "$out/$prog" ${FLOOR_ARGS:-} 2>/dev/null | awk -v now="$(date +%FT%T)" -v csv="$results" \
        -v prog="$prog" -v labels="$*" '
        BEGIN {
            n = split(labels, pairs, " ")
            for (i = 1; i <= n; i++) {
                split(pairs[i], kv, "="); gsub(/_/, " ", kv[2]); label[kv[1]] = kv[2]
            }
        }
        /^RESULT name=/ {
            for (i = 2; i <= 6; i++) { f[i] = $i; sub(/^[a-z]+=/, "", f[i]) }
            print now ",machine," prog "," f[2] "," f[3] "," f[4] ",1," f[5] "," f[6] ",ok," >>csv
            if (label[f[2]] == "threads") item = f[4] " threads: " f[5] " " f[6]
            else item = (f[2] in label ? label[f[2]] " " : "") f[5] " " f[6]
            s = s (s ? ", " : "") item
        }
        END { print s }'
}
# Its cost of a wake-up plus context switch: the floor per rank when ranks outnumber cores.
switch_line=$(machine_floor switch)
# The floor of an 8-byte message between two cores (one line; a two-line message cell; the
# two cells in one line, the channels' layout).
cacheline_line=$(machine_floor cacheline cacheline_flag=one_line cacheline_message=message_cell \
    cacheline_shared=message_cells_sharing_a_line)
# The floor of a collective when ranks outnumber cores: every rank-thread gets the CPU once
# (bench/yield_floor.c), at the rank counts above the CPU count that barrier/allreduce run at.
yield_counts=
case " ${programs[*]} " in
    *" barrier "*|*" allreduce "*)
        for n in "${ranks_list[@]}"; do
            [ "$n" -gt "$(nproc 2>/dev/null || echo 1)" ] && yield_counts+="$n "
        done ;;
esac
yield_line=
if [ -n "$yield_counts" ]; then
    yield_line=$(FLOOR_ARGS=$yield_counts machine_floor yield_floor yield_floor=threads)
fi
# The floor of failure detection: waking a thread that slept 20 ms (bench/wake_floor.c).
wake_line=$(machine_floor wake_floor wake_after_idle=after_20_ms_asleep wake_warm=warm)
cpu_model=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
cpu_count=$(nproc 2>/dev/null)

# ---- Running one program ----------------------------------------------------------------
current_sid=
run_seq=0

# Kills every process the run with session id $1 and token $2 left behind; prints how many.
sweep() {
    local sid=$1 token=$2 pids p n=0
    pids=$(ps -eo pid=,sid= | awk -v s="$sid" '$2 == s {print $1}')
    # Processes that left the session (daemonized) still carry the token in their environment.
    pids+=" "$(grep -laszxF -- "BENCH_RUN_TOKEN=$token" /proc/[0-9]*/environ 2>/dev/null |
        sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p')
    for p in $(printf '%s\n' $pids | sort -u); do
        [ "$p" = "$$" ] && continue
        [ "$p" = "$BASHPID" ] && continue
        if kill -KILL "$p" 2>/dev/null; then
            n=$((n + 1))
        fi
    done
    echo "$n"
}

# The scratch directory of the run under way (I/O programs write their files there): removed
# after the run whatever its outcome, and on the way out when this script is interrupted.
current_scratch=
remove_scratch() {
    [ -n "$current_scratch" ] && rm -rf -- "$current_scratch"
    current_scratch=
}

on_signal() {
    if [ -n "$current_sid" ]; then
        sweep "$current_sid" "$current_token" >/dev/null
    fi
    remove_scratch
    echo "bench/run.sh: interrupted; partial results in $session" >&2
    exit 130
}
trap on_signal INT TERM HUP
trap remove_scratch EXIT

# Launch command of $lib for $n ranks (the program and its arguments follow).
launcher() {
    local lib=$1 n=$2 prog=$3
    case $lib in
        mini) launch=("$top/bin/mpiexec" -n "$n") ;;
        base) launch=("$baseline/bin/mpiexec" -n "$n") ;;
        mpich) launch=(mpiexec.mpich -n "$n") ;;
        openmpi)
            launch=(mpiexec.openmpi --oversubscribe --allow-run-as-root -n "$n")
            case $prog in ulfm_*|*_detect) launch+=("${ompi_ft[@]}") ;; esac ;;
    esac
}

csv_row() { # lib prog figure bytes ranks rep value unit status note
    local row
    row="$(date +%FT%T),$1,$2,$3,$4,$5,$6,$7,$8,$9,${10}"
    echo "$row" >>"$session"
    echo "$row" >>"$results"
}

# Records one status for every figure of a program (no numbers).
csv_status() { # lib prog ranks rep status note
    local f
    for f in $(figures_of "$2"); do
        csv_row "$1" "$2" "${f%%:*}" "${f#*:}" "$3" "$4" "" "" "$5" "$6"
    done
}

figures_of() {
    case $1 in
        pingpong)
            echo pingpong_latency:8 pingpong_latency:1024 pingpong_floor:1024 \
                pingpong_floor_ratio:1024 pingpong_bandwidth:65536 pingpong_bandwidth:1048576 \
                pingpong_bandwidth:4194304 ;;
        pingpong_load) echo pingpong_load_latency:8 ;;
        ring) echo ring:8 ;;
        barrier) echo barrier:0 ;;
        allreduce) echo allreduce:8 ;;
        startup) echo startup:0 ;;
        memory) echo memory_pss:0 memory_rss:0 ;;
        ulfm_detect) echo ulfm_detect:0 ulfm_detect_first:0 ;;
        ulfm_agree) echo ulfm_agree:0 ulfm_agree_barrier:0 ulfm_agree_ratio:0 ;;
        ulfm_shrink) echo ulfm_shrink:0 ulfm_shrink_repeat:0 ulfm_shrink_barrier:0 \
            ulfm_shrink_ratio:0 ulfm_shrink_first_ratio:0 ;;
        rma) echo rma_put_latency:8 rma_put_floor:8 rma_put_bandwidth:4194304 rma_epoch:8 \
            rma_epoch_floor:8 rma_acc_char:1048576 rma_acc_char_floor:1048576 \
            rma_acc_int:1048576 rma_acc_int_floor:1048576 rma_acc_float:1048576 \
            rma_acc_float_floor:1048576 \
            rma_fence:0 rma_fence_barrier:0 rma_fence_ratio:0 rma_fop:8 ;;
        rma_detect) echo rma_detect_barrier:0 rma_detect_fence:0 rma_detect_lock:0 \
            rma_detect_fence_ratio:0 rma_detect_lock_ratio:0 ;;
        io_detect) echo io_detect_barrier:0 io_detect_write_at_all:0 io_detect_ratio:0 ;;
        restart) echo restart:0 restart_call:0 spawn1:0 spawn1_call:0 ;;
        io) echo io_write_at_all_contig:1048576 io_read_at_all_contig:1048576 \
            io_write_at_all_strided:1048576 io_read_at_all_strided:1048576 \
            io_pwrite_floor:1048576 io_pread_floor:1048576 io_write_shared_64:64 \
            io_write_at_latency_8:8 io_pwrite_latency_8:8 ;;
        *) echo "$1:0" ;;
    esac
}

# Why a run without results failed, from its logs: a cell text.
classify_failure() { # lib prog rc logbase (the run's .out and .err) seconds
    local lib=$1 prog=$2 rc=$3 err=("$4.out" "$4.err") secs=$5 sig
    if { [ "$rc" = 124 ] || [ "$rc" = 137 ]; } && [ "$secs" -ge "$run_timeout" ]; then
        echo "timeout:timeout (${run_timeout} s)"
        return
    fi
    if grep -Eqi "not (yet )?implemented|MPI_ERR_UNSUPPORTED|unsupported operation" "${err[@]}"; then
        echo "notimpl:not implemented"
        return
    fi
    case $lib:$prog in
        mpich:ulfm_*|mpich:*_detect)
            if grep -q "Assertion failed in file src/mpid/ch4" "${err[@]}"; then
                echo "na:n/a (no ULFM: ch4 MPIX_ asserts)"; return
            fi
            if grep -q "YOUR APPLICATION TERMINATED" "${err[@]}"; then
                echo "na:n/a (no ULFM: job killed at failure)"; return
            fi ;;
    esac
    if [ "$rc" -gt 128 ] && [ "$rc" -lt 160 ]; then
        sig=$(kill -l "$((rc - 128))" 2>/dev/null)
        echo "failed:crashed (SIG${sig:-$((rc - 128))})"
        return
    fi
    echo "failed:failed (exit $rc)"
}

# Runs program $prog of $lib at $n ranks, repetition $rep; appends its rows to the CSVs.
run_one() {
    local lib=$1 prog=$2 n=$3 rep=$4
    local bin=$out/$lib/$prog base rc t0 t1 left c
    run_seq=$((run_seq + 1))
    base=$out/logs/$stamp-$lib-$prog-$n-$rep
    current_token="$$-$run_seq-$RANDOM"
    launcher "$lib" "$n" "$prog"
    local args=() # scratch paths given to the program, removed after the run
    local opts=() # other program arguments
    case $prog in
        io | io_detect)
            # A directory of its own: a run that fails or is killed leaves its 64 MiB files
            # there, and the whole directory goes after the run.
            current_scratch=$(mktemp -d "${BENCH_IO_DIR:-/dev/shm}/bench_io_run.XXXXXX") ||
                return 1 ;;
    esac
    case $prog in
        io) opts=(-V -b 1048576 -d "$current_scratch") ;;
        io_detect) opts=("$current_scratch") ;;
    esac
    t0=$(date +%s%N)
    # setsid: own session, so that every process of the run can be found afterwards (Open MPI
    # puts each rank in its own process group, but not in its own session). The sh in between
    # reports a crash into the run's log instead of this script's stderr.
    env BENCH_RUN_TOKEN="$current_token" setsid sh -c '"$@"; exit $?' sh \
        timeout -k 5 "$run_timeout" "${launch[@]}" "$bin" "${opts[@]}" "${args[@]}" \
        >"$base.out" 2>"$base.err" </dev/null &
    current_sid=$!
    wait "$current_sid"
    rc=$?
    t1=$(date +%s%N)
    left=$(sweep "$current_sid" "$current_token")
    current_sid=
    remove_scratch
    rm -f "${args[@]}"
    if [ "$left" -gt 0 ]; then
        echo "  ($lib $prog -n $n: killed $left leftover processes)" >&2
        echo "bench/run.sh: killed $left leftover processes" >>"$base.err"
    fi

    if [ "$prog" = startup ]; then
        if [ "$rc" = 0 ] && grep -q "^STARTED ranks=$n\$" "$base.out"; then
            csv_row "$lib" startup startup 0 "$n" "$rep" \
                "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", (b - a) / 1e9}')" s ok ""
        else
            c=$(classify_failure "$lib" "$prog" "$rc" "$base" "$(((t1 - t0) / 1000000000))")
            csv_status "$lib" "$prog" "$n" "$rep" "${c%%:*}" "${c#*:}"
        fi
        return
    fi
    if grep -q '^RESULT ' "$base.out"; then
        local f name bytes line value unit note
        for f in $(figures_of "$prog"); do
            name=${f%%:*} bytes=${f#*:}
            line=$(grep -E "^RESULT name=$name bytes=$bytes " "$base.out" | tail -n 1)
            if [ -z "$line" ]; then
                csv_row "$lib" "$prog" "$name" "$bytes" "$n" "$rep" "" "" failed "failed (no result)"
                continue
            fi
            value=$(sed -n 's/.* value=\([^ ]*\).*/\1/p' <<<"$line")
            unit=$(sed -n 's/.* unit=\([^ ]*\).*/\1/p' <<<"$line")
            note=$(sed -n 's/.* note=\([^ ]*\).*/\1/p' <<<"$line")
            if [ "$value" = NA ]; then
                csv_row "$lib" "$prog" "$name" "$bytes" "$n" "$rep" "" "$unit" na \
                    "n/a (${note//-/ })"
            else
                csv_row "$lib" "$prog" "$name" "$bytes" "$n" "$rep" "$value" "$unit" ok ""
            fi
        done
        return
    fi
    c=$(classify_failure "$lib" "$prog" "$rc" "$base" "$(((t1 - t0) / 1000000000))")
    csv_status "$lib" "$prog" "$n" "$rep" "${c%%:*}" "${c#*:}"
}

# ---- The schedule -------------------------------------------------------------------------
# sticky[lib:prog]: a status that holds for every rank count above sticky_from[lib:prog] too
# (n/a and not implemented: all; a timeout: the larger ones), so such cells are filled in
# without running again.
declare -A sticky sticky_from
total_runs=0
begin=$(date +%s)
for prog in "${programs[@]}"; do
    if [ "$prog" = pingpong ] || [ "$prog" = pingpong_load ]; then
        prog_ranks=(2)
    else
        prog_ranks=("${ranks_list[@]}")
    fi
    for n in "${prog_ranks[@]}"; do
        [ "$n" -lt 2 ] && case $prog in pingpong*|ulfm_detect|ulfm_shrink|restart) continue ;; esac
        [ "$n" -gt 64 ] && [ "$prog" = io ] && continue # 1 MiB per rank in a tmpfs
        [ "$n" -lt 4 ] && [ "$prog" = rma_detect ] && continue # three deaths, survivors left
        [ "$n" -lt 3 ] && [ "$prog" = io_detect ] && continue
        [ "$n" -lt 1 ] && continue
        echo "bench: $prog -n $n" >&2
        for ((rep = 1; rep <= reps; rep++)); do
            nl=${#libs[@]}
            for ((k = 0; k < nl; k++)); do
                lib=${libs[$(((k + rep - 1) % nl))]}
                # Cells that are not run, and why.
                case ${build_status[$lib:$prog]} in
                    notimpl) csv_status "$lib" "$prog" "$n" "$rep" notimpl "not implemented"; continue ;;
                    failed) csv_status "$lib" "$prog" "$n" "$rep" failed "failed (build)"; continue ;;
                esac
                if [ -n "${sticky[$lib:$prog]:-}" ] && [ "$n" -gt "${sticky_from[$lib:$prog]}" ]; then
                    s=${sticky[$lib:$prog]}
                    csv_status "$lib" "$prog" "$n" "$rep" "${s%%:*}" "${s#*:}"
                    continue
                fi
                if [ "$lib" != mini ] && [ "$lib" != base ] && [ "$n" -gt "$foreign_max" ]; then
                    csv_status "$lib" "$prog" "$n" "$rep" skipped "not run (> $foreign_max processes)"
                    continue
                fi
                if [ "$lib" = mpich ] && [ "$n" -gt "$mpich_poll_max" ]; then
                    case $prog in ring|barrier|allreduce)
                        csv_status "$lib" "$prog" "$n" "$rep" skipped "skipped (busy-polls)"
                        continue ;;
                    esac
                fi
                before=$(wc -l <"$session")
                run_one "$lib" "$prog" "$n" "$rep"
                total_runs=$((total_runs + 1))
                # A status that will not change with more ranks sticks (timeouts too: a larger
                # run would only time out again, slower).
                st=$(tail -n +"$((before + 1))" "$session" | awk -F, '{print $10 ":" $11}' | sort -u)
                if [ "$(wc -l <<<"$st")" = 1 ]; then
                    case $st in
                        na:*|notimpl:*) sticky[$lib:$prog]=$st; sticky_from[$lib:$prog]=0 ;;
                        timeout:*)
                            sticky[$lib:$prog]="skipped:skipped (timeout at $n ranks)"
                            sticky_from[$lib:$prog]=$n ;;
                    esac
                fi
            done
        done
    done
done
elapsed=$(($(date +%s) - begin))
echo "bench: $total_runs runs in ${elapsed} s; raw results: $results" >&2

# ---- The table ----------------------------------------------------------------------------
titles=()
for lib in "${libs[@]}"; do titles+=("$lib=${lib_title[$lib]}"); done
awk -F, -v libs="${libs[*]}" -v titles="${titles[*]}" -v progs="${programs[*]}" '
function fmt(x) {
    if (x >= 100) return sprintf("%.0f", x)
    if (x >= 10) return sprintf("%.1f", x)
    if (x >= 0.9995) return sprintf("%.2f", x)
    return sprintf("%.3g", x)
}
function sortv(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
}
{
    key = $2 SUBSEP $4 SUBSEP $5 SUBSEP $6
    if ($10 == "ok") { nv[key]++; v[key, nv[key]] = $8 + 0 }
    else { nbad[key]++; bad[key, $11]++ }
    nrep[key]++
    if (!(($4 SUBSEP $5 SUBSEP $6) in seen)) { seen[$4 SUBSEP $5 SUBSEP $6] = 1 }
}
END {
    nl = split(libs, L, " ")
    nt = split(titles, T, " ")
    # Titles may contain spaces: "mini=mini_mpi mpich=MPICH 4.0.2 ..." -> rejoin on "=".
    s = titles; i = 0
    while (match(s, /[a-z]+=/)) {
        name = substr(s, RSTART, RLENGTH - 1); s = substr(s, RSTART + RLENGTH)
        if (match(s, / [a-z]+=/)) { title[name] = substr(s, 1, RSTART - 1); s = substr(s, RSTART + 1) }
        else { title[name] = s; s = "" }
    }
    # Rows: figure label, RESULT name, bytes, direction (lower/higher is better; none: a ratio
    # within one library, no "vs" column).
    nr = 0
    R[++nr] = "pingpong|ping-pong latency 8 B (µs)|pingpong_latency|8|lower"
    R[++nr] = "pingpong|ping-pong latency 1 KiB (µs)|pingpong_latency|1024|lower"
    R[++nr] = "pingpong|floor: the same two ranks copying 1 KiB in turns, shared memory (µs)|pingpong_floor|1024|none"
    R[++nr] = "pingpong|1 KiB latency / that floor, batch by batch (goal ≤ 1.5)|pingpong_floor_ratio|1024|none"
    R[++nr] = "pingpong|ping-pong bandwidth 64 KiB (GB/s)|pingpong_bandwidth|65536|higher"
    R[++nr] = "pingpong|ping-pong bandwidth 1 MiB (GB/s)|pingpong_bandwidth|1048576|higher"
    R[++nr] = "pingpong|ping-pong bandwidth 4 MiB (GB/s)|pingpong_bandwidth|4194304|higher"
    R[++nr] = "pingpong_load|ping-pong latency 8 B, another process keeping a CPU busy (µs)|pingpong_load_latency|8|lower"
    R[++nr] = "ring|ring 8 B (µs per step)|ring|8|lower"
    R[++nr] = "barrier|barrier (µs)|barrier|0|lower"
    R[++nr] = "allreduce|allreduce 8 B (µs)|allreduce|8|lower"
    R[++nr] = "startup|start-up, init+finalize wall (s)|startup|0|lower"
    R[++nr] = "memory|memory, Pss sum (MB)|memory_pss|0|lower"
    R[++nr] = "memory|memory, RSS sum (MB)|memory_rss|0|lower"
    R[++nr] = "ulfm_detect|failure detection in MPI_Barrier, last survivor (ms)|ulfm_detect|0|lower"
    R[++nr] = "ulfm_detect|failure detection in MPI_Barrier, first survivor (ms)|ulfm_detect_first|0|lower"
    R[++nr] = "ulfm_agree|MPIX_Comm_agree (µs)|ulfm_agree|0|lower"
    R[++nr] = "ulfm_agree|barrier, same run as agree (µs)|ulfm_agree_barrier|0|lower"
    R[++nr] = "ulfm_agree|agree / barrier (goal ≤ 2)|ulfm_agree_ratio|0|none"
    R[++nr] = "ulfm_shrink|MPIX_Comm_shrink after 1 failure, first (ms)|ulfm_shrink|0|lower"
    R[++nr] = "ulfm_shrink|MPIX_Comm_shrink after 1 failure, repeated (ms)|ulfm_shrink_repeat|0|lower"
    R[++nr] = "ulfm_shrink|barrier, same run as shrink (µs)|ulfm_shrink_barrier|0|lower"
    R[++nr] = "ulfm_shrink|repeated shrink / barrier (goal ≤ 5)|ulfm_shrink_ratio|0|none"
    R[++nr] = "ulfm_shrink|first shrink / barrier|ulfm_shrink_first_ratio|0|none"
    R[++nr] = "rma|Put 8 B + flush under lock_all (µs)|rma_put_latency|8|lower"
    R[++nr] = "rma|floor of the put: 8-byte copy + full fence (µs)|rma_put_floor|8|lower"
    R[++nr] = "rma|Put 4 MiB + flush (GB/s)|rma_put_bandwidth|4194304|higher"
    R[++nr] = "rma|exclusive lock + Put 8 B + unlock (µs)|rma_epoch|8|lower"
    R[++nr] = "rma|floor of the epoch: CAS + 8-byte copy + exchange (µs)|rma_epoch_floor|8|lower"
    R[++nr] = "rma|Accumulate 1 MiB MPI_CHAR, MPI_SUM + flush (µs)|rma_acc_char|1048576|lower"
    R[++nr] = "rma|floor: one thread adding the same 1 MiB, MPI_CHAR (µs)|rma_acc_char_floor|1048576|none"
    R[++nr] = "rma|Accumulate 1 MiB MPI_INT, MPI_SUM + flush (µs)|rma_acc_int|1048576|lower"
    R[++nr] = "rma|floor: one thread adding the same 1 MiB, MPI_INT (µs)|rma_acc_int_floor|1048576|none"
    R[++nr] = "rma|Accumulate 1 MiB MPI_FLOAT, MPI_SUM + flush (µs)|rma_acc_float|1048576|lower"
    R[++nr] = "rma|floor: one thread adding the same 1 MiB, MPI_FLOAT (µs)|rma_acc_float_floor|1048576|none"
    R[++nr] = "rma|Win_fence (µs)|rma_fence|0|lower"
    R[++nr] = "rma|barrier, same run as fence (µs)|rma_fence_barrier|0|lower"
    R[++nr] = "rma|fence / barrier (goal ≤ 1.5)|rma_fence_ratio|0|none"
    R[++nr] = "rma|Fetch_and_op on one counter, every rank (µs)|rma_fop|8|lower"
    R[++nr] = "rma_detect|failure detection in MPI_Barrier, same run as fence and lock (ms)|rma_detect_barrier|0|lower"
    R[++nr] = "rma_detect|failure detection in MPI_Win_fence, shrunk communicator (ms)|rma_detect_fence|0|lower"
    R[++nr] = "rma_detect|failure detection in MPI_Win_lock behind the dead holder (ms)|rma_detect_lock|0|lower"
    R[++nr] = "rma_detect|fence detection / barrier detection (goal ≤ 2)|rma_detect_fence_ratio|0|none"
    R[++nr] = "rma_detect|lock detection / barrier detection (goal ≤ 2)|rma_detect_lock_ratio|0|none"
    R[++nr] = "restart|restart in place, call to new MPI_Init returned (ms)|restart|0|lower"
    R[++nr] = "restart|restart in place, call returned (ms)|restart_call|0|lower"
    R[++nr] = "restart|spawn of 1 rank, call to the child MPI_Init returned (ms)|spawn1|0|lower"
    R[++nr] = "restart|spawn of 1 rank, call returned (ms)|spawn1_call|0|lower"
    R[++nr] = "io|write_at_all, contiguous, 1 MiB per rank (MB/s)|io_write_at_all_contig|1048576|higher"
    R[++nr] = "io|read_at_all, contiguous, 1 MiB per rank (MB/s)|io_read_at_all_contig|1048576|higher"
    R[++nr] = "io|write_at_all, strided 4 KiB blocks, 1 MiB per rank (MB/s)|io_write_at_all_strided|1048576|higher"
    R[++nr] = "io|read_at_all, strided 4 KiB blocks, 1 MiB per rank (MB/s)|io_read_at_all_strided|1048576|higher"
    R[++nr] = "io|floor: one process pwrite of the same bytes (MB/s)|io_pwrite_floor|1048576|none"
    R[++nr] = "io|floor: every rank one pread of its block, at once (MB/s)|io_pread_floor|1048576|none"
    R[++nr] = "io|write_shared of 64 B records, every rank (records/s)|io_write_shared_64|64|higher"
    R[++nr] = "io|write_at of 8 B, one rank (µs)|io_write_at_latency_8|8|lower"
    R[++nr] = "io|floor: pwrite of 8 B, same rounds (µs)|io_pwrite_latency_8|8|none"
    R[++nr] = "io_detect|failure detection in MPI_Barrier, same run as write_at_all (ms)|io_detect_barrier|0|lower"
    R[++nr] = "io_detect|failure detection in MPI_File_write_at_all, shrunk communicator (ms)|io_detect_write_at_all|0|lower"
    R[++nr] = "io_detect|write_at_all detection / barrier detection (goal ≤ 2)|io_detect_ratio|0|none"

    hdr = "| figure | ranks |"; sep = "|---|---:|"
    for (i = 1; i <= nl; i++) { hdr = hdr " " title[L[i]] " |"; sep = sep "---|" }
    for (i = 2; i <= nl; i++) { hdr = hdr " vs " title[L[i]] " |"; sep = sep "---:|" }
    print hdr; print sep
    np = split(progs, P, " ")
    for (r = 1; r <= nr; r++) {
        split(R[r], f, "|")
        wanted = 0
        for (i = 1; i <= np; i++) if (P[i] == f[1]) wanted = 1
        if (!wanted) continue
        # Rank counts present for this figure, ascending.
        nn = 0; delete N
        for (k in seen) { split(k, q, SUBSEP); if (q[1] == f[3] && q[2] == f[4]) N[++nn] = q[3] + 0 }
        sortv(N, nn)
        for (j = 1; j <= nn; j++) {
            line = "| " f[2] " | " N[j] " |"
            for (i = 1; i <= nl; i++) {
                key = L[i] SUBSEP f[3] SUBSEP f[4] SUBSEP N[j]
                med[i] = ""
                if (nv[key] > 0) {
                    delete a; for (m = 1; m <= nv[key]; m++) a[m] = v[key, m]
                    sortv(a, nv[key]); c = nv[key]
                    med[i] = (c % 2) ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
                    cell = fmt(med[i])
                    if (c > 1) cell = cell " (" fmt(a[1]) "–" fmt(a[c]) ")"
                    if (nbad[key] > 0) cell = cell " [" nbad[key] "/" nrep[key] " failed]"
                } else if (nrep[key] > 0) {
                    best = ""; bn = 0
                    for (bk in bad) { split(bk, q, SUBSEP)
                        if (q[1] == L[i] && q[2] == f[3] && q[3] == f[4] && q[4] == N[j] && bad[bk] > bn) { bn = bad[bk]; best = q[5] } }
                    cell = best
                } else cell = "–"
                line = line " " cell " |"
            }
            for (i = 2; i <= nl; i++) {
                if (f[5] != "none" && med[1] != "" && med[i] != "" && med[1] > 0 && med[i] > 0) {
                    ratio = (f[5] == "higher") ? med[1] / med[i] : med[i] / med[1]
                    line = line " " fmt(ratio) "× |"
                } else line = line " – |"
            }
            print line
        }
    }
}' "$session"
echo
echo "Machine: ${cpu_model:-unknown CPU}, $cpu_count CPUs online; memcpy, one thread:" \
    "${memcpy_line:-not measured}; a copy of a buffer the other core wrote last (the floor" \
    "of a one-copy message, one way): ${copy_line:-not measured}; wake-up + context switch" \
    "on one core:" \
    "${switch_line:-not measured}; one-way between two cores: ${cacheline_line:-not measured};" \
    "futex wake-up until the woken thread runs (the floor of failure detection):" \
    "${wake_line:-not measured}${yield_line:+; every rank-thread running once, per thread (the floor per rank of a collective when ranks outnumber cores): $yield_line}."
if [ "${#libs[@]}" -gt 1 ]; then
    echo "Cells: median (min–max) over $reps repetition(s), libraries alternating. \"vs\" columns:" \
        "mini_mpi's advantage (their time / ours; our bandwidth / theirs; their memory / ours)."
else
    echo "Cells: median (min–max) over $reps repetition(s)."
fi
