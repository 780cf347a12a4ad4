/* Drawing the link-activity map (see activity_map.h): the map, and when
 * framed its title, axes and legend, lettered with a 3x5 bitmap font. */
#include "viz/activity_map.h"
#include "util/outfile.h"
#include "viz/png.h"
#include "viz/viz.h"

#include <stdlib.h>
#include <string.h>

/* Colour-blind-safe-ish and distinct on white: red, green, blue, cyan as in
 * the paper's Fig. 6, then orange, purple, brown, pink. */
static const uint8_t palette[VIZ_ACT_COLOURS][3] = {
    { 228, 26, 28 }, { 60, 170, 60 }, { 40, 100, 220 }, { 0, 200, 210 },
    { 255, 140, 0 }, { 150, 60, 190 }, { 150, 90, 40 }, { 240, 110, 180 },
};
static const uint8_t grey[3] = { 64, 64, 64 }, white[3] = { 255, 255, 255 }, ink[3] = { 0, 0, 0 },
                     rule[3] = { 190, 190, 190 };

/* A 3x5 bitmap font: rows top to bottom, 3 bits each (bit 2 = left
 * column).  Digits, capitals and the punctuation of titles; lower case is
 * drawn as capitals, anything else as '?'.  The picture needs a few labels,
 * not a font library. */
static const uint8_t digits[10][5] = {
    { 7, 5, 5, 5, 7 }, { 2, 6, 2, 2, 7 }, { 7, 1, 7, 4, 7 }, { 7, 1, 7, 1, 7 }, { 5, 5, 7, 1, 1 },
    { 7, 4, 7, 1, 7 }, { 7, 4, 7, 5, 7 }, { 7, 1, 1, 1, 1 }, { 7, 5, 7, 5, 7 }, { 7, 5, 7, 1, 7 },
};
static const uint8_t letters[26][5] = {
    { 2, 5, 7, 5, 5 }, { 6, 5, 6, 5, 6 }, { 3, 4, 4, 4, 3 }, { 6, 5, 5, 5, 6 }, { 7, 4, 6, 4, 7 },
    { 7, 4, 6, 4, 4 }, { 3, 4, 5, 5, 3 }, { 5, 5, 7, 5, 5 }, { 7, 2, 2, 2, 7 }, { 1, 1, 1, 5, 2 },
    { 5, 5, 6, 5, 5 }, { 4, 4, 4, 4, 7 }, { 5, 7, 7, 5, 5 }, { 6, 5, 5, 5, 5 }, { 2, 5, 5, 5, 2 },
    { 6, 5, 6, 4, 4 }, { 2, 5, 5, 6, 3 }, { 6, 5, 6, 5, 5 }, { 3, 4, 2, 1, 6 }, { 7, 2, 2, 2, 2 },
    { 5, 5, 5, 5, 7 }, { 5, 5, 5, 5, 2 }, { 5, 5, 7, 7, 5 }, { 5, 5, 2, 5, 5 }, { 5, 5, 2, 2, 2 },
    { 7, 1, 2, 4, 7 },
};
static const struct { char c; uint8_t rows[5]; } punct[] = {
    { ' ', { 0, 0, 0, 0, 0 } }, { ':', { 0, 2, 0, 2, 0 } }, { ',', { 0, 0, 0, 2, 4 } }, { '.', { 0, 0, 0, 0, 2 } },
    { '-', { 0, 0, 7, 0, 0 } }, { '=', { 0, 7, 0, 7, 0 } }, { '(', { 1, 2, 2, 2, 1 } }, { ')', { 4, 2, 2, 2, 4 } },
    { '/', { 1, 1, 2, 4, 4 } }, { '_', { 0, 0, 0, 0, 7 } }, { '+', { 0, 2, 7, 2, 0 } }, { '%', { 5, 1, 2, 4, 5 } },
    { '<', { 1, 2, 4, 2, 1 } }, { '>', { 4, 2, 1, 2, 4 } }, { '\'', { 2, 2, 0, 0, 0 } }, { '"', { 5, 5, 0, 0, 0 } }, { ';', { 0, 2, 0, 2, 4 } },
};
static const uint8_t unknown[5] = { 7, 1, 2, 0, 2 };

/* Legend geometry: entries of a swatch and a glyph. */
enum { SW = 8, ENTRY = 16, MARGIN = 3 };

