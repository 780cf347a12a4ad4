/* Schedule files; see schedfile.h. */
#include "cc/schedfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/json.h"
#include "cc/search.h"

/* A schedule file larger than this is refused (a schedule of CC_MAX_NODES
 * nodes' all-to-all is far smaller in practice). */
#define SCHEDFILE_MAX_BYTES ((size_t)256 << 20)

struct cc_schedfile {
    char *path;
    js_value *doc;
    cc_desc desc;
    char *senders, *receivers;   /* comma-joined lists for the desc */
    int steps;                   /* the header's "steps", -1 if absent */
};

void cc_schedfile_free(cc_schedfile *f)
{
    if (!f) return;
    free(f->path);
    js_free(f->doc);
    free(f->senders);
    free(f->receivers);
    free(f);
}

const cc_desc *cc_schedfile_desc(const cc_schedfile *f) { return &f->desc; }

static int slurp(const char *path, char **out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    *out = NULL;
    if (!f) return cc_fail(CC_EINPUT, err, errlen, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    int rc = CC_OK;
    while (buf && rc == CC_OK) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) break;
        if (len > SCHEDFILE_MAX_BYTES) rc = cc_fail(CC_EINPUT, err, errlen, "%s: larger than %zu MB", path, SCHEDFILE_MAX_BYTES >> 20);
        else if (len + 1 == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
    }
    if (!buf) rc = cc_fail(CC_ENOMEM, err, errlen, "%s: out of memory", path);
    else if (rc == CC_OK && ferror(f)) rc = cc_fail(CC_EINPUT, err, errlen, "%s: read error", path);
    else if (rc == CC_OK && memchr(buf, '\0', len)) rc = cc_fail(CC_EINPUT, err, errlen, "%s: NUL byte in the file", path);
    fclose(f);
    if (rc != CC_OK) { free(buf); return rc; }
    buf[len] = '\0';
    *out = buf;
    return CC_OK;
}

static int bad(const cc_schedfile *f, const js_value *v, const char *what, char *err, size_t errlen)
{
    return cc_fail(CC_EINPUT, err, errlen, "%s: line %d: %s", f->path, v->line, what);
}

/* A JSON array of name strings, joined with commas. */
static int name_list(cc_schedfile *f, const js_value *v, char **out, char *err, size_t errlen)
{
    if (v->type != JS_ARR || v->n == 0) return bad(f, v, "expected a non-empty array of node names", err, errlen);
    size_t len = 1;
    for (size_t i = 0; i < v->n; i++) {
        if (v->items[i]->type != JS_STR) return bad(f, v->items[i], "expected a node name string", err, errlen);
        len += strlen(v->items[i]->str) + 1;
    }
    char *s = malloc(len);
    if (!s) return cc_fail(CC_ENOMEM, err, errlen, "out of memory");
    s[0] = '\0';
    for (size_t i = 0; i < v->n; i++) { if (i) strcat(s, ","); strcat(s, v->items[i]->str); }
    *out = s;
    return CC_OK;
}

static int read_faults(cc_schedfile *f, const js_value *v, char *err, size_t errlen)
{
    const js_value *links = js_get(v, "links"), *nodes = js_get(v, "nodes");
    if (v->type != JS_OBJ) return bad(f, v, "\"faults\" must be an object {\"links\": [[A, B], ..], \"nodes\": [..]}", err, errlen);
    cc_desc *d = &f->desc;
    d->faults_given = true;
    if (links) {
        if (links->type != JS_ARR || links->n > CC_MAX_FAULTS) return bad(f, links, "\"links\" must be an array of at most 64 [A, B] pairs", err, errlen);
        for (size_t i = 0; i < links->n; i++) {
            const js_value *l = links->items[i];
            if (l->type != JS_ARR || l->n != 2 || l->items[0]->type != JS_STR || l->items[1]->type != JS_STR)
                return bad(f, l, "a failed link is a pair of node names [A, B]", err, errlen);
            d->fail_a[d->nfail_link] = l->items[0]->str;
            d->fail_b[d->nfail_link++] = l->items[1]->str;
        }
    }
    if (nodes) {
        if (nodes->type != JS_ARR || nodes->n > CC_MAX_FAULTS) return bad(f, nodes, "\"nodes\" must be an array of at most 64 node names", err, errlen);
        for (size_t i = 0; i < nodes->n; i++) {
            if (nodes->items[i]->type != JS_STR) return bad(f, nodes->items[i], "a failed node is a name string", err, errlen);
            d->fail_node[d->nfail_node++] = nodes->items[i]->str;
        }
    }
    return CC_OK;
}

