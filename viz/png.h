/* PNG encoding of RGB images with libpng. */
#ifndef NOCSIM_VIZ_PNG_H
#define NOCSIM_VIZ_PNG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/fault.h"

/* Write a w x h image, rgb = 3 bytes per pixel, rows top to bottom, as an
 * 8-bit RGB PNG to f.  VIZ_OK, or VIZ_FAIL with libpng's message in err. */
NOCSIM_MUST_USE
int viz_png_write(FILE *f, int w, int h, const uint8_t *rgb, char *err, size_t errlen);

#endif
