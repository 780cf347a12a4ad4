/* libpng writer (see png.h).  libpng reports errors by longjmp, so the
 * state a longjmp can skip over lives in volatile locals. */
#include "viz/png.h"
#include "viz/viz.h"

#include <png.h>
#include <setjmp.h>
#include <string.h>

typedef struct {
    char *err;
    size_t errlen;
} png_errctx;

static void on_error(png_structp png, png_const_charp msg)
{
    png_errctx *e = png_get_error_ptr(png);
    snprintf(e->err, e->errlen, "libpng: %s", msg);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg) { (void)png, (void)msg; }

int viz_png_write(FILE *f, int w, int h, const uint8_t *rgb, char *err, size_t errlen)
{
    char dummy[1];
    png_errctx ectx = { err ? err : dummy, err ? errlen : sizeof dummy };
    if (w <= 0 || h <= 0) {
        snprintf(ectx.err, ectx.errlen, "an image of %d x %d pixels is empty", w, h);
        return VIZ_FAIL;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ectx, on_error, on_warning);
    if (!png) {
        snprintf(ectx.err, ectx.errlen, "libpng: cannot create a writer");
        return VIZ_FAIL;
    }
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        snprintf(ectx.err, ectx.errlen, "libpng: out of memory");
        return VIZ_FAIL;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return VIZ_FAIL;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < h; y++) png_write_row(png, rgb + (size_t)y * (size_t)w * 3);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return VIZ_OK;
}
