/* The replay of a wormhole CC schedule (the model is stated in replay.h).
 * Steps mode: a step whose packets share no channel has a closed-form length
 * (longest path + m - 1); a step that shares one runs cycle by cycle, where
 * packets move as units, so a packet's whole state is the number of cycles
 * it has moved.  Overlap mode: started packets never block, so it jumps
 * from one release time to the next.  Either way the work does not grow
 * with m (a packet of a million flits costs what one of eight does) except
 * in the per-cycle loop of a step with shared channels. */
#include "ccsim/replay.h"

#include <stdlib.h>
#include <string.h>

const char *const ccsim_mode_names[2] = { "steps", "overlap" };

typedef struct {
    const cc_problem *pb;
    const cc_schedule *s;
    int m;                 /* flits per packet */
    int nt;
    int *order;            /* transfers by step, schedule order within a step */
    int *hops;             /* [nt] channels on the path */
    int *choff, *chpool;   /* channels of transfer i: chpool[choff[i] .. choff[i] + hops[i]) */
    int64_t *moved;        /* [nt] cycles moved; -1 not started */
    int64_t *done;         /* [nt] done time; -1 not done */
    int *owner;            /* [nch] packet holding the channel, or -1 */
    int *freed, nfreed;    /* channels whose tail crossed this cycle: free from the next */
    int64_t stalls;
} replay;

static void replay_free(replay *r)
{
    free(r->order); free(r->hops); free(r->choff); free(r->chpool);
    free(r->moved); free(r->done); free(r->owner); free(r->freed);
}

/* Channels of every path, and the transfers ordered by step. */
static int replay_init(replay *r, const cc_problem *pb, const cc_schedule *s, int flits, char *err, size_t errlen)
{
    const cc_topo *t = pb->t;
    memset(r, 0, sizeof *r);
    r->pb = pb; r->s = s; r->m = flits; r->nt = s->nt;
    size_t nt = (size_t)s->nt + 1, nch = 0;
    for (int i = 0; i < s->nt; i++) if (s->tr[i].nnodes > 1) nch += (size_t)s->tr[i].nnodes - 1;
    r->order = malloc(nt * sizeof *r->order);
    r->hops = malloc(nt * sizeof *r->hops);
    r->choff = malloc(nt * sizeof *r->choff);
    r->chpool = malloc((nch + 1) * sizeof *r->chpool);
    r->moved = malloc(nt * sizeof *r->moved);
    r->done = malloc(nt * sizeof *r->done);
    r->owner = malloc(((size_t)t->nch + 1) * sizeof *r->owner);
    r->freed = malloc((nch + 1) * sizeof *r->freed);
    if (!r->order || !r->hops || !r->choff || !r->chpool || !r->moved || !r->done || !r->owner || !r->freed)
        return cc_fail(CC_ENOMEM, err, errlen, "out of memory replaying the schedule");
    int off = 0;
    for (int i = 0; i < s->nt; i++) {
        const int *nd = cc_schedule_nodes(s, i);
        r->choff[i] = off;
        r->hops[i] = s->tr[i].nnodes - 1;
        if (r->hops[i] < 1) return cc_fail(CC_EINPUT, err, errlen, "transfer %d (step %d): a path needs two nodes", i + 1, s->tr[i].step + 1);
        for (int h = 0; h + 1 < s->tr[i].nnodes; h++) {
            int c = cc_topo_channel(t, nd[h], nd[h + 1]);
            if (c < 0)
                return cc_fail(CC_EINPUT, err, errlen, "transfer %d (step %d): no channel %s->%s", i + 1, s->tr[i].step + 1,
                               t->names[nd[h]], t->names[nd[h + 1]]);
            r->chpool[off++] = c;
        }
        r->moved[i] = -1;
        r->done[i] = -1;
    }
    for (int c = 0; c < t->nch; c++) r->owner[c] = -1;
    /* Stable order by step: transfers are few, steps fewer. */
    int k = 0, last = cc_schedule_steps(s, CC_WH);
    for (int st = 0; st < last; st++)
        for (int i = 0; i < s->nt; i++) if (s->tr[i].step == st) r->order[k++] = i;
    r->nt = k;
    return CC_OK;
}

/* One cycle (cycle c) of started packet i: it moves unless its header waits
 * for a channel another packet holds.  A channel its tail crosses is freed at
 * the end of the cycle.  Returns whether it moved. */
