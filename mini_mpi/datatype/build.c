/*
 * build.c: turns a list of parts (count copies of a child type at a displacement) into a
 * datatype object: size, bounds, flattened runs and signature (see datatype.h for the
 * representation). Every constructor, including subarray and darray, goes through
 * mmpi_dt_build, so the rules of MPI-4.1 §5.1 live here once:
 *
 *  - lb/ub (§5.1.7): the min/max over the parts' copies of disp + child lb/ub; if any child
 *    has an explicit ("sticky") bound from MPI_Type_create_resized, only sticky bounds count,
 *    as the MPI-1 MPI_LB/MPI_UB markers did (MPICH keeps the same rule).
 *  - struct padding (§5.1.6): the extent is rounded up to the largest alignment of its parts,
 *    unless the upper bound is sticky. Only struct pads, as in MPICH.
 *  - true_lb/true_extent (§5.1.8): from the data runs only.
 *
 * Runs are appended in typemap order, in canonical form, and merged greedily when the new one
 * continues the last (contiguous, the same block length at a constant stride, or one more
 * copy of the same strided shape at a constant distance); merging never reorders data. Copies
 * of a one-run child are one run whenever two levels of repetition hold them (repeat()).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datatype/build.h"
#include "mmpi.h"

struct runs {
    struct mmpi_dt_run *v;
    size_t n, cap;
};

struct sigs {
    struct mmpi_dt_sig *v;
    size_t n, cap;
};

static int grow(void **v, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return MPI_SUCCESS;
    size_t ncap = *cap ? 2 * *cap : 8;
    void *nv = realloc(*v, ncap * elem);
    if (!nv)
        return MPI_ERR_NO_MEM;
    *v = nv;
    *cap = ncap;
    return MPI_SUCCESS;
}

/* r in canonical form (datatype.h): dense blocks are one block, a copy of one block or copies
 * that continue the stride are one level, so that equal layouts have equal runs and the cursor
 * takes its one-level paths whenever it can. */
static struct mmpi_dt_run canonical(struct mmpi_dt_run r)
{
    MPI_Aint span;
    if (r.count > 1 && r.stride == (MPI_Aint)r.len) {
        r.len *= r.count;
        r.count = 1;
    }
    if (r.reps > 1 && r.count == 1) {
        r.count = r.reps;
        r.stride = r.rstride;
        r.reps = 1;
        if (r.stride == (MPI_Aint)r.len) {
            r.len *= r.count;
            r.count = 1;
        }
    } else if (r.reps > 1 && !__builtin_mul_overflow((MPI_Aint)r.count, r.stride, &span) &&
               r.rstride == span) {
        r.count *= r.reps;
        r.reps = 1;
    }
    if (r.count == 1)
        r.stride = 0;
    if (r.reps == 1)
        r.rstride = 0;
    return r;
}

/* Whether canonical runs a and b have copies of the same shape. */
static bool same_shape(const struct mmpi_dt_run *a, const struct mmpi_dt_run *b)
{
    return a->len == b->len && a->count == b->count && a->stride == b->stride;
}

/* Merges canonical run n into last when n continues it, keeping last canonical: more bytes of
 * a block, more blocks at the stride, or more copies of the same shape at the copies' stride. */
static bool merge(struct mmpi_dt_run *last, const struct mmpi_dt_run *n)
{
    if (last->reps == 1 && n->reps == 1) {
        if (last->count == 1 && n->count == 1 && n->off == last->off + (MPI_Aint)last->len) {
            last->len += n->len;
            return true;
        }
        if (last->len == n->len) {
            MPI_Aint s = last->count > 1 ? last->stride : n->off - last->off;
            if (n->off == last->off + (MPI_Aint)last->count * s &&
                (n->count == 1 || n->stride == s)) {
                last->count += n->count;
                last->stride = s;
                return true;
            }
        }
        if (last->count == 1 || !same_shape(last, n)) /* (single blocks merged above) */
            return false;
        last->reps = 2; /* two copies of one strided shape */
        last->rstride = n->off - last->off;
        *last = canonical(*last);
        return true;
    }
    if (!same_shape(last, n))
        return false;
    if (last->reps == 1) { /* last is the copy before n's first */
        if (n->off - last->off != n->rstride)
            return false;
        last->reps = n->reps + 1;
        last->rstride = n->rstride;
        return true;
    }
    if (n->off != last->off + (MPI_Aint)last->reps * last->rstride ||
        (n->reps > 1 && n->rstride != last->rstride))
        return false;
    last->reps += n->reps;
    return true;
}

