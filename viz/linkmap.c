/* Drawing the link load of an open-loop point (see linkmap.h). */
#include "viz/linkmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "router/route.h"
#include "viz/font.h"
#include "viz/viz.h"

/* Geometry, pixels: router pitch and box, a lane's width, text zoom,
 * padding, the colour bar. */
enum { PITCH = 24, BOX = 8, GAP = PITCH - BOX, LANE = 3, TZ = 2, PAD = 8, BAR_W = 160, BAR_H = 10 };
static const uint8_t white[3] = { 255, 255, 255 }, idle[3] = { 225, 225, 225 }, router_c[3] = { 90, 90, 90 },
                     black[3] = { 0, 0, 0 };
/* Pale yellow, yellow-orange, orange, dark red (ColorBrewer YlOrRd). */
static const uint8_t stops[4][3] = { { 255, 255, 178 }, { 254, 204, 92 }, { 253, 141, 60 }, { 189, 0, 38 } };
static const char port_letter[4] = { 'N', 'E', 'S', 'W' };

void viz_links_colour(double t, uint8_t rgb[3])
{
    if (!(t > 0)) {
        memcpy(rgb, idle, 3);
        return;
    }
    if (t > 1) t = 1;
    double s = t * 3;
    int k = s >= 3 ? 2 : (int)s;
    double f = s - k;
    for (int c = 0; c < 3; c++) rgb[c] = (uint8_t)(stops[k][c] + f * (stops[k + 1][c] - stops[k][c]) + 0.5);
}

typedef struct {
    int w, h;          /* the picture */
    int gx, gy;        /* router (0, h-1)'s box, top-left */
    int rows;          /* the grid's h */
} layout;

/* The bar of the link out of router node through port d: x, y, dx, dy. */
static void lane_of(const layout *g, int gw, int node, int d, int r[4])
{
    int left = g->gx + node % gw * PITCH, top = g->gy + (g->rows - 1 - node / gw) * PITCH;
    switch (d) {
    case PORT_N: r[0] = left + 1, r[1] = top - GAP, r[2] = LANE, r[3] = GAP; break;
    case PORT_E: r[0] = left + BOX, r[1] = top + 1, r[2] = GAP, r[3] = LANE; break;
    case PORT_S: r[0] = left + BOX - 1 - LANE, r[1] = top + BOX, r[2] = LANE, r[3] = GAP; break;
    default:     r[0] = left - GAP, r[1] = top + BOX - 1 - LANE, r[2] = GAP, r[3] = LANE; break;
    }
}

/* The frame around a bar, one pixel outside it. */
static void frame(uint8_t *rgb, int w, const int r[4])
{
    viz_fill(rgb, w, r[0] - 1, r[1] - 1, r[2] + 2, 1, black);
    viz_fill(rgb, w, r[0] - 1, r[1] + r[3], r[2] + 2, 1, black);
    viz_fill(rgb, w, r[0] - 1, r[1], 1, r[3], black);
    viz_fill(rgb, w, r[0] + r[2], r[1], 1, r[3], black);
}

/* The two lines of text over the picture: the title, the busiest link. */
static void captions(const ol_report *r, const char *title, char *t1, size_t n1, char *t2, size_t n2)
{
    int node, d;
    double most = ol_link_busiest(r, &node, &d);
    snprintf(t1, n1, "LINK LOAD%s%s", title ? ": " : "", title ? title : "");
    if (most > 0)
        snprintf(t2, n2, "BUSIEST: (%d,%d) %c, %.3f FLITS/CYCLE", node % r->w, node / r->w, port_letter[d], most);
    else
        snprintf(t2, n2, "NO FLIT CROSSED A LINK");
}

/* Everything under the grid: x labels, the colour bar and its scale. */
static void draw_scale(uint8_t *rgb, const layout *g, const ol_report *r, double most)
{
    int y = g->gy + (g->rows - 1) * PITCH + BOX + GAP + 4;
    char lab[32];
    viz_text(rgb, g->w, g->gx, y, "0", TZ);
    snprintf(lab, sizeof lab, "%d", r->w - 1);
    viz_text(rgb, g->w, g->gx + (r->w - 1) * PITCH, y, lab, TZ);
    y += 5 * TZ + 2 * PAD;
    for (int k = 0; k < BAR_W; k++) {
        uint8_t c[3];
        viz_links_colour(k == 0 ? 0 : (double)k / (BAR_W - 1), c);
        viz_fill(rgb, g->w, g->gx + k, y, 1, BAR_H, c);
    }
    snprintf(lab, sizeof lab, "%.3f FLITS/CYCLE", most);
    viz_text(rgb, g->w, g->gx - viz_text_width("0", TZ) - 4, y, "0", TZ);
    viz_text(rgb, g->w, g->gx + BAR_W + 4, y, lab, TZ);
}

