/* Path enumeration: BFS distances from every node, then a depth-first walk
 * that only steps to neighbours from which the destination is still reachable
 * within the remaining hop budget (so only paths of the wanted length are
 * visited).  See paths.h. */
#include "cc/paths.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    cc_paths *p;
    int cap;
    size_t ccap, pcap;  /* allocated entries of p->ch and p->off */
    int count;          /* paths of the current pair so far */
    int *stack;         /* channels of the path being built */
    char *onpath;
    int fail;           /* 0, -1 out of memory, -2 over CC_MAX_BYTES, -3 over CC_PATHS_MAX_STEPS */
    long long steps;    /* calls of walk so far, all pairs */
} walker;

static bool grow(int **v, size_t *cap, size_t need)
{
    if (need <= *cap) return true;
    size_t c = *cap * 2 > need ? *cap * 2 : need;
    int *nv = realloc(*v, c * sizeof *nv);
    if (!nv) return false;
    *v = nv;
    *cap = c;
    return true;
}

static void push_path(walker *w, int len)
{
    cc_paths *p = w->p;
    size_t base = (size_t)p->off[p->npaths];
    if ((base + (size_t)len + (size_t)p->npaths + 2) * sizeof(int) > CC_MAX_BYTES) { w->fail = -2; return; }
    if (!grow(&p->off, &w->pcap, (size_t)p->npaths + 2) || !grow(&p->ch, &w->ccap, base + (size_t)len)) { w->fail = -1; return; }
    memcpy(p->ch + base, w->stack, (size_t)len * sizeof(int));
    p->npaths++;
    p->off[p->npaths] = (int)(base + (size_t)len);
    w->count++;
}

static void walk(walker *w, int u, int d, int depth, int left)
{
    if (w->fail) return;
    if (w->count >= w->cap) { w->p->truncated = true; return; }
    if (++w->steps > CC_PATHS_MAX_STEPS) { w->fail = -3; return; }
    const cc_topo *t = w->p->t;
    if (left == 0) {
        if (u == d) push_path(w, depth);
        return;
    }
    if (left == 1) {
        /* the last hop: a channel u->d, looked for on the shorter side (a
         * star's centre has thousands of outputs, a leaf one input) */
        if (t->in_start[d + 1] - t->in_start[d] < t->out_start[u + 1] - t->out_start[u]) {
            for (int i = t->in_start[d]; i < t->in_start[d + 1] && !w->fail && w->count < w->cap; i++)
                if (t->ch_from[t->in_ch[i]] == u) { w->stack[depth] = t->in_ch[i]; push_path(w, depth + 1); }
        } else {
            for (int i = t->out_start[u]; i < t->out_start[u + 1] && !w->fail && w->count < w->cap; i++)
                if (t->ch_to[t->out_ch[i]] == d) { w->stack[depth] = t->out_ch[i]; push_path(w, depth + 1); }
        }
        return;
    }
    for (int i = t->out_start[u]; i < t->out_start[u + 1] && !w->fail; i++) {
        int c = t->out_ch[i], v = t->ch_to[c];
        int dv = w->p->dist[(size_t)v * w->p->n + d];
        if (w->onpath[v] || dv < 0 || dv > left - 1) continue;
        if (v == d && left > 1) continue;   /* a simple path ends at d */
        w->onpath[v] = 1;
        w->stack[depth] = c;
        walk(w, v, d, depth + 1, left - 1);
        w->onpath[v] = 0;
        if (w->count >= w->cap) return;
    }
}

void cc_paths_free(cc_paths *p)
{
    if (!p) return;
    free(p->dist); free(p->first); free(p->off); free(p->ch);
    free(p);
}

/* Hop distances from every node (BFS), -1 for unreachable. */
static void distances(const cc_topo *t, int *dist, int *queue)
{
    int n = t->n;
    for (int s = 0; s < n; s++) {
        int *ds = dist + (size_t)s * n;
        for (int v = 0; v < n; v++) ds[v] = -1;
        int head = 0, tail = 0;
        ds[s] = 0;
        queue[tail++] = s;
        while (head < tail) {
            int u = queue[head++];
            for (int i = t->out_start[u]; i < t->out_start[u + 1]; i++) {
                int v = t->ch_to[t->out_ch[i]];
                if (ds[v] < 0) { ds[v] = ds[u] + 1; queue[tail++] = v; }
            }
        }
    }
}

/* Is the graph bipartite (2-colourable over its links, either direction)?
 * Then every s-d route has the parity of dist(s,d), and the other lengths
 * are not searched.  queue: n ints of scratch; 1, 0, or -1 if out of memory. */
static int bipartite(const cc_topo *t, int *queue)
{
    int n = t->n;
    signed char *col = malloc((size_t)n);
    if (!col) return -1;
    memset(col, -1, (size_t)n);
    int ok = 1;
    for (int r = 0; r < n && ok; r++) {
        if (col[r] >= 0) continue;
        int head = 0, tail = 0;
        col[r] = 0;
        queue[tail++] = r;
        while (head < tail && ok) {
            int u = queue[head++];
            for (int side = 0; side < 2 && ok; side++) {
                const int *start = side ? t->in_start : t->out_start, *chs = side ? t->in_ch : t->out_ch;
                for (int i = start[u]; i < start[u + 1]; i++) {
                    int c = chs[i], v = side ? t->ch_from[c] : t->ch_to[c];
                    if (col[v] < 0) { col[v] = (signed char)(1 - col[u]); queue[tail++] = v; }
                    else if (col[v] == col[u]) { ok = 0; break; }
                }
            }
        }
    }
    free(col);
    return ok;
}

/* Bytes the shortest routes need (at most cap per pair): the number of
 * shortest paths from s is counted by dynamic programming over the BFS
 * layers, without enumerating them. */
