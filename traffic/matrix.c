/* Traffic matrices (see matrix.h): the file's entries gathered as triples,
 * sorted by source and destination, then laid out per source row. */
#include "traffic/matrix.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/lines.h"
#include "util/parse.h"
#include "util/quote.h"

typedef struct {
    int32_t src, dst;
    double w;
    long line;
} entry;

typedef struct {
    entry *e;
    size_t n, cap;
    int format;          /* 0 not known yet, 3 triples, else the row length (nodes) */
    int32_t row;         /* rate matrix: the next row */
} gather;

static int push(gather *g, int32_t src, int32_t dst, double w, long line)
{
    if (w == 0) return 0;
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 256;
        entry *e = realloc(g->e, cap * sizeof *e);
        if (!e) return -1;
        g->e = e;
        g->cap = cap;
    }
    g->e[g->n++] = (entry){ src, dst, w, line };
    return 0;
}

/* One rate token: a number in [0, 1].  0 or -FAULT_INPUT with a message. */
static int rate_of(const char *tok, const char *where, double *w, char *err, size_t errlen)
{
    char why[QUOTE_BUF + 96];
    parse_status st = parse_real(tok, 0.0, 1.0, w);
    if (st == PARSE_OK) return 0;
    parse_explain_real(why, sizeof why, st, tok, 0.0, 1.0);
    return snprintf(err, errlen, "%s: rate %s", where, why), -FAULT_INPUT;
}

static int read_triple(const synth *s, gather *g, char **tok, const char *where, long line, char *err, size_t errlen)
{
    char why[QUOTE_BUF + 96];
    int64_t v[2];
    for (int j = 0; j < 2; j++) {
        parse_status st = parse_int(tok[j], 0, s->nodes - 1, &v[j]);
        if (st != PARSE_OK) {
            parse_explain_int(why, sizeof why, st, tok[j], 0, s->nodes - 1);
            return snprintf(err, errlen, "%s: %s node id %s", where, j ? "destination" : "source", why), -FAULT_INPUT;
        }
    }
    double w;
    if (rate_of(tok[2], where, &w, err, errlen)) return -FAULT_INPUT;
    if (push(g, (int32_t)v[0], (int32_t)v[1], w, line)) return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
    return 0;
}

/* One line of the file: a triple or a matrix row (format fixed by the
 * first).  tok has room for nodes + 1 fields. */
static int read_line(const synth *s, gather *g, char *line, char **tok, const char *where, long lno, char *err,
                     size_t errlen)
{
    int k = line_fields(line, tok, s->nodes);
    if (k == 0) return 0;
    if (!g->format) g->format = k == 3 ? 3 : s->nodes;
    if (g->format == 3) {
        if (k != 3) return snprintf(err, errlen, "%s: expected 'src dst rate' (as the first line)", where), -FAULT_INPUT;
        return read_triple(s, g, tok, where, lno, err, errlen);
    }
    if (k != s->nodes)
        return snprintf(err, errlen, "%s: expected a row of %d rates (one per node), or 'src dst rate' lines, not %s%d "
                        "fields", where, s->nodes, k > s->nodes ? "more than " : "", k > s->nodes ? s->nodes : k),
               -FAULT_INPUT;
    if (g->row == s->nodes)
        return snprintf(err, errlen, "%s: a row more than the %d of a %dx%d grid", where, s->nodes, s->w, s->h),
               -FAULT_INPUT;
    for (int j = 0; j < k; j++) {
        double w;
        if (rate_of(tok[j], where, &w, err, errlen)) return -FAULT_INPUT;
        if (push(g, g->row, j, w, lno)) return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
    }
    g->row++;
    return 0;
}