/* The grid: routers, then every link's bar, the busiest framed. */
static void draw_grid(uint8_t *rgb, const layout *g, const ol_report *r, double most, int bn, int bd)
{
    char lab[16];
    for (int node = 0; node < r->w * r->h; node++) {
        int x = node % r->w, y = node / r->w;
        int left = g->gx + x * PITCH, top = g->gy + (r->h - 1 - y) * PITCH;
        viz_fill(rgb, g->w, left, top, BOX, BOX, router_c);
        if (x == 0 && (y == 0 || y == r->h - 1)) {
            snprintf(lab, sizeof lab, "%d", y);
            viz_text(rgb, g->w, left - GAP - 4 - viz_text_width(lab, TZ), top - 1, lab, TZ);
        }
        for (int d = 0; d < 4; d++) {
            if (!ol_link_exists(r, node, d)) continue;
            int b[4];
            uint8_t c[3];
            lane_of(g, r->w, node, d, b);
            uint64_t f = r->link_flits[(size_t)node * 4 + (size_t)d];
            viz_links_colour(f && most > 0 ? (double)f / r->link_cycles / most : 0, c);
            viz_fill(rgb, g->w, b[0], b[1], b[2], b[3], c);
        }
    }
    if (most > 0) {
        int b[4];
        lane_of(g, r->w, bn, bd, b);
        frame(rgb, g->w, b);
    }
}

int viz_links_render(const ol_report *r, const char *title, uint8_t **rgb, int *w, int *h, char *err, size_t errlen)
{
    *rgb = NULL;
    if (!r || !r->link_flits)
        return snprintf(err, errlen, "no link counts in this point (nocsim load --links)"), VIZ_BADINPUT;
    if (r->w > VIZ_LINKS_MAX_SIDE || r->h > VIZ_LINKS_MAX_SIDE)
        return snprintf(err, errlen, "a %dx%d grid: the picture draws grids up to %d a side (the CSV has every link)",
                        r->w, r->h, VIZ_LINKS_MAX_SIDE), VIZ_BADINPUT;
    char t1[600], t2[128];
    captions(r, title, t1, sizeof t1, t2, sizeof t2);
    int bn, bd;
    double most = ol_link_busiest(r, &bn, &bd);
    layout g = { .rows = r->h };
    g.gx = PAD + viz_text_width("00", TZ) + 4 + GAP + 2;
    g.gy = PAD + 2 * (5 * TZ + PAD) + GAP + 2;
    int grid_w = (r->w - 1) * PITCH + BOX, need[4] = { g.gx + grid_w + GAP + 2 + PAD, PAD + viz_text_width(t1, TZ) + PAD,
                                                       PAD + viz_text_width(t2, TZ) + PAD,
                                                       g.gx + BAR_W + 4 + viz_text_width("0.000 FLITS/CYCLE", TZ) + PAD };
    g.w = 0;
    for (int k = 0; k < 4; k++)
        if (need[k] > g.w) g.w = need[k];
    g.h = g.gy + (r->h - 1) * PITCH + BOX + GAP + 4 + 5 * TZ + 2 * PAD + BAR_H + PAD + 4;
    uint8_t *px = malloc((size_t)g.w * (size_t)g.h * 3);
    if (!px) return snprintf(err, errlen, "out of memory for a %d x %d picture", g.w, g.h), VIZ_FAIL;
    viz_fill(px, g.w, 0, 0, g.w, g.h, white);
    viz_text(px, g.w, PAD, PAD, t1, TZ);
    viz_text(px, g.w, PAD, PAD + 5 * TZ + PAD, t2, TZ);
    draw_grid(px, &g, r, most, bn, bd);
    draw_scale(px, &g, r, most);
    *rgb = px;
    *w = g.w;
    *h = g.h;
    return VIZ_OK;
}

int viz_links_write_png(const ol_report *r, const char *title, const char *path, char *err, size_t errlen)
{
    uint8_t *rgb;
    int w, h;
    int rc = viz_links_render(r, title, &rgb, &w, &h, err, errlen);
    if (rc != VIZ_OK) return rc;
    rc = viz_write_png_file(path, w, h, rgb, err, errlen);
    free(rgb);
    return rc;
}
