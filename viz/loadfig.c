/* The open-loop figure (see loadfig.h): the rule for its y range, its title
 * and key from what the curves share and what tells them apart, and the
 * figure itself built from the curves. */
#include "viz/loadfig.h"
#include "viz/viz.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "?" for a value the run did not record. */
static const char *or_unknown(const char *s) { return s ? s : "?"; }

static void number_of(char *buf, size_t len, int64_t v, const char *one, const char *many)
{
    if (v < 0) snprintf(buf, len, "? %s", many);
    else snprintf(buf, len, "%lld %s", (long long)v, v == 1 ? one : many);
}

/* The packet mix: "8" reads "8-flit packets", a mix "packets 1:0.5,8:0.5". */
static void packets(char *buf, size_t len, const char *mix)
{
    if (mix && *mix && strspn(mix, "0123456789") == strlen(mix)) snprintf(buf, len, "%s-flit packets", mix);
    else snprintf(buf, len, "packets %s", or_unknown(mix));
}

int viz_load_aspect(const viz_load_curve *c, int a, char *buf, size_t len)
{
    assert(a >= 0 && a < VIZ_LOAD_NASPECTS);
    buf[0] = '\0';
    switch (a) {
    case 0: snprintf(buf, len, "%s", or_unknown(c->traffic)); return 1;
    case 1: if (c->hotspot) snprintf(buf, len, "hotspot %s", c->hotspot); return 1;
    case 2:
        if (c->width < 0 || c->height < 0) snprintf(buf, len, "? %s", or_unknown(c->topology));
        else snprintf(buf, len, "%dx%d %s", (int)c->width, (int)c->height, or_unknown(c->topology));
        return 1;
    case 3: if (c->routing) snprintf(buf, len, "%s routing", c->routing); return 1;
    case 4:
        if (c->vc_rule && !strcmp(c->vc_rule, "any")) snprintf(buf, len, "any-VC rule");
        else snprintf(buf, len, "%s VC rule", or_unknown(c->vc_rule));
        return 1;
    case 5: number_of(buf, len, c->vcs, "VC", "VCs"); return 1;
    case 6:
        if (c->buffer < 0) snprintf(buf, len, "?-flit buffers");
        else snprintf(buf, len, "%d-flit buffers", (int)c->buffer);
        return 1;
    case 7: snprintf(buf, len, "arbiter %s", or_unknown(c->arb)); return 1;
    case 8: packets(buf, len, c->packet); return 1;
    case 9:
        snprintf(buf, len, "%s injection", c->process && !strcmp(c->process, "bernoulli") ? "Bernoulli" : or_unknown(c->process));
        return 1;
    case 10: if (c->selection) snprintf(buf, len, "selection %s", c->selection); return 0;
    case 11: snprintf(buf, len, "ties %s", or_unknown(c->tie)); return 0;
    case 12: snprintf(buf, len, "self-traffic %s", or_unknown(c->self)); return 0;
    case 13:
        snprintf(buf, len, "%s saturation rule", c->per_flow < 0 ? "?" : c->per_flow ? "per-flow" : "network");
        return 0;
    case 14:
        if (c->window < 0 || c->batch < 0) snprintf(buf, len, "window ?");
        else snprintf(buf, len, "window %lld x %lld cycles", (long long)c->window, (long long)c->batch);
        return 0;
    case 15:
        if (c->delays[0] || c->delays[1] || c->delays[2] || c->delays[3])
            snprintf(buf, len, "delays %d/%d/%d/%d", (int)c->delays[0], (int)c->delays[1], (int)c->delays[2],
                     (int)c->delays[3]);
        if (c->vc_alloc) snprintf(buf + strlen(buf), len - strlen(buf), "%sVCs %s", *buf ? ", " : "", c->vc_alloc);
        return 1;
    default: snprintf(buf, len, "seed %llu", (unsigned long long)c->seed); return 0;
    }
}

/* Append ", text" (or text first) to buf; nothing for "". */
static void append(char *buf, size_t len, const char *text)
{
    size_t used = strlen(buf);
    if (!*text || used + 1 >= len) return;
    snprintf(buf + used, len - used, "%s%s", used ? ", " : "", text);
}

