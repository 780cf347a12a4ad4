/* Schedule verification; see verify.h.  Checks, in order: each path is a
 * walk over existing channels; no channel carries two transfers in a step;
 * the K-port limit; broadcast senders were informed in an earlier step; every
 * required delivery happens exactly as the CC demands. */
#include "cc/verify.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void report(cc_verify_result *r, cc_verr kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

const char *const cc_verr_names[CC_VERR_KINDS] = {
    "broken paths", "channel conflicts", "uninformed senders", "port excesses", "missing deliveries", "extra transfers",
    "non-simple paths", "paths too long",
};

/* Hop distances from s over the working channels, -1 where unreachable. */
static void bfs(const cc_topo *t, int s, int *dist, int *queue)
{
    for (int v = 0; v < t->n; v++) dist[v] = -1;
    int head = 0, tail = 0;
    dist[s] = 0;
    queue[tail++] = s;
    while (head < tail) {
        int u = queue[head++];
        for (int i = t->out_start[u]; i < t->out_start[u + 1]; i++) {
            int v = t->ch_to[t->out_ch[i]];
            if (dist[v] < 0) { dist[v] = dist[u] + 1; queue[tail++] = v; }
        }
    }
}

/* Each path simple and within the routing model: at most dist + extra hops
 * (SF broadcasts included: every hop of a longer path is a wasted step). */
static int check_routes(const cc_problem *pb, const cc_schedule *s, cc_verify_result *r)
{
    const cc_topo *t = pb->t;
    int n = t->n;
    int *dist = malloc((size_t)n * sizeof *dist), *queue = malloc((size_t)n * sizeof *queue), *mark = calloc((size_t)n, sizeof *mark);
    if (!dist || !queue || !mark) { free(dist); free(queue); free(mark); return CC_ENOMEM; }
    int src = -1;
    for (int i = 0; i < s->nt; i++) {
        const int *nd = cc_schedule_nodes(s, i);
        int len = s->tr[i].nnodes;
        bool simple = true;
        for (int k = 0; k < len; k++) {
            if (mark[nd[k]] == i + 1) simple = false;
            mark[nd[k]] = i + 1;
        }
        if (!simple) {
            report(r, CC_VERR_NOT_SIMPLE, "step %d: the path of transfer %d from %s to %s visits a node twice",
                   s->tr[i].step, i, t->names[nd[0]], t->names[nd[len - 1]]);
            continue;
        }
        if (nd[0] != src) { src = nd[0]; bfs(t, src, dist, queue); }
        int d = dist[nd[len - 1]];
        if (d >= 0 && len - 1 > d + pb->extra)
            report(r, CC_VERR_TOO_LONG, "step %d: the path of transfer %d from %s to %s has %d hops; the routing model allows %d (shortest %d + %d)",
                   s->tr[i].step, i, t->names[nd[0]], t->names[nd[len - 1]], len - 1, d + pb->extra, d, pb->extra);
    }
    free(dist); free(queue); free(mark);
    return CC_OK;
}

static void report(cc_verify_result *r, cc_verr kind, const char *fmt, ...)
{
    r->ok = false;
    if (r->count[kind]++ == 0 && r->first[0] == '\0') {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->first, sizeof r->first, fmt, ap);
        va_end(ap);
    }
}

/* Paths over working channels, no channel twice in a step, the port limit. */
static int check_channels(const cc_problem *pb, const cc_schedule *s, int S, cc_verify_result *r)
{
    const cc_topo *t = pb->t;
    int n = t->n;
    bool sf = pb->sw == CC_SF;
    int *used = calloc((size_t)S * t->nch, sizeof *used);     /* transfer index + 1 using (step, channel) */
    int *sends = calloc((size_t)S * n, sizeof *sends), *recvs = calloc((size_t)S * n, sizeof *recvs);
    if (!used || !sends || !recvs) { free(used); free(sends); free(recvs); return CC_ENOMEM; }
    for (int i = 0; i < s->nt; i++) {
        const cc_transfer *tr = &s->tr[i];
        const int *nd = cc_schedule_nodes(s, i);
        if (tr->step < 0) { report(r, CC_VERR_EXTRA, "transfer %d starts in negative step %d", i, tr->step); continue; }
        for (int k = 0; k + 1 < tr->nnodes; k++) {
            int c = cc_topo_channel(t, nd[k], nd[k + 1]);
            int st = tr->step + (sf ? k : 0);
            if (c < 0) {
                report(r, CC_VERR_BROKEN_PATH, "step %d: no working channel %s->%s on the path of transfer %d",
                       tr->step, t->names[nd[k]], t->names[nd[k + 1]], i);
                continue;
            }
            int *u = &used[(size_t)st * t->nch + c];
            if (*u) report(r, CC_VERR_CONFLICT, "step %d: channel %s->%s used by transfers %d and %d",
                           st, t->names[nd[k]], t->names[nd[k + 1]], *u - 1, i);
            else *u = i + 1;
            /* WH: only the end points' processors take part; SF: every hop is a
             * send by its tail and a receive by its head. */
            if (sf || k == 0) sends[st * n + nd[k]]++;
            if (sf || k + 2 == tr->nnodes) recvs[st * n + nd[k + 1]]++;
        }
    }
    if (pb->ports > 0)
        for (int st = 0; st < S; st++)
            for (int v = 0; v < n; v++) {
                if (sends[st * n + v] > pb->ports)
                    report(r, CC_VERR_PORTS, "step %d: node %s sends %d messages, port limit %d", st, t->names[v], sends[st * n + v], pb->ports);
                if (recvs[st * n + v] > pb->ports)
                    report(r, CC_VERR_PORTS, "step %d: node %s receives %d messages, port limit %d", st, t->names[v], recvs[st * n + v], pb->ports);
            }
    free(used); free(sends); free(recvs);
    return CC_OK;
}

