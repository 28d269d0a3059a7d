/* bench/src/disasm.c — opcodes' x86 disassembler over the input bytes.
 *
 * The first byte chooses how the rest is read: bits 0-1 the machine (0 and 3: x86-64,
 * 1: i386, 2: i8086), bit 2 Intel syntax, bit 3 the "suffix" option (AT&T mnemonics
 * with their size suffix). The rest is disassembled from address 0, instruction after
 * instruction, until the bytes end or the disassembler refuses. The text it prints goes
 * into a sink of fixed size (only its length is kept); the bytes reach it through the
 * harness's own read callback, which refuses every read past the end.
 */
#define PACKAGE "fuzzgate-bench-src" /* bfd.h (through dis-asm.h) wants PACKAGE first */
#include "../real/harness.h"

#include <dis-asm.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct sink {
    char text[128];
    size_t printed; /* characters the disassembler asked to print */
};

static int sink_vprintf(struct sink *s, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
static int sink_vprintf(struct sink *s, const char *fmt, va_list ap)
{
    int n = vsnprintf(s->text, sizeof s->text, fmt, ap);
    if (n > 0)
        s->printed += (size_t)n;
    return n;
}

static int sink_printf(void *stream, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sink_printf(void *stream, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = sink_vprintf(stream, fmt, ap);
    va_end(ap);
    return n;
}

static int sink_styled(void *stream, enum disassembler_style style, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int sink_styled(void *stream, enum disassembler_style style, const char *fmt, ...)
{
    (void)style;
    va_list ap;
    va_start(ap, fmt);
    int n = sink_vprintf(stream, fmt, ap);
    va_end(ap);
    return n;
}

/* Copies `len` bytes at `addr` of the buffer; 0, or -1 when any of them is past its end. */
static int read_bytes(bfd_vma addr, bfd_byte *out, unsigned int len,
                      struct disassemble_info *info)
{
    if (addr > info->buffer_length || len > info->buffer_length - addr)
        return -1;
    memcpy(out, info->buffer + addr, len);
    return 0;
}

static const unsigned long machines[4] = {bfd_mach_x86_64, bfd_mach_i386_i386,
                                          bfd_mach_i386_i8086, bfd_mach_x86_64};
static const char *const options[4] = {NULL, "intel", "suffix", "intel,suffix"};

int bench_real_one(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned long mach = machines[data[0] & 3];
    disassembler_ftype print = disassembler(bfd_arch_i386, false, mach, NULL);
    if (!print)
        return 0;
    struct sink s = {{0}, 0};
    struct disassemble_info info;
    init_disassemble_info(&info, &s, sink_printf, sink_styled);
    info.arch = bfd_arch_i386;
    info.mach = mach;
    info.disassembler_options = options[(data[0] >> 2) & 3];
    info.buffer = (bfd_byte *)(data + 1);
    info.buffer_length = size - 1;
    info.buffer_vma = 0;
    info.read_memory_func = read_bytes;
    disassemble_init_for_target(&info);
    for (bfd_vma pc = 0; pc < info.buffer_length;) {
        int n = print(pc, &info);
        if (n <= 0)
            break;
        pc += (bfd_vma)n;
    }
    disassemble_free_target(&info);
    return 0;
}
