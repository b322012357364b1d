#!/usr/bin/env python3
"""bad_args.py: generates tests/mpi/bad_args.c, a test that calls every MPI entry point declared
by our headers with one bad argument at a time and checks that the call returns the right error
class instead of crashing, hanging or succeeding.

Why generated: a hand-written list of bad-input checks covers the calls someone thought of; this
one covers every function of the table mini_mpi/api/mpi.api, both forms of a large-count pair,
including calls added later. The build writes it (the Makefile: $(BUILD)/gen/bad_args.c) for the
functions the library defines; tests/tools/exported_names.sh is what fails on a missing one.

For each prototype, every argument gets a plausible value (MPI_COMM_WORLD, MPI_INT, MPI_SUM,
count 1, rank 0, scratch memory for pointers), then one argument at a time is made bad:
  - a handle passed by value: a nonexistent handle of the right kind, then a valid handle of
    another kind; the call must fail with that kind's class (MPI_ERR_COMM for a communicator...);
  - a message buffer (buf, buffer, and one-sided origin_addr, compare_addr, result_addr) NULL
    while the count is 1 (MPI_ERR_BUFFER);
  - count-like ints -1 (MPI_ERR_COUNT or MPI_ERR_ARG), dest/source out of range (MPI_ERR_RANK),
    root out of range (MPI_ERR_ROOT), tag -5 (MPI_ERR_TAG);
  - a handle passed by pointer or in an array: a nonexistent handle (the call may treat it as
    an output, so only "no crash, no hang" is required).
The fault-tolerance calls are tested under their MPIX_ names.
Usage: bad_args.py TABLE DEFINED_NAMES > bad_args.c   (DEFINED_NAMES: one exported name a line)
"""
import os
import re
import sys

BUFFER_NAMES = ("buf", "buffer", "origin_addr", "compare_addr", "result_addr")

