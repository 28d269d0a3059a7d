/* bench/src/demangle.c — libiberty's C++ demangler over the input as a symbol name.
 *
 * The input, NUL-terminated, goes to cplus_demangle_v3 (the GNU v3, Itanium ABI
 * demangler, as `c++filt` runs it) with parameters, qualifiers and the verbose forms;
 * DMGL_TYPES lets a bare type encoding ("i", "PFvvE") through too. A NUL inside the
 * input ends the name there, as it would for any caller. Only the C++ demangler: the
 * Rust one behind DMGL_AUTO has a known blow-up in 2.40 (an 11-byte "_R" name asks for
 * more than 2 GiB) that every engine finds within seconds, which would end every run.
 */
#include "../real/harness.h"

#include <demangle.h>
#include <stdlib.h>
#include <string.h>

#define DEMANGLE_OPTS (DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE | DMGL_TYPES)

int bench_real_one(const uint8_t *data, size_t size)
{
    char *name = malloc(size + 1);
    if (!name)
        return 0;
    memcpy(name, data, size);
    name[size] = '\0';
    free(cplus_demangle_v3(name, DEMANGLE_OPTS));
    free(name);
    return 0;
}