static const uint8_t *glyph_rows(char ch)
{
    unsigned char c = (unsigned char)ch;
    if (c >= '0' && c <= '9') return digits[c - '0'];
    if (c >= 'A' && c <= 'Z') return letters[c - 'A'];
    if (c >= 'a' && c <= 'z') return letters[c - 'a'];
    for (size_t i = 0; i < sizeof punct / sizeof punct[0]; i++)
        if (punct[i].c == ch) return punct[i].rows;
    return unknown;
}

void viz_act_opts_default(viz_act_opts *o)
{
    *o = (viz_act_opts){ .scale = 1, .first = 0, .last = -1, .legend = 1, .title = NULL };
}

void viz_act_colour(int cell, uint8_t rgb[3])
{
    const uint8_t *c = cell == ACT_IDLE ? white : cell == ACT_BLOCKED ? grey : palette[(cell - ACT_SLICE0) % VIZ_ACT_COLOURS];
    memcpy(rgb, c, 3);
}

static void fill(uint8_t *rgb, int w, int x0, int y0, int dx, int dy, const uint8_t c[3])
{
    for (int y = y0; y < y0 + dy; y++)
        for (int x = x0; x < x0 + dx; x++) memcpy(rgb + ((size_t)y * (size_t)w + (size_t)x) * 3, c, 3);
}

/* Text at zoom z (each font pixel z x z): 4z pixels a character, 5z high. */
static int text_width(const char *t, int z) { return t[0] ? (int)strlen(t) * 4 * z - z : 0; }

static void text(uint8_t *rgb, int w, int x0, int y0, const char *t, int z)
{
    for (; *t; t++, x0 += 4 * z) {
        const uint8_t *g = glyph_rows(*t);
        for (int r = 0; r < 5; r++)
            for (int col = 0; col < 3; col++)
                if (g[r] & (4 >> col)) fill(rgb, w, x0 + col * z, y0 + r * z, z, z, ink);
    }
}

static int legend_entries(int slices) { return (slices < VIZ_ACT_COLOURS ? slices : VIZ_ACT_COLOURS) + 1; }

static const char blocked_label[] = "BLOCKED";

/* The legend's width from its left edge: swatches, then the grey's label. */
static int legend_width(int slices)
{
    return MARGIN + legend_entries(slices) * ENTRY + SW + text_width(blocked_label, 1);
}

static void draw_legend(uint8_t *rgb, int w, int x0, int y0, int slices)
{
    int n = legend_entries(slices);
    fill(rgb, w, 0, y0, w, 1, rule); /* between map and legend */
    int y = y0 + 1 + (VIZ_ACT_LEGEND_ROWS - 1 - SW) / 2;
    for (int e = 0; e < n; e++) {
        int x = x0 + MARGIN + e * ENTRY + (e == n - 1 ? SW : 0); /* the grey set apart from the slices */
        uint8_t c[3];
        viz_act_colour(e < n - 1 ? ACT_SLICE0 + e : ACT_BLOCKED, c);
        fill(rgb, w, x, y, SW, SW, c);
        if (e < n - 1) {
            char d[2] = { (char)('0' + e), 0 };
            text(rgb, w, x + SW + 2, y + 2, d, 1);
        } else if (x0 > 0) {
            text(rgb, w, x + SW + 2, y + 2, blocked_label, 1);
        }
    }
}

/* ---- the frame ----------------------------------------------------------- */

/* Frame geometry: zoom of titles and labels, padding, bands. */
enum { TZ = 2, PAD = 6, TICK = 4, TITLE_H = PAD + 5 * TZ + PAD, CAPTION_H = 5 * TZ + 6 };
static const char cycle_caption[] = "CYCLE (TIME RUNS DOWN)";
static const char link_caption[] = "LINKS: BY DIRECTION, THEN ROUTER ROW Y; X = 0..N-1 WITHIN A ROW";
static const char *const dir_names[4] = { "NORTH", "EAST", "SOUTH", "WEST" };

/* The side N of the square torus of a (1 if the links are no square's). */
static int torus_side(const sim_activity *a)
{
    int nodes = sim_activity_links(a) / 4, n = 1;
    while ((n + 1) * (n + 1) <= nodes) n++;
    return n * n == nodes ? n : nodes;
}

int viz_act_column_link(const sim_activity *a, const viz_act_opts *o, int col)
{
    int links = sim_activity_links(a), last = o->last < 0 ? links - 1 : o->last;
    if (!o->legend) return o->first + col;
    /* Framed: the links first..last in (direction, node) order. */
    int nodes = links / 4;
    for (int d = 0; d < 4; d++) {
        int lo = o->first > d ? (o->first - d + 3) / 4 : 0, hi = last >= d ? (last - d) / 4 : -1;
        if (lo > nodes - 1) lo = nodes;
        int count = hi >= lo ? hi - lo + 1 : 0;
        if (col < count) return (lo + col) * 4 + d;
        col -= count;
    }
    return -1;
}