HANDLE_KINDS = {
    "MPI_Comm": ("MMPI_HANDLE_KIND_COMM", "MPI_COMM_WORLD", "MPI_INT", "MPI_ERR_COMM"),
    "MPI_Group": ("MMPI_HANDLE_KIND_GROUP", "MPI_GROUP_EMPTY", "MPI_COMM_WORLD", "MPI_ERR_GROUP"),
    "MPI_Datatype": ("MMPI_HANDLE_KIND_DATATYPE", "MPI_INT", "MPI_COMM_WORLD", "MPI_ERR_TYPE"),
    "MPI_Op": ("MMPI_HANDLE_KIND_OP", "MPI_SUM", "MPI_INT", "MPI_ERR_OP"),
    "MPI_Request": ("MMPI_HANDLE_KIND_REQUEST", "MPI_REQUEST_NULL", "MPI_INT", "MPI_ERR_REQUEST"),
    "MPI_Errhandler": ("MMPI_HANDLE_KIND_ERRHANDLER", "MPI_ERRORS_RETURN", "MPI_INT", "MPI_ERR_ERRHANDLER"),
    "MPI_Info": ("MMPI_HANDLE_KIND_INFO", "MPI_INFO_NULL", "MPI_COMM_WORLD", "MPI_ERR_INFO"),
    "MPI_Message": ("MMPI_HANDLE_KIND_MESSAGE", "MPI_MESSAGE_NO_PROC", "MPI_INT", "MPI_ERR_REQUEST"),
    "MPI_Win": ("MMPI_HANDLE_KIND_WIN", "test_win", "MPI_INT", "MPI_ERR_WIN"),
    "MPI_File": ("MMPI_HANDLE_KIND_FILE", "test_file", "MPI_INT", "MPI_ERR_FILE"),
    "MPI_Session": ("MMPI_HANDLE_KIND_SESSION", "test_session", "MPI_INT", "MPI_ERR_SESSION"),
}
# Pointer cases left out: a call that succeeds there would leave an object nobody frees, which
# changes how the rank ends (an open session makes its end a failure, docs/sessions.md).
SKIP_POINTER = {("MPI_Session_init", "session")}
# Calls that end the program or the library, or take varargs.
SKIP = {"Init", "Init_thread", "Finalize", "Abort", "Pcontrol"}
# Accepted extra classes, with the reason. Keep this short: each entry is a known deviation.
EXTRA_OK = {
    # The number of commands, not of elements: Open MPI returns MPI_ERR_ARG.
    ("MPI_Comm_spawn_multiple", "count"): ["MPI_ERR_ARG"],
    # A status field holds whatever its owner puts there (a generalized request's source, a
    # negative tag of a tool), so MPI 4.1's setters check nothing, as MPICH's.
    ("MPI_Status_set_source", "source"): ["MPI_SUCCESS"],
    ("MPI_Status_set_tag", "tag"): ["MPI_SUCCESS"],
}
# MPI-4.1 added MPI_ERR_ERRHANDLER; MPICH and Open MPI return MPI_ERR_ARG for a bad handler.
KIND_EXTRA_OK = {"MPI_Errhandler": ["MPI_ERR_ARG"]}
# Rank-valued int arrays get zeros (rank 0 exists in every world); the others get ones.
RANK_ARRAYS = re.compile(r"rank|source|dest|edges")
INT_FUZZ = {
    "count": ("-1", "MPI_ERR_COUNT"), "sendcount": ("-1", "MPI_ERR_COUNT"),
    "recvcount": ("-1", "MPI_ERR_COUNT"), "incount": ("-1", "MPI_ERR_COUNT"),
    "outcount": ("-1", "MPI_ERR_COUNT"),
    "dest": ("7", "MPI_ERR_RANK"), "source": ("7", "MPI_ERR_RANK"),
    "root": ("7", "MPI_ERR_ROOT"),
    "tag": ("-5", "MPI_ERR_TAG"), "sendtag": ("-5", "MPI_ERR_TAG"), "recvtag": ("-5", "MPI_ERR_TAG"),
    # one-sided communication (the plausible window is test_win, bad_args_support.h)
    "origin_count": ("-1", "MPI_ERR_COUNT"), "target_count": ("-1", "MPI_ERR_COUNT"),
    "result_count": ("-1", "MPI_ERR_COUNT"), "target_rank": ("7", "MPI_ERR_RANK"),
}
# Plausible values of I/O arguments (a valid access mode, a known data representation).
NAMED = {"amode": "MPI_MODE_RDWR | MPI_MODE_CREATE", "whence": "MPI_SEEK_SET"}
ZERO_INTS = {"dest", "source", "rank", "root", "tag", "sendtag", "recvtag", "color", "key",
             "local_leader", "remote_leader", "reorder", "high", "errorcode", "required",
             "target_rank", "target_disp"}


def split_args(args):
    out, depth, cur = [], 0, ""
    for ch in args:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch in "([" and 1 or 0
        depth -= ch in ")]" and 1 or 0
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_arg(arg):
    """Returns (type, name, is_array)."""
    m = re.match(r"(.*?)(\w+)\s*((?:\[[^\]]*\])*)$", arg)
    typ, name, arr = m.group(1).strip(), m.group(2), m.group(3)
    typ = typ.replace("const ", "").replace(" *", "*").replace("* ", "*").strip()
    return typ, name, bool(arr)


class Call:
    def __init__(self, prefix, name, args):
        self.fn = prefix + name
        self.args = [parse_arg(a) for a in split_args(args)] if args != "void" else []

    def plausible(self, i, variant=None):
        """C expression for argument i; variant = (bad expression) for the fuzzed one."""
        typ, name, arr = self.args[i]
        base = typ.rstrip("*")
        stars = len(typ) - len(base)
        if base in HANDLE_KINDS and stars == 0 and not arr:
            if not variant and base == "MPI_Comm" and "eighbor" in self.fn:
                return "topo_comm"  # neighbour collectives need a topology
            return variant or HANDLE_KINDS[base][1]
        if base in HANDLE_KINDS and (stars == 1 or arr) and stars <= 1:
            return f"handle_array({variant or HANDLE_KINDS[base][1]})"
        if typ in ("int", "MPI_Aint", "MPI_Count", "MPI_Offset", "MPI_Fint") and not arr:
            if variant:
                return variant
            if name in NAMED:
                return NAMED[name]
            return "0" if name in ZERO_INTS else "1"
        if typ == "int" and arr:
            if name == "ranges":
                return "(int (*)[3])int_array(1)"
            return f"int_array({0 if RANK_ARRAYS.search(name) else 1})"
        if typ == "MPI_Aint" and arr:
            return "(MPI_Aint *)scratch_area()"
        if typ.endswith("function*"):
            return "NULL"
        if typ == "char*" and name == "datarep" and self.fn == "MPI_File_set_view":
            return '(char *)"native"'
        if typ == "char" and arr:
            return "\"native\""
        return variant or f"({typ}{'*' if arr else ''})scratch_area()"

