/* The configuration text file: a readable way to give every router its
 * settings.  One directive a line, '#' starts a comment, later lines override
 * earlier ones, and anything not mentioned keeps its default:
 *
 *   size 16                      must match --size (optional check; 16x8
 *                                for a network 16 wide and 8 high)
 *   vcs 3                        must match --vcs (optional check)
 *   interval 16                  V
 *   inject NODE|* CYCLES         I[node]
 *   scheme NODE|* PORT|* C05     C[node][port], PORT one of N E S W P
 *   qorder NODE|* PORT|* VC|* W N E S P
 *                                Q[node][port][vc], a permutation of NESWP
 */
#include "sim/sim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/lines.h"
#include "util/parse.h"
#include "util/quote.h"

/* Where we are, for messages, and which genes a chromosome file has given. */
typedef struct {
    const char *label;      /* "config FILE", quoted */
    long line;
    char *err;
    size_t errlen;
    int chromosome;         /* the file has SIM_CHROM_HEADER */
    uint8_t *has_scheme;    /* chromosome files: C[i][d] given */
    uint8_t *has_qorder;    /* chromosome files: Q[i][d][c] given */
    int has_size, has_vcs, has_interval;
} reading;

static int fail(const reading *w, const char *msg, const char *tok)
{
    char q[QUOTE_BUF];
    snprintf(w->err, w->errlen, "%s, line %ld: %s%s%s%s", w->label, w->line, msg,
             tok ? " '" : "", tok ? quote_str(q, sizeof q, tok) : "", tok ? "'" : "");
    return -1;
}

/* A number in [lo, hi], or a message naming what, the value and the range. */
static int number(const reading *w, const char *what, const char *s, long lo, long hi, long *out)
{
    int64_t v;
    parse_status st = parse_int(s, lo, hi, &v);
    if (st == PARSE_OK) { *out = (long)v; return 0; }
    char why[QUOTE_BUF + 96], msg[QUOTE_BUF + 160];
    parse_explain_int(why, sizeof why, st, s, lo, hi);
    snprintf(msg, sizeof msg, "%s: %s", what, why);
    return fail(w, msg, NULL);
}

/* "*" selects the whole range [0, count); a number one element. */
static int parse_sel(const reading *w, const char *what, const char *s, long count, long *lo, long *hi)
{
    if (strcmp(s, "*") == 0) { *lo = 0; *hi = count - 1; return 0; }
    int64_t v;
    if (parse_int(s, 0, count - 1, &v) != PARSE_OK) {
        char msg[96];
        snprintf(msg, sizeof msg, "%s must be * or an integer in [0, %ld], not", what, count - 1);
        return fail(w, msg, s);
    }
    *lo = *hi = (long)v;
    return 0;
}

static int parse_port_sel(const char *s, long *lo, long *hi)
{
    if (strcmp(s, "*") == 0) { *lo = 0; *hi = NPORTS - 1; return 0; }
    if (strlen(s) != 1 || route_port_parse(s[0]) < 0) return -1;
    *lo = *hi = route_port_parse(s[0]);
    return 0;
}

/* size N / vcs K: a check that the file was written for this network. */
static int apply_check(const reading *w, const char *what, char **tok, int ntok, long want)
{
    long val;
    char msg[160];
    snprintf(msg, sizeof msg, "expected '%s' and one number", what);
    if (ntok != 2) return fail(w, msg, NULL);
    if (number(w, what, tok[1], 1, 100000, &val)) return -1;
    if (val == want) return 0;
    if (!strcmp(what, "size"))
        snprintf(msg, sizeof msg, "written for a %ldx%ld torus, this run is %ldx%ld", val, val, want, want);
    else
        snprintf(msg, sizeof msg, "written for %ld VCs, this run has %ld", val, want);
    return fail(w, msg, NULL);
}

/* size N or WxH: a check that the file was written for this network, n wide
 * and c->nodes / n high. */
static int apply_size(const reading *w, char **tok, int ntok, int n, int h)
{
    char msg[160], a[16];
    if (ntok != 2) return fail(w, "expected 'size' and N or WxH", NULL);
    const char *x = strchr(tok[1], 'x');
    long fw, fh;
    if (!x) {
        if (number(w, "size", tok[1], 1, 100000, &fw)) return -1;
        fh = fw;
    } else {
        size_t len = (size_t)(x - tok[1]);
        if (len == 0 || len >= sizeof a) return fail(w, "size must be N or WxH, not", tok[1]);
        memcpy(a, tok[1], len);
        a[len] = '\0';
        if (number(w, "size", a, 1, 100000, &fw) || number(w, "size", x + 1, 1, 100000, &fh)) return -1;
    }
    if (fw == n && fh == h) return 0;
    snprintf(msg, sizeof msg, "written for a %ldx%ld network, this run is %dx%d", fw, fh, n, h);
    return fail(w, msg, NULL);
}

