/* Schedule storage and (de)serialisation; see schedule.h. */
#include "cc/schedule.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cc/json.h"

cc_schedule *cc_schedule_new(void) { return calloc(1, sizeof(cc_schedule)); }

void cc_schedule_free(cc_schedule *s)
{
    if (!s) return;
    free(s->tr);
    free(s->pool);
    free(s);
}

bool cc_schedule_add(cc_schedule *s, int step, int origin, int nnodes, const int *nodes)
{
    if (s->nt == s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        cc_transfer *nt = realloc(s->tr, (size_t)cap * sizeof *nt);
        if (!nt) return false;
        s->tr = nt;
        s->cap = cap;
    }
    if (s->npool + nnodes > s->poolcap) {
        int cap = 2 * s->poolcap + nnodes + 64;
        int *np = realloc(s->pool, (size_t)cap * sizeof *np);
        if (!np) return false;
        s->pool = np;
        s->poolcap = cap;
    }
    memcpy(s->pool + s->npool, nodes, (size_t)nnodes * sizeof *nodes);
    s->tr[s->nt++] = (cc_transfer){ step, origin, nnodes, s->npool };
    s->npool += nnodes;
    return true;
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

void cc_schedule_write_json(FILE *f, const cc_schedule *s, const cc_problem *pb, const char *in)
{
    const cc_topo *t = pb->t;
    fprintf(f, "{\n%s  \"topology\": ", in);
    put_str(f, t->spec);
    fprintf(f, ",\n%s  \"cc\": \"%s\",\n%s  \"switching\": \"%s\",\n%s  \"ports\": ", in, cc_kind_names[pb->kind], in, cc_switching_names[pb->sw], in);
    if (pb->ports) fprintf(f, "%d", pb->ports); else fprintf(f, "\"all\"");
    if (pb->root >= 0) { fprintf(f, ",\n%s  \"root\": ", in); put_str(f, t->names[pb->root]); }
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

static char *slurp(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno)); return NULL; }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) break;
        if (len + 1 == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
    }
    bool bad = ferror(f);
    fclose(f);
    if (!buf) { snprintf(err, errlen, "%s: out of memory", path); return NULL; }
    if (bad) { free(buf); snprintf(err, errlen, "%s: read error", path); return NULL; }
    buf[len] = '\0';
    return buf;
}

/* A node reference: a name string (or an integer, read as its name). */
static int node_ref(const js_value *v, const cc_topo *t)
{
    char buf[32];
    const char *name = NULL;
    if (v->type == JS_STR) name = v->str;
    else if (v->type == JS_NUM) { snprintf(buf, sizeof buf, "%.0f", v->num); name = buf; }
    return name ? cc_topo_node(t, name) : -1;
}

cc_schedule *cc_schedule_read_json(const char *path, const cc_topo *t, char *err, size_t errlen)
{
    char *text = slurp(path, err, errlen);
    if (!text) return NULL;
    char jerr[200];
    js_value *root = js_parse(text, jerr, sizeof jerr);
    free(text);
    if (!root) { snprintf(err, errlen, "%s: %s", path, jerr); return NULL; }
    cc_schedule *s = cc_schedule_new();
    int *nodes = malloc((size_t)(4 * t->n + 8) * sizeof *nodes);
    const js_value *steps = js_get(root, "schedule");
    if (!s || !nodes) { snprintf(err, errlen, "%s: out of memory", path); goto fail; }
    if (!steps || steps->type != JS_ARR) { snprintf(err, errlen, "%s: line %d: expected an object with a \"schedule\" array", path, root->line); goto fail; }
    for (size_t i = 0; i < steps->n; i++) {
        const js_value *st = steps->items[i], *sn = js_get(st, "step"), *trs = js_get(st, "transfers");
        if (!sn || sn->type != JS_NUM || sn->num < 0 || sn->num > 1e6 || sn->num != (int)sn->num) {
            snprintf(err, errlen, "%s: line %d: each step needs \"step\": a non-negative integer", path, st->line); goto fail; }
        if (!trs || trs->type != JS_ARR) { snprintf(err, errlen, "%s: line %d: each step needs a \"transfers\" array", path, st->line); goto fail; }
        for (size_t j = 0; j < trs->n; j++) {
            const js_value *tr = trs->items[j], *p = js_get(tr, "path"), *msg = js_get(tr, "msg");
            if (!p || p->type != JS_ARR || p->n < 2 || p->n > (size_t)(4 * t->n + 8)) {
                snprintf(err, errlen, "%s: line %d: a transfer needs \"path\": an array of at least 2 node names", path, tr->line); goto fail; }
            for (size_t k = 0; k < p->n; k++)
                if ((nodes[k] = node_ref(p->items[k], t)) < 0) {
                    snprintf(err, errlen, "%s: line %d: unknown node in path (topology %s)", path, p->items[k]->line, t->spec); goto fail; }
            int origin = nodes[0];
            if (msg && (origin = node_ref(msg, t)) < 0) {
                snprintf(err, errlen, "%s: line %d: \"msg\" names no node of %s", path, msg->line, t->spec); goto fail; }
            if (!cc_schedule_add(s, (int)sn->num, origin, (int)p->n, nodes)) { snprintf(err, errlen, "%s: out of memory", path); goto fail; }
        }
    }
    free(nodes);
    js_free(root);
    return s;
fail:
    free(nodes);
    js_free(root);
    cc_schedule_free(s);
    return NULL;
}
