/* oracle/allowance.h — the heap allowance of a target that declares none: a policy of the
 * harness, which arms the heap oracle with it (a target's .allowance replaces it).
 */
#ifndef FG_ALLOWANCE_H
#define FG_ALLOWANCE_H

#include "engine/internal.h"

/* The default allowance, peak live heap bytes a case of input_size bytes may hold: 32 MiB
 * + 64 bytes per input byte. Arbitrary but honest: generous for a parser of the bytes
 * present, far below what a declared-length allocation from a forged header asks for. */
FGI_HIDDEN size_t fgi_allowance_default(size_t input_size);

#endif