static double minimal_bytes(const cc_topo *t, const int *dist, int cap, const bool *src, const bool *dst, int *queue,
                            double *cnt)
{
    int n = t->n;
    double bytes = 0;
    for (int s = 0; s < n; s++) {
        if (src && !src[s]) continue;
        const int *ds = dist + (size_t)s * n;
        int head = 0, tail = 0;
        for (int v = 0; v < n; v++) cnt[v] = 0;
        /* BFS again: its queue lists the nodes by distance */
        queue[tail++] = s;
        cnt[s] = -1;
        while (head < tail) {
            int u = queue[head++];
            for (int i = t->out_start[u]; i < t->out_start[u + 1]; i++) {
                int v = t->ch_to[t->out_ch[i]];
                if (cnt[v] == 0) { cnt[v] = -1; queue[tail++] = v; }
            }
        }
        for (int v = 0; v < n; v++) cnt[v] = 0;
        cnt[s] = 1;
        for (int k = 1; k < tail; k++) {
            int v = queue[k];
            for (int i = t->in_start[v]; i < t->in_start[v + 1]; i++) {
                int u = t->ch_from[t->in_ch[i]];
                if (ds[u] == ds[v] - 1) cnt[v] += cnt[u];
            }
            if (cnt[v] > cap) cnt[v] = cap;
            if (dst && !dst[v]) continue;
            bytes += cnt[v] * (ds[v] + 1) * (double)sizeof(int);
        }
    }
    return bytes;
}

int cc_paths_new(const cc_topo *t, int extra, int cap, cc_paths **out, char *err, size_t errlen)
{
    return cc_paths_new_for(t, extra, cap, NULL, NULL, out, err, errlen);
}

int cc_paths_new_for(const cc_topo *t, int extra, int cap, const bool *src, const bool *dst, cc_paths **out, char *err,
                     size_t errlen)
{
    int n = t->n, rc = CC_ENOMEM;
    *out = NULL;
    if (extra < 0 || extra > CC_PATHS_MAX_EXTRA)
        return cc_fail(CC_EINPUT, err, errlen, "extra: %d is not in [0, %d]", extra, CC_PATHS_MAX_EXTRA);
    if (2.0 * n * n * sizeof(int) > (double)CC_MAX_BYTES)
        return cc_fail(CC_EINPUT, err, errlen, "%d nodes need %.0f MB of distance tables, limit %zu MB", n,
                       2.0 * n * n * sizeof(int) / 1048576.0, CC_MAX_BYTES >> 20);
    cc_paths *p = calloc(1, sizeof *p);
    walker w = { .p = p, .cap = cap > 0 ? cap : 1, .ccap = 1024, .pcap = 1024 };
    int *queue = malloc((size_t)n * sizeof *queue);
    double *cnt = malloc((size_t)n * sizeof *cnt);
    if (!p || !queue || !cnt) goto done;
    p->t = t;
    p->n = n;
    p->extra = extra;
    p->dist = malloc((size_t)n * n * sizeof *p->dist);
    p->first = malloc(((size_t)n * n + 1) * sizeof *p->first);
    if (!p->dist || !p->first) goto done;
    distances(t, p->dist, queue);
    double need = minimal_bytes(t, p->dist, w.cap, src, dst, queue, cnt) + 2.0 * n * n * sizeof(int);
    if (need > (double)CC_MAX_BYTES) {
        rc = cc_fail(CC_EINPUT, err, errlen, "the routes of %d nodes (at most %d per pair) need %.0f MB, limit %zu MB; lower max_paths",
                     n, w.cap, need / 1048576.0, CC_MAX_BYTES >> 20);
        goto done;
    }
    p->off = malloc(w.pcap * sizeof *p->off);
    p->ch = malloc(w.ccap * sizeof *p->ch);
    w.stack = malloc((size_t)(n + 1) * sizeof *w.stack);
    w.onpath = calloc((size_t)n, 1);
    if (!p->off || !p->ch || !w.stack || !w.onpath) goto done;
    p->off[0] = 0;
    int step = 1;
    if (extra > 0) {
        int bip = bipartite(t, queue);
        if (bip < 0) goto done;
        if (bip) step = 2;
    }
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++) {
            p->first[s * n + d] = p->npaths;
            int dd = p->dist[s * n + d];
            if (s == d || dd < 0 || (src && !src[s]) || (dst && !dst[d])) continue;
            w.count = 0;
            w.onpath[s] = 1;
            for (int len = dd; len <= dd + extra && !w.fail; len += step) walk(&w, s, d, 0, len);
            w.onpath[s] = 0;
            if (w.fail) break;
            if (w.count > p->maxcount) p->maxcount = w.count;
        }
    if (w.fail == -2) {
        rc = cc_fail(CC_EINPUT, err, errlen, "the routes of %d nodes up to %d hops longer need more than %zu MB; lower max_paths or extra",
                     n, extra, CC_MAX_BYTES >> 20);
        goto done;
    }
    if (w.fail == -3) {
        rc = cc_fail(CC_EINPUT, err, errlen, "the routes of %d nodes up to %d hops longer take more than %.0e steps to enumerate; lower extra or max_paths",
                     n, extra, (double)CC_PATHS_MAX_STEPS);
        goto done;
    }
    if (w.fail) goto done;
    p->first[n * n] = p->npaths;
    rc = CC_OK;
done:
    if (rc == CC_ENOMEM) cc_fail(CC_ENOMEM, err, errlen, "out of memory enumerating paths");
    free(queue); free(cnt); free(w.stack); free(w.onpath);
    if (rc != CC_OK) { cc_paths_free(p); return rc; }
    *out = p;
    return CC_OK;
}
