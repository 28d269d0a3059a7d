/* engine/base/resident.h — a process's resident size, as the kernel counts it. */
#ifndef FG_RESIDENT_H
#define FG_RESIDENT_H

#include "engine/internal.h"

/* The resident bytes of process pid (0: this one), from /proc/<pid>/statm; 0 when it
 * cannot be read (no /proc, the process is gone). Not signal-safe (sscanf). */
FGI_HIDDEN uint64_t fgi_resident_bytes(int pid);

/* mb MiB in bytes, saturated (an absurd --rss-limit-mb is no limit, not a small one). */
static inline uint64_t fgi_mib_bytes(uint64_t mb)
{
    return mb > UINT64_MAX >> 20 ? UINT64_MAX : mb << 20;
}

#endif
