/* Path enumeration: BFS distances from every node, then a depth-first walk
 * that only steps to neighbours from which the destination is still reachable
 * within the remaining hop budget (so only paths of the wanted length are
 * visited).  See paths.h. */
#include "cc/paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    cc_paths *p;
    int cap, ccap, pcap;
    int count;          /* paths of the current pair so far */
    int *stack;         /* channels of the path being built */
    char *onpath;
    bool oom;
} walker;

static bool push_path(walker *w, int len)
{
    cc_paths *p = w->p;
    if (p->npaths + 2 > w->pcap) {
        int cap = w->pcap * 2;
        int *no = realloc(p->off, (size_t)cap * sizeof *no);
        if (!no) return false;
        p->off = no;
        w->pcap = cap;
    }
    int base = p->off[p->npaths];
    if (base + len > w->ccap) {
        int cap = w->ccap * 2 + len;
        int *nc = realloc(p->ch, (size_t)cap * sizeof *nc);
        if (!nc) return false;
        p->ch = nc;
        w->ccap = cap;
    }
    memcpy(p->ch + base, w->stack, (size_t)len * sizeof(int));
    p->npaths++;
    p->off[p->npaths] = base + len;
    return true;
}

static void walk(walker *w, int u, int d, int depth, int left)
{
    if (w->oom || w->count >= w->cap) {
        if (w->count >= w->cap && !w->oom) w->p->truncated = true;
        return;
    }
    const cc_topo *t = w->p->t;
    if (left == 0) {
        if (u == d) {
            if (!push_path(w, depth)) { w->oom = true; return; }
            w->count++;
        }
        return;
    }
    for (int i = t->out_start[u]; i < t->out_start[u + 1]; i++) {
        int c = t->out_ch[i], v = t->ch_to[c];
        int dv = w->p->dist[v * w->p->n + d];
        if (w->onpath[v] || dv < 0 || dv > left - 1) continue;
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

cc_paths *cc_paths_new(const cc_topo *t, bool nonminimal, int cap, char err[CC_ERRLEN])
{
    int n = t->n;
    cc_paths *p = calloc(1, sizeof *p);
    walker w = { .p = p, .cap = cap > 0 ? cap : 1, .ccap = 1024, .pcap = 1024 };
    int *queue = malloc((size_t)n * sizeof *queue);
    if (!p || !queue) goto oom;
    p->t = t;
    p->n = n;
    p->dist = malloc((size_t)n * n * sizeof *p->dist);
    p->first = malloc(((size_t)n * n + 1) * sizeof *p->first);
    p->off = malloc((size_t)w.pcap * sizeof *p->off);
    p->ch = malloc((size_t)w.ccap * sizeof *p->ch);
    w.stack = malloc((size_t)(n + 1) * sizeof *w.stack);
    w.onpath = calloc((size_t)n, 1);
    if (!p->dist || !p->first || !p->off || !p->ch || !w.stack || !w.onpath) goto oom;
    for (int s = 0; s < n; s++) {
        int *ds = p->dist + (size_t)s * n;
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
    p->off[0] = 0;
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++) {
            p->first[s * n + d] = p->npaths;
            int dd = p->dist[s * n + d];
            if (s == d || dd < 0) continue;
            w.count = 0;
            w.onpath[s] = 1;
            walk(&w, s, d, 0, dd);
            if (nonminimal) walk(&w, s, d, 0, dd + 1);
            w.onpath[s] = 0;
            if (w.oom) goto oom;
            if (w.count > p->maxcount) p->maxcount = w.count;
        }
    p->first[n * n] = p->npaths;
    free(queue); free(w.stack); free(w.onpath);
    return p;
oom:
    snprintf(err, CC_ERRLEN, "out of memory enumerating paths");
    free(queue); free(w.stack); free(w.onpath);
    cc_paths_free(p);
    return NULL;
}