/* Appends run (any form), merging it into the last run if it continues it. */
static int runs_append(struct runs *r, struct mmpi_dt_run run)
{
    run = canonical(run);
    if (r->n > 0 && merge(&r->v[r->n - 1], &run))
        return MPI_SUCCESS;
    int err = grow((void **)&r->v, &r->cap, r->n, sizeof(*r->v));
    if (err)
        return err;
    r->v[r->n++] = run;
    return MPI_SUCCESS;
}

/* Sets *out to `copies` copies of canonical run, each `step` bytes after the previous one, as
 * one canonical run; false when that needs a third level of repetition. */
static bool repeat(const struct mmpi_dt_run *run, size_t copies, MPI_Aint step,
                   struct mmpi_dt_run *out)
{
    MPI_Aint span;
    *out = *run;
    if (copies == 1)
        return true;
    if (run->reps == 1) {
        out->reps = copies;
        out->rstride = step;
        *out = canonical(*out);
        return true;
    }
    if (__builtin_mul_overflow((MPI_Aint)run->reps, run->rstride, &span) || step != span)
        return false;
    out->reps *= copies; /* the copies continue the run's own: more of them */
    return true;
}

static size_t reps_of(const struct mmpi_dt_part *p)
{
    return p->reps ? p->reps : 1;
}

/* Appends `copies` copies of canonical run moved by disp, each `step` bytes after the previous
 * one: one run when they fold into one, else one per copy (merged where they can be). */
static int runs_add_repeated(struct runs *r, struct mmpi_dt_run run, MPI_Aint disp, size_t copies,
                             MPI_Aint step)
{
    struct mmpi_dt_run all;
    run.off += disp;
    if (repeat(&run, copies, step, &all))
        return runs_append(r, all);
    for (size_t k = 0; k < copies; k++, run.off += step) {
        int err = runs_append(r, run);
        if (err)
            return err;
    }
    return MPI_SUCCESS;
}

/* Appends the runs of `count` copies of child, the first at disp. */
static int runs_add_copies(struct runs *r, const struct mmpi_datatype *c, MPI_Aint disp,
                           size_t count)
{
    if (c->nruns == 1) /* copies of one run: one run, unless a third level is needed */
        return runs_add_repeated(r, c->runs[0], disp, count, c->extent);
    for (size_t k = 0; k < count; k++) {
        MPI_Aint base = disp + (MPI_Aint)k * c->extent;
        for (size_t i = 0; i < c->nruns; i++) {
            struct mmpi_dt_run cr = c->runs[i];
            cr.off += base;
            int err = runs_append(r, cr);
            if (err)
                return err;
        }
    }
    return MPI_SUCCESS;
}

/* Appends the runs of a part, every repetition. When the copies of one repetition form a
 * single run, the repetitions are one run too where two levels hold them: a vector of
 * one-block elements, or an hvector of a strided column (a transpose), costs O(1) whatever its
 * count. */
static int runs_add_part(struct runs *r, const struct mmpi_dt_part *p)
{
    const struct mmpi_datatype *c = p->child;
    struct mmpi_dt_run one;
    if (c->nruns == 1 && repeat(&c->runs[0], p->count, c->extent, &one))
        return runs_add_repeated(r, one, p->disp, reps_of(p), p->rstride);
    for (size_t k = 0; k < reps_of(p); k++) {
        int err = runs_add_copies(r, c, p->disp + (MPI_Aint)k * p->rstride, p->count);
        if (err)
            return err;
    }
    return MPI_SUCCESS;
}