# ---- I/O: file offsets past 2^63 - 1 -------------------------------------------------------
# Every data access, seek and view call of the file chapter (found by its arguments, so calls
# added later are covered) gets cases whose offset, pointer, count or displacement makes a file
# offset that does not fit in MPI_Offset: MPI_ERR_ARG (ROMIO's class for a bad offset or
# count), nothing written. With a view of 8-byte etypes position 2^61 is byte 2^64, which wraps
# to byte 0 unless the product is checked. Each case first gives the plausible file that view
# and both pointers a known position (the generic cases above leave them anywhere); a
# nonblocking access that wrongly started is completed; a split collective is ended, and
# whichever of _begin and _end reports is checked.
IO_PRELUDE = r"""/* The I/O offset cases (tests/gen/bad_args.py, "I/O: file offsets"). */
#define IO_OFFSET_MAX ((MPI_Offset)0x7fffffffffffffffLL)
static double io_buf[2];
static MPI_Request io_req;

/* The plausible file with a view of doubles, both pointers at position `at`. */
static void io_doubles(MPI_Offset at)
{
    MPI_File_set_view(test_file, 0, MPI_DOUBLE, MPI_DOUBLE, "native", MPI_INFO_NULL);
    MPI_File_seek(test_file, at, MPI_SEEK_SET);
    MPI_File_seek_shared(test_file, at, MPI_SEEK_SET);
    io_req = MPI_REQUEST_NULL;
}

/* 2^34 bytes of doubles: 2^30 of them are 2^64 bytes, 0 once wrapped. */
static MPI_Datatype io_huge(void)
{
    static MPI_Datatype t = MPI_DATATYPE_NULL;
    if (t == MPI_DATATYPE_NULL) {
        MPI_Datatype half;
        MPI_Type_contiguous(1 << 30, MPI_DOUBLE, &half);
        MPI_Type_contiguous(2, half, &t);
        MPI_Type_commit(&t);
        MPI_Type_free(&half);
    }
    return t;
}

static void io_settle(void)
{
    if (io_req != MPI_REQUEST_NULL)
        MPI_Wait(&io_req, MPI_STATUS_IGNORE);
}
"""
IO_WRAP = "((MPI_Offset)1 << 61)"  # position 2^61 of 8-byte etypes: byte 2^64
IO_LAST = "(IO_OFFSET_MAX / 8)"     # the view's last position: one etype more crosses 2^63
IO_ARGS = {"fh": "test_file", "buf": "io_buf", "count": "1", "datatype": "MPI_DOUBLE",
           "status": "MPI_STATUS_IGNORE", "request": "&io_req", "offset": "0",
           "whence": "MPI_SEEK_SET", "disp": "(MPI_Offset *)scratch_area()"}


def io_call(c, bad):
    """The call with IO_ARGS for its arguments, `bad` overriding some; its _end for a _begin."""
    vals = dict(IO_ARGS, **bad)
    call = f"{c.fn}({', '.join(vals[name] for _, name, _ in c.args)})"
    if "_begin" not in c.fn:
        return f"rc = {call};"
    end = c.fn.split("_begin")[0] + "_end"
    return (f"rc = {call};\n    if (rc == MPI_SUCCESS)\n"
            f"        rc = {end}(test_file, io_buf, MPI_STATUS_IGNORE);")


