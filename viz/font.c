/* Lettering and writing for the PNG pictures (see font.h). */
#include "viz/font.h"

#include <stdio.h>
#include <string.h>

#include "util/outfile.h"
#include "viz/png.h"
#include "viz/viz.h"

static const uint8_t ink[3] = { 0, 0, 0 };

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

void viz_fill(uint8_t *rgb, int w, int x0, int y0, int dx, int dy, const uint8_t c[3])
{
    for (int y = y0; y < y0 + dy; y++)
        for (int x = x0; x < x0 + dx; x++) memcpy(rgb + ((size_t)y * (size_t)w + (size_t)x) * 3, c, 3);
}

int viz_text_width(const char *t, int z) { return t[0] ? (int)strlen(t) * 4 * z - z : 0; }

void viz_text(uint8_t *rgb, int w, int x0, int y0, const char *t, int z)
{
    for (; *t; t++, x0 += 4 * z) {
        const uint8_t *g = glyph_rows(*t);
        for (int r = 0; r < 5; r++)
            for (int col = 0; col < 3; col++)
                if (g[r] & (4 >> col)) viz_fill(rgb, w, x0 + col * z, y0 + r * z, z, z, ink);
    }
}

int viz_write_png_file(const char *path, int w, int h, const uint8_t *rgb, char *err, size_t errlen)
{
    outfile out;
    int rc = outfile_open(&out, path, err, errlen);
    if (rc != VIZ_OK) return rc;
    char perr[256];
    if (viz_png_write(out.f, w, h, rgb, perr, sizeof perr) != VIZ_OK) {
        snprintf(err, errlen, "%s: %s", path, perr);
        outfile_abort(&out);
        return VIZ_FAIL;
    }
    return outfile_commit(&out, err, errlen);
}
