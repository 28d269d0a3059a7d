/* engine/base/hash.c — stable, seedless hashes for names, contents and classes. */
#include "engine/internal.h"

#include <string.h>

uint64_t fgi_hash_bytes(const void *data, size_t size)
{
    const uint8_t *p = data;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < size; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return fg_mix64(h ^ size);
}

uint64_t fgi_hash_str(const char *s)
{
    return fgi_hash_bytes(s, strlen(s));
}