static int apply_scheme(sim_config *c, char **tok, int ntok, reading *w)
{
    long a0, a1, p0, p1;
    if (ntok != 4) return fail(w, "expected 'scheme NODE|* PORT|* Cxx'", NULL);
    if (parse_sel(w, "node", tok[1], c->nodes, &a0, &a1)) return -1;
    if (parse_port_sel(tok[2], &p0, &p1)) return fail(w, "port must be one of N E S W P *, not", tok[2]);
    int k = vcsel_parse(tok[3]);
    if (k < 0) return fail(w, "scheme must be one of C00-C09, not", tok[3]);
    for (long i = a0; i <= a1; i++)
        for (long d = p0; d <= p1; d++) {
            c->scheme[i * NPORTS + d] = (uint8_t)k;
            if (w->has_scheme) w->has_scheme[i * NPORTS + d] = 1;
        }
    return 0;
}

static int apply_qorder(sim_config *c, char **tok, int ntok, reading *w)
{
    long a0, a1, p0, p1, v0, v1;
    if (ntok != 9) return fail(w, "expected 'qorder NODE|* PORT|* VC|* D D D D D'", NULL);
    if (parse_sel(w, "node", tok[1], c->nodes, &a0, &a1)) return -1;
    if (parse_port_sel(tok[2], &p0, &p1)) return fail(w, "port must be one of N E S W P *, not", tok[2]);
    if (parse_sel(w, "vc", tok[3], c->vcs, &v0, &v1)) return -1;
    uint8_t order[NPORTS];
    unsigned seen = 0;
    for (int j = 0; j < NPORTS; j++) {
        int d = strlen(tok[4 + j]) == 1 ? route_port_parse(tok[4 + j][0]) : -1;
        if (d < 0 || (seen & (1u << d))) return fail(w, "the order must be a permutation of N E S W P; bad entry", tok[4 + j]);
        seen |= 1u << d;
        order[j] = (uint8_t)d;
    }
    for (long i = a0; i <= a1; i++)
        for (long d = p0; d <= p1; d++)
            for (long v = v0; v <= v1; v++) {
                memcpy(sim_config_q(c, (int)i, (int)d, (int)v), order, NPORTS);
                if (w->has_qorder) w->has_qorder[((size_t)i * NPORTS + (size_t)d) * (size_t)c->vcs + (size_t)v] = 1;
            }
    return 0;
}

static int apply_line(sim_config *c, int n, char **tok, int ntok, reading *w)
{
    long a0, a1, val;
    if (strcmp(tok[0], "size") == 0) {
        w->has_size = 1;
        if (n * n == c->nodes && (ntok != 2 || !strchr(tok[1], 'x'))) return apply_check(w, "size", tok, ntok, n);
        return apply_size(w, tok, ntok, n, c->nodes / n);
    } else if (strcmp(tok[0], "vcs") == 0) {
        w->has_vcs = 1;
        return apply_check(w, "vcs", tok, ntok, c->vcs);
    } else if (strcmp(tok[0], "interval") == 0) {
        if (ntok != 2) return fail(w, "expected 'interval V'", NULL);
        if (number(w, "interval", tok[1], 1, 1000000, &val)) return -1;
        c->interval = (uint32_t)val;
        w->has_interval = 1;
    } else if (strcmp(tok[0], "inject") == 0) {
        if (ntok != 3) return fail(w, "expected 'inject NODE|* CYCLES'", NULL);
        if (parse_sel(w, "node", tok[1], c->nodes, &a0, &a1)) return -1;
        if (number(w, "injection timing", tok[2], 0, 65535, &val)) return -1;
        for (long i = a0; i <= a1; i++) c->inject[i] = (uint16_t)val;
    } else if (strcmp(tok[0], "scheme") == 0) {
        return apply_scheme(c, tok, ntok, w);
    } else if (strcmp(tok[0], "qorder") == 0) {
        return apply_qorder(c, tok, ntok, w);
    } else {
        return fail(w, "unknown directive (allowed: size vcs interval inject scheme qorder):", tok[0]);
    }
    return 0;
}

/* A comment line of the header: the version line first, then the line
 * ending in "signature XXXXXXXX".  Other comments pass. */
static int read_header_line(const char *line, reading *w, sim_config_header *h)
{
    static const char prefix[] = "# nocsim chromosome v";
    if (w->line == 1 && strncmp(line, prefix, sizeof prefix - 1) == 0) {
        if (strcmp(line, SIM_CHROM_HEADER) != 0)
            return fail(w, "unsupported chromosome file version (this nocsim reads '" SIM_CHROM_HEADER "'):", line);
        w->chromosome = h->chromosome = 1;
        return 0;
    }
    /* The signature is the line's last word: "signature" and eight hex digits. */
    static const char word[] = "signature ";
    size_t len = strlen(line), wl = sizeof word - 1;
    if (!w->chromosome || h->has_signature || line[0] != '#' || len < wl + 8) return 0;
    const char *hex = line + len - 8;
    if (memcmp(hex - wl, word, wl) != 0) return 0;
    uint64_t v;
    if (parse_hex(hex, 8, &v) != PARSE_OK) return fail(w, "the signature must be eight hex digits, not", hex);
    h->signature = (uint32_t)v;
    h->has_signature = 1;
    return 0;
}

