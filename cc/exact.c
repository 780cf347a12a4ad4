/* The SAT encoding of "a schedule in S steps" and the prove-or-improve loop;
 * see exact.h.  CaDiCaL is used through ccadical.h only. */
#include "cc/exact.h"

#include <ccadical.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const cc_exact_status_names[CC_EXACT_STATUSES] = { "optimal", "unknown", "infeasible" };

static double now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A growable int vector. */
typedef struct { int *v; size_t n, cap; } ivec;

static bool ivec_push(ivec *a, int x)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 8;
        int *nv = realloc(a->v, cap * sizeof *nv);
        if (!nv) return false;
        a->v = nv;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return true;
}

/* One transfer candidate: a SAT variable (its index + 1). */
typedef struct { int var, msg, src, path, step; } cand;

typedef struct {
    const cc_problem *pb;
    const cc_paths *P;
    int S, n, nch;
    bool hop1;              /* broadcast deliveries over one channel only */
    CCaDiCaL *sat;
    int nv;                 /* variables used */
    long nclauses;
    cand *c;                /* candidates in creation order, each with its variable */
    int ncand, ccap;
    ivec *chan;             /* [S*nch]: candidates using channel c in step t */
    ivec *sends, *recvs;    /* [S*n]: candidates sending / receiving at node v in step t */
    ivec *ofmsg;            /* [nmsg]: variables of message (delivery) m's candidates */
    ivec *stepof;           /* [nmsg]: their steps, in the same order */
    int *inf;               /* broadcast: [g-origin-index][v][t] informed variables, see informed() */
    bool oom;               /* stop building: out of memory, or late (then the formula is dropped) */
    bool late;              /* the deadline passed while building */
    double deadline;
} enc;

/* Building a formula can take long (mesh:8x8 AAB: minutes): it looks at the
 * clock every 65,536 clauses or candidates and stops when the time is up. */
static void check_time(enc *e, long count)
{
    if ((count & 0xffff) == 0 && now() > e->deadline) e->late = e->oom = true;
}

static int newvar(enc *e) { return ++e->nv; }

static void clause(enc *e, const int *lits, int k)
{
    if (e->oom) return;   /* the formula will be dropped */
    for (int i = 0; i < k; i++) ccadical_add(e->sat, lits[i]);
    ccadical_add(e->sat, 0);
    check_time(e, ++e->nclauses);
}

static void clause2(enc *e, int a, int b) { int l[2] = { a, b }; clause(e, l, 2); }
static void clause3(enc *e, int a, int b, int c) { int l[3] = { a, b, c }; clause(e, l, 3); }

/* At most k of lits true: pairwise for small AMO, else Sinz's sequential
 * counter (aux s[i][j]: at least j of the first i+1 are true). */
static void at_most(enc *e, const int *x, int n, int k)
{
    if (n <= k) return;
    if (k == 0) { for (int i = 0; i < n; i++) clause(e, (int[]){ -x[i] }, 1); return; }
    if (k == 1 && n <= 6) {
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) clause2(e, -x[i], -x[j]);
        return;
    }
    int *s = malloc((size_t)(n - 1) * k * sizeof *s);
    if (!s) { e->oom = true; return; }
    for (int i = 0; i < n - 1; i++)
        for (int j = 0; j < k; j++) s[i * k + j] = newvar(e);
    clause2(e, -x[0], s[0]);
    for (int j = 1; j < k; j++) clause(e, (int[]){ -s[j] }, 1);
    for (int i = 1; i < n - 1; i++) {
        clause2(e, -x[i], s[i * k]);
        clause2(e, -s[(i - 1) * k], s[i * k]);
        for (int j = 1; j < k; j++) {
            clause3(e, -x[i], -s[(i - 1) * k + j - 1], s[i * k + j]);
            clause2(e, -s[(i - 1) * k + j], s[i * k + j]);
        }
        clause2(e, -x[i], -s[(i - 1) * k + k - 1]);
    }
    clause2(e, -x[n - 1], -s[(n - 2) * k + k - 1]);
    free(s);
}

static void at_most_vec(enc *e, const ivec *a, int k) { at_most(e, a->v, (int)a->n, k); }