/* Broadcast: transfers visited by start step; a sender must hold the message
 * from a strictly earlier step (arrival times are recorded after checking),
 * no message goes back to its origin, every receiver gets every message. */
static int check_broadcast(const cc_problem *pb, const cc_schedule *s, int S, cc_verify_result *r)
{
    const cc_topo *t = pb->t;
    int n = t->n;
    bool sf = pb->sw == CC_SF;
    int *informed = malloc((size_t)n * n * sizeof *informed);  /* [origin*n + v]: end step it arrived, or NEVER */
    int *order = malloc((size_t)(s->nt + 1) * sizeof *order);
    if (!informed || !order) { free(informed); free(order); return CC_ENOMEM; }
    const int NEVER = 1 << 30;
    for (int i = 0; i < n * n; i++) informed[i] = NEVER;
    for (int o = 0; o < n; o++) informed[o * n + o] = -1;
    int k = 0;
    for (int st = 0; st < S; st++) {
        int first = k;
        for (int i = 0; i < s->nt; i++) if (s->tr[i].step == st) order[k++] = i;
        for (int j = first; j < k; j++) {
            const cc_transfer *tr = &s->tr[order[j]];
            const int *nd = cc_schedule_nodes(s, order[j]);
            int o = tr->origin;
            if (!pb->sender[o]) { report(r, CC_VERR_EXTRA, "step %d: transfer carries the message of %s, which is not a sender", st, t->names[o]); continue; }
            if (nd[tr->nnodes - 1] == o)
                report(r, CC_VERR_EXTRA, "step %d: a transfer brings the message of %s back to %s", st, t->names[o], t->names[o]);
            if (informed[o * n + nd[0]] >= st)
                report(r, CC_VERR_UNINFORMED, "step %d: node %s sends the message of %s before having it",
                       st, t->names[nd[0]], t->names[o]);
        }
        for (int j = first; j < k; j++) {
            const cc_transfer *tr = &s->tr[order[j]];
            const int *nd = cc_schedule_nodes(s, order[j]);
            int o = tr->origin;
            for (int h = 1; h < tr->nnodes; h++) {
                if (!sf && h + 1 < tr->nnodes) continue;   /* WH: intermediate routers do not keep it */
                int at = st + (sf ? h - 1 : 0);
                if (informed[o * n + nd[h]] > at) informed[o * n + nd[h]] = at;
            }
        }
    }
    for (int o = 0; o < n; o++)
        for (int v = 0; v < n; v++)
            if (pb->sender[o] && pb->receiver[v] && o != v && informed[o * n + v] == NEVER)
                report(r, CC_VERR_MISSING, "node %s never receives the message of %s", t->names[v], t->names[o]);
    free(informed); free(order);
    return CC_OK;
}

/* Scatter: each transfer one message of the CC, each message exactly once. */
static int check_scatter(const cc_problem *pb, const cc_schedule *s, cc_verify_result *r)
{
    const cc_topo *t = pb->t;
    int n = t->n;
    char *got = calloc((size_t)n * n, 1);
    if (!got) return CC_ENOMEM;
    for (int i = 0; i < s->nt; i++) {
        const int *nd = cc_schedule_nodes(s, i);
        int a = nd[0], b = nd[s->tr[i].nnodes - 1];
        if (a == b || !pb->sender[a] || !pb->receiver[b]) {
            report(r, CC_VERR_EXTRA, "step %d: transfer %s->%s is not a message of this CC", s->tr[i].step, t->names[a], t->names[b]);
            continue;
        }
        /* A scatter transfer carries its first node's message to its last. */
        if (s->tr[i].origin != a) {
            report(r, CC_VERR_EXTRA, "step %d: transfer %s->%s names the message of %s, not of %s", s->tr[i].step,
                   t->names[a], t->names[b], t->names[s->tr[i].origin], t->names[a]);
            continue;
        }
        if (got[a * n + b]++)
            report(r, CC_VERR_EXTRA, "step %d: message %s->%s sent more than once", s->tr[i].step, t->names[a], t->names[b]);
    }
    for (int m = 0; m < pb->nmsg; m++)
        if (!got[pb->msrc[m] * n + pb->mdst[m]])
            report(r, CC_VERR_MISSING, "message %s->%s is never sent", t->names[pb->msrc[m]], t->names[pb->mdst[m]]);
    free(got);
    return CC_OK;
}

int cc_verify(const cc_problem *pb, const cc_schedule *s, cc_verify_result *r)
{
    memset(r, 0, sizeof *r);
    r->ok = true;
    r->steps = cc_schedule_steps(s, pb->sw);
    int S = r->steps > 0 ? r->steps : 1;
    int rc = check_channels(pb, s, S, r);
    if (rc == CC_OK) rc = pb->broadcast ? check_broadcast(pb, s, S, r) : check_scatter(pb, s, r);
    if (rc == CC_OK) rc = check_routes(pb, s, r);
    return rc;
}