/* A chromosome file is complete: every gene written out, nothing left at a
 * default, so that a cut file is refused instead of replayed. */
static int check_complete(const sim_config *c, reading *w, const sim_config_header *h)
{
    char msg[256];
    const char *missing = !h->has_signature ? "the header's signature line"
                          : !w->has_size ? "the 'size' line" : !w->has_vcs ? "the 'vcs' line"
                          : !w->has_interval ? "the 'interval' line" : NULL;
    size_t lists = (size_t)c->nodes * NPORTS * (size_t)c->vcs;
    if (!missing)
        for (size_t k = 0; k < (size_t)c->nodes * NPORTS; k++)
            if (!w->has_scheme[k]) {
                snprintf(msg, sizeof msg, "'scheme %zu %c'", k / NPORTS, route_port_name((int)(k % NPORTS)));
                missing = msg;
                break;
            }
    if (!missing)
        for (size_t k = 0; k < lists; k++)
            if (!w->has_qorder[k]) {
                snprintf(msg, sizeof msg, "'qorder %zu %c %zu'", k / ((size_t)c->vcs * NPORTS),
                         route_port_name((int)(k / (size_t)c->vcs % NPORTS)), k % (size_t)c->vcs);
                missing = msg;
                break;
            }
    if (!missing) return 0;
    snprintf(w->err, w->errlen, "%s: incomplete chromosome file (cut short?): missing %s", w->label, missing);
    return -1;
}

int sim_config_read(sim_config *c, int n, FILE *f, const char *name, sim_config_header *h, char *err,
                    size_t errlen)
{
    char q[QUOTE_BUF], label[QUOTE_BUF + 16];
    snprintf(label, sizeof label, "config %s", quote_str(q, sizeof q, name));
    sim_config_header hdr_local;
    if (!h) h = &hdr_local;
    memset(h, 0, sizeof *h);
    reading w = { .label = label, .err = err, .errlen = errlen };
    line_reader r;
    line_reader_init(&r, f, label);
    char *line;
    int got, rc = 0, directives = 0;
    while (rc == 0 && (got = line_reader_next(&r, &line, err, errlen)) > 0) {
        w.line = r.line;
        if (line[0] == '#' && directives == 0) {
            rc = read_header_line(line, &w, h);
            if (rc == 0 && w.chromosome && w.line == 1) {
                w.has_scheme = calloc((size_t)c->nodes * NPORTS, 1);
                w.has_qorder = calloc((size_t)c->nodes * NPORTS * (size_t)c->vcs, 1);
                if (!w.has_scheme || !w.has_qorder) rc = fail(&w, "out of memory", NULL);
            }
            if (rc) break;
        }
        char *tok[9];
        int ntok = line_fields(line, tok, 9);
        if (ntok > 9) rc = fail(&w, "too many fields", NULL);
        else if (ntok > 0) {
            directives++;
            rc = apply_line(c, n, tok, ntok, &w);
        }
    }
    if (rc == 0 && got < 0) rc = got;   /* the reader's kind */
    if (rc == 0 && w.chromosome) rc = check_complete(c, &w, h);
    h->settings = directives;
    line_reader_free(&r);
    free(w.has_scheme);
    free(w.has_qorder);
    return rc ? rc : h->chromosome;
}

int sim_config_load(sim_config *c, int n, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        char q[QUOTE_BUF];
        snprintf(err, errlen, "config %s: %s", quote_str(q, sizeof q, path), strerror(errno));
        return -1;
    }
    int rc = sim_config_read(c, n, f, path, NULL, err, errlen);
    fclose(f);
    return rc < 0 ? rc : 0;
}

int sim_config_save(const sim_config *c, int n, FILE *f)
{
    if (c->nodes == n * n) fprintf(f, "size %d\n", n);
    else fprintf(f, "size %dx%d\n", n, c->nodes / n);
    fprintf(f, "vcs %d\ninterval %u\n", c->vcs, c->interval);
    for (int i = 0; i < c->nodes; i++)
        if (c->inject[i]) fprintf(f, "inject %d %u\n", i, c->inject[i]);
    for (int i = 0; i < c->nodes; i++)
        for (int d = 0; d < NPORTS; d++)
            fprintf(f, "scheme %d %c %s\n", i, route_port_name(d), vcsel_name(c->scheme[i * NPORTS + d]));
    for (int i = 0; i < c->nodes; i++)
        for (int d = 0; d < NPORTS; d++)
            for (int v = 0; v < c->vcs; v++) {
                const uint8_t *q = sim_config_q(c, i, d, v);
                fprintf(f, "qorder %d %c %d", i, route_port_name(d), v);
                for (int j = 0; j < NPORTS; j++) fprintf(f, " %c", route_port_name(q[j]));
                fputc('\n', f);
            }
    return ferror(f) ? -1 : 0;
}
