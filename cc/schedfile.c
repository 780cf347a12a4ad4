/* Schedule files; see schedfile.h. */
#include "cc/schedfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/search.h"
#include "util/json.h"
#include "util/quote.h"

/* A schedule file larger than this is refused (a schedule of CC_MAX_NODES
 * nodes' all-to-all is far smaller in practice). */
#define SCHEDFILE_MAX_BYTES ((size_t)256 << 20)

struct cc_schedfile {
    char *path;
    json_t *doc;
    cc_desc desc;
    char *senders, *receivers;   /* comma-joined lists for the desc */
    int steps;                   /* the header's "steps", -1 if absent */
};

void cc_schedfile_free(cc_schedfile *f)
{
    if (!f) return;
    free(f->path);
    json_decref(f->doc);
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

/* Errors name the value by its place in the document, e.g.
 * "schedule[2].transfers[0].path[1]" (the reader keeps no line numbers once
 * the text is parsed; syntax errors name the line and column). */
static int bad(const cc_schedfile *f, const char *where, const char *what, char *err, size_t errlen)
{
    return cc_fail(CC_EINPUT, err, errlen, "%s: %s: %s", f->path, where, what);
}

/* A JSON array of name strings, joined with commas. */
static int name_list(cc_schedfile *f, const char *key, const json_t *v, char **out, char *err, size_t errlen)
{
    if (!json_is_array(v) || json_array_size(v) == 0) return bad(f, key, "expected a non-empty array of node names", err, errlen);
    size_t len = 1, i;
    json_t *it;
    json_array_foreach(v, i, it) {
        if (!json_is_string(it)) {
            char where[64];
            snprintf(where, sizeof where, "%s[%zu]", key, i);
            return bad(f, where, "expected a node name string", err, errlen);
        }
        len += json_string_length(it) + 1;
    }
    char *s = malloc(len);
    if (!s) return cc_fail(CC_ENOMEM, err, errlen, "out of memory");
    s[0] = '\0';
    json_array_foreach(v, i, it) { if (i) strcat(s, ","); strcat(s, json_string_value(it)); }
    *out = s;
    return CC_OK;
}

static int read_faults(cc_schedfile *f, const json_t *v, char *err, size_t errlen)
{
    if (!json_is_object(v)) return bad(f, "faults", "must be an object {\"links\": [[A, B], ..], \"nodes\": [..]}", err, errlen);
    const json_t *links = json_object_get(v, "links"), *nodes = json_object_get(v, "nodes");
    cc_desc *d = &f->desc;
    d->faults_given = true;
    size_t i;
    json_t *it;
    char where[64];
    if (links) {
        if (!json_is_array(links) || json_array_size(links) > CC_MAX_FAULTS)
            return bad(f, "faults.links", "must be an array of at most 64 [A, B] pairs", err, errlen);
        json_array_foreach(links, i, it) {
            if (!json_is_array(it) || json_array_size(it) != 2 || !json_is_string(json_array_get(it, 0)) ||
                !json_is_string(json_array_get(it, 1))) {
                snprintf(where, sizeof where, "faults.links[%zu]", i);
                return bad(f, where, "a failed link is a pair of node names [A, B]", err, errlen);
            }
            d->fail_a[d->nfail_link] = json_string_value(json_array_get(it, 0));
            d->fail_b[d->nfail_link++] = json_string_value(json_array_get(it, 1));
        }
    }
    if (nodes) {
        if (!json_is_array(nodes) || json_array_size(nodes) > CC_MAX_FAULTS)
            return bad(f, "faults.nodes", "must be an array of at most 64 node names", err, errlen);
        json_array_foreach(nodes, i, it) {
            if (!json_is_string(it)) {
                snprintf(where, sizeof where, "faults.nodes[%zu]", i);
                return bad(f, where, "a failed node is a name string", err, errlen);
            }
            d->fail_node[d->nfail_node++] = json_string_value(it);
        }
    }
    return CC_OK;
}

/* An integer field in [lo, hi]: a JSON integer (not 2.0, not "2"). */
static int read_int(cc_schedfile *f, const char *where, const json_t *v, long lo, long hi, int *out, char *err, size_t errlen)
{
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        char msg[120];
        snprintf(msg, sizeof msg, "must be an integer in [%ld, %ld]", lo, hi);
        return bad(f, where, msg, err, errlen);
    }
    *out = (int)json_integer_value(v);
    return CC_OK;
}