def io_offset_cases(calls):
    """(what, body) of each I/O offset case."""
    out = []
    for c in calls:
        names = [name for _, name, _ in c.args]
        if not c.fn.startswith("MPI_File_") or c.fn.endswith("_end"):
            continue
        cases = []  # (label, position of both pointers, overriding arguments)
        if {"buf", "count", "datatype"} <= set(names):
            cases.append(("count x size past 2^63", "0",
                          {"count": "1 << 30", "datatype": "io_huge()"}))
            if "offset" in names:
                cases.append(("offset 2^61 doubles", "0", {"offset": IO_WRAP}))
            else:  # the individual or the shared pointer at the last position, one more etype
                cases.append(("pointer at the last position", IO_LAST, {}))
        elif "whence" in names:
            cases.append(("offset 2^61 doubles", "0", {"offset": IO_WRAP}))
            cases.append(("offset past 2^63 from the pointer", IO_LAST,
                          {"offset": "IO_OFFSET_MAX", "whence": "MPI_SEEK_CUR"}))
        elif c.fn == "MPI_File_get_byte_offset":
            cases.append(("offset 2^61 doubles", "0", {"offset": IO_WRAP}))
        elif c.fn == "MPI_File_set_view":
            cases.append(("disp past 2^63", "0", {
                "disp": "IO_OFFSET_MAX - 4", "etype": "MPI_DOUBLE", "filetype": "MPI_DOUBLE",
                "datarep": '(char *)"native"', "info": "MPI_INFO_NULL"}))
        for label, at, bad in cases:
            out.append((f"{c.fn} {label}",
                        f"    io_doubles({at});\n    int {io_call(c, bad)}\n    io_settle();\n"
                        f"    expect_class(rc, 1, (int[]){{MPI_ERR_ARG}});\n"))
    return out
# ---- end of I/O: file offsets ----------------------------------------------------------------


# ---- RMA: displacement arithmetic -----------------------------------------------------------
# Every data-movement call of the one-sided chapter (found by its target_disp, so calls added
# later are covered) gets cases whose displacement, target datatype or origin count make a
# product or sum that does not fit: target_disp 2^61 + 1 with disp_unit 8 is byte 2^64 + 8,
# element 1 once wrapped. Each runs in a lock_all epoch of a fresh one-rank window of one
# flavour (docs/rma.md, Errors): MPI_ERR_RMA_RANGE, MPI_ERR_DISP for a negative displacement,
# MPI_ERR_COUNT for an origin whose bytes do not fit in a size_t; the window's memory is
# untouched. Then the creation calls at their size and disp_unit extremes.
RMA_PRELUDE = r"""/* The RMA displacement cases (tests/gen/bad_args.py, "RMA: displacement arithmetic"). */
#include <stdint.h>
#define RMA_WRAP (((MPI_Aint)1 << 61) + 1) /* times 8: byte 2^64 + 8 */
static long rma_mem[8], rma_buf[8], rma_res[8];
static MPI_Win rma_win;
static MPI_Request rma_req;

/* A window of `flavor` (create: over rma_mem claiming `size` bytes) with disp_unit `unit`,
 * its memory 0..7, in a lock_all epoch; errors return. */
static void rma_open(int flavor, MPI_Aint size, int unit)
{
    long *mem = rma_mem;
    if (flavor == MPI_WIN_FLAVOR_CREATE)
        MPI_Win_create(rma_mem, size, unit, MPI_INFO_NULL, MPI_COMM_SELF, &rma_win);
    else if (flavor == MPI_WIN_FLAVOR_ALLOCATE)
        MPI_Win_allocate(sizeof rma_mem, unit, MPI_INFO_NULL, MPI_COMM_SELF, &mem, &rma_win);
    else if (flavor == MPI_WIN_FLAVOR_SHARED)
        MPI_Win_allocate_shared(sizeof rma_mem, unit, MPI_INFO_NULL, MPI_COMM_SELF, &mem,
                                &rma_win);
    else {
        MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_SELF, &rma_win);
        MPI_Win_attach(rma_win, rma_mem, sizeof rma_mem);
    }
    MPI_Win_set_errhandler(rma_win, MPI_ERRORS_RETURN);
    for (int i = 0; i < 8; i++)
        mem[i] = i;
    rma_req = MPI_REQUEST_NULL;
    MPI_Win_lock_all(0, rma_win);
}

/* Ends the case's epoch and window; a request that wrongly started is completed. The window's
 * memory must be as rma_open left it. */
static void rma_close(void)
{
    long *mem = rma_mem;
    int flag, flavor = MPI_WIN_FLAVOR_CREATE, *fl;
    if (MPI_Win_get_attr(rma_win, MPI_WIN_CREATE_FLAVOR, &fl, &flag) == MPI_SUCCESS && flag)
        flavor = *fl;
    if (flavor == MPI_WIN_FLAVOR_ALLOCATE || flavor == MPI_WIN_FLAVOR_SHARED)
        MPI_Win_get_attr(rma_win, MPI_WIN_BASE, &mem, &flag);
    if (rma_req != MPI_REQUEST_NULL)
        MPI_Wait(&rma_req, MPI_STATUS_IGNORE);
    MPI_Win_unlock_all(rma_win);
    for (int i = 0; i < 8; i++)
        if (mem[i] != i) {
            errors++;
            printf("%s: element %d of the window was written\n", current_case, i);
            break;
        }
    if (flavor == MPI_WIN_FLAVOR_DYNAMIC)
        MPI_Win_detach(rma_win, rma_mem);
    MPI_Win_free(&rma_win);
}

/* longs of extent +-2^62: 4 of them span 3 * 2^62 bytes either way, 2^64 wraps to 0. */
static MPI_Datatype rma_spread(int down)
{
    static MPI_Datatype t[2] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL};
    if (t[down] == MPI_DATATYPE_NULL) {
        MPI_Aint ext = (MPI_Aint)1 << 62;
        MPI_Type_create_resized(MPI_LONG, 0, down ? -ext : ext, &t[down]);
        MPI_Type_commit(&t[down]);
    }
    return t[down];
}

/* 2^60 bytes: 16 of them are 2^64 bytes, 0 once wrapped. */
static MPI_Datatype rma_huge(void)
{
    static MPI_Datatype t = MPI_DATATYPE_NULL;
    if (t == MPI_DATATYPE_NULL) {
        MPI_Datatype g;
        MPI_Type_contiguous(1 << 30, MPI_BYTE, &g);
        MPI_Type_contiguous(1 << 30, g, &t);
        MPI_Type_commit(&t);
        MPI_Type_free(&g);
    }
    return t;
}
"""
RMA_ARGS = {"origin_addr": "rma_buf", "origin_count": "1", "origin_datatype": "MPI_LONG",
            "result_addr": "rma_res", "result_count": "1", "result_datatype": "MPI_LONG",
            "compare_addr": "rma_res", "datatype": "MPI_LONG", "target_rank": "0",
            "target_disp": "0", "target_count": "1", "target_datatype": "MPI_LONG",
            "op": "MPI_SUM", "win": "rma_win", "request": "&rma_req"}
