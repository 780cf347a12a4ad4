/* Per-link lower bounds with head, body and tail order (see bound.h). */
#include "ga/bound.h"

#include <stdlib.h>

#include "ga/floor.h"
#include "router/route.h"

/* Packets of one type share release and tail; cnt of them are left, and
 * done flits of the type have crossed (flit bound only). */
typedef struct { int64_t r, q; int cnt; } ptype;

/* Jackson's rule over the flits of the types' remaining packets from cycle
 * t0 on (a type's packet number i, 0-based among those left, is treated as
 * released at max(t0, r)): each cycle the released flit with the largest tail
 * crosses.  Returns the largest t + q, or 0 when nothing is left. */
static int64_t jackson(const ptype *ty, int nt, int len, int64_t t0, int *done)
{
    int64_t total = 0, best = 0;
    for (int i = 0; i < nt; i++) { done[i] = 0; total += (int64_t)ty[i].cnt * len; }
    int64_t t = t0;
    while (total > 0) {
        int pick = -1;
        int64_t next = INT64_MAX;
        for (int i = 0; i < nt; i++) {
            if (done[i] == ty[i].cnt * len) continue;
            int64_t r = ty[i].r > t0 ? ty[i].r : t0;
            /* flits released by t: each packet of the type f + 1 flits at r + f */
            int64_t rel = t < r ? 0 : (t - r + 1 < len ? t - r + 1 : len) * ty[i].cnt;
            if (rel > done[i]) {
                if (pick < 0 || ty[i].q > ty[pick].q) pick = i;
            } else {
                /* the next release of this type: a new flit when t - r + 1 < len */
                int64_t nr = t < r ? r : t + 1;
                if (nr < next) next = nr;
            }
        }
        if (pick < 0) { t = next; continue; }
        done[pick]++;
        total--;
        if (t + ty[pick].q > best) best = t + ty[pick].q;
        t++;
    }
    return best;
}

int64_t ga_bound_flits(int m, const int64_t *r, const int64_t *q, int len)
{
    if (m <= 0) return 0;
    ptype *ty = malloc(sizeof *ty * (size_t)m);
    int *done = malloc(sizeof *done * (size_t)m);
    if (!ty || !done) { free(ty); free(done); return -1; }
    for (int j = 0; j < m; j++) ty[j] = (ptype){ r[j], q[j], 1 };
    int64_t b = jackson(ty, m, len, INT64_MIN / 2, done);
    free(ty); free(done);
    return b;
}

/* Branch and bound over active non-preemptive schedules (Giffler-Thompson:
 * the next packet starts before the earliest completion of any left), with
 * packets of one type interchangeable, pruned by Jackson's flit bound of
 * what is left. */
typedef struct {
    ptype *ty;
    int nt, len;
    int *done;
    int64_t best, nodes, limit;
    int aborted;
} bb;

static void dfs(bb *s, int64_t t, int64_t cur, int left)
{
    if (s->aborted) return;
    if (++s->nodes > s->limit) { s->aborted = 1; return; }
    if (left == 0) { if (cur < s->best) s->best = cur; return; }
    int64_t lb = jackson(s->ty, s->nt, s->len, t, s->done);
    if ((lb > cur ? lb : cur) >= s->best) return;
    int64_t e = INT64_MAX;
    for (int i = 0; i < s->nt; i++)
        if (s->ty[i].cnt > 0) {
            int64_t c = (s->ty[i].r > t ? s->ty[i].r : t) + s->len;
            if (c < e) e = c;
        }
    /* Candidates by tail, largest first (a good schedule early prunes more). */
    int order[64], no = 0;
    for (int i = 0; i < s->nt && no < 64; i++)
        if (s->ty[i].cnt > 0 && (s->ty[i].r > t ? s->ty[i].r : t) < e) order[no++] = i;
    for (int a = 1; a < no; a++)
        for (int b = a; b > 0 && s->ty[order[b]].q > s->ty[order[b - 1]].q; b--) {
            int x = order[b]; order[b] = order[b - 1]; order[b - 1] = x;
        }
    for (int k = 0; k < no; k++) {
        ptype *p = &s->ty[order[k]];
        int64_t start = p->r > t ? p->r : t, v = start + s->len - 1 + p->q;
        p->cnt--;
        dfs(s, start + s->len, v > cur ? v : cur, left - 1);
        p->cnt++;
        if (s->aborted) return;
    }
}

int64_t ga_bound_packets(int m, const int64_t *r, const int64_t *q, const int *vc, int vcsel, int len,
                         int64_t node_limit, int64_t *nodes)
{
    ptype *ty = malloc(sizeof *ty * (size_t)(m > 0 ? m : 1));
    int *done = malloc(sizeof *done * (size_t)(m > 0 ? m : 1));
    if (!ty || !done) { free(ty); free(done); return -1; }
    int nt = 0, left = 0;
    for (int j = 0; j < m; j++) {
        if (vc && vc[j] != vcsel) continue;
        int k = 0;
        while (k < nt && !(ty[k].r == r[j] && ty[k].q == q[j])) k++;
        if (k == nt) ty[nt++] = (ptype){ r[j], q[j], 0 };
        ty[k].cnt++;
        left++;
    }
    int64_t res = 0;
    if (left > 0) {
        if (nt > 64) { free(ty); free(done); return -1; }
        bb s = { .ty = ty, .nt = nt, .len = len, .done = done, .best = INT64_MAX,
                 .limit = node_limit > 0 ? node_limit : 1000000 };
        dfs(&s, INT64_MIN / 2, INT64_MIN / 2, left);
        if (nodes) *nodes += s.nodes;
        res = s.aborted ? -1 : s.best;
    }
    free(ty); free(done);
    return res;
}