/* A non-negative integer field. */
static int read_count(cc_schedfile *f, const js_value *v, const char *what, int hi, int *out, char *err, size_t errlen)
{
    if (v->type != JS_NUM || v->num < 0 || v->num > hi || v->num != (int)v->num) {
        char msg[120];
        snprintf(msg, sizeof msg, "\"%s\" must be an integer in [0, %d]", what, hi);
        return bad(f, v, msg, err, errlen);
    }
    *out = (int)v->num;
    return CC_OK;
}

static int read_desc(cc_schedfile *f, char *err, size_t errlen)
{
    const js_value *r = f->doc, *v;
    cc_desc *d = &f->desc;
    int rc;
    if (r->type != JS_OBJ) return bad(f, r, "expected an object with a \"schedule\" array", err, errlen);
    if ((v = js_get(r, "topology"))) {
        if (v->type != JS_STR) return bad(f, v, "\"topology\" must be a string", err, errlen);
        d->topology = v->str;
    }
    if ((v = js_get(r, "faults")) && (rc = read_faults(f, v, err, errlen))) return rc;
    if ((v = js_get(r, "cc"))) {
        if (v->type != JS_STR || (d->kind = cc_kind_find(v->str)) < 0) return bad(f, v, "\"cc\" must be one of oab oas aab aas mnb mns", err, errlen);
    }
    if ((v = js_get(r, "switching"))) {
        if (v->type != JS_STR || (d->sw = cc_switching_find(v->str)) < 0) return bad(f, v, "\"switching\" must be wh or sf", err, errlen);
    }
    if ((v = js_get(r, "ports"))) {
        if (v->type == JS_STR && strcmp(v->str, "all") == 0) d->ports = 0;
        else if ((rc = read_count(f, v, "ports", 1024, &d->ports, err, errlen))) return rc;
        else if (d->ports == 0) return bad(f, v, "\"ports\" must be \"all\" or an integer in [1, 1024]", err, errlen);
    }
    if ((v = js_get(r, "nonminimal")) && (rc = read_count(f, v, "nonminimal", CC_PATHS_MAX_EXTRA, &d->extra, err, errlen))) return rc;
    if ((v = js_get(r, "steps")) && (rc = read_count(f, v, "steps", CC_STEPS_MAX, &f->steps, err, errlen))) return rc;
    if ((v = js_get(r, "root"))) {
        if (v->type != JS_STR) return bad(f, v, "\"root\" must be a node name string", err, errlen);
        d->root = v->str;
    }
    if ((v = js_get(r, "senders"))) { if ((rc = name_list(f, v, &f->senders, err, errlen))) return rc; d->senders = f->senders; }
    if ((v = js_get(r, "receivers"))) { if ((rc = name_list(f, v, &f->receivers, err, errlen))) return rc; d->receivers = f->receivers; }
    v = js_get(r, "schedule");
    if (!v || v->type != JS_ARR) return bad(f, r, "expected an object with a \"schedule\" array", err, errlen);
    return CC_OK;
}

