/* The configuration text file: a readable way to give every router its
 * settings.  One directive a line, '#' starts a comment, later lines override
 * earlier ones, and anything not mentioned keeps its default:
 *
 *   size 16                      must match --size (optional check)
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

typedef struct {
    const char *path;
    int line;
    char *err;
    size_t errlen;
} where;

static int fail(const where *w, const char *msg, const char *tok)
{
    snprintf(w->err, w->errlen, "config %s, line %d: %s%s%s%s", w->path, w->line, msg,
             tok ? " '" : "", tok ? tok : "", tok ? "'" : "");
    return -1;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

/* "*" selects the whole range [0, count); a number one element. */
static int parse_sel(const char *s, long count, long *lo, long *hi)
{
    if (strcmp(s, "*") == 0) { *lo = 0; *hi = count - 1; return 0; }
    if (parse_long(s, 0, count - 1, lo)) return -1;
    *hi = *lo;
    return 0;
}

static int parse_port_sel(const char *s, long *lo, long *hi)
{
    if (strcmp(s, "*") == 0) { *lo = 0; *hi = NPORTS - 1; return 0; }
    if (strlen(s) != 1 || route_port_parse(s[0]) < 0) return -1;
    *lo = *hi = route_port_parse(s[0]);
    return 0;
}

static int apply_line(sim_config *c, int n, char **tok, int ntok, const where *w)
{
    long a0, a1, p0, p1, v0, v1, val;
    if (strcmp(tok[0], "size") == 0) {
        if (ntok != 2 || parse_long(tok[1], 1, 100000, &val)) return fail(w, "expected 'size N'", NULL);
        if (val != n) {
            snprintf(w->err, w->errlen, "config %s, line %d: written for a %ldx%ld torus, this run is %dx%d",
                     w->path, w->line, val, val, n, n);
            return -1;
        }
    } else if (strcmp(tok[0], "vcs") == 0) {
        if (ntok != 2 || parse_long(tok[1], 1, 64, &val)) return fail(w, "expected 'vcs K'", NULL);
        if (val != c->vcs) {
            snprintf(w->err, w->errlen, "config %s, line %d: written for %ld VCs, this run has %d", w->path, w->line,
                     val, c->vcs);
            return -1;
        }
    } else if (strcmp(tok[0], "interval") == 0) {
        if (ntok != 2 || parse_long(tok[1], 1, 1000000, &val)) return fail(w, "expected 'interval V' with V in [1, 1000000]", NULL);
        c->interval = (uint32_t)val;
    } else if (strcmp(tok[0], "inject") == 0) {
        if (ntok != 3) return fail(w, "expected 'inject NODE|* CYCLES'", NULL);
        if (parse_sel(tok[1], c->nodes, &a0, &a1)) return fail(w, "node must be * or in [0, nodes-1], not", tok[1]);
        if (parse_long(tok[2], 0, 65535, &val)) return fail(w, "injection timing must be in [0, 65535], not", tok[2]);
        for (long i = a0; i <= a1; i++) c->inject[i] = (uint16_t)val;
    } else if (strcmp(tok[0], "scheme") == 0) {
        if (ntok != 4) return fail(w, "expected 'scheme NODE|* PORT|* Cxx'", NULL);
        if (parse_sel(tok[1], c->nodes, &a0, &a1)) return fail(w, "node must be * or in [0, nodes-1], not", tok[1]);
        if (parse_port_sel(tok[2], &p0, &p1)) return fail(w, "port must be one of N E S W P *, not", tok[2]);
        int k = vcsel_parse(tok[3]);
        if (k < 0) return fail(w, "scheme must be one of C00-C09, not", tok[3]);
        for (long i = a0; i <= a1; i++)
            for (long d = p0; d <= p1; d++) c->scheme[i * NPORTS + d] = (uint8_t)k;
    } else if (strcmp(tok[0], "qorder") == 0) {
        if (ntok != 9) return fail(w, "expected 'qorder NODE|* PORT|* VC|* D D D D D'", NULL);
        if (parse_sel(tok[1], c->nodes, &a0, &a1)) return fail(w, "node must be * or in [0, nodes-1], not", tok[1]);
        if (parse_port_sel(tok[2], &p0, &p1)) return fail(w, "port must be one of N E S W P *, not", tok[2]);
        if (parse_sel(tok[3], c->vcs, &v0, &v1)) return fail(w, "vc must be * or in [0, vcs-1], not", tok[3]);
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
                for (long v = v0; v <= v1; v++) memcpy(sim_config_q(c, (int)i, (int)d, (int)v), order, NPORTS);
    } else {
        return fail(w, "unknown directive (allowed: size vcs interval inject scheme qorder):", tok[0]);
    }
    return 0;
}

int sim_config_load(sim_config *c, int n, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "config %s: %s", path, strerror(errno));
        return -1;
    }
    where w = { path, 0, err, errlen };
    char line[1024];
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        w.line++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *tok[12], *save = NULL;
        int ntok = 0;
        for (char *t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
            if (ntok == 12) { rc = fail(&w, "too many fields", NULL); break; }
            tok[ntok++] = t;
        }
        if (rc == 0 && ntok > 0) rc = apply_line(c, n, tok, ntok, &w);
    }
    if (rc == 0 && ferror(f)) rc = (snprintf(err, errlen, "config %s: read error", path), -1);
    fclose(f);
    return rc;
}

int sim_config_save(const sim_config *c, int n, FILE *f)
{
    fprintf(f, "size %d\nvcs %d\ninterval %u\n", n, c->vcs, c->interval);
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