/* Cycles between labelled ticks: 1, 2, 5, 10, 20, ... so that labels
 * (5 TZ pixels high) stay apart at this scale. */
static int tick_step(int scale)
{
    static const int f[3] = { 1, 2, 5 };
    for (int64_t m = 1;; m *= 10)
        for (int i = 0; i < 3; i++)
            if (m * f[i] * scale >= 5 * TZ + 6) return (int)(m * f[i]);
}

int viz_act_geometry(const sim_activity *a, int64_t cycles, int slices, const viz_act_opts *o, viz_act_layout *g,
                     char *err, size_t errlen)
{
    int links = sim_activity_links(a);
    int last = o->last < 0 ? links - 1 : o->last;
    if (o->first < 0 || o->first > last || last >= links) {
        snprintf(err, errlen, "link range %d:%d is outside the network's links 0:%d", o->first, last, links - 1);
        return VIZ_BADINPUT;
    }
    if (o->scale < 1 || o->scale > VIZ_ACT_MAX_SCALE) {
        snprintf(err, errlen, "scale %d is outside 1..%d", o->scale, VIZ_ACT_MAX_SCALE);
        return VIZ_BADINPUT;
    }
    if (cycles < 1) cycles = 1;
    if (cycles > ((int64_t)1 << 28)) cycles = (int64_t)1 << 28; /* refused below anyway */
    const int64_t k = o->scale, mw = (last - o->first + 1) * k, mh = cycles * k;
    int64_t iw = mw, ih = mh, mx = 0, my = 0;
    g->tick_cycles = 0;
    if (o->legend) {
        g->tick_cycles = tick_step(o->scale);
        char lab[24];
        snprintf(lab, sizeof lab, "%lld", (long long)((cycles - 1) / g->tick_cycles * g->tick_cycles));
        mx = PAD + text_width(lab, TZ) + 3 + TICK;
        my = TITLE_H + CAPTION_H;
        /* below the map: row ticks and labels, direction brackets and
         * names, the caption; then the legend */
        int64_t band = TICK + 5 + 4 + 3 + 5 * TZ + 6 + 5 * TZ + PAD;
        char title[600];
        snprintf(title, sizeof title, "LINK ACTIVITY%s%s", o->title ? ": " : "", o->title ? o->title : "");
        int64_t need[] = { mx + mw + PAD, PAD + text_width(title, TZ) + PAD, PAD + text_width(cycle_caption, TZ) + PAD,
                           mx + text_width(link_caption, TZ) + PAD, mx + legend_width(slices) + PAD };
        iw = 0;
        for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
            if (need[i] > iw) iw = need[i];
        ih = my + mh + 1 + band + VIZ_ACT_LEGEND_ROWS + PAD;
    }
    if (iw * ih > ((int64_t)1 << 28)) {
        snprintf(err, errlen, "the picture would be %lld x %lld pixels; narrow it with a link range or a smaller scale",
                 (long long)iw, (long long)ih);
        return VIZ_BADINPUT;
    }
    *g = (viz_act_layout){ (int)iw, (int)ih, (int)mx, (int)my, last - o->first + 1, g->tick_cycles };
    return VIZ_OK;
}

