/* Drawing the link-activity map (see activity_map.h): the map, and when
 * framed its title, axes and legend, lettered with a 3x5 bitmap font. */
#include "viz/activity_map.h"
#include "util/outfile.h"
#include "viz/font.h"
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

/* Legend geometry: entries of a swatch and a glyph. */
enum { SW = 8, ENTRY = 16, MARGIN = 3 };

void viz_act_opts_default(viz_act_opts *o)
{
    *o = (viz_act_opts){ .scale = 1, .first = 0, .last = -1, .legend = 1, .title = NULL };
}

void viz_act_colour(int cell, uint8_t rgb[3])
{
    const uint8_t *c = cell == ACT_IDLE ? white : cell == ACT_BLOCKED ? grey : palette[(cell - ACT_SLICE0) % VIZ_ACT_COLOURS];
    memcpy(rgb, c, 3);
}

static int legend_entries(int slices) { return (slices < VIZ_ACT_COLOURS ? slices : VIZ_ACT_COLOURS) + 1; }

static const char blocked_label[] = "BLOCKED";

/* The legend's width from its left edge: swatches, then the grey's label. */
static int legend_width(int slices)
{
    return MARGIN + legend_entries(slices) * ENTRY + SW + viz_text_width(blocked_label, 1);
}

static void draw_legend(uint8_t *rgb, int w, int x0, int y0, int slices)
{
    int n = legend_entries(slices);
    viz_fill(rgb, w, 0, y0, w, 1, rule); /* between map and legend */
    int y = y0 + 1 + (VIZ_ACT_LEGEND_ROWS - 1 - SW) / 2;
    for (int e = 0; e < n; e++) {
        int x = x0 + MARGIN + e * ENTRY + (e == n - 1 ? SW : 0); /* the grey set apart from the slices */
        uint8_t c[3];
        viz_act_colour(e < n - 1 ? ACT_SLICE0 + e : ACT_BLOCKED, c);
        viz_fill(rgb, w, x, y, SW, SW, c);
        if (e < n - 1) {
            char d[2] = { (char)('0' + e), 0 };
            viz_text(rgb, w, x + SW + 2, y + 2, d, 1);
        } else if (x0 > 0) {
            viz_text(rgb, w, x + SW + 2, y + 2, blocked_label, 1);
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
        mx = PAD + viz_text_width(lab, TZ) + 3 + TICK;
        my = TITLE_H + CAPTION_H;
        /* below the map: row ticks and labels, direction brackets and
         * names, the caption; then the legend */
        int64_t band = TICK + 5 + 4 + 3 + 5 * TZ + 6 + 5 * TZ + PAD;
        char title[600];
        snprintf(title, sizeof title, "LINK ACTIVITY%s%s", o->title ? ": " : "", o->title ? o->title : "");
        int64_t need[] = { mx + mw + PAD, PAD + viz_text_width(title, TZ) + PAD, PAD + viz_text_width(cycle_caption, TZ) + PAD,
                           mx + viz_text_width(link_caption, TZ) + PAD, mx + legend_width(slices) + PAD };
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
    viz_text(p, w, PAD, PAD, buf, TZ);
    viz_text(p, w, PAD, TITLE_H, cycle_caption, TZ);
    /* axes: a line left of and under the map */
    viz_fill(p, w, mx - 1, my, 1, mh + 1, ink);
    viz_fill(p, w, mx - 1, my + mh, g->cols * k + 1, 1, ink);
    for (int64_t t = 0; t < cycles; t += g->tick_cycles) {
        int y = my + (int)t * k;
        viz_fill(p, w, mx - 1 - TICK, y, TICK, 1, ink);
        snprintf(buf, sizeof buf, "%lld", (long long)t);
        int ty = y - 5 * TZ / 2;
        if (ty < my) ty = my;
        viz_text(p, w, mx - 1 - TICK - 3 - viz_text_width(buf, TZ), ty, buf, TZ);
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
            viz_fill(p, w, x, y0, 1, TICK, ink);
            snprintf(buf, sizeof buf, "%d", row);
            if (x > label_end && viz_text_width(buf, 1) + 1 <= (c - r0) * k + 2 * k) {
                viz_text(p, w, x + 1, y0 + TICK + 1, buf, 1);
                label_end = x + 1 + viz_text_width(buf, 1) + 2;
            }
        }
        int x0 = mx + c0 * k, x1 = mx + c * k - 1;
        viz_fill(p, w, x0, yb, 1, 3, ink);
        viz_fill(p, w, x1, yb, 1, 3, ink);
        viz_fill(p, w, x0, yb + 2, x1 - x0 + 1, 1, ink);
        const char *name = viz_text_width(dir_names[d], TZ) + 2 <= x1 - x0 ? dir_names[d] : (const char[]){ dir_names[d][0], 0 };
        int tx = (x0 + x1 + 1 - viz_text_width(name, TZ)) / 2;
        if (tx < x0) tx = x0;
        viz_text(p, w, tx, yb + 5, name, TZ);
    }
    viz_text(p, w, mx, yb + 5 + 5 * TZ + 6, link_caption, TZ);
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
            viz_fill(p, g.w, g.map_x + col * k, g.map_y + (int)t * k, k, k, c);
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
    rc = viz_write_png_file(path, w, h, rgb, err, errlen);
    free(rgb);
    return rc;
}