/* A string field, or NULL after an error. */
static const char *read_str(cc_schedfile *f, const char *key, const json_t *v, const char *what, int *rc, char *err,
                            size_t errlen)
{
    if (json_is_string(v)) return json_string_value(v);
    *rc = bad(f, key, what, err, errlen);
    return NULL;
}

static int read_desc(cc_schedfile *f, char *err, size_t errlen)
{
    const json_t *r = f->doc, *v;
    cc_desc *d = &f->desc;
    int rc = CC_OK;
    if (!json_is_object(r)) return bad(f, "the document", "expected an object with a \"schedule\" array", err, errlen);
    if ((v = json_object_get(r, "topology")) && !(d->topology = read_str(f, "topology", v, "must be a string", &rc, err, errlen)))
        return rc;
    if ((v = json_object_get(r, "faults")) && (rc = read_faults(f, v, err, errlen))) return rc;
    if ((v = json_object_get(r, "cc"))) {
        if (!json_is_string(v) || (d->kind = cc_kind_find(json_string_value(v))) < 0)
            return bad(f, "cc", "must be one of oab oas aab aas mnb mns", err, errlen);
    }
    if ((v = json_object_get(r, "switching"))) {
        if (!json_is_string(v) || (d->sw = cc_switching_find(json_string_value(v))) < 0)
            return bad(f, "switching", "must be wh or sf", err, errlen);
    }
    if ((v = json_object_get(r, "ports"))) {
        if (json_is_string(v) && strcmp(json_string_value(v), "all") == 0) d->ports = 0;
        else if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 1024)
            return bad(f, "ports", "must be \"all\" or an integer in [1, 1024]", err, errlen);
        else d->ports = (int)json_integer_value(v);
    }
    if ((v = json_object_get(r, "nonminimal")) && (rc = read_int(f, "nonminimal", v, 0, CC_PATHS_MAX_EXTRA, &d->extra, err, errlen)))
        return rc;
    if ((v = json_object_get(r, "root")) && !(d->root = read_str(f, "root", v, "must be a node name string", &rc, err, errlen)))
        return rc;
    if ((v = json_object_get(r, "senders"))) {
        if ((rc = name_list(f, "senders", v, &f->senders, err, errlen))) return rc;
        d->senders = f->senders;
    }
    if ((v = json_object_get(r, "receivers"))) {
        if ((rc = name_list(f, "receivers", v, &f->receivers, err, errlen))) return rc;
        d->receivers = f->receivers;
    }
    if ((v = json_object_get(r, "steps")) && (rc = read_int(f, "steps", v, 0, CC_STEPS_MAX, &f->steps, err, errlen)))
        return rc;
    if (!json_is_array(json_object_get(r, "schedule")))
        return bad(f, "the document", "expected an object with a \"schedule\" array", err, errlen);
    return CC_OK;
}

int cc_schedfile_parse(const char *name, const char *text, size_t len, cc_schedfile **out, char *err, size_t errlen)
{
    *out = NULL;
    cc_schedfile *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(name))) { free(f); return cc_fail(CC_ENOMEM, err, errlen, "out of memory"); }
    f->desc = cc_desc_empty();
    f->steps = -1;
    /* Strict: duplicate keys and \u0000 in strings are refused, and the whole
     * text must be one value (a NUL byte in the text ends nothing early:
     * json_loadb reads len bytes and refuses it). */
    json_error_t je;
    int rc = CC_OK;
    f->doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!f->doc) {
        /* jansson's message quotes the input near the error: escape it, so
         * the message stays one line of printable text */
        char q[QUOTE_BUF];
        rc = cc_fail(CC_EINPUT, err, errlen, "%s: line %d, column %d: %s", name, je.line, je.column,
                     quote_str(q, sizeof q, je.text));
    }
    if (rc == CC_OK) rc = read_desc(f, err, errlen);
    if (rc != CC_OK) { cc_schedfile_free(f); return rc; }
    *out = f;
    return CC_OK;
}

