/* Lettering and writing for the PNG pictures (the link-activity map, the
 * link-load map): a 3x5 bitmap font, filled rectangles and a picture
 * written to a temporary file renamed into place (viz.h's conventions). */
#ifndef NOCSIM_VIZ_FONT_H
#define NOCSIM_VIZ_FONT_H

#include <stddef.h>
#include <stdint.h>

/* Fill dx x dy pixels from (x0, y0) of an RGB picture w pixels wide with c. */
void viz_fill(uint8_t *rgb, int w, int x0, int y0, int dx, int dy, const uint8_t c[3]);
/* The width of t at zoom z (each font pixel z x z): 4z pixels a character
 * less the last gap, 0 for ""; 5z high. */
int viz_text_width(const char *t, int z);
/* t in black from (x0, y0), its top-left, at zoom z: digits, capitals (lower
 * case drawn as capitals) and the punctuation of titles, '?' for the rest. */
void viz_text(uint8_t *rgb, int w, int x0, int y0, const char *t, int z);
/* Write a w x h RGB picture to path as a PNG: VIZ_OK, or VIZ_BADINPUT /
 * VIZ_FAIL with err naming the file (nothing left behind on failure). */
int viz_write_png_file(const char *path, int w, int h, const uint8_t *rgb, char *err, size_t errlen);

#endif
