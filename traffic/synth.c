/* Destinations of open-loop synthetic traffic (see synth.h). */
#include "traffic/synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traffic/matrix.h"
#include "traffic/traffic.h"
#include "util/parse.h"
#include "util/quote.h"

const char *const synth_names[] = { "uniform", "bcmp", "brev", "brot", "shfl", "torn", "trns", "bitcomp",
                                    "bitrev", "shuffle", "transpose", "tornado", "neighbor", "randperm" };
const int synth_name_count = (int)(sizeof synth_names / sizeof synth_names[0]);

/* BookSim2's names for the collective patterns of traffic.h. */
static const char *const aliases[][2] = {
    { "bitcomp", "bcmp" }, { "bitrev", "brev" }, { "shuffle", "shfl" }, { "transpose", "trns" },
};

/* The fixed patterns defined per coordinate (not in traffic.h's table). */
static int coordinate_pattern(synth *s, const char *spec)
{
    int w = s->w, h = s->h;
    int ox, oy;
    if (strcmp(spec, "tornado") == 0) {
        ox = (w + 1) / 2 - 1;
        oy = (h + 1) / 2 - 1;
    } else if (strcmp(spec, "neighbor") == 0) {
        ox = oy = 1;
    } else {
        return 0;
    }
    for (int i = 0; i < s->nodes; i++) s->dest[i] = ((i / w + oy) % h) * w + (i % w + ox) % w;
    return 1;
}

synth *synth_new(const char *spec, int w, int h, synth_self self, uint64_t seed, fault_kind *kind, char *err,
                 size_t errlen)
{
    fault_set(kind, FAULT_INPUT);
    if (w < 2 || h < 2 || w > TRAFFIC_MAX_N || h > TRAFFIC_MAX_N) {
        snprintf(err, errlen, "grid size %dx%d: each side must be in [2, %d]", w, h, TRAFFIC_MAX_N);
        return NULL;
    }
    synth *s = calloc(1, sizeof *s);
    if (!s) return fault_set(kind, FAULT_RESOURCE), snprintf(err, errlen, "out of memory"), NULL;
    s->w = w;
    s->h = h;
    s->nodes = w * h;
    s->self = self;
    snprintf(s->name, sizeof s->name, "%s", spec);
    if (strcmp(spec, "uniform") == 0) {
        s->uniform = 1;
        return s;
    }
    if (strncmp(spec, "matrix:", 7) == 0) {
        if (synth_load_matrix(s, spec + 7, kind, err, errlen)) {
            synth_free(s);
            return NULL;
        }
        return s;
    }
    s->dest = malloc(sizeof *s->dest * (size_t)s->nodes);
    if (!s->dest) {
        free(s);
        return fault_set(kind, FAULT_RESOURCE), snprintf(err, errlen, "out of memory"), NULL;
    }
    if (coordinate_pattern(s, spec)) return s;
    const char *name = spec;
    for (size_t k = 0; k < sizeof aliases / sizeof aliases[0]; k++)
        if (strcmp(spec, aliases[k][0]) == 0) name = aliases[k][1];
    char why[256];
    traffic *t = traffic_new_grid(name, w, h, seed, kind, why, sizeof why);
    if (!t) {
        if (strncmp(why, "unknown traffic", 15) == 0) {
            char q[QUOTE_BUF];
            snprintf(err, errlen,
                     "unknown traffic '%s' (allowed: uniform bcmp brev brot shfl torn trns bitcomp bitrev shuffle "
                     "transpose tornado neighbor randperm file:PATH)",
                     quote_str(q, sizeof q, spec));
        } else {
            snprintf(err, errlen, "%s", why);
        }
        synth_free(s);
        return NULL;
    }
    memcpy(s->dest, t->dest, sizeof *s->dest * (size_t)s->nodes);
    traffic_free(t);
    return s;
}

void synth_free(synth *s)
{
    if (!s) return;
    free(s->dest);
    free(s->src_rate);
    free(s->row_start);
    free(s->row_dest);
    free(s->row_w);
    free(s->row_cum);
    free(s);
}

/* One hotspot node id of the list. */
static int add_hot(const char *item, int index, void *ctx)
{
    (void)index;
    synth *s = ctx;
    int64_t v;
    if (parse_int(item, 0, s->nodes - 1, &v) != PARSE_OK) return -1;
    for (int k = 0; k < s->nhot; k++)
        if (s->hot[k] == v) return -1;
    s->hot[s->nhot++] = (int32_t)v;
    return 0;
}

int synth_set_hotspot(synth *s, const char *spec, char *err, size_t errlen)
{
    char q[QUOTE_BUF];
    const char *colon = strrchr(spec, ':');
    if (!colon) {
        snprintf(err, errlen, "--hotspot '%s': expected NODES:FRACTION, e.g. 0,63:0.2", quote_str(q, sizeof q, spec));
        return -1;
    }
    double f;
    parse_status st = parse_real(colon + 1, 0.0, 1.0, &f);
    if (st != PARSE_OK || f <= 0.0) {
        snprintf(err, errlen, "--hotspot '%s': the fraction must be a number in (0, 1]", quote_str(q, sizeof q, spec));
        return -1;
    }
    size_t len = (size_t)(colon - spec);
    char *nodes = malloc(len + 1);
    if (!nodes) return snprintf(err, errlen, "out of memory"), -1;
    memcpy(nodes, spec, len);
    nodes[len] = '\0';
    s->nhot = 0;
    int bad = -1;
    st = parse_list(nodes, ',', SYNTH_MAX_HOTSPOTS, add_hot, s, &bad);
    if (st != PARSE_OK) {
        if (st == PARSE_TOO_MANY)
            snprintf(err, errlen, "--hotspot: at most %d nodes", SYNTH_MAX_HOTSPOTS);
        else
            snprintf(err, errlen, "--hotspot '%s': node %d of the list is not a distinct node id in [0, %d]",
                     quote_str(q, sizeof q, spec), bad + 1, s->nodes - 1);
        free(nodes);
        s->nhot = 0;
        return -1;
    }
    free(nodes);
    s->hot_fraction = f;
    return 0;
}

int synth_sends(const synth *s, int src)
{
    if (s->src_rate) return s->src_rate[src] > 0;
    if (s->self == SYNTH_SELF_SEND) return 1;
    if (s->uniform) return s->nodes > 1;
    return s->dest[src] != src;
}

int32_t synth_matrix_draw(const synth *s, int src, double u)
{
    int32_t a = s->row_start[src], b = s->row_start[src + 1] - 1;
    while (a < b) {
        int32_t m = a + (b - a) / 2;
        if (u < s->row_cum[m]) b = m;
        else a = m + 1;
    }
    return s->row_dest[a];
}