/* The frame around the map of layout g: title, cycle axis, link axis, legend. */
static void draw_frame(uint8_t *p, const viz_act_layout *g, const sim_activity *a, int64_t cycles, int slices,
                       const viz_act_opts *o)
{
    const int w = g->w, k = o->scale, mx = g->map_x, my = g->map_y, mh = (int)(cycles * k);
    char buf[600];
    snprintf(buf, sizeof buf, "LINK ACTIVITY%s%s", o->title ? ": " : "", o->title ? o->title : "");
    text(p, w, PAD, PAD, buf, TZ);
    text(p, w, PAD, TITLE_H, cycle_caption, TZ);
    /* axes: a line left of and under the map */
    fill(p, w, mx - 1, my, 1, mh + 1, ink);
    fill(p, w, mx - 1, my + mh, g->cols * k + 1, 1, ink);
    for (int64_t t = 0; t < cycles; t += g->tick_cycles) {
        int y = my + (int)t * k;
        fill(p, w, mx - 1 - TICK, y, TICK, 1, ink);
        snprintf(buf, sizeof buf, "%lld", (long long)t);
        int ty = y - 5 * TZ / 2;
        if (ty < my) ty = my;
        text(p, w, mx - 1 - TICK - 3 - text_width(buf, TZ), ty, buf, TZ);
    }
    /* the link axis: a tick and the row's y where a row starts, a bracket
     * and the direction's name under each direction */
    int n = torus_side(a), y0 = my + mh + 1, yb = y0 + TICK + 5 + 4, label_end = -1;
    for (int c = 0; c < g->cols;) {
        int l = viz_act_column_link(a, o, c), d = l % 4, c0 = c;
        while (c < g->cols && viz_act_column_link(a, o, c) % 4 == d) {
            int row = viz_act_column_link(a, o, c) / 4 / n, r0 = c;
            while (c < g->cols && viz_act_column_link(a, o, c) % 4 == d && viz_act_column_link(a, o, c) / 4 / n == row) c++;
            int x = mx + r0 * k;
            fill(p, w, x, y0, 1, TICK, ink);
            snprintf(buf, sizeof buf, "%d", row);
            if (x > label_end && text_width(buf, 1) + 1 <= (c - r0) * k + 2 * k) {
                text(p, w, x + 1, y0 + TICK + 1, buf, 1);
                label_end = x + 1 + text_width(buf, 1) + 2;
            }
        }
        int x0 = mx + c0 * k, x1 = mx + c * k - 1;
        fill(p, w, x0, yb, 1, 3, ink);
        fill(p, w, x1, yb, 1, 3, ink);
        fill(p, w, x0, yb + 2, x1 - x0 + 1, 1, ink);
        const char *name = text_width(dir_names[d], TZ) + 2 <= x1 - x0 ? dir_names[d] : (const char[]){ dir_names[d][0], 0 };
        int tx = (x0 + x1 + 1 - text_width(name, TZ)) / 2;
        if (tx < x0) tx = x0;
        text(p, w, tx, yb + 5, name, TZ);
    }
    text(p, w, mx, yb + 5 + 5 * TZ + 6, link_caption, TZ);
    draw_legend(p, w, mx, g->h - PAD - VIZ_ACT_LEGEND_ROWS, slices);
}

int viz_act_render(const sim_activity *a, int64_t cycles, int slices, const viz_act_opts *o,
                   uint8_t **rgb, int *w, int *h, char *err, size_t errlen)
{
    *rgb = NULL;
    viz_act_layout g;
    int rc = viz_act_geometry(a, cycles, slices, o, &g, err, errlen);
    if (rc != VIZ_OK) return rc;
    if (cycles < 1) cycles = 1;
    uint8_t *p = malloc((size_t)g.w * (size_t)g.h * 3);
    if (!p) {
        snprintf(err, errlen, "out of memory for a %d x %d picture", g.w, g.h);
        return VIZ_FAIL;
    }
    memset(p, 255, (size_t)g.w * (size_t)g.h * 3);
    const int k = o->scale;
    for (int col = 0; col < g.cols; col++) {
        int l = viz_act_column_link(a, o, col);
        for (int64_t t = 0; t < cycles; t++) {
            int cell = sim_activity_at(a, t, l);
            if (cell == ACT_IDLE) continue;
            uint8_t c[3];
            viz_act_colour(cell, c);
            fill(p, g.w, g.map_x + col * k, g.map_y + (int)t * k, k, k, c);
        }
    }
    if (o->legend) draw_frame(p, &g, a, cycles, slices, o);
    *rgb = p;
    *w = g.w;
    *h = g.h;
    return VIZ_OK;
}

int viz_act_write_png(const sim_activity *a, int64_t cycles, int slices, const viz_act_opts *o,
                      const char *path, char *err, size_t errlen)
{
    uint8_t *rgb;
    int w, h;
    int rc = viz_act_render(a, cycles, slices, o, &rgb, &w, &h, err, errlen);
    if (rc != VIZ_OK) return rc;
    outfile out;
    if ((rc = outfile_open(&out, path, err, errlen)) == VIZ_OK) {
        char perr[256];
        if (viz_png_write(out.f, w, h, rgb, perr, sizeof perr) != VIZ_OK) {
            snprintf(err, errlen, "%s: %s", path, perr);
            outfile_abort(&out);
            rc = VIZ_FAIL;
        } else rc = outfile_commit(&out, err, errlen);
    }
    free(rgb);
    return rc;
}