/* Register a candidate transfer: a new variable and its uses. */
static int add_cand(enc *e, int m, int src, int dst, int path, int step)
{
    if (e->ncand == e->ccap) {
        int cap = e->ccap ? 2 * e->ccap : 1024;
        cand *nc = realloc(e->c, (size_t)cap * sizeof *nc);
        if (!nc) { e->oom = true; return 0; }
        e->c = nc;
        e->ccap = cap;
    }
    int v = newvar(e);
    e->c[e->ncand++] = (cand){ v, m, src, path, step };
    check_time(e, e->ncand);
    bool sf = e->pb->sw == CC_SF, ok = true;
    int len = cc_paths_len(e->P, path);
    const int *ch = cc_paths_ch(e->P, path);
    const cc_topo *t = e->pb->t;
    for (int h = 0; h < len && ok; h++) {
        int st = step + (sf ? h : 0);
        ok = ivec_push(&e->chan[st * e->nch + ch[h]], v);
        if (ok && e->pb->ports && (sf || h == 0)) ok = ivec_push(&e->sends[st * e->n + t->ch_from[ch[h]]], v);
        if (ok && e->pb->ports && (sf || h == len - 1)) ok = ivec_push(&e->recvs[st * e->n + t->ch_to[ch[h]]], v);
    }
    (void)dst;
    if (ok) ok = ivec_push(&e->ofmsg[m], v) && ivec_push(&e->stepof[m], step);
    if (!ok) e->oom = true;
    return v;
}

static void scatter_candidates(enc *e)
{
    const cc_problem *pb = e->pb;
    for (int m = 0; m < pb->nmsg && !e->oom; m++) {
        int s = pb->msrc[m], d = pb->mdst[m];
        for (int k = 0; k < cc_paths_count(e->P, s, d); k++) {
            int id = cc_paths_id(e->P, s, d, k), len = cc_paths_len(e->P, id);
            int last = pb->sw == CC_SF ? e->S - len : e->S - 1;
            for (int st = 0; st <= last; st++) add_cand(e, m, s, d, id, st);
        }
    }
}

/* Informed variable of (origin o, node v) at the start of step t (1..S), or
 * 0 where it is a constant (t == 0, v == o). */
static int informed(const enc *e, int o, int v, int t)
{
    if (v == o || t == 0) return 0;
    return e->inf[((size_t)o * e->n + v) * (e->S + 1) + t];
}

/* Routes src -> d a broadcast delivery may take: one hop in SF, all
 * otherwise. */
static int bc_routes(const enc *e, int src, int d)
{
    if (e->pb->sw == CC_SF || e->hop1) return e->P->dist[src * e->n + d] == 1 ? 1 : 0;
    return cc_paths_count(e->P, src, d);
}

static void broadcast_candidates(enc *e)
{
    const cc_problem *pb = e->pb;
    int n = e->n, S = e->S;
    e->inf = calloc((size_t)n * n * (S + 1), sizeof *e->inf);
    if (!e->inf) { e->oom = true; return; }
    for (int o = 0; o < n; o++)
        if (pb->sender[o])
            for (int v = 0; v < n; v++)
                if (v != o && pb->receiver[v])
                    for (int t = 1; t <= S; t++) e->inf[((size_t)o * n + v) * (S + 1) + t] = newvar(e);
    for (int g = 0; g < pb->nmsg && !e->oom; g++) {
        int o = pb->msrc[g], d = pb->mdst[g];
        for (int src = 0; src < n; src++) {
            if (src == d || (src != o && !pb->receiver[src])) continue;
            for (int k = 0; k < bc_routes(e, src, d); k++) {
                int id = cc_paths_id(e->P, src, d, k);
                for (int t = src == o ? 0 : 1; t < S; t++) {
                    int v = add_cand(e, g, src, d, id, t);
                    int need = informed(e, o, src, t);
                    if (need) clause2(e, -v, need);
                }
            }
        }
    }
    /* knowledge comes from a delivery: inf(t+1) -> inf(t) or a delivery in t */
    ivec lits = { 0 };
    for (int g = 0; g < pb->nmsg && !e->oom; g++) {
        int o = pb->msrc[g], d = pb->mdst[g];
        for (int t = 0; t < S && !e->oom; t++) {
            lits.n = 0;
            if (!ivec_push(&lits, -informed(e, o, d, t + 1))) { e->oom = true; break; }
            if (t > 0 && !ivec_push(&lits, informed(e, o, d, t))) { e->oom = true; break; }
            for (size_t i = 0; i < e->ofmsg[g].n; i++) {
                int v = e->ofmsg[g].v[i];
                if (e->stepof[g].v[i] == t && !ivec_push(&lits, v)) { e->oom = true; break; }
            }
            clause(e, lits.v, (int)lits.n);
        }
        clause(e, (int[]){ informed(e, o, d, S) }, 1);
    }
    free(lits.v);
}

static int terminate_cb(void *state)
{
    const enc *e = state;
    return now() > e->deadline;
}

