/* Schedule storage and (de)serialisation; see schedule.h. */
#include "cc/schedule.h"

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

static void put_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static void put_names(FILE *f, const cc_topo *t, const bool *set)
{
    fputc('[', f);
    for (int v = 0, k = 0; v < t->n; v++)
        if (set[v]) { if (k++) fputs(", ", f); put_str(f, t->names[v]); }
    fputc(']', f);
}

/* The problem part: everything verify needs to rebuild it. */
static void write_problem(FILE *f, const cc_problem *pb, const char *in)
{
    const cc_topo *t = pb->t;
    fprintf(f, "{\n%s  \"topology\": ", in);
    put_str(f, t->spec);
    fprintf(f, ",\n%s  \"faults\": {\"links\": [", in);
    for (int i = 0; i < t->nfail_links; i++) {
        fputs(i ? ", [" : "[", f);
        put_str(f, t->fail_a[i]);
        fputs(", ", f);
        put_str(f, t->fail_b[i]);
        fputc(']', f);
    }
    fputs("], \"nodes\": [", f);
    for (int i = 0; i < t->nfail_nodes; i++) { if (i) fputs(", ", f); put_str(f, t->fail_node[i]); }
    fprintf(f, "]},\n%s  \"cc\": \"%s\",\n%s  \"switching\": \"%s\",\n%s  \"ports\": ", in, cc_kind_names[pb->kind], in,
            cc_switching_names[pb->sw], in);
    if (pb->ports) fprintf(f, "%d", pb->ports); else fprintf(f, "\"all\"");
    fprintf(f, ",\n%s  \"nonminimal\": %d", in, pb->extra);
    if (pb->root >= 0) { fprintf(f, ",\n%s  \"root\": ", in); put_str(f, t->names[pb->root]); }
    if (pb->kind == CC_MNB || pb->kind == CC_MNS) {
        fprintf(f, ",\n%s  \"senders\": ", in);
        put_names(f, t, pb->sender);
        fprintf(f, ",\n%s  \"receivers\": ", in);
        put_names(f, t, pb->receiver);
    }
}

void cc_schedule_write_json(FILE *f, const cc_schedule *s, const cc_problem *pb, const char *in)
{
    const cc_topo *t = pb->t;
    write_problem(f, pb, in);
    fprintf(f, ",\n%s  \"steps\": %d,\n%s  \"schedule\": [", in, cc_schedule_steps(s, pb->sw), in);
    int steps = 0;
    for (int i = 0; i < s->nt; i++) if (s->tr[i].step + 1 > steps) steps = s->tr[i].step + 1;
    for (int st = 0; st < steps; st++) {
        fprintf(f, "%s\n%s    {\"step\": %d, \"transfers\": [", st ? "," : "", in, st);
        bool first = true;
        for (int i = 0; i < s->nt; i++) {
            if (s->tr[i].step != st) continue;
            fprintf(f, "%s\n%s      {", first ? "" : ",", in);
            first = false;
            if (pb->broadcast) { fprintf(f, "\"msg\": "); put_str(f, t->names[s->tr[i].origin]); fprintf(f, ", "); }
            fprintf(f, "\"path\": [");
            const int *nd = cc_schedule_nodes(s, i);
            for (int k = 0; k < s->tr[i].nnodes; k++) { if (k) fprintf(f, ", "); put_str(f, t->names[nd[k]]); }
            fprintf(f, "]}");
        }
        fprintf(f, "\n%s    ]}", in);
    }
    fprintf(f, "\n%s  ]\n%s}", in, in);
}