# (label, rma_open arguments, overriding arguments, class, needs target_count)
RMA_CASES = [
    ("target_disp 2^61 + 1, disp_unit 8", "MPI_WIN_FLAVOR_CREATE, sizeof rma_mem, 8",
     {"target_disp": "RMA_WRAP"}, "MPI_ERR_RMA_RANGE", False),
    ("target_disp 2^61 + 1, disp_unit 8, window claiming 2^63 - 1 bytes",
     "MPI_WIN_FLAVOR_CREATE, INTPTR_MAX, 8", {"target_disp": "RMA_WRAP"}, "MPI_ERR_RMA_RANGE",
     False),
    ("target_disp 2^33, disp_unit INT_MAX, window claiming 2^63 - 1 bytes",
     "MPI_WIN_FLAVOR_CREATE, INTPTR_MAX, 0x7fffffff", {"target_disp": "(MPI_Aint)1 << 33"},
     "MPI_ERR_RMA_RANGE", False),
    ("target_disp 2^61 + 1 in MPI_Win_allocate's memory", "MPI_WIN_FLAVOR_ALLOCATE, 0, 8",
     {"target_disp": "RMA_WRAP"}, "MPI_ERR_RMA_RANGE", False),
    ("target_disp 2^61 + 1 in MPI_Win_allocate_shared's memory", "MPI_WIN_FLAVOR_SHARED, 0, 8",
     {"target_disp": "RMA_WRAP"}, "MPI_ERR_RMA_RANGE", False),
    ("target_disp INTPTR_MAX, disp_unit 1", "MPI_WIN_FLAVOR_CREATE, sizeof rma_mem, 1",
     {"target_disp": "INTPTR_MAX"}, "MPI_ERR_RMA_RANGE", False),
    ("target_disp -1", "MPI_WIN_FLAVOR_CREATE, sizeof rma_mem, 8", {"target_disp": "-1"},
     "MPI_ERR_DISP", False),
    ("dynamic address 8 bytes below the end of the address space",
     "MPI_WIN_FLAVOR_DYNAMIC, 0, 1", {"target_disp": "(MPI_Aint)-8"}, "MPI_ERR_RMA_RANGE",
     False),
    ("target extent 2^62 x 4", "MPI_WIN_FLAVOR_CREATE, sizeof rma_mem, 8",
     {"target_datatype": "rma_spread(0)", "target_count": "4", "origin_count": "4",
      "result_count": "4"}, "MPI_ERR_RMA_RANGE", True),
    ("target extent -2^62 x 4", "MPI_WIN_FLAVOR_CREATE, sizeof rma_mem, 8",
     {"target_datatype": "rma_spread(1)", "target_count": "4", "origin_count": "4",
      "result_count": "4"}, "MPI_ERR_RMA_RANGE", True),
    ("origin count x size 2^64", "MPI_WIN_FLAVOR_CREATE, sizeof rma_mem, 8",
     {"origin_datatype": "rma_huge()", "origin_count": "16", "target_count": "0",
      "result_count": "0"}, "MPI_ERR_COUNT", True),
]
# Creation at its extremes: (label, statement setting rc, class).
RMA_CREATE_CASES = [
    ("MPI_Win_create disp_unit 0", "MPI_Win_create(rma_mem, 64, 0, MPI_INFO_NULL, "
     "MPI_COMM_SELF, &rma_win)", "MPI_ERR_ARG"),
    ("MPI_Win_create disp_unit INT_MIN", "MPI_Win_create(rma_mem, 64, -0x7fffffff - 1, "
     "MPI_INFO_NULL, MPI_COMM_SELF, &rma_win)", "MPI_ERR_ARG"),
    ("MPI_Win_create size -1", "MPI_Win_create(rma_mem, -1, 8, MPI_INFO_NULL, MPI_COMM_SELF, "
     "&rma_win)", "MPI_ERR_SIZE"),
    ("MPI_Win_allocate size -1", "MPI_Win_allocate(-1, 8, MPI_INFO_NULL, MPI_COMM_SELF, "
     "scratch_area(), &rma_win)", "MPI_ERR_SIZE"),
    ("MPI_Win_allocate size 2^63 - 1", "MPI_Win_allocate(INTPTR_MAX, 8, MPI_INFO_NULL, "
     "MPI_COMM_SELF, scratch_area(), &rma_win)", "MPI_ERR_NO_MEM"),
    ("MPI_Win_allocate_shared size 2^63 - 1", "MPI_Win_allocate_shared(INTPTR_MAX, 8, "
     "MPI_INFO_NULL, MPI_COMM_SELF, scratch_area(), &rma_win)", "MPI_ERR_NO_MEM"),
    ("MPI_Win_allocate_shared disp_unit 0", "MPI_Win_allocate_shared(64, 0, MPI_INFO_NULL, "
     "MPI_COMM_SELF, scratch_area(), &rma_win)", "MPI_ERR_ARG"),
]


