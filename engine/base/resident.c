/* engine/base/resident.c — a process's resident size (resident.h): the second field of
 * /proc/<pid>/statm, in pages. Current, not peak: what a limit on memory held now asks. */
#include "engine/base/resident.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

uint64_t fgi_resident_bytes(int pid)
{
    char path[64], text[128];
    if (pid)
        snprintf(path, sizeof path, "/proc/%d/statm", pid);
    else
        snprintf(path, sizeof path, "/proc/self/statm");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return 0;
    text[n] = '\0';
    unsigned long long size = 0, resident = 0;
    if (sscanf(text, "%llu %llu", &size, &resident) != 2)
        return 0;
    return resident * (uint64_t)sysconf(_SC_PAGESIZE);
}
