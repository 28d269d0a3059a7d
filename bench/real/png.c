/* bench/real/png.c — libpng reads the input as a PNG: header, every row, the end.
 *
 * CRC and Adler-32 mismatches are ignored (as OSS-Fuzz's libpng harness does), or almost
 * every mutation would stop at the first checksum. Images past 4 M pixels are refused
 * before their rows are allocated: the bound is the harness's, not the library's.
 */
#include "harness.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PIXELS (4u << 20) /* arbitrary: bigger images cost a case seconds */

typedef struct reader {
    const uint8_t *data;
    size_t size, at;
} reader;

static void read_fn(png_structp png, png_bytep out, png_size_t n)
{
    reader *r = png_get_io_ptr(png);
    if (n > r->size - r->at)
        png_error(png, "read past the end");
    memcpy(out, r->data + r->at, n);
    r->at += n;
}

static void error_fn(png_structp png, png_const_charp msg)
{
    (void)msg;
    png_longjmp(png, 1);
}

static void warning_fn(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

int bench_real_one(const uint8_t *data, size_t size)
{
    if (size < 8 || png_sig_cmp(data, 0, 8))
        return 0;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, error_fn,
                                             warning_fn);
    if (!png)
        return 0;
    png_infop info = png_create_info_struct(png);
    png_bytep volatile row = NULL;
    reader r = {data, size, 0};
    if (!info || setjmp(png_jmpbuf(png))) {
        free(row);
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        return 0;
    }
    png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
#ifdef PNG_IGNORE_ADLER32
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_set_read_fn(png, &r, read_fn);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if ((unsigned long long)w * h > MAX_PIXELS)
        png_error(png, "too many pixels");
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    row = malloc(png_get_rowbytes(png, info) + 1);
    if (!row)
        png_error(png, "out of memory");
    for (int p = 0; p < passes; p++)
        for (png_uint_32 y = 0; y < h; y++)
            png_read_row(png, row, NULL);
    png_read_end(png, info);
    free(row);
    row = NULL;
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}
