/* Trace files (see trace.h): read whole, each line checked. */
#include "traffic/trace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/lines.h"
#include "util/parse.h"
#include "util/quote.h"

/* One line's packet into *q.  0, 1 for a blank line, or -FAULT_INPUT. */
static int read_packet(char *line, int nodes, int allow_self, int64_t prev, const char *where, trace_packet *q,
                       char *err, size_t errlen)
{
    char *tok[4], why[QUOTE_BUF + 96];
    int k = line_fields(line, tok, 4);
    if (k == 0) return 1;
    if (k != 4) return snprintf(err, errlen, "%s: expected 'cycle src dst flits', four numbers", where), -FAULT_INPUT;
    static const char *const what[] = { "cycle", "source node id", "destination node id", "length" };
    int64_t lo[4] = { 0, 0, 0, 1 }, hi[4] = { TRACE_MAX_CYCLE, nodes - 1, nodes - 1, TRACE_MAX_FLITS }, v[4];
    for (int j = 0; j < 4; j++) {
        parse_status st = parse_int(tok[j], lo[j], hi[j], &v[j]);
        if (st != PARSE_OK) {
            parse_explain_int(why, sizeof why, st, tok[j], lo[j], hi[j]);
            return snprintf(err, errlen, "%s: %s %s", where, what[j], why), -FAULT_INPUT;
        }
    }
    if (v[0] < prev)
        return snprintf(err, errlen, "%s: cycle %lld is before the previous line's %lld (lines in cycle order)", where,
                        (long long)v[0], (long long)prev), -FAULT_INPUT;
    if (v[1] == v[2] && !allow_self)
        return snprintf(err, errlen, "%s: node %lld sends to itself (allowed with --self send)", where,
                        (long long)v[1]), -FAULT_INPUT;
    *q = (trace_packet){ v[0], (int32_t)v[1], (int32_t)v[2], (int32_t)v[3] };
    return 0;
}

static int push(trace *t, int64_t *cap, const trace_packet *q)
{
    if (t->n == *cap) {
        int64_t c = *cap ? 2 * *cap : 1024;
        trace_packet *pk = realloc(t->pk, sizeof *pk * (size_t)c);
        if (!pk) return -1;
        t->pk = pk;
        *cap = c;
    }
    t->pk[t->n++] = *q;
    return 0;
}

trace *trace_read(FILE *f, const char *name, int nodes, int allow_self, fault_kind *kind, char *err, size_t errlen)
{
    char q[QUOTE_BUF], label[QUOTE_BUF + 16], where[QUOTE_BUF + 48];
    snprintf(label, sizeof label, "trace %s", quote_str(q, sizeof q, name));
    trace *t = calloc(1, sizeof *t);
    if (!t) return fault_set(kind, FAULT_RESOURCE), snprintf(err, errlen, "out of memory"), NULL;
    line_reader r;
    line_reader_init(&r, f, label);
    char *line;
    int got, rc = 0;
    int64_t cap = 0, prev = 0;
    while (rc == 0 && (got = line_reader_next(&r, &line, err, errlen)) > 0) {
        snprintf(where, sizeof where, "%s, line %ld", label, r.line);
        trace_packet pk;
        rc = read_packet(line, nodes, allow_self, prev, where, &pk, err, errlen);
        if (rc == 1) {
            rc = 0;
            continue;
        }
        if (rc) break;
        if (t->n == TRACE_MAX_PACKETS) {
            snprintf(err, errlen, "%s: more than %d packets", where, TRACE_MAX_PACKETS);
            rc = -FAULT_INPUT;
        } else if (push(t, &cap, &pk)) {
            snprintf(err, errlen, "out of memory");
            rc = -FAULT_RESOURCE;
        }
        prev = pk.cycle;
    }
    if (rc == 0 && got < 0) rc = got;
    if (rc == 0 && t->n == 0) {
        snprintf(err, errlen, "%s: no packet (lines 'cycle src dst flits')", label);
        rc = -FAULT_INPUT;
    }
    line_reader_free(&r);
    if (rc) {
        fault_set(kind, fault_of(rc));
        trace_free(t);
        return NULL;
    }
    return t;
}

trace *trace_load(const char *path, int nodes, int allow_self, fault_kind *kind, char *err, size_t errlen)
{
    char q[QUOTE_BUF];
    FILE *f = fopen(path, "r");
    if (!f) {
        fault_set(kind, FAULT_INPUT);
        snprintf(err, errlen, "trace %s: %s", quote_str(q, sizeof q, path), strerror(errno));
        return NULL;
    }
    trace *t = trace_read(f, path, nodes, allow_self, kind, err, errlen);
    fclose(f);
    return t;
}

void trace_free(trace *t)
{
    if (!t) return;
    free(t->pk);
    free(t);
}