/* The route of source s: its links (node * 4 + d) and VCs; returns the hops. */
static int route_of(const route_params *rp, const int32_t *dest, int s, int32_t *path, int *pvc)
{
    int node = s, in = PORT_P, vc = 0, h = 0;
    for (;;) {
        int ovc, d = route_next(rp, node, in, vc, dest[s], &ovc);
        if (d == PORT_P) return h;
        path[h] = node * 4 + d;
        pvc[h++] = ovc;
        node = route_grid_neighbour(rp, node, d);
        in = route_opposite(d);
        vc = ovc;
    }
}

int ga_bound(const sim_params *p, const int32_t *dest, int64_t node_limit, ga_bound_info *out)
{
    int n = p->n, nodes = n * n, L = p->flits, S = p->slices;
    size_t nlinks = (size_t)nodes * 4;
    *out = (ga_bound_info){ .flit_link = -1, .packet_link = -1, .packet_vc = -1, .exact = 1 };
    if ((out->floor = ga_floor(p, dest)) < 0) return -1;
    /* square grids under dor only (the links' loads follow its routes): the floor alone */
    if (sim_height(p) != n || p->routing != ROUTING_DOR) {
        out->flit = out->bound = out->floor;
        out->exact = 0;
        return 0;
    }
    route_params rp = { .n = n, .tie = p->tie, .dateline = p->dateline, .topo = p->topo };
    int64_t msg = (int64_t)S * L;
    int *start = calloc(nlinks + 1, sizeof *start);   /* link l's crossings: [start[l], start[l + 1]) */
    int32_t *path = malloc(sizeof *path * (size_t)(2 * n + 2));
    int *pvc = malloc(sizeof *pvc * (size_t)(2 * n + 2));
    int64_t *R = NULL, *Q = NULL;
    int *VC = NULL, rc = -1;
    if (!start || !path || !pvc) goto done;
    /* Count the crossings of each link, and the sources' own bound. */
    out->flit = 0;
    for (int s = 0; s < nodes; s++) {
        if (dest[s] == s && p->self == SELF_SKIP) continue;
        int h = route_of(&rp, dest, s, path, pvc);
        if (msg + h + 1 > out->flit) out->flit = msg + h + 1;
        for (int k = 0; k < h; k++) start[path[k]] += S;
    }
    for (size_t l = 0; l < nlinks; l++) start[l + 1] += start[l];   /* start[l]: end of link l */
    size_t total = (size_t)start[nlinks];
    R = malloc(sizeof *R * (total + 1));
    Q = malloc(sizeof *Q * (total + 1));
    VC = malloc(sizeof *VC * (total + 1));
    if (!R || !Q || !VC) goto done;
    /* Fill each link's crossings from its end down, so start[l] ends at its start. */
    for (int s = 0; s < nodes; s++) {
        if (dest[s] == s && p->self == SELF_SKIP) continue;
        int h = route_of(&rp, dest, s, path, pvc);
        for (int k = 0; k < h; k++)
            for (int sl = 0; sl < S; sl++) {
                int at = --start[path[k]];
                R[at] = (int64_t)sl * L + k + 1;   /* the head's earliest crossing */
                Q[at] = h - k - 1 + 2;             /* the links after it, the ejection, +1 */
                VC[at] = pvc[k];
            }
    }
    for (size_t l = 0; l < nlinks; l++) {
        int lo = start[l], m = start[l + 1] - lo;
        if (m <= 0) continue;
        int64_t fb = ga_bound_flits(m, R + lo, Q + lo, L);
        if (fb < 0) goto done;
        if (fb > out->flit) { out->flit = fb; out->flit_link = (int32_t)l; }
        /* Under the any-VC rule (meshes) a packet's VC is not its route's: no packet bound. */
        for (int v = 0; v < p->vcs && p->vc_rule == VCRULE_DATELINE; v++) {
            int any = 0;
            for (int j = 0; j < m; j++) any |= VC[lo + j] == v;
            if (!any) continue;
            int64_t pb = ga_bound_packets(m, R + lo, Q + lo, VC + lo, v, L, node_limit, &out->nodes);
            if (pb < 0) { out->exact = 0; continue; }
            if (pb > out->packet) { out->packet = pb; out->packet_link = (int32_t)l; out->packet_vc = v; }
        }
    }
    out->bound = out->floor;
    if (out->flit > out->bound) out->bound = out->flit;
    if (out->packet > out->bound) out->bound = out->packet;
    rc = 0;
done:
    free(start); free(path); free(pvc); free(R); free(Q); free(VC);
    return rc;
}