/* Appends count copies of type's signature; inlines a derived child whose signature is one
 * item, and otherwise refers to it (taking a reference). */
static int sigs_add(struct sigs *s, const struct mmpi_datatype *type, size_t count)
{
    if (!type->predefined && type->nsig == 1) {
        count *= type->sig[0].count;
        type = type->sig[0].type;
    }
    if (s->n > 0 && s->v[s->n - 1].type == type) {
        s->v[s->n - 1].count += count;
        return MPI_SUCCESS;
    }
    int err = grow((void **)&s->v, &s->cap, s->n, sizeof(*s->v));
    if (err)
        return err;
    mmpi_datatype_retain(type);
    s->v[s->n++] = (struct mmpi_dt_sig){type, count};
    return MPI_SUCCESS;
}

struct bounds {
    bool any_lb, any_ub, sticky_lb, sticky_ub;
    MPI_Aint lb, ub;
};

/* Adds the bounds of a part; false when they overflow an MPI_Aint. */
static bool bounds_add(struct bounds *b, const struct mmpi_dt_part *p)
{
    const struct mmpi_datatype *c = p->child;
    /* An empty child places only its explicit bounds: none for an empty typemap, the lower
     * one only for the MPI_LB marker, the upper one only for MPI_UB. */
    if (c->size == 0 && !c->sticky_lb && !c->sticky_ub)
        return true;
    bool lb_counts = c->size > 0 || c->sticky_lb, ub_counts = c->size > 0 || c->sticky_ub;
    /* The extreme copies: the first and last of the first and last repetitions. */
    MPI_Aint span, rspan, lo, hi;
    if (__builtin_mul_overflow((MPI_Aint)(p->count - 1), c->extent, &span) ||
        __builtin_mul_overflow((MPI_Aint)(reps_of(p) - 1), p->rstride, &rspan))
        return false;
    MPI_Aint first = p->disp, last = p->disp;
    if (__builtin_add_overflow(first, span < 0 ? span : 0, &first) ||
        __builtin_add_overflow(first, rspan < 0 ? rspan : 0, &first) ||
        __builtin_add_overflow(last, span > 0 ? span : 0, &last) ||
        __builtin_add_overflow(last, rspan > 0 ? rspan : 0, &last) ||
        __builtin_add_overflow(first, c->lb, &lo) || __builtin_add_overflow(last, c->lb, &hi) ||
        __builtin_add_overflow(hi, c->extent, &hi))
        return false;
    /* A sticky bound beats every non-sticky one; among equals, the extreme wins. */
    if (lb_counts && (!b->any_lb || (c->sticky_lb && !b->sticky_lb) ||
                      (c->sticky_lb == b->sticky_lb && lo < b->lb))) {
        b->lb = lo;
        b->sticky_lb = c->sticky_lb;
    }
    if (ub_counts && (!b->any_ub || (c->sticky_ub && !b->sticky_ub) ||
                      (c->sticky_ub == b->sticky_ub && hi > b->ub))) {
        b->ub = hi;
        b->sticky_ub = c->sticky_ub;
    }
    b->any_lb |= lb_counts;
    b->any_ub |= ub_counts;
    return true;
}

/* Size, signature-derived counts, and the homogeneous basic type. */
static void finish_signature(struct mmpi_datatype *dt)
{
    dt->basic = MPI_DATATYPE_NULL;
    for (size_t i = 0; i < dt->nsig; i++) {
        dt->nelements += dt->sig[i].count * dt->sig[i].type->nelements;
        dt->ext_size += dt->sig[i].count * dt->sig[i].type->ext_size;
    }
    if (dt->nsig == 1 && dt->sig[0].type->predefined) {
        dt->basic = dt->sig[0].type->basic; /* an F90 type's is the type it stands for */
        dt->basic_count = dt->sig[0].count;
    }
}