int cc_schedfile_read(const char *path, cc_schedfile **out, char *err, size_t errlen)
{
    *out = NULL;
    cc_schedfile *f = calloc(1, sizeof *f);
    if (!f || !(f->path = malloc(strlen(path) + 1))) { free(f); return cc_fail(CC_ENOMEM, err, errlen, "out of memory"); }
    strcpy(f->path, path);
    f->desc = cc_desc_empty();
    f->steps = -1;
    char *text;
    int rc = slurp(path, &text, err, errlen);
    if (rc == CC_OK) {
        char jerr[200];
        jerr[0] = '\0';
        f->doc = js_parse(text, jerr, sizeof jerr);
        free(text);
        if (!f->doc) rc = cc_fail(CC_EINPUT, err, errlen, "%s: %s", path, jerr);
    }
    if (rc == CC_OK) rc = read_desc(f, err, errlen);
    if (rc != CC_OK) { cc_schedfile_free(f); return rc; }
    *out = f;
    return CC_OK;
}

int cc_schedfile_steps(const cc_schedfile *f) { return f->steps; }

/* A node reference: a name string (or an integer, read as its name). */
static int node_ref(const js_value *v, const cc_topo *t)
{
    char buf[32];
    const char *name = NULL;
    if (v->type == JS_STR) name = v->str;
    else if (v->type == JS_NUM && v->num >= 0 && v->num < 1e9) { snprintf(buf, sizeof buf, "%.0f", v->num); name = buf; }
    return name ? cc_topo_node(t, name) : -1;
}

int cc_schedfile_schedule(const cc_schedfile *f, const cc_topo *t, cc_schedule **out, char *err, size_t errlen)
{
    *out = NULL;
    const js_value *steps = js_get(f->doc, "schedule");
    size_t maxlen = (size_t)t->n + 1;   /* a longer path revisits a node: keep one node more to report it */
    cc_schedule *s = cc_schedule_new();
    int *nodes = malloc((maxlen + 1) * sizeof *nodes);
    int rc = CC_OK;
    if (!s || !nodes) rc = cc_fail(CC_ENOMEM, err, errlen, "%s: out of memory", f->path);
    for (size_t i = 0; rc == CC_OK && i < steps->n; i++) {
        const js_value *st = steps->items[i], *sn = js_get(st, "step"), *trs = js_get(st, "transfers");
        if (!sn || sn->type != JS_NUM || sn->num < 0 || sn->num > 1e6 || sn->num != (int)sn->num) {
            rc = bad(f, st, "each step needs \"step\": an integer in [0, 1000000]", err, errlen);
            break;
        }
        if (!trs || trs->type != JS_ARR) { rc = bad(f, st, "each step needs a \"transfers\" array", err, errlen); break; }
        for (size_t j = 0; rc == CC_OK && j < trs->n; j++) {
            const js_value *tr = trs->items[j], *p = js_get(tr, "path"), *msg = js_get(tr, "msg");
            if (!p || p->type != JS_ARR || p->n < 2 || p->n > maxlen) {
                rc = bad(f, tr, "a transfer needs \"path\": an array of 2 or more node names, at most one per node plus one", err, errlen);
                break;
            }
            for (size_t k = 0; rc == CC_OK && k < p->n; k++)
                if ((nodes[k] = node_ref(p->items[k], t)) < 0) {
                    char msg2[300];
                    snprintf(msg2, sizeof msg2, "unknown node in path (topology %.200s)", t->spec);
                    rc = bad(f, p->items[k], msg2, err, errlen);
                }
            if (rc != CC_OK) break;
            int origin = nodes[0];
            if (msg && (origin = node_ref(msg, t)) < 0) { rc = bad(f, msg, "\"msg\" names no node of the topology", err, errlen); break; }
            if (cc_schedule_add(s, (int)sn->num, origin, (int)p->n, nodes) != CC_OK) rc = cc_fail(CC_ENOMEM, err, errlen, "%s: out of memory", f->path);
        }
    }
    free(nodes);
    if (rc != CC_OK) { cc_schedule_free(s); return rc; }
    *out = s;
    return CC_OK;
}
