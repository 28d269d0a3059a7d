/* oracle/frames.c — code addresses, named module-relative: a dying case's frames, captured
 * in its signal handler, and the allocation sites of the heap oracles' findings. */
#include "oracle/frames.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

void fgi_frames_warm(void)
{
    void *one[2];
    backtrace(one, 2); /* the first call loads the unwinder; a signal handler must not */
}

/* The interrupted program counter (pc) or stack pointer (!pc) of a signal's context. */
static uint64_t context_reg(void *uctx, int pc)
{
    if (!uctx)
        return 0;
    const ucontext_t *uc = uctx;
#if defined(__x86_64__)
    return (uint64_t)uc->uc_mcontext.gregs[pc ? REG_RIP : REG_RSP];
#elif defined(__aarch64__)
    return (uint64_t)(pc ? uc->uc_mcontext.pc : uc->uc_mcontext.sp);
#else
    (void)uc;
    (void)pc;
    return 0;
#endif
}

uint64_t fgi_frames_sp(void *uctx)
{
    return context_reg(uctx, 0);
}

unsigned fgi_frames_capture(void *uctx, uint64_t boundary, uint64_t *out, unsigned max)
{
    void *raw[64];
    int n = backtrace(raw, (int)FGI_ARRAY_LEN(raw));
    uint64_t pc = context_reg(uctx, 1);
    int start = 0;
    unsigned k = 0;
    if (pc) {
        /* The frames before the interrupted one are the handler's own. */
        start = -1;
        for (int i = 0; i < n; i++)
            if ((uint64_t)raw[i] == pc) {
                start = i;
                break;
            }
        if (start < 0) {
            out[k++] = pc;
            start = n; /* the unwinder did not see through the signal frame */
        }
    }
    for (int i = start; i < n && k < max; i++) {
        if ((uint64_t)raw[i] == boundary)
            break;
        out[k++] = (uint64_t)raw[i];
    }
    return k;
}

static int prefixed(const char *s, const char *p)
{
    return s && strncmp(s, p, strlen(p)) == 0;
}

const char *fgi_frames_base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* Frames of the C library, the loader and the sanitizer runtimes say nothing about which
 * bug it is: every abort() passes through raise. */
static int runtime_frame(const Dl_info *di)
{
    const char *m = di->dli_fname ? fgi_frames_base_name(di->dli_fname) : "";
    if (prefixed(m, "libc.so") || prefixed(m, "libc-") || prefixed(m, "ld-linux") ||
        prefixed(m, "libpthread") || prefixed(m, "libasan") || prefixed(m, "libubsan") ||
        prefixed(m, "liblsan") || prefixed(m, "libtsan") || prefixed(m, "libgcc_s") ||
        prefixed(m, "libclang_rt"))
        return 1;
    const char *s = di->dli_sname;
    return prefixed(s, "__asan") || prefixed(s, "__ubsan") || prefixed(s, "__tsan") ||
           prefixed(s, "__sanitizer") || prefixed(s, "__interceptor") ||
           prefixed(s, "_ZN11__sanitizer") || prefixed(s, "_ZN6__asan") ||
           prefixed(s, "_ZN7__ubsan") || prefixed(s, "_ZN6__tsan");
}

unsigned fgi_frames_pick(const uint64_t *pcs, unsigned n, int from_sanitizer,
                         fgi_frame *out)
{
    Dl_info self;
    int have_self = dladdr((void *)&fgi_frames_pick, &self) != 0;
    unsigned i = 0, picked = 0;
    if (from_sanitizer) {
        /* The engine's death callback, then the runtime's report path: skip to the first
         * runtime frame. */
        while (i < n) {
            Dl_info di;
            if (dladdr((void *)(uintptr_t)pcs[i], &di) && runtime_frame(&di))
                break;
            i++;
        }
        if (i == n)
            i = 0;
    }
    for (; i < n && picked < FGI_CLASS_FRAMES; i++) {
        Dl_info di;
        fgi_frame *f = &out[picked];
        memset(f, 0, sizeof *f);
        if (!dladdr((void *)(uintptr_t)pcs[i], &di) || !di.dli_fname) {
            picked++; /* no module holds it: named "?" */
            continue;
        }
        if (runtime_frame(&di))
            continue;
        f->module = di.dli_fname;
        f->base = (uint64_t)(uintptr_t)di.dli_fbase;
        f->self = have_self && di.dli_fbase == self.dli_fbase;
        /* A return address points after its call: -1 names the call's own line. */
        f->pc = pcs[i] - (i ? 1 : 0);
        f->symbol = di.dli_sname;
        f->symbol_at = (uint64_t)(uintptr_t)di.dli_saddr;
        picked++;
    }
    return picked;
}

void fgi_frames_describe(const uint64_t *pcs, unsigned n, int from_sanitizer, char *out,
                         size_t cap)
{
    fgi_frame f[FGI_CLASS_FRAMES];
    unsigned k = fgi_frames_pick(pcs, n, from_sanitizer, f);
    size_t used = 0;
    out[0] = '\0';
    for (unsigned i = 0; i < k; i++) {
        char one[160];
        fgi_frames_key(&f[i], one, sizeof one);
        used += (size_t)snprintf(out + used, used < cap ? cap - used : 0, "%s%s",
                                 i ? " " : "", one);
    }
    if (used >= cap)
        out[cap - 1] = '\0';
}

void fgi_frames_key(const fgi_frame *f, char *out, size_t cap)
{
    if (!f->module)
        snprintf(out, cap, "?");
    else
        snprintf(out, cap, "%s+0x%llx", f->self ? "exe" : fgi_frames_base_name(f->module),
                 (unsigned long long)(f->pc - f->base));
}

void fgi_frames_site_name(uintptr_t pc, char *out, size_t cap)
{
    Dl_info info;
    if (pc && dladdr((void *)pc, &info) && info.dli_fname)
        snprintf(out, cap, "%s+0x%zx", fgi_frames_base_name(info.dli_fname),
                 (size_t)(pc - (uintptr_t)info.dli_fbase));
    else
        snprintf(out, cap, "?+0x0");
}