int cc_schedfile_steps(const cc_schedfile *f) { return f->steps; }

int cc_schedfile_read(const char *path, cc_schedfile **out, char *err, size_t errlen)
{
    *out = NULL;
    char *text;
    int rc = slurp(path, &text, err, errlen);
    if (rc != CC_OK) return rc;
    rc = cc_schedfile_parse(path, text, strlen(text), out, err, errlen);
    free(text);
    return rc;
}

/* A node reference: a name string, or an integer (JSON integer, not 2.0)
 * read as its decimal name; -1 if it names no node. */
static int node_ref(const json_t *v, const cc_topo *t)
{
    char buf[32];
    const char *name = NULL;
    if (json_is_string(v)) name = json_string_value(v);
    else if (json_is_integer(v) && json_integer_value(v) >= 0) {
        snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        name = buf;
    }
    return name ? cc_topo_node(t, name) : -1;
}

int cc_schedfile_schedule(const cc_schedfile *f, const cc_topo *t, cc_schedule **out, char *err, size_t errlen)
{
    *out = NULL;
    const json_t *steps = json_object_get(f->doc, "schedule");
    size_t maxlen = (size_t)t->n + 1;   /* a longer path revisits a node: keep one node more to report it */
    cc_schedule *s = cc_schedule_new();
    int *nodes = malloc((maxlen + 1) * sizeof *nodes);
    int rc = CC_OK;
    char where[96];
    if (!s || !nodes) rc = cc_fail(CC_ENOMEM, err, errlen, "%s: out of memory", f->path);
    for (size_t i = 0; rc == CC_OK && i < json_array_size(steps); i++) {
        const json_t *st = json_array_get(steps, i), *sn = json_object_get(st, "step"), *trs = json_object_get(st, "transfers");
        int step;
        snprintf(where, sizeof where, "schedule[%zu]", i);
        if (!json_is_object(st)) { rc = bad(f, where, "each step is an object {\"step\": S, \"transfers\": [..]}", err, errlen); break; }
        if (!sn || !json_is_integer(sn) || json_integer_value(sn) < 0 || json_integer_value(sn) > 1000000) {
            rc = bad(f, where, "each step needs \"step\": an integer in [0, 1000000]", err, errlen);
            break;
        }
        step = (int)json_integer_value(sn);
        if (!json_is_array(trs)) { rc = bad(f, where, "each step needs a \"transfers\" array", err, errlen); break; }
        for (size_t j = 0; rc == CC_OK && j < json_array_size(trs); j++) {
            const json_t *tr = json_array_get(trs, j), *p = json_object_get(tr, "path"), *msg = json_object_get(tr, "msg");
            snprintf(where, sizeof where, "schedule[%zu].transfers[%zu]", i, j);
            size_t np = json_array_size(p);
            if (!json_is_array(p) || np < 2 || np > maxlen) {
                rc = bad(f, where, "a transfer needs \"path\": an array of 2 or more node names, at most one per node plus one", err, errlen);
                break;
            }
            for (size_t k = 0; rc == CC_OK && k < np; k++)
                if ((nodes[k] = node_ref(json_array_get(p, k), t)) < 0) {
                    char msg2[300];
                    snprintf(msg2, sizeof msg2, "unknown node in path (topology %.200s)", t->spec);
                    snprintf(where, sizeof where, "schedule[%zu].transfers[%zu].path[%zu]", i, j, k);
                    rc = bad(f, where, msg2, err, errlen);
                }
            if (rc != CC_OK) break;
            int origin = nodes[0];
            if (msg && (origin = node_ref(msg, t)) < 0) { rc = bad(f, where, "\"msg\" names no node of the topology", err, errlen); break; }
            if (cc_schedule_add(s, step, origin, (int)np, nodes) != CC_OK) rc = cc_fail(CC_ENOMEM, err, errlen, "%s: out of memory", f->path);
        }
    }
    free(nodes);
    if (rc != CC_OK) { cc_schedule_free(s); return rc; }
    *out = s;
    return CC_OK;
}
