/* bench/real/seeds.c — writes a bench/real harness's small seed corpus into a directory.
 *
 *     seeds DIR
 *
 * Built once per library (empty zlib brotli png expat yaml xml) with -DSEEDS_<LIBRARY> and that library's flags, so the
 * compressed seeds are made by the library itself and nothing binary is committed. Two or
 * three tiny inputs a library, as a user starting a fuzzer would have. Deterministic:
 * same bytes on every run.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(SEEDS_ZLIB)
#include <zlib.h>
#elif defined(SEEDS_BROTLI)
#include <brotli/encode.h>
#elif defined(SEEDS_PNG)
#include <png.h>
#endif

static const char *dir;

static int put(const char *name, const void *data, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        fprintf(stderr, "seeds: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

#if defined(SEEDS_EXPAT) || defined(SEEDS_XML) || defined(SEEDS_YAML) || defined(SEEDS_EMPTY)
static int put_text(const char *name, const char *text)
{
    return put(name, text, strlen(text));
}
#endif

#if defined(SEEDS_ZLIB) || defined(SEEDS_BROTLI) || defined(SEEDS_PNG) || defined(SEEDS_EMPTY)
static const char text1[] = "hello, hello, hello world\n";
static const char text2[] = "The quick brown fox jumps over the lazy dog. 0123456789 "
                            "The quick brown fox jumps over the lazy dog.\n";
#endif

#if defined(SEEDS_ZLIB)
/* windowBits 15: a zlib stream; 31: a gzip member (the harness detects either). */
static int put_deflated(const char *name, const char *text, int window_bits)
{
    unsigned char out[512];
    z_stream z = {0};
    if (deflateInit2(&z, 9, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return 1;
    z.next_in = (unsigned char *)text;
    z.avail_in = (uInt)strlen(text);
    z.next_out = out;
    z.avail_out = sizeof out;
    int rc = deflate(&z, Z_FINISH);
    size_t n = sizeof out - z.avail_out;
    deflateEnd(&z);
    return rc == Z_STREAM_END ? put(name, out, n) : 1;
}

static int seeds(void)
{
    return put_deflated("text1.zz", text1, 15) | put_deflated("text2.gz", text2, 31) |
           put_deflated("empty.zz", "", 15);
}
#elif defined(SEEDS_BROTLI)
static int put_brotli(const char *name, const char *text, int quality)
{
    uint8_t out[512];
    size_t n = sizeof out;
    if (!BrotliEncoderCompress(quality, 16, BROTLI_MODE_GENERIC, strlen(text),
                               (const uint8_t *)text, &n, out))
        return 1;
    return put(name, out, n);
}

static int seeds(void)
{
    return put_brotli("text1.br", text1, 5) | put_brotli("text2.br", text2, 11) |
           put_brotli("empty.br", "", 1);
}
#elif defined(SEEDS_PNG)
/* Pixels from the bytes of `text`, repeated. */
static int put_png(const char *name, unsigned w, unsigned h, png_uint_32 format,
                   const char *text)
{
    uint8_t pixels[16 * 16 * 4], out[4096];
    size_t n = strlen(text);
    for (size_t i = 0; i < sizeof pixels; i++)
        pixels[i] = (uint8_t)text[i % n];
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = w;
    img.height = h;
    img.format = format;
    png_alloc_size_t len = sizeof out;
    if (!png_image_write_to_memory(&img, out, &len, 0, pixels, 0, NULL))
        return 1;
    return put(name, out, len);
}

static int seeds(void)
{
    return put_png("rgba4x4.png", 4, 4, PNG_FORMAT_RGBA, text1) |
           put_png("gray3x2.png", 3, 2, PNG_FORMAT_GRAY, text2);
}
#elif defined(SEEDS_EXPAT) || defined(SEEDS_XML)
static int seeds(void)
{
    return put_text("doc.xml", "<?xml version=\"1.0\"?>\n<a x=\"1\"><b>text</b><c y='2'/>"
                               "<!-- note --><d>&amp;&#65;</d></a>\n") |
           put_text("dtd.xml", "<!DOCTYPE r [<!ENTITY e \"value\"><!ELEMENT r ANY>]>\n"
                               "<r>&e;<![CDATA[raw <text>]]><?pi data?></r>\n");
}
#elif defined(SEEDS_YAML)
static int seeds(void)
{
    return put_text("map.yaml", "a: 1\nb: [x, y]\nc: {k: v}\n") |
           put_text("seq.yaml", "--- !tag\n- &a item\n- *a\n- |\n  block\n- 'quoted'\n...\n");
}
#elif defined(SEEDS_EMPTY)
static int seeds(void)
{
    return put_text("text1", text1) | put_text("text2", text2);
}
#else
#error "build with -DSEEDS_<LIBRARY>"
#endif

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: seeds DIR\n");
        return 2;
    }
    dir = argv[1];
    return seeds() ? 1 : 0;
}