void viz_load_names(const viz_load_curve *c, int n, const char *prefix, char *title, size_t titlelen, char **keys,
                    size_t keylen)
{
    assert(n >= 1);
    char shared[512] = "";
    for (int k = 0; k < n; k++) keys[k][0] = '\0';
    for (int a = 0; a < VIZ_LOAD_NASPECTS; a++) {
        char first[160], other[160];
        int shown = viz_load_aspect(&c[0], a, first, sizeof first), same = 1;
        for (int k = 1; k < n && same; k++) {
            viz_load_aspect(&c[k], a, other, sizeof other);
            same = !strcmp(first, other);
        }
        if (same) {
            if (shown) append(shared, sizeof shared, first);
            continue;
        }
        for (int k = 0; k < n; k++) {
            viz_load_aspect(&c[k], a, other, sizeof other);
            append(keys[k], keylen, other);
        }
    }
    for (int k = 0; k < n; k++)
        if (!keys[k][0]) snprintf(keys[k], keylen, "run %lld", (long long)c[k].run);
    snprintf(title, titlelen, "%s%s%s", prefix, *shared ? ": " : "", shared);
}

/* The points drawn of a curve: up to and including its first saturated one. */
static int drawn(const viz_load_curve *c)
{
    int i = 0;
    while (i < c->npts && !c->pts[i].saturated) i++;
    return i < c->npts ? i + 1 : i;
}

double viz_load_ymax(const viz_load_curve *c, int n)
{
    double top = -1;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < drawn(&c[k]); i++)
            if (!c[k].pts[i].saturated && c[k].pts[i].latency > top) top = c[k].pts[i].latency;
    if (top <= 0) return NAN;
    return 10.0 * ceil(VIZ_LOAD_YFACTOR * top / 10.0);
}

/* Curve k: its points with error bars, its bound, its saturation point.  The
 * largest x drawn goes into *xmax.  -1 when out of memory. */
static int add_curve(viz_figure *f, const viz_load_curve *c, const char *key, double *xmax)
{
    int s = viz_fig_series(f, key, VIZ_ERRORLINES, -1);
    if (s < 0) return -1;
    for (int i = 0; i < drawn(c); i++) {
        const viz_load_point *p = &c->pts[i];
        if (viz_fig_point_err(f, s, p->offered, p->latency, p->ci95) < 0) return -1;
        if (p->offered > *xmax) *xmax = p->offered;
    }
    if (isfinite(c->bound)) {
        if (viz_fig_vline(f, c->bound, s) < 0) return -1;
        if (c->bound > *xmax) *xmax = c->bound;
    }
    if (isfinite(c->sat_accepted) && isfinite(c->sat_latency)) {
        int m = viz_fig_series(f, "", VIZ_MARK, s);
        if (m < 0 || viz_fig_point(f, m, c->sat_accepted, c->sat_latency) < 0) return -1;
    }
    return 0;
}

int viz_load_figure(const viz_load_curve *c, int n, viz_figure **out, char *err, size_t errlen)
{
    assert(n >= 1);
    for (int k = 0; k < n; k++)
        if (c[k].npts == 0) {
            snprintf(err, errlen, "run %lld has no points recorded", (long long)c[k].run);
            return VIZ_BADINPUT;
        }
    char title[600], **keys = calloc((size_t)n, sizeof *keys);
    const size_t keylen = 300;
    int ok = keys != NULL;
    for (int k = 0; ok && k < n; k++) ok = (keys[k] = malloc(keylen)) != NULL;
    viz_figure *f = NULL;
    if (ok) {
        viz_load_names(c, n, "open-loop latency", title, sizeof title, keys, keylen);
        f = viz_fig_new(title, "offered load, measured [flits/cycle per sending node]",
                        "average packet latency [cycles], bars: 95 % confidence");
        ok = f != NULL;
    }
    double xmax = 0;
    int bounds = 0, sats = 0;
    for (int k = 0; ok && k < n; k++) {
        ok = add_curve(f, &c[k], keys[k], &xmax) == 0;
        bounds |= isfinite(c[k].bound);
        sats |= isfinite(c[k].sat_accepted) && isfinite(c[k].sat_latency);
    }
    if (ok && bounds) ok = viz_fig_key(f, "channel-load bound (dotted)", VIZ_DOTTED) == 0;
    if (ok && sats) ok = viz_fig_key(f, "saturation point", VIZ_MARK) == 0;
    for (int k = 0; keys && k < n; k++) free(keys[k]);
    free(keys);
    if (!ok) {
        viz_fig_free(f);
        snprintf(err, errlen, "out of memory");
        return VIZ_FAIL;
    }
    viz_fig_xrange(f, 0, 1.05 * xmax);
    viz_fig_yrange(f, 0, viz_load_ymax(c, n));
    *out = f;
    return VIZ_OK;
}