static void enc_free(enc *e)
{
    if (e->sat) ccadical_release(e->sat);
    for (int i = 0; e->chan && i < e->S * e->nch; i++) free(e->chan[i].v);
    for (int i = 0; e->sends && i < e->S * e->n; i++) { free(e->sends[i].v); free(e->recvs[i].v); }
    for (int i = 0; e->ofmsg && i < e->pb->nmsg; i++) free(e->ofmsg[i].v);
    for (int i = 0; e->stepof && i < e->pb->nmsg; i++) free(e->stepof[i].v);
    free(e->chan); free(e->sends); free(e->recvs); free(e->ofmsg); free(e->stepof); free(e->c); free(e->inf);
}

/* The model's chosen transfers as a schedule. */
static int decode(enc *e, cc_schedule **out)
{
    cc_schedule *s = cc_schedule_new();
    int *nodes = malloc((size_t)(e->n + 2) * sizeof *nodes);
    int rc = s && nodes ? CC_OK : CC_ENOMEM;
    for (int i = 0; i < e->ncand && rc == CC_OK; i++) {
        const cand *c = &e->c[i];
        if (ccadical_val(e->sat, c->var) <= 0) continue;
        int len = cc_paths_len(e->P, c->path);
        const int *ch = cc_paths_ch(e->P, c->path);
        nodes[0] = c->src;
        for (int h = 0; h < len; h++) nodes[h + 1] = e->pb->t->ch_to[ch[h]];
        rc = cc_schedule_add(s, c->step, e->pb->msrc[c->msg], len + 1, nodes);
    }
    free(nodes);
    if (rc != CC_OK) { cc_schedule_free(s); return rc; }
    cc_schedule_sort(s);
    *out = s;
    return CC_OK;
}

int cc_exact_solve(const cc_problem *pb, const cc_paths *paths, int S, bool hop1, double seconds, int *sat, cc_schedule **out,
                   long *vars, long *clauses, char *err, size_t errlen)
{
    enc e = { .pb = pb, .P = paths, .S = S, .n = pb->t->n, .nch = pb->t->nch, .hop1 = hop1 && pb->broadcast };
    *out = NULL;
    *sat = -1;
    e.deadline = now() + seconds;
    e.sat = ccadical_init();
    if (e.sat) ccadical_set_option(e.sat, "quiet", 1);   /* the library must print nothing */
    e.chan = calloc((size_t)S * e.nch, sizeof *e.chan);
    e.sends = calloc((size_t)S * e.n, sizeof *e.sends);
    e.recvs = calloc((size_t)S * e.n, sizeof *e.recvs);
    e.ofmsg = calloc((size_t)pb->nmsg, sizeof *e.ofmsg);
    e.stepof = calloc((size_t)pb->nmsg, sizeof *e.stepof);
    if (!e.sat || !e.chan || !e.sends || !e.recvs || !e.ofmsg || !e.stepof) { enc_free(&e); return cc_fail(CC_ENOMEM, err, errlen, "out of memory"); }
    if (pb->broadcast) broadcast_candidates(&e);
    else scatter_candidates(&e);
    /* scatter: exactly one transfer per message; broadcast: at most one
     * delivery per (origin, receiver), the informed chain asks for one */
    for (int m = 0; m < pb->nmsg && !e.oom; m++) {
        if (!pb->broadcast) clause(&e, e.ofmsg[m].v, (int)e.ofmsg[m].n);
        at_most_vec(&e, &e.ofmsg[m], 1);
    }
    for (int i = 0; i < S * e.nch && !e.oom; i++) at_most_vec(&e, &e.chan[i], 1);
    if (pb->ports)
        for (int i = 0; i < S * e.n && !e.oom; i++) {
            at_most_vec(&e, &e.sends[i], pb->ports);
            at_most_vec(&e, &e.recvs[i], pb->ports);
        }
    *vars = e.nv;
    *clauses = e.nclauses;
    if (e.late) { enc_free(&e); return CC_OK; }   /* *sat = -1: the time ran out */
    if (e.oom) { enc_free(&e); return cc_fail(CC_ENOMEM, err, errlen, "out of memory building the SAT formula"); }
    ccadical_set_terminate(e.sat, &e, terminate_cb);
    int r = ccadical_solve(e.sat);
    int rc = CC_OK;
    if (r == 10) {
        cc_verify_result vr;
        rc = decode(&e, out);
        if (rc == CC_OK && cc_verify(pb, *out, &vr) != CC_OK) rc = CC_ENOMEM;
        if (rc == CC_ENOMEM) cc_fail(CC_ENOMEM, err, errlen, "out of memory decoding the SAT model");
        else if (!vr.ok) rc = cc_fail(CC_EINTERNAL, err, errlen, "internal error: the SAT model fails verification: %.180s", vr.first);
        if (rc != CC_OK) { cc_schedule_free(*out); *out = NULL; }
        else *sat = 1;
    } else if (r == 20) *sat = 0;
    enc_free(&e);
    return rc;
}

