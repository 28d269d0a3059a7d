/* bench/src/bfd.c — libbfd reads the input as an object file or an archive, from memory.
 *
 * The input is opened with bfd_openr_iovec over the bytes (no file, no descriptor), with
 * BFD_DECOMPRESS so compressed sections are inflated as objdump -s would. An archive's
 * members are each read as an object; an object's symbol table is read and every symbol
 * decoded, every section's contents fetched and its relocations canonicalised. What a
 * case allocates is freed: the harness's own buffers here, bfd's by bfd_close.
 *
 * Bounds that are the harness's, not the library's (arbitrary): a section's contents, a
 * symbol table or a relocation table past CAP bytes is skipped (a compressed section
 * states its own inflated size, which may be anything), and at most MAX_MEMBERS members
 * of an archive are read. A thin archive ("!<thin>\n") names its members as files on
 * disk, which bfd would open: such inputs are refused (-1, never kept).
 *
 * bfd's error and assertion handlers are made quiet, but bfd_check_format in 2.40 prints
 * the warnings it collected ("BFD: warning: input has a section extending past end of
 * file") straight to stderr, past the handler (format.c, print_warnmsg): every engine's
 * log gets them alike.
 */
#define PACKAGE "fuzzgate-bench-src" /* bfd.h wants config.h's PACKAGE first */
#include "../real/harness.h"

#include <bfd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CAP ((bfd_size_type)1 << 24)
#define MAX_MEMBERS 64

struct image {
    const uint8_t *data;
    size_t size;
};

static void *image_open(bfd *abfd, void *closure)
{
    (void)abfd;
    return closure;
}

static file_ptr image_pread(bfd *abfd, void *stream, void *buf, file_ptr n, file_ptr off)
{
    const struct image *im = stream;
    (void)abfd;
    if (off < 0 || n < 0 || (uint64_t)off >= im->size)
        return 0;
    if ((uint64_t)n > im->size - (uint64_t)off)
        n = (file_ptr)(im->size - (uint64_t)off);
    memcpy(buf, im->data + off, (size_t)n);
    return n;
}

static int image_close(bfd *abfd, void *stream)
{
    (void)abfd;
    (void)stream;
    return 0;
}

static int image_stat(bfd *abfd, void *stream, struct stat *sb)
{
    const struct image *im = stream;
    (void)abfd;
    memset(sb, 0, sizeof *sb);
    sb->st_mode = S_IFREG | 0644;
    sb->st_size = (off_t)im->size;
    return 0;
}

/* bfd reports malformed input through these; a fuzzer's input is malformed by design. */
static void quiet_error(const char *fmt, va_list ap)
{
    (void)fmt;
    (void)ap;
}

static void quiet_assert(const char *fmt, const char *msg, const char *file, int line)
{
    (void)fmt;
    (void)msg;
    (void)file;
    (void)line;
}

static volatile unsigned long sink; /* what was read goes somewhere */

static void read_relocs(bfd *abfd, asection *sec, asymbol **syms)
{
    long need = bfd_get_reloc_upper_bound(abfd, sec);
    if (need <= 0 || (bfd_size_type)need > CAP)
        return;
    arelent **rels = malloc((size_t)need);
    if (!rels)
        return;
    long n = bfd_canonicalize_reloc(abfd, sec, rels, syms);
    for (long i = 0; i < n; i++)
        sink += (unsigned long)rels[i]->address + (rels[i]->howto ? 1u : 0u);
    free(rels);
}

static void read_object(bfd *abfd)
{
    asymbol **syms = NULL;
    long need = bfd_get_symtab_upper_bound(abfd);
    if (need > 0 && (bfd_size_type)need <= CAP && (syms = malloc((size_t)need)) != NULL) {
        long n = bfd_canonicalize_symtab(abfd, syms);
        for (long i = 0; i < n; i++) {
            symbol_info info;
            bfd_get_symbol_info(abfd, syms[i], &info);
            sink += (unsigned long)info.value + (unsigned char)info.type;
        }
    }
    for (asection *sec = abfd->sections; sec; sec = sec->next) {
        if ((bfd_section_flags(sec) & SEC_HAS_CONTENTS) && bfd_section_size(sec) <= CAP) {
            bfd_byte *contents = NULL;
            if (bfd_malloc_and_get_section(abfd, sec, &contents) && bfd_section_size(sec))
                sink += contents[0];
            free(contents);
        }
        if (syms)
            read_relocs(abfd, sec, syms);
    }
    free(syms);
}

/* Each member in turn; a member is closed once the next one is found (it is where the
 * next one's search starts), as objdump does. A member that names itself as the next
 * one ends the walk. */
static void read_archive(bfd *ar)
{
    bfd *prev = NULL;
    for (unsigned i = 0; i < MAX_MEMBERS; i++) {
        bfd *m = bfd_openr_next_archived_file(ar, prev);
        if (prev)
            bfd_close(prev);
        if (!m || m == prev) {
            prev = NULL;
            break;
        }
        if (bfd_check_format(m, bfd_object))
            read_object(m);
        prev = m;
    }
    if (prev)
        bfd_close(prev);
}

int bench_real_one(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        bfd_init();
        bfd_set_error_handler(quiet_error);
        bfd_set_assert_handler(quiet_assert);
        ready = 1;
    }
    if (size >= 8 && memcmp(data, "!<thin>\n", 8) == 0)
        return -1;
    struct image im = {data, size};
    bfd *abfd = bfd_openr_iovec("input", NULL, image_open, &im, image_pread, image_close,
                                image_stat);
    if (!abfd)
        return 0;
    abfd->flags |= BFD_DECOMPRESS;
    if (bfd_check_format(abfd, bfd_archive))
        read_archive(abfd);
    else if (bfd_check_format(abfd, bfd_object))
        read_object(abfd);
    bfd_close(abfd);
    return 0;
}
