/* CC problem definitions: who sends to whom.  See problem.h. */
#include "cc/problem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cc_kind_names[6] = { "oab", "oas", "aab", "aas", "mnb", "mns" };
const char *const cc_switching_names[2] = { "wh", "sf" };

void cc_problem_free(cc_problem *pb)
{
    if (!pb) return;
    free(pb->sender); free(pb->receiver); free(pb->msrc); free(pb->mdst);
    free(pb);
}

/* Mark the nodes of a comma-separated list of names. */
static bool parse_set(const cc_topo *t, const char *flag, const char *list, bool *set, char err[CC_ERRLEN])
{
    const char *p = list;
    int count = 0;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char name[128];
        if (len == 0 || len >= sizeof name) { snprintf(err, CC_ERRLEN, "%.60s: '%.60s' is not a comma-separated list of node names", flag, list); return false; }
        memcpy(name, p, len);
        name[len] = '\0';
        int v = cc_topo_node(t, name);
        if (v < 0) { snprintf(err, CC_ERRLEN, "%.60s: no node named '%.60s' in %.60s", flag, name, t->spec); return false; }
        set[v] = true;
        count++;
        p = comma ? comma + 1 : p + len;
        if (comma && !*p) { snprintf(err, CC_ERRLEN, "%.60s: '%.60s' ends with a comma", flag, list); return false; }
    }
    if (!count) { snprintf(err, CC_ERRLEN, "%.60s: empty node list", flag); return false; }
    return true;
}

cc_problem *cc_problem_new(const cc_topo *t, cc_kind kind, cc_switching sw, int ports,
                           const char *root, const char *senders, const char *receivers,
                           char err[CC_ERRLEN])
{
    int n = t->n;
    cc_problem *pb = calloc(1, sizeof *pb);
    if (!pb) goto oom;
    pb->t = t;
    pb->kind = kind;
    pb->sw = sw;
    pb->ports = ports;
    pb->root = -1;
    pb->broadcast = kind == CC_OAB || kind == CC_AAB || kind == CC_MNB;
    pb->sender = calloc((size_t)n, sizeof(bool));
    pb->receiver = calloc((size_t)n, sizeof(bool));
    if (!pb->sender || !pb->receiver) goto oom;
    if (kind == CC_OAB || kind == CC_OAS) {
        const char *r = root ? root : t->names[0];
        pb->root = cc_topo_node(t, r);
        if (pb->root < 0) { snprintf(err, CC_ERRLEN, "--root: no node named '%.60s' in %.60s (it may have failed)", r, t->spec); goto fail; }
        pb->sender[pb->root] = true;
        for (int v = 0; v < n; v++) pb->receiver[v] = true;
    } else if (kind == CC_AAB || kind == CC_AAS) {
        for (int v = 0; v < n; v++) pb->sender[v] = pb->receiver[v] = true;
    } else {
        if (senders) { if (!parse_set(t, "--senders", senders, pb->sender, err)) goto fail; }
        else for (int v = 0; v < n; v++) pb->sender[v] = true;
        if (receivers) { if (!parse_set(t, "--receivers", receivers, pb->receiver, err)) goto fail; }
        else for (int v = 0; v < n; v++) pb->receiver[v] = true;
    }
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++)
            if (s != d && pb->sender[s] && pb->receiver[d]) pb->nmsg++;
    if (pb->nmsg == 0) { snprintf(err, CC_ERRLEN, "the CC has no messages (senders and receivers are the same single node)"); goto fail; }
    pb->msrc = malloc((size_t)pb->nmsg * sizeof(int));
    pb->mdst = malloc((size_t)pb->nmsg * sizeof(int));
    if (!pb->msrc || !pb->mdst) goto oom;
    int m = 0;
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++)
            if (s != d && pb->sender[s] && pb->receiver[d]) { pb->msrc[m] = s; pb->mdst[m] = d; m++; }
    return pb;
oom:
    snprintf(err, CC_ERRLEN, "out of memory");
fail:
    cc_problem_free(pb);
    return NULL;
}

int cc_problem_kout(const cc_problem *pb, int v)
{
    int d = cc_topo_outdeg(pb->t, v);
    return pb->ports > 0 && pb->ports < d ? pb->ports : d;
}

int cc_problem_kin(const cc_problem *pb, int v)
{
    int d = cc_topo_indeg(pb->t, v);
    return pb->ports > 0 && pb->ports < d ? pb->ports : d;
}