def rma_call(c, bad):
    vals = dict(RMA_ARGS, **bad)
    return f"{c.fn}({', '.join(vals[name] for _, name, _ in c.args)})"


def rma_range_cases(calls):
    """(what, body) of each RMA displacement case."""
    out = []
    for c in calls:
        names = [name for _, name, _ in c.args]
        if "target_disp" not in names:
            continue
        for label, win, bad, cls, counted in RMA_CASES:
            if counted and ("target_count" not in names or
                            ("origin_count" in bad and "origin_count" not in names)):
                continue
            out.append((f"{c.fn} {label}",
                        f"    rma_open({win});\n    int rc = {rma_call(c, bad)};\n"
                        f"    rma_close();\n    expect_class(rc, 1, (int[]){{{cls}}});\n"))
    for label, call, cls in RMA_CREATE_CASES:
        out.append((label, f"    rma_win = MPI_WIN_NULL;\n    int rc = {call};\n"
                           f"    if (rma_win != MPI_WIN_NULL)\n        MPI_Win_free(&rma_win);\n"
                           f"    expect_class(rc, 1, (int[]){{{cls}}});\n"))
    out.append(("MPI_Win_attach past the end of the address space",
                "    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_SELF, &rma_win);\n"
                "    MPI_Win_set_errhandler(rma_win, MPI_ERRORS_RETURN);\n"
                "    int rc = MPI_Win_attach(rma_win, (void *)(UINTPTR_MAX - 15), 64);\n"
                "    if (rc == MPI_SUCCESS)\n"
                "        MPI_Win_detach(rma_win, (void *)(UINTPTR_MAX - 15));\n"
                "    MPI_Win_free(&rma_win);\n"
                "    expect_class(rc, 1, (int[]){MPI_ERR_SIZE});\n"))
    return out
