/* What the delta runs' files share: sim/delta_rec.c (a parent's record,
 * written and patched), sim/delta_run.c (a child's run: its loop and the
 * switch to the whole network), sim/delta_cone.c (the cone's cycle) and
 * sim/delta_oracle.c (the checking build's oracle): the record's and the
 * patch's layout, the engine, a router's snapshot, and the cone's steps
 * that delta_run.c calls.  Nothing else includes this but
 * bench/delta_ceiling.c, which compares records, and tests/test_delta.c,
 * which checks the record's budget. */
#ifndef NOCSIM_SIM_DELTA_INTERNAL_H
#define NOCSIM_SIM_DELTA_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "sim/closedloop.h"
#include "sim/decisions_rec.h"
#include "sim/delta_run.h"
#include "sim/olnet_internal.h"

#ifdef OLNET_SSSE3
#include <tmmintrin.h>
#define DELTA_TARGET __attribute__((target("ssse3")))
#else
#define DELTA_TARGET
#endif

enum {
    DV = 3,              /* VCs, */
    DB = 4,              /* flits a FIFO, */
    DNF = NPORTS * DV,   /* FIFOs a router: the default router's */
    DK = 16,             /* cycles between snapshots: a join replays (DK - 1) / 2 router-cycles on average */
    DPB = 1 << (2 + DV)  /* a port's VC-selection pairs, last << V | ready (sim/decisions_rec.h) */
};
#define DHOT static inline __attribute__((always_inline))

/* One router's state at the start of a cycle: a snapshot's entry.  Its
 * source's due cycle is not kept: it is its head packet's release, which is
 * the configuration's (a patched record's owner's, not always the one that
 * wrote the entry). */
typedef struct {
    uint32_t buf[DNF * DB];
    uint64_t reqm, dfull;
    int32_t lflits[4];   /* its links' flits so far (the load bound's links[].flits) */
    int32_t head, count, seq, vc, last_vc;
    int32_t room;        /* the decisions' room: when its source could next inject */
    uint8_t cnt[DNF];
    int8_t route[DNF], holder[DNF], req_d[DNF], req_c[DNF];
    uint8_t qsi[DNF], pstate[NPORTS];
} rsnap;

/* The most a record's cycles may take: at 16x16 a default run's record is
 * 1.6 MB, at 32x32 about 13 MB; at 64x64 a dense record of a 1,000-cycle
 * run would be 180 MB, six times the whole GA run's memory without it, so
 * there children run in full (a sparse record would serve them). */
#define DELTA_REC_BUDGET ((size_t)16 << 20)

struct delta_rec {
    int nodes, S, W;     /* W: 64-bit words of a bitmap of routers */
    int valid;
    int over;            /* a run of its parents passed DELTA_REC_BUDGET: no more recording */
    uint64_t gen;        /* changes at every write and patch (a patch names the one it was made on) */
    int64_t T;           /* the parent's duration: cycles 0 .. T - 1 are recorded */
    int64_t cap;         /* cycles allocated */
    uint32_t *rl;        /* per cycle and link (node * 4 + port): the flit sent, 0 or (flit + 1) | VC << 28 */
    uint16_t *rf;        /* per cycle and router: its dfull at the cycle's end */
    uint64_t *pact;      /* per cycle, W words: the routers active at its start (a flit held, a source due) */
    rsnap *snap;         /* per cycle k * DK and router: its state then */
    int32_t *ej_off;     /* per cycle t, the packets whose tail the parent ejected then: ej[ej_off[t] ..] */
    int32_t *ej;         /*   as packet indices, node * S + slice */
    int64_t *tails;      /* per packet index, the tail cycle */
    uint64_t *pairs;     /* per port, the decisions' pairs (a copy of sim_decisions' pairs) */
    int32_t *pfirst;     /* per port and pair, the first cycle it was met (INT32_MAX: never) */
    int32_t *gcyc;       /* per grant of the decisions, its cycle */
    size_t gcap;
    int64_t max_link_flits;
    size_t bytes;
};

/* A cone router's cycle, for the patch: its links' entries, its dfull at
 * the cycle's end and whether it was active at the start. */
typedef struct {
    int32_t node;
    uint32_t out[4];
    uint16_t dfull;
    uint8_t act;
} pcycle;

struct delta_patch {
    int oncone;          /* 1: a cone run, whose results the rest holds */
    int fail;            /* memory ran out while logging: not a patch to accept */
    sim_status st;
    uint64_t gen;        /* the record's gen it was made on */
    int64_t T;           /* the child's duration (SIM_OK) */
    int nodes, S;
    int32_t *jt;         /* per router: the first cycle it stepped in the cone, -1 never */
    int32_t *cone;       /* the cone's routers */
    int ncone;
    int32_t *co;         /* per cycle t: its entries ce[co[t] .. co[t + 1]) */
    pcycle *ce;
    size_t nce, cecap;
    int64_t cocap;
    int32_t *so;         /* per snapshot k: ss[so[k] .. so[k + 1]) */
    rsnap *ss;
    int32_t *snode;      /*   and their routers */
    size_t nss, sscap;
    int sk;              /* snapshots logged */
    int socap;
    uint32_t *grant;     /* the cone's grants, as sim_decisions' */
    int32_t *gcyc;       /*   and their cycles */
    size_t ngrant, gcap;
    uint32_t *pev;       /* pairs met first: port * DPB + pair */
    int32_t *pcyc;       /*   and their cycles */
    size_t npev, pevcap;
    int32_t *entered, *could; /* per packet index of a cone router's source, from its join on */
    int64_t *tails;
    size_t bytes;
};

