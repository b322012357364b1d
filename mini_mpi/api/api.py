"""api.py: reads mpi.api, the one table of MPI functions (its format: README.md here).

Shared by every generator that needs the list of functions: gen_c.py (the C prototypes, the call
names, the bindings of the functions whose body is written once), inject/pmpi/gen_wrappers.py
(the PMPI injector for other MPIs), and the Fortran bindings. Nothing here knows C output
conventions beyond spelling a parameter in one of the two forms of a large-count pair.
"""
import re
import sys

ATTRS = {"ft", "mpix", "removed", "impl"}


class Param:
    """One parameter. `small`/`large` are its C declarations in the MPI_ and _c forms (equal
    unless the table writes `small|large`); `intent` is in, out or inout."""

    def __init__(self, text, where):
        self.text = text
        intent, tags = None, set()
        while True:  # trailing tags in any order: a direction, `logical`
            m = re.match(r"(.*?):(in|out|inout|logical)$", text)
            if not m:
                break
            text, tag = m.group(1), m.group(2)
            if tag == "logical":
                tags.add(tag)
            else:
                intent = tag
        # A C int that is a LOGICAL in the Fortran bindings (a flag, periods[], reorder).
        self.logical = "logical" in tags
        self.variadic = text == "..."
        if self.variadic:
            self.name, self.small, self.large, self.poly, self.array = "...", "...", "...", False, False
            self.pointer, self.const, self.intent, self.base = False, False, "in", "..."
            self.logical = False
            return
        m = re.match(r"(const\s+)?([\w|]+(?:\s+\w+)*?)\s*(\**)\s*(\w+)\s*((?:\[\d*\])*)$", text)
        if not m:
            sys.exit(f"{where}: cannot read the parameter '{text}'")
        const, base, stars, self.name, brackets = m.groups()
        self.const = bool(const)
        self.pointer = bool(stars)
        self.array = bool(brackets)
        self.poly = "|" in base
        small_base, _, large_base = base.partition("|")
        self.base = small_base
        self.large_base = large_base or small_base

        def spell(b):
            return f"{const or ''}{b} {stars}{self.name}{brackets}"
        self.small, self.large = spell(small_base), spell(self.large_base)
        if intent is None:
            intent = "out" if (self.pointer or self.array) and not self.const else "in"
        self.intent = intent


class Function:
    """One entry of the table: `name` without its MPI_ prefix."""

    def __init__(self, ret, name, params, attrs, section, where):
        self.ret, self.name, self.params, self.section, self.where = ret, name, params, section, where
        self.err = None
        self.attrs = set()
        for a in attrs:
            if a.startswith("err="):
                self.err = a[4:]
            elif a in ATTRS:
                self.attrs.add(a)
            else:
                sys.exit(f"{where}: unknown attribute '{a}'")
        if self.err is None:
            sys.exit(f"{where}: {name} names no error object (err=PARAM, err=MPI_FILE_NULL or err=-)")
        if self.err not in ("-", "MPI_FILE_NULL") and self.err not in [p.name for p in params]:
            sys.exit(f"{where}: err={self.err} is not a parameter of {name}")
        self.large = any(p.poly for p in params)

    def prefixes(self):
        """The public spellings: MPI_ only, MPIX_ only, or both for fault tolerance."""
        if "mpix" in self.attrs:
            return ["MPIX_"]
        return ["MPIX_", "MPI_"] if "ft" in self.attrs else ["MPI_"]

    def forms(self):
        """(suffix, large) for each binding: the MPI_ form, and the _c form of a large-count pair."""
        return [("", False), ("_c", True)] if self.large else [("", False)]

    def call_kind(self):
        """How calls.def names it: the MPIX_ spelling is the counted one when there is one."""
        return "MMPIX_CALL" if self.prefixes()[0] == "MPIX_" else "MMPI_CALL"

    def args(self, large):
        ps = [p.large if large else p.small for p in self.params]
        return ", ".join(ps) if ps else "void"


def _records(path):
    """(section, line number, text) for each entry; continuation lines are indented."""
    section, cur, start = "", None, 0
    for n, line in enumerate(open(path), 1):
        if line.startswith("# ----"):
            section = line.strip("#- \n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0].isspace():
            if cur is None:
                sys.exit(f"{path}:{n}: a continuation line without an entry")
            cur += " " + line.strip()
            continue
        if cur is not None:
            yield section, start, cur
        cur, start = line.strip(), n
    if cur is not None:
        yield section, start, cur


def split_top(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def load(path):
    """Every function of the table, in table order; exits with a message on a malformed entry."""
    funcs, seen = [], set()
    for section, n, text in _records(path):
        where = f"{path}:{n}"
        m = re.match(r"([\w ]+?\**)\s*\b(\w+)\((.*)\)\s*(.*)$", text)
        if not m:
            sys.exit(f"{where}: expected 'RET Name(params) attributes'")
        ret, name, ptext, atext = m.groups()
        params = [] if ptext.strip() == "void" else [Param(p, where) for p in split_top(ptext)]
        f = Function(ret.strip(), name, params, atext.split(), section, where)
        if name in seen:
            sys.exit(f"{where}: {name} is listed twice")
        seen.add(name)
        funcs.append(f)
    return funcs