# ---- end of RMA: displacement arithmetic -----------------------------------------------------


def emit(calls):
    print("/* bad_args.c: GENERATED by tests/gen/bad_args.py from mini_mpi/api/mpi.api; do not edit.")
    print(" * Every MPI call with one bad argument at a time must return the right error class. */")
    print('#include <mpi.h>\n#include <stdio.h>\n#include <string.h>\n#include "bad_args_support.h"\n')
    n = 0
    bodies = []
    for c in calls:
        for i, (typ, name, arr) in enumerate(c.args):
            base = typ.rstrip("*")
            cases = []
            if base in HANDLE_KINDS and typ == base and not arr:
                kind, _, other, cls = HANDLE_KINDS[base]
                classes = [cls] + KIND_EXTRA_OK.get(base, [])
                cases.append(("nonexistent", f"BAD_HANDLE({kind})", classes))
                cases.append(("wrong kind", f"({base}){other}", classes))
            elif base in HANDLE_KINDS and (typ == base + "*" or arr):
                if (c.fn, name) in SKIP_POINTER:
                    continue
                kind = HANDLE_KINDS[base][0]
                cases.append(("nonexistent in pointer", f"BAD_HANDLE({kind})", None))
            elif typ == "void*" and name in BUFFER_NAMES and not c.fn.endswith("_end"):
                # (a split collective's _end names the buffer of its _begin: no count, nothing
                # to check against, MPI_ERR_OTHER without a matching _begin)
                cases.append(("NULL with count 1", "NULL", ["MPI_ERR_BUFFER"]))
            elif typ == "int" and not arr and name in INT_FUZZ:
                bad, cls = INT_FUZZ[name]
                cases.append((f"{name}={bad}", bad, [cls]))
            for label, bad, classes in cases:
                argv = ", ".join(c.plausible(j, bad if j == i else None) for j in range(len(c.args)))
                ok = list(classes or []) + EXTRA_OK.get((c.fn, name), [])
                okexpr = ", ".join(ok) if ok else ""
                what = f"{c.fn} {name} {label}"
                n += 1
                bodies.append(f"static void case_{n}(void)\n{{\n    begin_case(\"{what}\");\n"
                              f"    int rc = {c.fn}({argv});\n"
                              f"    expect_class(rc, {len(ok)}, (int[]){{{okexpr or '0'}}});\n}}\n")
    print(IO_PRELUDE)
    for what, body in io_offset_cases(calls):
        n += 1
        bodies.append(f"static void case_{n}(void)\n{{\n    begin_case(\"{what}\");\n{body}}}\n")
    print(RMA_PRELUDE)
    for what, body in rma_range_cases(calls):
        n += 1
        bodies.append(f"static void case_{n}(void)\n{{\n    begin_case(\"{what}\");\n{body}}}\n")
    print("\n".join(bodies))
    print("static void (*const cases[])(void) = {")
    for k in range(1, n + 1):
        print(f"    case_{k},")
    print("};\n")
    print("int main(int argc, char **argv)\n{\n    return run_cases(argc, argv, cases, sizeof cases / sizeof cases[0]);\n}")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))
    import api
    defined = set(open(sys.argv[2]).read().split())
    calls = []
    for f in api.load(sys.argv[1]):
        prefix = f.prefixes()[0]
        if f.ret != "int" or f.name in SKIP or any(p.variadic for p in f.params):
            continue
        for suffix, large in f.forms():
            if prefix + f.name + suffix in defined:
                calls.append(Call(prefix, f.name + suffix, f.args(large)))
    emit(calls)


if __name__ == "__main__":
    main()