static bool replay_move(replay *r, int i, int64_t c)
{
    int64_t a = r->moved[i];
    const int *ch = r->chpool + r->choff[i];
    int h = r->hops[i];
    if (a < h) {
        int o = r->owner[ch[a]];
        if (o >= 0 && o != i) { r->stalls++; return false; }
        r->owner[ch[a]] = i;
    }
    int64_t tail = a - (r->m - 1);       /* the channel the tail crosses in this cycle */
    if (tail >= 0 && tail < h) r->freed[r->nfreed++] = ch[tail];
    r->moved[i] = a + 1;
    if (r->moved[i] == (int64_t)h + r->m - 1) r->done[i] = c + 1;
    return true;
}

static void replay_end_cycle(replay *r)
{
    for (int k = 0; k < r->nfreed; k++) r->owner[r->freed[k]] = -1;
    r->nfreed = 0;
}

/* Transfers order[k .. end) share no channel: then no header blocks and the
 * step lasts its longest path + m - 1 cycles (the rules of replay.h); the
 * per-cycle loop is needed only otherwise.  Returns that length, or -1. */
static int64_t unshared_step_length(replay *r, int k, int end)
{
    int64_t longest = 0;
    bool shared = false;
    for (int q = k; q < end && !shared; q++) {
        int i = r->order[q];
        const int *ch = r->chpool + r->choff[i];
        for (int h = 0; h < r->hops[i]; h++) {
            if (r->owner[ch[h]] >= 0) { shared = true; break; }
            r->owner[ch[h]] = i;
        }
        if (r->hops[i] > longest) longest = r->hops[i];
    }
    for (int q = k; q < end; q++) {   /* give the channels back */
        int i = r->order[q];
        const int *ch = r->chpool + r->choff[i];
        for (int h = 0; h < r->hops[i]; h++) if (r->owner[ch[h]] == i) r->owner[ch[h]] = -1;
    }
    return shared ? -1 : longest + r->m - 1;
}

static int run_steps(replay *r, int64_t *cycles, char *err, size_t errlen)
{
    const cc_schedule *s = r->s;
    int64_t c = 0;
    for (int k = 0; k < r->nt;) {
        int st = s->tr[r->order[k]].step, end = k;
        while (end < r->nt && s->tr[r->order[end]].step == st) r->moved[r->order[end++]] = 0;
        int64_t len = unshared_step_length(r, k, end);
        if (len >= 0) {
            for (int q = k; q < end; q++) r->done[r->order[q]] = c + r->hops[r->order[q]] + r->m - 1;
            c += len;
            k = end;
            continue;
        }
        for (int left = end - k; left > 0; c++) {
            bool any = false;
            for (int q = k; q < end; q++) {
                int i = r->order[q];
                if (r->done[i] >= 0) continue;
                if (replay_move(r, i, c)) { any = true; if (r->done[i] >= 0) left--; }
            }
            if (!any)
                return cc_fail(CC_EINPUT, err, errlen, "step %d: packets block each other for ever at cycle %lld (channels shared in a step)",
                               st + 1, (long long)c);
            replay_end_cycle(r);
        }
        k = end;
    }
    *cycles = c;
    return CC_OK;
}

/* Overlap mode.  A started packet has claimed its whole path, so it never
 * blocks and its timeline is fixed at its start t: channel j free from
 * t + j + m, the send port from t + m, the receive port and the message at
 * the receiver from its done time t + H + m - 1.  Start conditions change
 * only at those times, so the replay jumps from one to the next (a min-heap)
 * instead of stepping every cycle; the result is the per-cycle rule's. */
typedef struct {
    int64_t *chfree;       /* [nch] cycle from which the channel is free */
    int64_t *has;          /* [n*n] broadcast: cycle node v has origin o's message, or -1 */
    int *sslot, *rslot;    /* [n+1] CSR: node v's send ports sfree[sslot[v] .. sslot[v+1]) */
    int64_t *sfree, *rfree;
    int64_t *heap; int nheap;
    /* Each resource's users in schedule order (channels; with K ports also
     * send port v = nch + v and receive port nch + n + v): rstart/rlist CSR,
     * rnext the first user not yet started. */
    int *rstart, *rlist, *rnext;
    int *tmp;              /* room for one transfer's resources */
} overlap_state;

static void heap_push(overlap_state *ov, int64_t x)
{
    int k = ov->nheap++;
    for (; k > 0 && ov->heap[(k - 1) / 2] > x; k = (k - 1) / 2) ov->heap[k] = ov->heap[(k - 1) / 2];
    ov->heap[k] = x;
}

static int64_t heap_pop(overlap_state *ov)
{
    int64_t top = ov->heap[0], x = ov->heap[--ov->nheap];
    int k = 0;
    for (;;) {
        int c = 2 * k + 1;
        if (c >= ov->nheap) break;
        if (c + 1 < ov->nheap && ov->heap[c + 1] < ov->heap[c]) c++;
        if (ov->heap[c] >= x) break;
        ov->heap[k] = ov->heap[c];
        k = c;
    }
    if (ov->nheap > 0) ov->heap[k] = x;
    return top;
}