struct delta_engine {
    sim_params p;
    int nodes, S, L, W, on_link;
    int64_t npk;
    int32_t *dest;
    closedloop *cl;
    closedloop_view v;
    /* A parent run's observer. */
    delta_rec *wr;
    sim_decisions *wd;
    int64_t last_t;
    size_t last_ng;
    int wfail;
    uint64_t *ppairs;    /* the pairs before the cycle (per port) */
    /* A child's cone. */
    uint8_t *in;         /* per router: in the cone */
    uint64_t *inmask;    /*   as a bitmap */
    int32_t *list;
    int ncone;
    uint8_t *emask;      /* per cone router: its ports whose neighbour is outside */
    uint16_t etab[16];   /* a port mask's dfull bits */
    int32_t *rord;       /* routers joining by their releases, by cycle */
    int nrord, relp;
    int64_t *rel_at;
    uint8_t *flag;       /* per router: joins at this cycle's end */
    int32_t *jl;
    int nj;
    uint8_t *act;        /* per cone router: active at the cycle's start */
    uint32_t *cfl;       /* per link out of a cone router: the child's entry this cycle */
    olfmove *mv;
    int32_t *inj;
    uint32_t *hdr;
    int32_t *room;       /* per router: the decisions' room (cone and replays) */
    uint64_t *pseen;     /* per port of a cone router: pairs met (the record's before its join) */
    int64_t *tails;
    uint8_t *pdone;      /* per packet index: its tail ejected in the child so far */
    closedloop_lentry *bh; /* the load bound's heap over the cone's links */
    int nbh;
    int64_t t_whole;     /* the cycle a child whose interval changed goes on to the whole network */
    delta_patch *pt;     /* the patch being written (NULL: a replay, nothing logged) */
    int64_t t_now;
    const atomic_int *stop; /* delta_engine_stop_on's, or NULL */
#ifdef NOCSIM_CHECK
    struct delta_oracle *orc; /* the checking build's full run of the child (sim/delta_oracle.c) */
#endif
};

/* The checking build's oracle (sim/delta_oracle.c): the child run in full
 * beside its cone, in lockstep, the cone's invariant checked every cycle.
 * DELTA_CHECK(...) is its hooks in sim/delta_run.c, compiled only there. */
#ifdef NOCSIM_CHECK
void delta_oracle_free(struct delta_oracle *o);
void delta_oracle_begin(delta_engine *e, const sim_config *c);
void delta_oracle_before(const delta_engine *e, const delta_rec *r, int64_t t);
void delta_oracle_after(const delta_engine *e, const delta_rec *r, int64_t t);
void delta_oracle_whole(const delta_engine *e, int64_t t, int64_t injected);
#define DELTA_CHECK(...) __VA_ARGS__
#else
#define DELTA_CHECK(...) ((void)0)
#endif

/* out made the decisions of the child whose run left pt, up to the last
 * cycle it logged: each router's decisions of the parent (pd, made when
 * r's cycles say) before the router's jt, then the ones pt logged; a
 * router with jt < 0 keeps all of the parent's.  out may be pd itself;
 * ogcyc, when not NULL, gets each grant's cycle (it may be r->gcyc). */
void delta_splice_decisions(sim_decisions *out, int32_t *ogcyc, const sim_decisions *pd, const delta_rec *r,
                            const delta_patch *pt);

/* ---- one router's cycle ---- */

DHOT uint32_t entry_of(uint32_t x, int c) { return (x + 1) | (uint32_t)c << 28; }

#ifdef OLNET_SSSE3
DELTA_TARGET DHOT uint64_t dl_live(const olnet *n, int i)
{
    const __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(n->cnt + (size_t)i * DNF));
    const __m128i h = _mm_loadu_si128((const __m128i *)(const void *)(n->holder + (size_t)i * DNF));
    const __m128i held = _mm_shuffle_epi8(c, h);
    return ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(held, _mm_setzero_si128())) & ((1u << DNF) - 1);
}
#else
DHOT uint64_t dl_live(const olnet *n, int i)
{
    const size_t base = (size_t)i * DNF;
    uint64_t live = 0;
    for (int o = 0; o < DNF; o++) {
        const int h = n->holder[base + (size_t)o];
        live |= (uint64_t)(h >= 0 && n->cnt[base + (size_t)h]) << o;
    }
    return live;
}
#endif

/* Is router i active at the start of cycle t (a flit in a FIFO, or its
 * source due: what makes closedloop.c step a cycle)? */
