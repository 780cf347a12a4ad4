/* The pipelined ring broadcast along a cycle through the CC's nodes (see
 * ring.h): a backtracking search for the cycle, then the schedule. */
#include "cc/ring.h"

#include <stdlib.h>

typedef struct {
    const cc_problem *pb;
    const cc_paths *paths;
    int k;               /* nodes to visit */
    int *cycle;          /* [k] nodes in cycle order so far */
    int *route;          /* [k] route id from cycle[i] to cycle[i+1 mod k] */
    char *on;            /* [n] node on the cycle */
    char *chused;        /* [nch] channel taken by a route */
    int *freeout;        /* [n] out-channels not taken */
    long left;           /* expansions left */
} ring;

typedef struct { int node, route, len, key; } cand;

/* Route id is usable: allowed by the switching and over channels no route
 * has taken. */
static bool route_free(const ring *r, int id)
{
    int len = cc_paths_len(r->paths, id);
    if (r->pb->sw == CC_SF && len != 1) return false;   /* a multi-hop SF transfer would lag behind the pipeline */
    const int *ch = cc_paths_ch(r->paths, id);
    for (int j = 0; j < len; j++) if (r->chused[ch[j]]) return false;
    return true;
}

static void take(ring *r, int id, char on)
{
    const int *ch = cc_paths_ch(r->paths, id);
    for (int j = 0; j < cc_paths_len(r->paths, id); j++) {
        r->chused[ch[j]] = on;
        r->freeout[r->pb->t->ch_from[ch[j]]] += on ? -1 : 1;
    }
}

static int cmp_cand(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->len != y->len) return x->len - y->len;   /* short routes first: they leave the most channels */
    if (x->key != y->key) return x->key - y->key;   /* then the most constrained node (Warnsdorff) */
    return x->node - y->node;
}

/* Extend the path of depth nodes; true when it closes into a cycle. */
static bool extend(ring *r, int depth)
{
    const cc_paths *P = r->paths;
    int v = r->cycle[depth - 1];
    if (depth == r->k) {
        for (int q = 0; q < cc_paths_count(P, v, r->cycle[0]); q++) {
            int id = cc_paths_id(P, v, r->cycle[0], q);
            if (route_free(r, id)) { r->route[depth - 1] = id; return true; }
        }
        return false;
    }
    if (r->left-- <= 0) return false;
    int n = r->pb->t->n, nc = 0, cap = 0;
    for (int w = 0; w < n; w++) if (!r->on[w] && r->pb->sender[w]) cap += cc_paths_count(P, v, w);
    cand *c = malloc(((size_t)cap + 1) * sizeof *c);
    if (!c) { r->left = -1; return false; }
    for (int w = 0; w < n; w++) {
        if (r->on[w] || !r->pb->sender[w]) continue;
        for (int q = 0; q < cc_paths_count(P, v, w); q++) {
            int id = cc_paths_id(P, v, w, q);
            if (route_free(r, id)) c[nc++] = (cand){ w, id, cc_paths_len(P, id), r->freeout[w] };
        }
    }
    qsort(c, (size_t)nc, sizeof *c, cmp_cand);
    bool ok = false;
    for (int j = 0; j < nc && !ok && r->left > 0; j++) {
        if (!route_free(r, c[j].route)) continue;
        r->on[c[j].node] = 1;
        r->cycle[depth] = c[j].node;
        r->route[depth - 1] = c[j].route;
        take(r, c[j].route, 1);
        ok = extend(r, depth + 1);
        if (!ok) { take(r, c[j].route, 0); r->on[c[j].node] = 0; }
    }
    free(c);
    return ok;
}

/* The schedule of a found cycle: in step st the node at position i sends,
 * along its route, the origin st positions behind it. */
static int ring_build(const ring *r, cc_schedule **out)
{
    const cc_paths *P = r->paths;
    const cc_topo *t = r->pb->t;
    int k = r->k, rc = CC_OK;
    cc_schedule *s = cc_schedule_new();
    int *nodes = malloc(((size_t)t->n + 1) * sizeof *nodes);
    if (!s || !nodes) rc = CC_ENOMEM;
    for (int st = 0; rc == CC_OK && st < k - 1; st++)
        for (int i = 0; rc == CC_OK && i < k; i++) {
            int id = r->route[i], len = cc_paths_len(P, id);
            const int *ch = cc_paths_ch(P, id);
            nodes[0] = r->cycle[i];
            for (int j = 0; j < len; j++) nodes[j + 1] = t->ch_to[ch[j]];
            rc = cc_schedule_add(s, st, r->cycle[((i - st) % k + k) % k], len + 1, nodes);
        }
    free(nodes);
    if (rc != CC_OK) { cc_schedule_free(s); return rc; }
    *out = s;
    return CC_OK;
}

int cc_ring_schedule(const cc_problem *pb, const cc_paths *paths, long max_expand, cc_schedule **out, char *err, size_t errlen)
{
    const cc_topo *t = pb->t;
    int n = t->n, k = 0, first = -1;
    *out = NULL;
    if (!pb->broadcast) return CC_OK;
    for (int v = 0; v < n; v++) {
        if (pb->sender[v] != pb->receiver[v]) return CC_OK;
        if (pb->sender[v]) { k++; if (first < 0) first = v; }
    }
    if (k < 2) return CC_OK;
    ring r = { pb, paths, k, malloc((size_t)k * sizeof *r.cycle), malloc((size_t)k * sizeof *r.route), calloc((size_t)n, 1),
               calloc((size_t)t->nch + 1, 1), malloc((size_t)n * sizeof *r.freeout), max_expand };
    int rc = CC_OK;
    if (!r.cycle || !r.route || !r.on || !r.chused || !r.freeout) rc = CC_ENOMEM;
    if (rc == CC_OK) {
        for (int v = 0; v < n; v++) r.freeout[v] = cc_topo_outdeg(t, v);
        r.cycle[0] = first;
        r.on[first] = 1;
        if (extend(&r, 1)) rc = ring_build(&r, out);
        else if (r.left < -1) rc = CC_ENOMEM;
    }
    free(r.cycle); free(r.route); free(r.on); free(r.chused); free(r.freeout);
    return rc == CC_OK ? CC_OK : cc_fail(CC_ENOMEM, err, errlen, "out of memory building the ring");
}
