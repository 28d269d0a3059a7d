/* engine/feedback/sancov.h — the SanitizerCoverage callbacks the engine implements, declared once.
 *
 * The compilers emit calls to these names in instrumented code (clang's and gcc's
 * -fsanitize-coverage), and the sanitizers' interceptors call the string hooks; coverage.c
 * and cmp.c define them, and tests call them directly to play the part of instrumented
 * code.
 */
#ifndef FG_SANCOV_H
#define FG_SANCOV_H

#include <stddef.h>
#include <stdint.h>

/* coverage.c: edges */
void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop);
void __sanitizer_cov_pcs_init(const uintptr_t *start, const uintptr_t *stop);
void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop);
void __sanitizer_cov_trace_pc_guard(uint32_t *guard);
void __sanitizer_cov_trace_pc(void);
void __sanitizer_cov_trace_pc_indir(uintptr_t callee); /* clang's fuzzer-no-link; no feature */
/* clang's stack-depth instrumentation (in -fsanitize=fuzzer-no-link) writes it */
extern __attribute__((tls_model("initial-exec"))) _Thread_local uintptr_t
    __sancov_lowest_stack;

/* cmp.c: comparisons (for const_cmp the first operand is the constant) */
void __sanitizer_cov_trace_cmp1(uint8_t a, uint8_t b);
void __sanitizer_cov_trace_cmp2(uint16_t a, uint16_t b);
void __sanitizer_cov_trace_cmp4(uint32_t a, uint32_t b);
void __sanitizer_cov_trace_cmp8(uint64_t a, uint64_t b);
void __sanitizer_cov_trace_const_cmp1(uint8_t a, uint8_t b);
void __sanitizer_cov_trace_const_cmp2(uint16_t a, uint16_t b);
void __sanitizer_cov_trace_const_cmp4(uint32_t a, uint32_t b);
void __sanitizer_cov_trace_const_cmp8(uint64_t a, uint64_t b);
void __sanitizer_cov_trace_switch(uint64_t val, uint64_t *cases);
void __sanitizer_cov_trace_cmpf(float a, float b);
void __sanitizer_cov_trace_cmpd(double a, double b);

/* cmp.c: the string-function hooks, called after the function with its result r. The
 * sanitizers' interceptors call them under ASan (their names are the sanitizers'), and
 * strhook.c's interposed functions in a plain build, as libFuzzer's interceptors call
 * its recorder: through weak references, so neither side has to be linked. */
void __sanitizer_weak_hook_memcmp(void *pc, const void *a, const void *b, size_t n, int r);
void __sanitizer_weak_hook_strncmp(void *pc, const char *a, const char *b, size_t n, int r);
void __sanitizer_weak_hook_strcmp(void *pc, const char *a, const char *b, int r);
void __sanitizer_weak_hook_strcasecmp(void *pc, const char *a, const char *b, int r);
void __sanitizer_weak_hook_strncasecmp(void *pc, const char *a, const char *b, size_t n,
                                       int r);
void __sanitizer_weak_hook_strstr(void *pc, const char *h, const char *n, char *r);
void __sanitizer_weak_hook_memmem(void *pc, const void *h, size_t hn, const void *n,
                                  size_t nn, void *r);

#endif
