/* Drawing the link-activity map (see activity_map.h).  The legend's digits
 * come from a 3x5 bitmap font: the map needs ten glyphs, not a font library. */
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

/* Rows of the glyphs 0-9, 3 bits each (bit 2 = left column). */
static const uint8_t digits[10][5] = {
    { 7, 5, 5, 5, 7 }, { 2, 6, 2, 2, 7 }, { 7, 1, 7, 4, 7 }, { 7, 1, 7, 1, 7 }, { 5, 5, 7, 1, 1 },
    { 7, 4, 7, 1, 7 }, { 7, 4, 7, 5, 7 }, { 7, 1, 1, 1, 1 }, { 7, 5, 7, 5, 7 }, { 7, 5, 7, 1, 7 },
};

/* Legend geometry: entries of a swatch and a glyph. */
enum { SW = 8, ENTRY = 16, MARGIN = 3 };

void viz_act_opts_default(viz_act_opts *o) { *o = (viz_act_opts){ .scale = 1, .first = 0, .last = -1, .legend = 1 }; }

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

static void glyph(uint8_t *rgb, int w, int x0, int y0, int d)
{
    for (int r = 0; r < 5; r++)
        for (int col = 0; col < 3; col++)
            if (digits[d][r] & (4 >> col)) fill(rgb, w, x0 + col, y0 + r, 1, 1, ink);
}

static int legend_entries(int slices) { return (slices < VIZ_ACT_COLOURS ? slices : VIZ_ACT_COLOURS) + 1; }

static void draw_legend(uint8_t *rgb, int w, int y0, int slices)
{
    int n = legend_entries(slices);
    fill(rgb, w, 0, y0, w, 1, rule); /* between map and legend */
    int y = y0 + 1 + (VIZ_ACT_LEGEND_ROWS - 1 - SW) / 2;
    for (int e = 0; e < n; e++) {
        int x = MARGIN + e * ENTRY + (e == n - 1 ? SW : 0); /* the grey set apart from the slices */
        uint8_t c[3];
        viz_act_colour(e < n - 1 ? ACT_SLICE0 + e : ACT_BLOCKED, c);
        fill(rgb, w, x, y, SW, SW, c);
        if (e < n - 1) glyph(rgb, w, x + SW + 2, y + 2, e);
    }
}

int viz_act_render(const sim_activity *a, int64_t cycles, int slices, const viz_act_opts *o,
                   uint8_t **rgb, int *w, int *h, char *err, size_t errlen)
{
    *rgb = NULL;
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
    const int64_t k = o->scale, mw = (last - o->first + 1) * k, mh = cycles * k;
    int64_t iw = mw, ih = mh;
    if (o->legend) {
        int64_t lw = 2 * MARGIN + (int64_t)legend_entries(slices) * ENTRY + SW;
        if (lw > iw) iw = lw;
        ih += VIZ_ACT_LEGEND_ROWS;
    }
    if (iw * ih > ((int64_t)1 << 28)) {
        snprintf(err, errlen, "the picture would be %lld x %lld pixels; narrow it with a link range or a smaller scale",
                 (long long)iw, (long long)ih);
        return VIZ_BADINPUT;
    }
    uint8_t *p = malloc((size_t)(iw * ih * 3));
    if (!p) {
        snprintf(err, errlen, "out of memory for a %lld x %lld picture", (long long)iw, (long long)ih);
        return VIZ_FAIL;
    }
    memset(p, 255, (size_t)(iw * ih * 3));
    for (int64_t t = 0; t < cycles; t++)
        for (int l = o->first; l <= last; l++) {
            int cell = sim_activity_at(a, t, l);
            if (cell == ACT_IDLE) continue;
            uint8_t c[3];
            viz_act_colour(cell, c);
            fill(p, (int)iw, (int)((l - o->first) * k), (int)(t * k), (int)k, (int)k, c);
        }
    if (o->legend) draw_legend(p, (int)iw, (int)mh, slices);
    *rgb = p;
    *w = (int)iw;
    *h = (int)ih;
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
