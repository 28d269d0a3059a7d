/* oracle/fdwatch.c — finding inputs that leave a file descriptor open, by sampled probes
 * over a window of recent cases. */
#include "oracle/fdwatch.h"

#include "oracle/heap.h"

#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

/* The lowest free descriptor: what open() would return next. A full table reads as
 * INT_MAX, so it looks like the rise it is. */
static int lowest_free(const fgi_fdwatch *w)
{
    int fd = fcntl(w->ours, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return INT_MAX;
    close(fd);
    return fd;
}

#define SCAN 128 /* descriptors above the lowest free one whose state a lone run notes */

/* Two syscalls (the dup and its close), ~2.5 us on these machines, once a window. One
 * poll(2) over descriptors 0..base reads which are open in one call, but it reads an open
 * O_PATH descriptor (a directory handle a library keeps) as closed: one below base would
 * stand for a hole for the rest of the run, and one leaked at base would hide every later
 * leak. No other one-call probe sees O_PATH descriptors; the dup does. */
int fgi_fdwatch_probe(const fgi_fdwatch *w)
{
    int now = lowest_free(w);
    return now <= w->base ? now : w->base + 1;
}

fg_error fgi_fdwatch_open(fgi_fdwatch *w)
{
    memset(w, 0, sizeof *w);
    w->ours = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (w->ours < 0)
        return FG_EIO;
    w->base = lowest_free(w);
    return FG_OK;
}

void fgi_fdwatch_close(fgi_fdwatch *w)
{
    for (unsigned i = 0; i < FGI_FD_WINDOW; i++) {
        fgi_free(w->slots[i].data);
        fgi_free((char *)w->slots[i].id.origin);
    }
    if (w->ours >= 0)
        close(w->ours);
    memset(w, 0, sizeof *w);
    w->ours = -1;
}

int fgi_fdwatch_note(fgi_fdwatch *w, const uint8_t *data, size_t size, const fgi_case_id *id)
{
    FG_ASSERT(w->count < FGI_FD_WINDOW);
    fgi_fd_slot *s = &w->slots[w->count];
    if (s->cap < size || !s->data) {
        uint8_t *d = fgi_realloc(s->data, size ? size : 1);
        if (!d)
            return -1;
        s->data = d;
        s->cap = size ? size : 1;
    }
    if (size)
        memcpy(s->data, data, size);
    s->size = size;
    char *was = (char *)s->id.origin;
    s->id = *id;
    s->id.origin = was;
    if (was) { /* usually none: a generated case; the funnel's call is per case */
        fgi_free(was);
        s->id.origin = NULL;
    }
    if (id->origin && !(s->id.origin = fgi_strdup(id->origin)))
        return -1;
    s->heap_run = fgi_heap_run();
    w->count++;
    return w->count == FGI_FD_WINDOW;
}

void fgi_fdwatch_heap_left(const fgi_fdwatch *w, uint8_t again[FGI_FD_WINDOW])
{
    enum { RUNS = 4 * FGI_FD_WINDOW }; /* a window's runs: a case and its repair, and the
                                        * cases that failed; later ones count as left */
    uint8_t live[RUNS];
    fgi_heap_live_runs(1, live, RUNS);
    unsigned run = 1;
    for (unsigned i = 0; i < w->count; i++) {
        unsigned last = w->slots[i].heap_run;
        again[i] = last >= RUNS;
        for (; run <= last && run < RUNS; run++)
            again[i] |= live[run - 1];
        run = last + 1 > run ? last + 1 : run;
    }
}

/* Runs slot s alone, as the case it was (its origin and mutations for a finding). */
static void run_slot(fgi_harness *e, const fgi_fd_slot *s, fgi_case_result *res)
{
    fgi_harness_origin(e, &s->id);
    fgi_harness_run(e, s->data, s->size, res);
}

const fgi_fd_slot *fgi_fdwatch_rerun(fgi_fdwatch *w, fgi_harness *e, unsigned i,
                                     fgi_case_result *res)
{
    FG_ASSERT(i < w->count && !e->window);
    run_slot(e, &w->slots[i], res);
    return &w->slots[i];
}

/* Runs one slot alone between two probes; returns how many descriptors it left open. In
 * `opened` (SCAN flags from *from) it marks the descriptors the run opened: only those
 * may be closed later, never one that was open before (the lowest free descriptor can
 * jump over a descriptor the host holds). */
static int leaves(fgi_fdwatch *w, fgi_harness *e, const fgi_fd_slot *s, fgi_case_result *res,
                  int *from, uint8_t opened[SCAN])
{
    int before = lowest_free(w);
    uint8_t was_open[SCAN] = {0};
    for (int i = 0; before != INT_MAX && i < SCAN; i++)
        was_open[i] = fcntl(before + i, F_GETFD) != -1;
    run_slot(e, s, res);
    int after = lowest_free(w);
    *from = before;
    int left = 0;
    for (int i = 0; before != INT_MAX && i < SCAN; i++) {
        opened[i] = !was_open[i] && fcntl(before + i, F_GETFD) != -1;
        left += opened[i];
    }
    if (res->status != FGI_CASE_OK || after <= before)
        return 0;
    return left ? left : 1;
}

static void close_opened(int from, const uint8_t opened[SCAN])
{
    for (int i = 0; i < SCAN; i++)
        if (opened[i])
            close(from + i);
}

const fgi_fd_slot *fgi_fdwatch_check(fgi_fdwatch *w, fgi_harness *e, fgi_case_result *res)
{
    unsigned n = w->count;
    w->count = 0;
    int now = fgi_fdwatch_probe(w);
    if (now <= w->base) {
        w->base = now;
        return NULL;
    }
    const fgi_fd_slot *guilty = NULL;
    int left = 0, from1 = 0, from2 = 0;
    uint8_t opened1[SCAN], opened2[SCAN];
    for (unsigned i = 0; i < n && !guilty; i++) {
        int first = leaves(w, e, &w->slots[i], res, &from1, opened1);
        if (first > 0 && (left = leaves(w, e, &w->slots[i], res, &from2, opened2)) > 0) {
            guilty = &w->slots[i];
            /* Confirmed: close what the two lone runs opened (the window's own leaks stay:
             * which of those descriptors are the target's is not known). */
            close_opened(from1, opened1);
            close_opened(from2, opened2);
        }
    }
    w->base = lowest_free(w);
    if (!guilty)
        return NULL;
    res->status = FGI_CASE_ENDED;
    res->kind = "retention";
    snprintf(res->site, sizeof res->site, "file descriptor");
    snprintf(res->detail, sizeof res->detail,
             "the case left file descriptors open (%d on its second lone run), on each of 2 "
             "runs alone",
             left);
    return guilty;
}