/* WH broadcasts: first the one-hop deliveries only (a much smaller formula,
 * and where all-to-all schedules live), with a third of the time; a schedule
 * there is a schedule.  Otherwise, or for scatter, the full formula, which
 * alone can prove impossibility. */
static int solve_twice(const cc_problem *pb, const cc_paths *paths, int S, double seconds, int *sat, cc_schedule **out,
                       cc_exact_result *res, char *err, size_t errlen)
{
    double t0 = now();
    if (pb->broadcast && pb->sw == CC_WH) {
        int rc = cc_exact_solve(pb, paths, S, true, seconds / 3, sat, out, &res->vars, &res->clauses, err, errlen);
        if (rc != CC_OK || *sat == 1) return rc;
    }
    /* Both calls share the time given (the first may have used its part). */
    double left = seconds - (now() - t0);
    if (left <= 0) { *sat = -1; *out = NULL; return CC_OK; }
    return cc_exact_solve(pb, paths, S, false, left, sat, out, &res->vars, &res->clauses, err, errlen);
}

int cc_exact_improve(const cc_problem *pb, const cc_paths *paths, const cc_exact_params *ep, cc_search_result *best,
                     cc_exact_result *res, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    double t0 = now();
    int lo = ep->bound > 0 ? ep->bound : 1, rc;
    int maxs = ep->max_steps > 0 ? ep->max_steps : 4 * lo + 8;
    bool timeout = false, sat_proof = false;
    /* ep->seconds bounds the whole improvement: every call gets what is left. */
    double end = t0 + ep->seconds;
    res->proved_below = lo;
    /* Without a schedule: upwards from the bound until one is found. */
    for (int S = lo; !best->found && S <= maxs && !timeout; S++) {
        int sat;
        cc_schedule *s;
        double left = end - now();
        if (left <= 0) { timeout = true; break; }
        if ((rc = solve_twice(pb, paths, S, left, &sat, &s, res, err, errlen))) return rc;
        if (sat < 0) timeout = true;
        else if (sat == 0) { res->proved_below = S + 1; sat_proof = true; }
        else {
            best->sched = s;
            best->found = true;
            best->steps = cc_schedule_steps(s, pb->sw);
        }
    }
    /* With one: downwards, each success replacing it, until the solver says
     * one step fewer is impossible.  Below the bound this is an independent
     * check of the bound. */
    while (best->found && best->steps > 1 && !sat_proof && !timeout) {
        int sat, S = best->steps - 1;
        cc_schedule *s;
        /* below the bound the answer is known: the solver only confirms it */
        double left = end - now();
        if (left <= 0) { timeout = true; break; }
        double limit = S < lo && left > 5 ? 5 : left;
        if ((rc = solve_twice(pb, paths, S, limit, &sat, &s, res, err, errlen))) return rc;
        if (sat < 0) timeout = true;
        else if (sat == 0) { sat_proof = true; if (S + 1 > res->proved_below) res->proved_below = S + 1; }
        else {
            cc_schedule_free(best->sched);
            best->sched = s;
            best->steps = cc_schedule_steps(s, pb->sw);
        }
    }
    res->steps = best->found ? best->steps : 0;
    res->sat_proof = sat_proof;
    res->status = best->found ? (res->proved_below >= best->steps ? CC_EXACT_OPTIMAL : CC_EXACT_UNKNOWN)
                              : timeout ? CC_EXACT_UNKNOWN : CC_EXACT_INFEASIBLE;
    res->seconds = now() - t0;
    const char *routes = paths->extra ? "over routes up to K hops longer than the shortest" : "over shortest paths";
    if (res->status == CC_EXACT_OPTIMAL && sat_proof)
        snprintf(res->why, sizeof res->why, "optimal: %d steps; the SAT solver proved %d steps impossible %s (%ld variables, %ld clauses, %.2f s)",
                 res->steps, res->steps - 1, routes, res->vars, res->clauses, res->seconds);
    else if (res->status == CC_EXACT_OPTIMAL)
        snprintf(res->why, sizeof res->why, "optimal: %d steps equals the lower bound (the SAT check of %d steps did not finish, %.2f s)",
                 res->steps, res->steps - 1, res->seconds);
    else if (res->status == CC_EXACT_UNKNOWN && best->found)
        snprintf(res->why, sizeof res->why, "unknown: %d steps found, %d to %d undecided within the %.0f s given %s",
                 res->steps, res->proved_below, res->steps - 1, ep->seconds, routes);
    else if (res->status == CC_EXACT_UNKNOWN)
        snprintf(res->why, sizeof res->why, "unknown: no schedule, time ran out %s", routes);
    else
        snprintf(res->why, sizeof res->why, "infeasible: no schedule of at most %d steps %s", maxs, routes);
    return CC_OK;
}