DHOT int dl_active(const olnet *n, int i, int64_t t)
{
    const uint8_t *c = n->cnt + (size_t)i * DNF;
    uint64_t a, b;
    memcpy(&a, c, 8);
    memcpy(&b, c + 8, 8);
    const olsource *s = &n->src[i];
    return (a | (b & 0x00ffffffffffffffull)) != 0 || (s->count && (s->seq || s->due <= t));
}

/* Router i's state into a snapshot entry; room is the decisions' (the
 * engine's, not the network's). */
DHOT void snap_save(const olnet *n, int i, int32_t room, rsnap *x)
{
    const size_t f = (size_t)i * DNF;
    memcpy(x->buf, n->buf + f * DB, sizeof x->buf);
    memcpy(x->cnt, n->cnt + f, DNF);
    memcpy(x->route, n->route + f, DNF);
    memcpy(x->holder, n->holder + f, DNF);
    memcpy(x->req_d, n->req_d + f, DNF);
    memcpy(x->req_c, n->req_c + f, DNF);
    memcpy(x->qsi, n->qsi + f, DNF);
    memcpy(x->pstate, n->pstate + (size_t)i * NPORTS, NPORTS);
    x->reqm = n->reqm[i];
    x->dfull = n->dfull[i];
    const olsource *s = &n->src[i];
    x->head = s->head;
    x->count = s->count;
    x->seq = s->seq;
    x->vc = s->vc;
    x->last_vc = s->last_vc;
    x->room = room;
    for (int p = 0; p < 4; p++) x->lflits[p] = n->cl->links[(size_t)i * 4 + (size_t)p].flits;
}

/* The inverse: router i's state (and its source mask bit) from x, but for
 * its source's due cycle. */
DHOT void snap_load(olnet *n, int i, const rsnap *x, int32_t *room)
{
    const size_t f = (size_t)i * DNF;
    memcpy(n->buf + f * DB, x->buf, sizeof x->buf);
    memcpy(n->cnt + f, x->cnt, DNF);
    memcpy(n->route + f, x->route, DNF);
    memcpy(n->holder + f, x->holder, DNF);
    memcpy(n->req_d + f, x->req_d, DNF);
    memcpy(n->req_c + f, x->req_c, DNF);
    memcpy(n->qsi + f, x->qsi, DNF);
    memcpy(n->pstate + (size_t)i * NPORTS, x->pstate, NPORTS);
    n->reqm[i] = x->reqm;
    n->dfull[i] = x->dfull;
    olsource *s = &n->src[i];
    s->head = x->head;
    s->count = x->count;
    s->seq = x->seq;
    s->vc = x->vc;
    s->last_vc = x->last_vc;
    *room = x->room;
    for (int p = 0; p < 4; p++) n->cl->links[(size_t)i * 4 + (size_t)p].flits = x->lflits[p];
    const uint64_t bit = 1ull << (i % 64);
    n->srcm[i / 64] = s->count ? n->srcm[i / 64] | bit : n->srcm[i / 64] & ~bit;
}

/* ---- when a child goes on to the whole network (delta_run.c) ---- */

/* Past half the network the whole one is cheaper than the cone: a cone of
 * more than nodes / 2 routers. */
static inline int delta_cone_past_half(int ncone, int nodes) { return 2 * ncone > nodes; }

/* A child c whose interval differs from its parent pc's moves every
 * sending node's (first[i] >= 0) later slices: from the earliest second
 * slice in either run its cone would spread over the network.  It goes on
 * to the whole network at the last snapshot (a multiple of DK) at or before
 * that cycle, where the routers outside the cone need no replay: that
 * cycle (0: nothing to gain, run it in full), or INT64_MAX (the interval is
 * the parent's, or one slice). */
int64_t delta_whole_from(const int32_t *first, int nodes, int S, const sim_config *pc, const sim_config *c);

/* ---- the cone's cycle (sim/delta_cone.c), for delta_run.c's loop ---- */

void cone_restore_parent(delta_engine *e, const delta_rec *r, olnet *n, int j, int64_t t, const sim_config *pc,
                           const sim_config *c);
void cone_release_at(delta_engine *e, const sim_config *a, const sim_config *b);
void cone_join_released(delta_engine *e, const delta_rec *r, olnet *n, int64_t t, const sim_config *pc,
                          const sim_config *c);
int cone_activity(delta_engine *e, const olnet *n, int64_t t);
int cone_bound(delta_engine *e, const olnet *n, int64_t t, int64_t cutoff);
int cone_outside_active(const delta_engine *e, const delta_rec *r, int64_t t);
int64_t cone_next_release(const delta_engine *e, const olnet *n, int64_t t);
int cone_log_snapshot(delta_engine *e, const olnet *n, int64_t t);
DELTA_TARGET void cone_step(delta_engine *e, const delta_rec *r, olnet *n, int64_t t, tailwin *tw,
                                   int64_t *done);
void cone_outside_ejections(delta_engine *e, const delta_rec *r, int64_t t, tailwin *tw, int64_t *done);
DELTA_TARGET void cone_join_edge(delta_engine *e, const delta_rec *r, olnet *n, int64_t t, const sim_config *pc,
                                   const sim_config *c);
int cone_log_cycle(delta_engine *e, const olnet *n, int64_t t);

#endif