/* Packed offsets and true bounds from the runs. */
static void finish_runs(struct mmpi_datatype *dt, struct mmpi_dt_run *r, size_t n)
{
    size_t packed = 0;
    MPI_Aint lo = 0, hi = 0;
    for (size_t i = 0; i < n; i++) {
        /* The extreme blocks: the first or last block of the first or last copy. */
        MPI_Aint blocks = (MPI_Aint)(r[i].count - 1) * r[i].stride;
        MPI_Aint copies = (MPI_Aint)(r[i].reps - 1) * r[i].rstride;
        MPI_Aint rlo = r[i].off + (blocks < 0 ? blocks : 0) + (copies < 0 ? copies : 0);
        MPI_Aint rhi = r[i].off + (blocks > 0 ? blocks : 0) + (copies > 0 ? copies : 0) +
                       (MPI_Aint)r[i].len;
        if (i == 0 || rlo < lo)
            lo = rlo;
        if (i == 0 || rhi > hi)
            hi = rhi;
        r[i].packed = packed;
        packed += r[i].len * r[i].count * r[i].reps;
    }
    dt->true_lb = lo;
    dt->true_extent = hi - lo;
    dt->nruns = n;
    dt->runs = r;
}

int mmpi_dt_build(const struct mmpi_dt_part *parts, size_t nparts, int flags,
                  const MPI_Aint *resize, struct mmpi_datatype **out)
{
    struct mmpi_datatype *dt = calloc(1, sizeof(*dt));
    struct runs r = {0};
    struct sigs s = {0};
    struct bounds b = {0};
    int err = MPI_SUCCESS;

    if (!dt)
        return MPI_ERR_NO_MEM;
    dt->refcount = 1;
    dt->align = 1;
    dt->units = 1;
    for (size_t i = 0; i < nparts; i++) {
        const struct mmpi_dt_part *p = &parts[i];
        size_t bytes;
        size_t copies;
        if (p->count == 0)
            continue;
        MMPI_FAIL_IF(__builtin_mul_overflow(p->count, reps_of(p), &copies) ||
                         __builtin_mul_overflow(copies, p->child->size, &bytes) ||
                         __builtin_add_overflow(dt->size, bytes, &dt->size) ||
                         dt->size > (size_t)INTPTR_MAX || copies > (size_t)INTPTR_MAX ||
                         !bounds_add(&b, p),
                     MPI_ERR_ARG);
        if (p->child->align > dt->align)
            dt->align = p->child->align;
        if (p->child->size == 0)
            continue;
        if ((err = runs_add_part(&r, p)) || (err = sigs_add(&s, p->child, copies)))
            goto fn_fail;
    }
    dt->sig = s.v;
    dt->nsig = s.n;
    s.v = NULL;
    finish_signature(dt);
    finish_runs(dt, r.v, r.n);
    r.v = NULL;

    if (resize) {
        dt->lb = resize[0];
        dt->extent = resize[1];
        dt->sticky_lb = dt->sticky_ub = true;
    } else {
        /* A lone marker leaves the other bound at 0, as in MPICH: { (LB, 10) } has ub 0 and
         * extent -10 (its test/mpi/datatype/struct_no_real_types). */
        dt->lb = b.lb;
        if (__builtin_sub_overflow(b.ub, b.lb, &dt->extent)) {
            err = MPI_ERR_ARG;
            goto fn_fail_built;
        }
        dt->sticky_lb = b.sticky_lb;
        dt->sticky_ub = b.sticky_ub;
        MPI_Aint pad = (MPI_Aint)dt->align;
        if ((flags & MMPI_DT_BUILD_PAD) && !b.sticky_ub && dt->extent % pad)
            dt->extent += pad - dt->extent % pad;
    }
    dt->contiguous = dt->size == 0 || (dt->nruns == 1 && dt->runs[0].count == 1 &&
                                       dt->extent == (MPI_Aint)dt->size);
    *out = dt;
    return MPI_SUCCESS;
fn_fail_built: /* dt owns its runs and signature: releasing it frees them */
    mmpi_datatype_release(dt);
    return err;
fn_fail:
    for (size_t i = 0; i < s.n; i++)
        mmpi_datatype_release(s.v[i].type);
    free(s.v);
    free(r.v);
    free(dt);
    return err;
}
