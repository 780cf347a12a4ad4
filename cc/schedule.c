/* Schedule storage and (de)serialisation; see schedule.h. */
#include "cc/schedule.h"

#include "util/json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>


cc_schedule *cc_schedule_new(void) { return calloc(1, sizeof(cc_schedule)); }

void cc_schedule_free(cc_schedule *s)
{
    if (!s) return;
    free(s->tr);
    free(s->pool);
    free(s);
}

int cc_schedule_add(cc_schedule *s, int step, int origin, int nnodes, const int *nodes)
{
    if (s->nt == s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        cc_transfer *nt = realloc(s->tr, (size_t)cap * sizeof *nt);
        if (!nt) return CC_ENOMEM;
        s->tr = nt;
        s->cap = cap;
    }
    if (s->npool + nnodes > s->poolcap) {
        int cap = 2 * s->poolcap + nnodes + 64;
        int *np = realloc(s->pool, (size_t)cap * sizeof *np);
        if (!np) return CC_ENOMEM;
        s->pool = np;
        s->poolcap = cap;
    }
    memcpy(s->pool + s->npool, nodes, (size_t)nnodes * sizeof *nodes);
    s->tr[s->nt++] = (cc_transfer){ step, origin, nnodes, s->npool };
    s->npool += nnodes;
    return CC_OK;
}

int cc_schedule_steps(const cc_schedule *s, cc_switching sw)
{
    int last = -1;
    for (int i = 0; i < s->nt; i++) {
        int end = s->tr[i].step + (sw == CC_SF ? s->tr[i].nnodes - 2 : 0);
        if (end > last) last = end;
    }
    return last + 1;
}

static int cmp_tr(const void *a, const void *b, const cc_schedule *s)
{
    const cc_transfer *x = a, *y = b;
    if (x->step != y->step) return x->step < y->step ? -1 : 1;
    if (x->origin != y->origin) return x->origin < y->origin ? -1 : 1;
    const int *px = s->pool + x->off, *py = s->pool + y->off;
    for (int i = 0; i < x->nnodes && i < y->nnodes; i++)
        if (px[i] != py[i]) return px[i] < py[i] ? -1 : 1;
    return (x->nnodes > y->nnodes) - (x->nnodes < y->nnodes);
}

void cc_schedule_sort(cc_schedule *s)
{
    /* Insertion sort: qsort has no context argument in C11, and schedules are
     * at most a few thousand transfers, sorted once for output. */
    for (int i = 1; i < s->nt; i++) {
        cc_transfer key = s->tr[i];
        int j = i - 1;
        while (j >= 0 && cmp_tr(&s->tr[j], &key, s) > 0) { s->tr[j + 1] = s->tr[j]; j--; }
        s->tr[j + 1] = key;
    }
}

static bool many_origins(const cc_problem *pb)
{
    int c = 0;
    for (int v = 0; v < pb->t->n; v++) c += pb->sender[v];
    return pb->broadcast && c > 1;
}

void cc_schedule_write_text(FILE *f, const cc_schedule *s, const cc_problem *pb)
{
    const cc_topo *t = pb->t;
    bool orig = many_origins(pb);
    int steps = 0;
    for (int i = 0; i < s->nt; i++) if (s->tr[i].step + 1 > steps) steps = s->tr[i].step + 1;
    for (int st = 0; st < steps; st++) {
        fprintf(f, "step %d:", st);
        for (int i = 0; i < s->nt; i++) {
            if (s->tr[i].step != st) continue;
            fputc(' ', f);
            if (orig) fprintf(f, "%s:", t->names[s->tr[i].origin]);
            const int *nd = cc_schedule_nodes(s, i);
            for (int k = 0; k < s->tr[i].nnodes; k++) fprintf(f, "%s%s", k ? "-" : "", t->names[nd[k]]);
        }
        fputc('\n', f);
    }
}

