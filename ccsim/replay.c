/* The flit-level replay of a wormhole CC schedule (the model is stated in
 * replay.h).  Packets move as units, so a packet's whole state is its start
 * cycle and the number of cycles it has moved. */
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

static int run_steps(replay *r, int64_t *cycles, char *err, size_t errlen)
{
    const cc_schedule *s = r->s;
    int64_t c = 0;
    for (int k = 0; k < r->nt;) {
        int st = s->tr[r->order[k]].step, end = k;
        while (end < r->nt && s->tr[r->order[end]].step == st) r->moved[r->order[end++]] = 0;
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

/* Overlap mode state beyond the flit engine: when each (origin, node) has
 * the message, and free ports. */
typedef struct {
    int64_t *has;          /* [n*n] broadcast: cycle node v has origin o's message, or -1 */
    int *send, *recv;      /* [n] free ports */
    int *back, nback;      /* ports freed this cycle, usable from the next: v (send) or n + v (receive) */
    /* Each resource's users in schedule order (channels; with K ports also
     * send port v = nch + v and receive port nch + n + v): rstart/rlist CSR,
     * rnext the first user not yet started. */
    int nres, *rstart, *rlist, *rnext;
} overlap_state;

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

static int overlap_index(const replay *r, overlap_state *ov)
{
    int n = r->pb->t->n, maxh = 0;
    ov->nres = r->pb->t->nch + 2 * n;
    ov->rstart = calloc((size_t)ov->nres + 1, sizeof *ov->rstart);
    ov->rnext = calloc((size_t)ov->nres + 1, sizeof *ov->rnext);
    for (int i = 0; i < r->s->nt; i++) if (r->hops[i] > maxh) maxh = r->hops[i];
    int *tmp = malloc(((size_t)maxh + 2) * sizeof *tmp);
    size_t total = 0;
    for (int q = 0; q < r->nt; q++) total += (size_t)r->hops[r->order[q]] + 2;
    ov->rlist = malloc((total + 1) * sizeof *ov->rlist);
    if (!ov->rstart || !ov->rnext || !tmp || !ov->rlist) { free(tmp); return CC_ENOMEM; }
    for (int q = 0; q < r->nt; q++) {
        int k = overlap_resources(r, r->order[q], tmp);
        for (int j = 0; j < k; j++) ov->rstart[tmp[j] + 1]++;
    }
    for (int x = 0; x < ov->nres; x++) { ov->rstart[x + 1] += ov->rstart[x]; ov->rnext[x] = ov->rstart[x]; }
    for (int q = 0; q < r->nt; q++) {
        int k = overlap_resources(r, r->order[q], tmp);
        for (int j = 0; j < k; j++) ov->rlist[ov->rnext[tmp[j]]++] = r->order[q];
    }
    for (int x = 0; x < ov->nres; x++) ov->rnext[x] = ov->rstart[x];
    free(tmp);
    return CC_OK;
}

/* No transfer of an earlier step that shares a resource with i is still
 * waiting to start. */
static bool overlap_in_turn(const replay *r, overlap_state *ov, int i, int *tmp)
{
    int k = overlap_resources(r, i, tmp), st = r->s->tr[i].step;
    for (int j = 0; j < k; j++) {
        int x = tmp[j];
        while (ov->rnext[x] < ov->rstart[x + 1] && r->moved[ov->rlist[ov->rnext[x]]] >= 0) ov->rnext[x]++;
        if (ov->rnext[x] < ov->rstart[x + 1] && r->s->tr[ov->rlist[ov->rnext[x]]].step < st) return false;
    }
    return true;
}

static bool overlap_ready(const replay *r, const overlap_state *ov, int i, int64_t c)
{
    const cc_problem *pb = r->pb;
    const cc_transfer *tr = &r->s->tr[i];
    const int *nd = cc_schedule_nodes(r->s, i);
    int from = nd[0], to = nd[tr->nnodes - 1];
    if (pb->broadcast && from != tr->origin) {
        int64_t h = ov->has[(size_t)tr->origin * pb->t->n + from];
        if (h < 0 || h > c) return false;
    }
    if (ov->send[from] <= 0 || ov->recv[to] <= 0) return false;
    const int *ch = r->chpool + r->choff[i];
    for (int h = 0; h < r->hops[i]; h++) if (r->owner[ch[h]] >= 0) return false;
    return true;
}

static void overlap_start(replay *r, overlap_state *ov, int i)
{
    const int *ch = r->chpool + r->choff[i];
    const int *nd = cc_schedule_nodes(r->s, i);
    for (int h = 0; h < r->hops[i]; h++) r->owner[ch[h]] = i;
    r->moved[i] = 0;
    ov->send[nd[0]]--;
    ov->recv[nd[r->hops[i]]]--;
}

/* After packet i moved in cycle c: give back the ports it no longer needs
 * and record a delivered broadcast message. */
static void overlap_after_move(replay *r, overlap_state *ov, int i, int64_t c)
{
    const int *nd = cc_schedule_nodes(r->s, i);
    int n = r->pb->t->n;
    if (r->moved[i] == r->m) ov->back[ov->nback++] = nd[0];   /* the tail has left the sender */
    if (r->done[i] != c + 1) return;
    int to = nd[r->hops[i]];
    ov->back[ov->nback++] = n + to;
    if (r->pb->broadcast) {
        int64_t *h = &ov->has[(size_t)r->s->tr[i].origin * r->pb->t->n + to];
        if (*h < 0 || *h > c + 1) *h = c + 1;
    }
}

static int run_overlap(replay *r, int64_t *cycles, char *err, size_t errlen)
{
    const cc_problem *pb = r->pb;
    int n = pb->t->n;
    overlap_state ov = { 0 };
    if (pb->broadcast) ov.has = malloc((size_t)n * n * sizeof *ov.has);
    ov.send = malloc((size_t)n * sizeof *ov.send);
    ov.recv = malloc((size_t)n * sizeof *ov.recv);
    ov.back = malloc(((size_t)r->nt * 2 + 1) * sizeof *ov.back);
    int maxh = 0;
    for (int i = 0; i < r->s->nt; i++) if (r->hops[i] > maxh) maxh = r->hops[i];
    int *tmp = malloc(((size_t)maxh + 2) * sizeof *tmp);
    if ((pb->broadcast && !ov.has) || !ov.send || !ov.recv || !ov.back || !tmp || overlap_index(r, &ov) != CC_OK) {
        free(ov.has); free(ov.send); free(ov.recv); free(ov.back); free(tmp);
        free(ov.rstart); free(ov.rlist); free(ov.rnext);
        return cc_fail(CC_ENOMEM, err, errlen, "out of memory replaying the schedule");
    }
    if (ov.has) for (size_t k = 0; k < (size_t)n * n; k++) ov.has[k] = -1;
    for (int v = 0; v < n; v++) { ov.send[v] = cc_problem_kout(pb, v); ov.recv[v] = cc_problem_kin(pb, v); }
    int rc = CC_OK, left = r->nt;
    int64_t c = 0;
    while (left > 0) {
        bool any = false;
        for (int q = 0; q < r->nt; q++) {
            int i = r->order[q];
            if (r->moved[i] < 0 && overlap_ready(r, &ov, i, c) && overlap_in_turn(r, &ov, i, tmp)) overlap_start(r, &ov, i);
            if (r->moved[i] < 0 || r->done[i] >= 0) continue;
            replay_move(r, i, c);      /* a claimed path never blocks */
            any = true;
            overlap_after_move(r, &ov, i, c);
            if (r->done[i] >= 0) left--;
        }
        if (!any) {   /* nothing in flight and nothing could start: nothing will change */
            int i = -1;
            for (int q = 0; q < r->nt && i < 0; q++) if (r->moved[r->order[q]] < 0) i = r->order[q];
            const int *nd = cc_schedule_nodes(r->s, i);
            rc = cc_fail(CC_EINPUT, err, errlen, "transfer %d (step %d, %s-...-%s) can never start: its sender never has the message",
                         i + 1, r->s->tr[i].step + 1, pb->t->names[nd[0]], pb->t->names[nd[r->hops[i]]]);
            break;
        }
        replay_end_cycle(r);
        for (int k = 0; k < ov.nback; k++) { if (ov.back[k] < n) ov.send[ov.back[k]]++; else ov.recv[ov.back[k] - n]++; }
        ov.nback = 0;
        c++;
    }
    *cycles = c;
    free(ov.has); free(ov.send); free(ov.recv); free(ov.back); free(tmp);
    free(ov.rstart); free(ov.rlist); free(ov.rnext);
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