/* The resources transfer i uses: its channels, and with K ports its
 * sender's and receiver's ports.  Writes them to out (room for hops + 2),
 * returns how many. */
static int overlap_resources(const replay *r, int i, int *out)
{
    const int *ch = r->chpool + r->choff[i];
    int k = 0;
    for (int h = 0; h < r->hops[i]; h++) out[k++] = ch[h];
    if (r->pb->ports > 0) {
        const int *nd = cc_schedule_nodes(r->s, i);
        int nch = r->pb->t->nch, n = r->pb->t->n;
        out[k++] = nch + nd[0];
        out[k++] = nch + n + nd[r->hops[i]];
    }
    return k;
}

static int overlap_alloc(const replay *r, overlap_state *ov)
{
    const cc_problem *pb = r->pb;
    int n = pb->t->n, nch = pb->t->nch, nres = nch + 2 * n, maxh = 0;
    size_t total = 0;
    for (int q = 0; q < r->nt; q++) {
        int h = r->hops[r->order[q]];
        total += (size_t)h + 2;
        if (h > maxh) maxh = h;
    }
    ov->chfree = calloc((size_t)nch + 1, sizeof *ov->chfree);
    if (pb->broadcast) ov->has = malloc((size_t)n * n * sizeof *ov->has);
    ov->sslot = calloc((size_t)n + 1, sizeof *ov->sslot);
    ov->rslot = calloc((size_t)n + 1, sizeof *ov->rslot);
    ov->sfree = calloc((size_t)nch + 1, sizeof *ov->sfree);   /* a node has at most out-degree ports */
    ov->rfree = calloc((size_t)nch + 1, sizeof *ov->rfree);
    ov->heap = malloc((total + 1) * sizeof *ov->heap);
    ov->rstart = calloc((size_t)nres + 1, sizeof *ov->rstart);
    ov->rnext = calloc((size_t)nres + 1, sizeof *ov->rnext);
    ov->rlist = malloc((total + 1) * sizeof *ov->rlist);
    ov->tmp = malloc(((size_t)maxh + 2) * sizeof *ov->tmp);
    if (!ov->chfree || (pb->broadcast && !ov->has) || !ov->sslot || !ov->rslot || !ov->sfree || !ov->rfree || !ov->heap ||
        !ov->rstart || !ov->rnext || !ov->rlist || !ov->tmp)
        return CC_ENOMEM;
    if (ov->has) for (size_t k = 0; k < (size_t)n * n; k++) ov->has[k] = -1;
    for (int v = 0; v < n; v++) {
        int ko = cc_problem_kout(pb, v), ki = cc_problem_kin(pb, v), d = cc_topo_outdeg(pb->t, v), e = cc_topo_indeg(pb->t, v);
        ov->sslot[v + 1] = ov->sslot[v] + (ko < d ? ko : d);
        ov->rslot[v + 1] = ov->rslot[v] + (ki < e ? ki : e);
    }
    for (int q = 0; q < r->nt; q++) {
        int k = overlap_resources(r, r->order[q], ov->tmp);
        for (int j = 0; j < k; j++) ov->rstart[ov->tmp[j] + 1]++;
    }
    for (int x = 0; x < nres; x++) { ov->rstart[x + 1] += ov->rstart[x]; ov->rnext[x] = ov->rstart[x]; }
    for (int q = 0; q < r->nt; q++) {
        int k = overlap_resources(r, r->order[q], ov->tmp);
        for (int j = 0; j < k; j++) ov->rlist[ov->rnext[ov->tmp[j]]++] = r->order[q];
    }
    for (int x = 0; x < nres; x++) ov->rnext[x] = ov->rstart[x];
    return CC_OK;
}

static void overlap_free(overlap_state *ov)
{
    free(ov->chfree); free(ov->has); free(ov->sslot); free(ov->rslot); free(ov->sfree); free(ov->rfree);
    free(ov->heap); free(ov->rstart); free(ov->rnext); free(ov->rlist); free(ov->tmp);
}

/* No transfer of an earlier step that shares a resource with i is still
 * waiting to start. */
static bool overlap_in_turn(const replay *r, overlap_state *ov, int i)
{
    int k = overlap_resources(r, i, ov->tmp), st = r->s->tr[i].step;
    for (int j = 0; j < k; j++) {
        int x = ov->tmp[j];
        while (ov->rnext[x] < ov->rstart[x + 1] && r->moved[ov->rlist[ov->rnext[x]]] >= 0) ov->rnext[x]++;
        if (ov->rnext[x] < ov->rstart[x + 1] && r->s->tr[ov->rlist[ov->rnext[x]]].step < st) return false;
    }
    return true;
}

