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

int cc_kind_find(const char *name)
{
    for (int i = 0; i < 6; i++) if (strcmp(cc_kind_names[i], name) == 0) return i;
    return -1;
}

int cc_switching_find(const char *name)
{
    for (int i = 0; i < 2; i++) if (strcmp(cc_switching_names[i], name) == 0) return i;
    return -1;
}

/* Mark the nodes of a comma-separated list of names. */
static int parse_set(const cc_topo *t, const char *flag, const char *list, bool *set, char *err, size_t errlen)
{
    const char *p = list;
    int count = 0;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char name[256];
        if (len == 0 || len >= sizeof name) return cc_fail(CC_EINPUT, err, errlen, "%s: '%.200s' is not a comma-separated list of node names", flag, list);
        memcpy(name, p, len);
        name[len] = '\0';
        int v = cc_topo_node(t, name);
        if (v < 0) return cc_fail(CC_EINPUT, err, errlen, "%s: no node named '%.200s' in %.200s", flag, name, t->spec);
        if (set[v]) return cc_fail(CC_EINPUT, err, errlen, "%s: node '%.200s' is named twice in '%.200s'", flag, name, list);
        set[v] = true;
        count++;
        p = comma ? comma + 1 : p + len;
        if (comma && !*p) return cc_fail(CC_EINPUT, err, errlen, "%s: '%.200s' ends with a comma", flag, list);
    }
    if (!count) return cc_fail(CC_EINPUT, err, errlen, "%s: empty node list", flag);
    return CC_OK;
}

int cc_problem_new(const cc_topo *t, const cc_problem_def *def, cc_problem **out, char *err, size_t errlen)
{
    int n = t->n, rc = CC_ENOMEM;
    cc_kind kind = def->kind;
    bool rooted = kind == CC_OAB || kind == CC_OAS, many = kind == CC_MNB || kind == CC_MNS;
    *out = NULL;
    if (def->root && !rooted) return cc_fail(CC_EINPUT, err, errlen, "root applies only to kind oab|oas");
    if ((def->senders || def->receivers) && !many) return cc_fail(CC_EINPUT, err, errlen, "senders / receivers apply only to kind mnb|mns");
    if (def->ports < 0) return cc_fail(CC_EINPUT, err, errlen, "ports: %d is negative", def->ports);
    cc_problem *pb = calloc(1, sizeof *pb);
    if (!pb) goto fail;
    pb->t = t;
    pb->kind = kind;
    pb->sw = def->sw;
    pb->ports = def->ports;
    pb->extra = def->extra;
    pb->root = -1;
    pb->broadcast = kind == CC_OAB || kind == CC_AAB || kind == CC_MNB;
    pb->sender = calloc((size_t)n, sizeof(bool));
    pb->receiver = calloc((size_t)n, sizeof(bool));
    if (!pb->sender || !pb->receiver) goto fail;
    if (rooted) {
        const char *r = def->root ? def->root : t->names[0];
        pb->root = cc_topo_node(t, r);
        if (pb->root < 0) { rc = cc_fail(CC_EINPUT, err, errlen, "root: no node named '%.200s' in %.200s (it may have failed)", r, t->spec); goto fail; }
        pb->sender[pb->root] = true;
        for (int v = 0; v < n; v++) pb->receiver[v] = true;
    } else if (!many) {
        for (int v = 0; v < n; v++) pb->sender[v] = pb->receiver[v] = true;
    } else {
        if (def->senders) { if ((rc = parse_set(t, "senders", def->senders, pb->sender, err, errlen))) goto fail; }
        else for (int v = 0; v < n; v++) pb->sender[v] = true;
        if (def->receivers) { if ((rc = parse_set(t, "receivers", def->receivers, pb->receiver, err, errlen))) goto fail; }
        else for (int v = 0; v < n; v++) pb->receiver[v] = true;
        rc = CC_ENOMEM;
    }
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++)
            if (s != d && pb->sender[s] && pb->receiver[d]) pb->nmsg++;
    if (pb->nmsg == 0) { rc = cc_fail(CC_EINPUT, err, errlen, "the CC has no messages (its senders and its receivers are the same single node)"); goto fail; }
    pb->msrc = malloc((size_t)pb->nmsg * sizeof(int));
    pb->mdst = malloc((size_t)pb->nmsg * sizeof(int));
    if (!pb->msrc || !pb->mdst) goto fail;
    int m = 0;
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++)
            if (s != d && pb->sender[s] && pb->receiver[d]) { pb->msrc[m] = s; pb->mdst[m] = d; m++; }
    *out = pb;
    return CC_OK;
fail:
    if (rc == CC_ENOMEM) cc_fail(CC_ENOMEM, err, errlen, "out of memory");
    cc_problem_free(pb);
    return rc;
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
