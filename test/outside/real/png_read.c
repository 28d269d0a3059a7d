/* test/outside/real/png_read.c — a libFuzzer harness over the system libpng's reader (for
 * run.sh: the six real libraries under fuzzgate's libFuzzer driver). */
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct reader {
    const uint8_t *p;
    size_t left;
} reader;

static void read_fn(png_structp png, png_bytep out, png_size_t n)
{
    reader *r = png_get_io_ptr(png);
    if (n > r->left)
        png_error(png, "truncated");
    memcpy(out, r->p, n);
    r->p += n;
    r->left -= n;
}

static void quiet(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0)
        return 0;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, quiet);
    if (!png)
        return 0;
    png_infop info = png_create_info_struct(png);
    /* volatile: set after setjmp and read after the longjmp of a png_error (without it the
     * error path frees a stale copy, and the row is leaked: the retention oracle says so) */
    png_bytep volatile row = NULL;
    reader r = {data, size};
    if (!info || setjmp(png_jmpbuf(png))) {
        free(row);
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        return 0;
    }
    png_set_read_fn(png, &r, read_fn);
    png_set_user_limits(png, 4096, 4096);
    png_read_info(png, info);
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    png_uint_32 h = png_get_image_height(png, info);
    if (rowbytes && rowbytes * h < (64u << 20)) {
        row = malloc(rowbytes);
        for (int p = 0; row && p < passes; p++)
            for (png_uint_32 y = 0; y < h; y++)
                png_read_row(png, row, NULL);
        png_read_end(png, info);
    }
    free(row);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}