/* A port of slots [a, b) free at t, or -1. */
static int free_slot(const int64_t *slot, int a, int b, int64_t t)
{
    for (int k = a; k < b; k++) if (slot[k] <= t) return k;
    return -1;
}

/* Start transfer i at cycle t if it may; returns whether it started. */
static bool overlap_try(replay *r, overlap_state *ov, int i, int64_t t)
{
    const cc_problem *pb = r->pb;
    const cc_transfer *tr = &r->s->tr[i];
    const int *nd = cc_schedule_nodes(r->s, i);
    const int *ch = r->chpool + r->choff[i];
    int h = r->hops[i], from = nd[0], to = nd[h], n = pb->t->n;
    if (pb->broadcast && from != tr->origin) {
        int64_t has = ov->has[(size_t)tr->origin * n + from];
        if (has < 0 || has > t) return false;
    }
    for (int j = 0; j < h; j++) if (ov->chfree[ch[j]] > t) return false;
    int ss = free_slot(ov->sfree, ov->sslot[from], ov->sslot[from + 1], t);
    int rs = free_slot(ov->rfree, ov->rslot[to], ov->rslot[to + 1], t);
    if (ss < 0 || rs < 0 || !overlap_in_turn(r, ov, i)) return false;
    int64_t m = r->m, done = t + h + m - 1;
    for (int j = 0; j < h; j++) { ov->chfree[ch[j]] = t + j + m; heap_push(ov, t + j + m); }
    ov->sfree[ss] = t + m;
    ov->rfree[rs] = done;
    heap_push(ov, t + m);
    heap_push(ov, done);
    if (pb->broadcast) {
        int64_t *has = &ov->has[(size_t)tr->origin * n + to];
        if (*has < 0 || *has > done) *has = done;
    }
    r->moved[i] = 0;
    r->done[i] = done;
    return true;
}

static int run_overlap(replay *r, int64_t *cycles, char *err, size_t errlen)
{
    overlap_state ov = { 0 };
    if (overlap_alloc(r, &ov) != CC_OK) {
        overlap_free(&ov);
        return cc_fail(CC_ENOMEM, err, errlen, "out of memory replaying the schedule");
    }
    int rc = CC_OK, left = r->nt;
    int64_t t = 0, last = 0;
    for (;;) {
        for (int q = 0; q < r->nt; q++) {
            int i = r->order[q];
            if (r->moved[i] < 0 && overlap_try(r, &ov, i, t)) {
                left--;
                if (r->done[i] > last) last = r->done[i];
            }
        }
        if (left == 0) break;
        while (ov.nheap > 0 && ov.heap[0] <= t) heap_pop(&ov);
        if (ov.nheap == 0) {   /* nothing in flight and nothing could start: nothing will change */
            int i = -1;
            for (int q = 0; q < r->nt && i < 0; q++) if (r->moved[r->order[q]] < 0) i = r->order[q];
            const int *nd = cc_schedule_nodes(r->s, i);
            rc = cc_fail(CC_EINPUT, err, errlen, "transfer %d (step %d, %s-...-%s) can never start: its sender never has the message",
                         i + 1, r->s->tr[i].step + 1, r->pb->t->names[nd[0]], r->pb->t->names[nd[r->hops[i]]]);
            break;
        }
        t = heap_pop(&ov);
    }
    *cycles = last;
    overlap_free(&ov);
    return rc;
}

int ccsim_replay(const cc_problem *pb, const cc_schedule *s, int flits, ccsim_mode mode, ccsim_result *res,
                 char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    if (pb->sw != CC_WH)
        return cc_fail(CC_EINPUT, err, errlen, "the cycle replay takes wormhole schedules; this one is store-and-forward");
    if (flits < 1 || flits > CCSIM_MAX_FLITS)
        return cc_fail(CC_EINPUT, err, errlen, "packet length %d flits: allowed 1..%d", flits, CCSIM_MAX_FLITS);
    replay r;
    int rc = replay_init(&r, pb, s, flits, err, errlen);
    if (rc == CC_OK) rc = mode == CCSIM_STEPS ? run_steps(&r, &res->cycles, err, errlen) : run_overlap(&r, &res->cycles, err, errlen);
    if (rc == CC_OK) {
        res->stalls = r.stalls;
        res->steps = cc_schedule_steps(s, CC_WH);
        for (int i = 0; i < s->nt; i++) if (r.hops[i] > res->max_hops) res->max_hops = r.hops[i];
    }
    replay_free(&r);
    return rc;
}
