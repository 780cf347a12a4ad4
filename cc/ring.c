/* The pipelined ring broadcast along a Hamiltonian cycle (see ring.h). */
#include "cc/ring.h"

#include <stdlib.h>

typedef struct {
    const cc_topo *t;
    int *cycle;          /* [n] nodes in cycle order so far */
    char *used;          /* [n] */
    int *cand, *key;     /* [nch]: successor lists of the nodes on the path, one after another */
    long left;           /* expansions left */
} ham;

/* Working successors of v not yet on the path. */
static int free_succ(const ham *h, int v)
{
    int k = 0;
    for (int e = h->t->out_start[v]; e < h->t->out_start[v + 1]; e++) k += !h->used[h->t->ch_to[h->t->out_ch[e]]];
    return k;
}

/* Extend the path of depth nodes; true when it closes into a cycle.  The
 * path's nodes have distinct out-channels, so their successor lists fit in
 * cand/key from offset base on. */
static bool extend(ham *h, int depth, int base)
{
    const cc_topo *t = h->t;
    int v = h->cycle[depth - 1];
    if (depth == t->n) return cc_topo_channel(t, v, h->cycle[0]) >= 0;
    if (h->left-- <= 0) return false;
    /* Most constrained successor first (Warnsdorff's rule). */
    int *cand = h->cand + base, *key = h->key + base, nc = 0;
    for (int e = t->out_start[v]; e < t->out_start[v + 1]; e++) {
        int w = t->ch_to[t->out_ch[e]];
        if (h->used[w]) continue;
        int k = free_succ(h, w), j = nc++;
        for (; j > 0 && key[j - 1] > k; j--) { cand[j] = cand[j - 1]; key[j] = key[j - 1]; }
        cand[j] = w;
        key[j] = k;
    }
    for (int j = 0; j < nc; j++) {
        h->used[cand[j]] = 1;
        h->cycle[depth] = cand[j];
        if (extend(h, depth + 1, base + nc)) return true;
        h->used[cand[j]] = 0;
        if (h->left <= 0) return false;
    }
    return false;
}

int cc_ring_schedule(const cc_problem *pb, long max_expand, cc_schedule **out, char *err, size_t errlen)
{
    const cc_topo *t = pb->t;
    int n = t->n;
    *out = NULL;
    if (!pb->broadcast) return CC_OK;
    for (int v = 0; v < n; v++) if (!pb->sender[v] || !pb->receiver[v]) return CC_OK;
    ham h = { t, malloc((size_t)n * sizeof *h.cycle), calloc((size_t)n, 1), malloc(((size_t)t->nch + 1) * sizeof *h.cand),
              malloc(((size_t)t->nch + 1) * sizeof *h.key), max_expand };
    if (!h.cycle || !h.used || !h.cand || !h.key) {
        free(h.cycle); free(h.used); free(h.cand); free(h.key);
        return cc_fail(CC_ENOMEM, err, errlen, "out of memory building the ring");
    }
    h.cycle[0] = 0;
    h.used[0] = 1;
    int rc = CC_OK;
    if (extend(&h, 1, 0)) {
        cc_schedule *s = cc_schedule_new();
        /* Step st: the node at position i sends the origin st positions behind it. */
        for (int st = 0; s && rc == CC_OK && st < n - 1; st++)
            for (int i = 0; rc == CC_OK && i < n; i++) {
                int path[2] = { h.cycle[i], h.cycle[(i + 1) % n] };
                rc = cc_schedule_add(s, st, h.cycle[((i - st) % n + n) % n], 2, path);
            }
        if (!s || rc != CC_OK) { cc_schedule_free(s); rc = cc_fail(CC_ENOMEM, err, errlen, "out of memory building the ring"); }
        else *out = s;
    }
    free(h.cycle); free(h.used); free(h.cand); free(h.key);
    return rc;
}