static int by_pair(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* The sorted entries into s's rows, refusing a repeated pair, a self pair
 * and a row over 1. */
static int lay_out(synth *s, gather *g, const char *label, char *err, size_t errlen)
{
    qsort(g->e, g->n, sizeof *g->e, by_pair);
    size_t nodes = (size_t)s->nodes;
    s->src_rate = calloc(nodes, sizeof *s->src_rate);
    s->row_start = calloc(nodes + 1, sizeof *s->row_start);
    s->row_dest = malloc((g->n + 1) * sizeof *s->row_dest);
    s->row_w = malloc((g->n + 1) * sizeof *s->row_w);
    s->row_cum = malloc((g->n + 1) * sizeof *s->row_cum);
    if (!s->src_rate || !s->row_start || !s->row_dest || !s->row_w || !s->row_cum)
        return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
    for (size_t k = 0; k < g->n; k++) {
        const entry *e = &g->e[k];
        if (k && e->src == g->e[k - 1].src && e->dst == g->e[k - 1].dst)
            return snprintf(err, errlen, "%s, line %ld: the pair %d %d was given before (line %ld)", label, e->line,
                            e->src, e->dst, g->e[k - 1].line), -FAULT_INPUT;
        if (e->src == e->dst && s->self != SYNTH_SELF_SEND)
            return snprintf(err, errlen, "%s, line %ld: node %d sends to itself (allowed with --self send)", label,
                            e->line, e->src), -FAULT_INPUT;
        s->src_rate[e->src] += e->w;
        if (s->src_rate[e->src] > 1 + 1e-9)
            return snprintf(err, errlen, "%s, line %ld: source %d's rates sum to %g here; at most 1 (a node sends at "
                            "most one flit a cycle)", label, e->line, e->src, s->src_rate[e->src]), -FAULT_INPUT;
        s->row_dest[k] = e->dst;
        s->row_w[k] = e->w;
        s->row_start[e->src + 1] = (int32_t)k + 1;
    }
    for (size_t i = 1; i <= nodes; i++)
        if (s->row_start[i] < s->row_start[i - 1]) s->row_start[i] = s->row_start[i - 1];
    for (size_t i = 0; i < nodes; i++) {
        double c = 0;
        int32_t a = s->row_start[i], b = s->row_start[i + 1];
        for (int32_t k = a; k < b; k++) s->row_cum[k] = (c += s->row_w[k]) / s->src_rate[i];
        if (b > a) s->row_cum[b - 1] = 1.0;
    }
    return 0;
}

int synth_read_matrix(synth *s, FILE *f, const char *name, fault_kind *kind, char *err, size_t errlen)
{
    char q[QUOTE_BUF], label[QUOTE_BUF + 16], where[QUOTE_BUF + 48];
    snprintf(label, sizeof label, "traffic matrix %s", quote_str(q, sizeof q, name));
    gather g = { 0 };
    char **tok = malloc(((size_t)s->nodes + 1) * sizeof *tok);
    if (!tok) return fault_set(kind, FAULT_RESOURCE), snprintf(err, errlen, "out of memory"), -1;
    line_reader r;
    line_reader_init(&r, f, label);
    char *line;
    int got, rc = 0;
    while (rc == 0 && (got = line_reader_next(&r, &line, err, errlen)) > 0) {
        snprintf(where, sizeof where, "%s, line %ld", label, r.line);
        rc = read_line(s, &g, line, tok, where, r.line, err, errlen);
    }
    if (rc == 0 && got < 0) rc = got;
    if (rc == 0 && g.format > 3 && g.row < s->nodes) {
        snprintf(err, errlen, "%s: %d rows, not the %d of a %dx%d grid", label, g.row, s->nodes, s->w, s->h);
        rc = -FAULT_INPUT;
    }
    if (rc == 0) rc = lay_out(s, &g, label, err, errlen);
    line_reader_free(&r);
    free(tok);
    free(g.e);
    if (rc) fault_set(kind, fault_of(rc));
    return rc ? -1 : 0;
}

int synth_load_matrix(synth *s, const char *path, fault_kind *kind, char *err, size_t errlen)
{
    char q[QUOTE_BUF];
    FILE *f = fopen(path, "r");
    if (!f) {
        fault_set(kind, FAULT_INPUT);
        return snprintf(err, errlen, "traffic matrix %s: %s", quote_str(q, sizeof q, path), strerror(errno)), -1;
    }
    int rc = synth_read_matrix(s, f, path, kind, err, errlen);
    fclose(f);
    return rc;
}