/* The names of the nodes in set, as a JSON array. */
static json_t *names_json(const cc_topo *t, const bool *set)
{
    json_t *a = json_array();
    int bad = !a;
    for (int v = 0; !bad && v < t->n; v++)
        if (set[v]) bad |= json_array_append_new(a, ujson_str(t->names[v]));
    if (bad) { json_decref(a); return NULL; }
    return a;
}

/* The problem part: everything verify needs to rebuild it. */
static int add_problem(json_t *o, const cc_problem *pb)
{
    const cc_topo *t = pb->t;
    json_t *links = json_array(), *nodes = json_array();
    int bad = !links || !nodes;
    for (int i = 0; !bad && i < t->nfail_links; i++) {
        json_t *l = json_array();
        bad |= !l || json_array_append_new(l, ujson_str(t->fail_a[i])) || json_array_append_new(l, ujson_str(t->fail_b[i]));
        bad |= json_array_append_new(links, l);
    }
    for (int i = 0; !bad && i < t->nfail_nodes; i++) bad |= json_array_append_new(nodes, ujson_str(t->fail_node[i]));
    bad |= json_object_set_new(o, "topology", ujson_str(t->spec));
    bad |= json_object_set_new(o, "faults", json_pack("{s:o, s:o}", "links", links, "nodes", nodes));
    bad |= json_object_set_new(o, "cc", json_string(cc_kind_names[pb->kind]));
    bad |= json_object_set_new(o, "switching", json_string(cc_switching_names[pb->sw]));
    bad |= json_object_set_new(o, "ports", pb->ports ? json_integer(pb->ports) : json_string("all"));
    bad |= json_object_set_new(o, "nonminimal", json_integer(pb->extra));
    if (pb->root >= 0) bad |= json_object_set_new(o, "root", ujson_str(t->names[pb->root]));
    if (pb->kind == CC_MNB || pb->kind == CC_MNS) {
        bad |= json_object_set_new(o, "senders", names_json(t, pb->sender));
        bad |= json_object_set_new(o, "receivers", names_json(t, pb->receiver));
    }
    return bad ? -1 : 0;
}

json_t *cc_schedule_json(const cc_schedule *s, const cc_problem *pb)
{
    const cc_topo *t = pb->t;
    json_t *o = json_object(), *sched = json_array();
    int bad = !o || !sched || add_problem(o, pb);
    bad |= json_object_set_new(o, "steps", json_integer(cc_schedule_steps(s, pb->sw)));
    int steps = 0;
    for (int i = 0; i < s->nt; i++) if (s->tr[i].step + 1 > steps) steps = s->tr[i].step + 1;
    for (int st = 0; !bad && st < steps; st++) {
        json_t *trs = json_array();
        bad |= !trs;
        for (int i = 0; !bad && i < s->nt; i++) {
            if (s->tr[i].step != st) continue;
            json_t *tr = json_object(), *path = json_array();
            bad |= !tr || !path;
            if (!bad && pb->broadcast) bad |= json_object_set_new(tr, "msg", ujson_str(t->names[s->tr[i].origin]));
            const int *nd = cc_schedule_nodes(s, i);
            for (int k = 0; !bad && k < s->tr[i].nnodes; k++) bad |= json_array_append_new(path, ujson_str(t->names[nd[k]]));
            bad |= json_object_set_new(tr, "path", path);
            bad |= json_array_append_new(trs, tr);
        }
        bad |= json_array_append_new(sched, json_pack("{s:i, s:o}", "step", st, "transfers", trs));
    }
    bad |= json_object_set_new(o, "schedule", sched);
    if (bad) { json_decref(o); return NULL; }
    return o;
}

int cc_schedule_write_json(FILE *f, const cc_schedule *s, const cc_problem *pb)
{
    json_t *o = cc_schedule_json(s, pb);
    int rc = o && json_dumpf(o, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) == 0 && fputc('\n', f) != EOF ? 0 : -1;
    json_decref(o);
    return rc;
}
