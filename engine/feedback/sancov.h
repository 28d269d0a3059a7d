/* engine/feedback/sancov.h — the SanitizerCoverage callbacks the engine implements, declared once.
 *
 * The compilers emit calls to these names in instrumented code (clang's and gcc's
 * -fsanitize-coverage); coverage.c and cmp.c define them, and tests call them directly to
 * play the part of instrumented code.
 */
#ifndef FG_SANCOV_H
#define FG_SANCOV_H

#include <stdint.h>

/* coverage.c: edges */
void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop);
void __sanitizer_cov_pcs_init(const uintptr_t *start, const uintptr_t *stop);
void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop);
void __sanitizer_cov_trace_pc_guard(uint32_t *guard);
void __sanitizer_cov_trace_pc(void);

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

#endif
