/* test/unit/test_supervisor.c — the supervisor's side of an executor's two channels
 * (engine/supervise/supervisor.c): the record ring in shared memory and the pipe. A real
 * forked executor writes records into its ring and words into its pipe in a set order;
 * the supervisor must hand them on in that order: every ring record written before a
 * goodbye or a death comes before it, an epoch's end between the records it follows and
 * those after it, a record larger than the ring whole, and damaged ring indices as one
 * error after which the executor goes on. */
#include "test/support/check.h"

#include "engine/supervise/outbox.h"
#include "engine/supervise/supervisor.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum ending { END_BYE, END_DYING_KILLED, END_DAMAGE, END_OOM_KILLED };

typedef struct script {
    unsigned records;     /* ring records 0..records-1 */
    unsigned epoch_after; /* an epoch end in the ring after this many (0: none) */
    size_t huge;          /* record 1 is this long (0: as the others) */
    enum ending end;      /* END_OOM_KILLED: past the RSS limit, records until killed */
    int memfd;            /* END_OOM_KILLED: OOM_BYTES, filled */
} script;

#define OOM_BYTES ((size_t)160 << 20)

typedef struct seen {
    const script *sc;
    unsigned n;           /* records handed on, in order */
    int bad;              /* one came out of order or damaged */
    long epoch_at, bye_at, died_at, error_at, dying;
    int died_status;
    const char *killed_for;
    uint64_t sent;        /* records the executor finished sending before it died */
} seen;

static size_t len_of(const script *sc, unsigned i)
{
    if (sc->end == END_OOM_KILLED)
        return sizeof(uint32_t);
    return i == 1 && sc->huge ? sc->huge : sizeof(uint32_t) + (i * 37) % 1500;
}

static uint8_t byte_of(unsigned i, size_t k)
{
    return (uint8_t)(i * 13 + k * 5);
}

/* Record i: a candidate whose position is i and whose bytes come from i. */
static int send_record(fgi_wire_link *link, const script *sc, unsigned i)
{
    size_t n = len_of(sc, i);
    uint8_t *data = malloc(n);
    if (!data)
        return -1;
    for (size_t k = 0; k < n; k++)
        data[k] = byte_of(i, k);
    fgi_cand c = {.seq = i, .data = data, .size = n};
    int rc = fgi_wire_put_cand(link, &c) == FG_OK ? 0 : -1;
    free(data);
    return rc;
}

/* Waits until the supervisor has taken the ring up to `upto` (10 s at most). */
static int wait_taken(fgi_outbox *b, uint64_t upto)
{
    for (int k = 0; k < 10000 && atomic_load(&b->tail) != upto; k++) {
        struct timespec t = {0, 1000 * 1000};
        nanosleep(&t, NULL);
    }
    return atomic_load(&b->tail) == upto ? 0 : -1;
}

/* The executor: the script's records, then its ending. */
static int child(void *ctx, unsigned j, uint64_t from, fgi_wire_link *link, fgi_slot *slot)
{
    const script *sc = ((seen *)ctx)->sc;
    (void)j, (void)from;
    if (sc->end == END_OOM_KILLED) {
        /* Small records, one every few microseconds, so the ring never fills and the
         * executor never nudges: the supervisor takes it only at its steps (every 100 ms)
         * and, after the kill, once more. From the 2000th record on it maps the memfd
         * the test filled, past the RSS limit at once (its pages are there already:
         * faulting in fresh ones takes ~400 ms on a VM). The kill comes at the step's
         * watch, right after the step's take has parsed ~100 ms of records: the records
         * written meanwhile are still in the ring. */
        for (unsigned i = 0;; i++) {
            if (i == 2000 && mmap(NULL, OOM_BYTES, PROT_READ, MAP_SHARED | MAP_POPULATE,
                                  sc->memfd, 0) == MAP_FAILED)
                return 3;
            if (send_record(link, sc, i) != 0)
                return 3;
            slot->pos = i + 1;
            struct timespec t0, t;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            do
                clock_gettime(CLOCK_MONOTONIC, &t);
            while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec < 3000);
        }
    }
    for (unsigned i = 0; i < sc->records; i++) {
        if (sc->epoch_after && i == sc->epoch_after) {
            uint64_t end = i;
            if (fgi_wire_put_epoch(link, end) != FG_OK)
                return 3;
        }
        if (send_record(link, sc, i) != 0)
            return 3;
    }
    if (sc->end == END_DYING_KILLED) {
        /* As the crash handler does: its last words by the pipe, the records still in
         * the ring, then gone. */
        fgi_dying dy;
        memset(&dy, 0, sizeof dy);
        strcpy(dy.kind, "crash");
        strcpy(dy.what, "planted");
        fgi_wire_say_dying(link->msg_fd, &dy);
        kill(getpid(), SIGKILL);
    }
    if (sc->end == END_DAMAGE) {
        /* Once the records are taken, a stray write over the indices: the supervisor
         * refuses them and frees the ring; once it has, one more record goes through. */
        fgi_outbox *b = slot->outbox;
        if (wait_taken(b, atomic_load(&b->head)) != 0)
            return 3;
        uint64_t damaged = atomic_load(&b->tail) + 3 * b->size;
        atomic_store(&b->head, damaged);
        fgi_wire_head nudge = {FGI_MSG_DRAIN, 0}; /* as the protocol nudges */
        if (write(link->msg_fd, &nudge, sizeof nudge) != (ssize_t)sizeof nudge)
            return 3;
        if (wait_taken(b, damaged) != 0)
            return 3;
        if (send_record(link, sc, sc->records) != 0)
            return 3;
    }
    fgi_wire_bye bye = {0};
    return fgi_wire_say_bye(link, &bye) == FG_OK ? 0 : 3;
}

static void on_cand(void *ctx, unsigned j, fgi_cand *c)
{
    seen *s = ctx;
    (void)j;
    int ok = c->seq == s->n && c->size == len_of(s->sc, s->n);
    for (size_t k = 0; ok && k < c->size; k++)
        ok = c->data[k] == byte_of(s->n, k);
    s->bad |= !ok;
    s->n++;
    fgi_epoch_free_cand(c);
}

static void on_epoch(void *ctx, unsigned j, uint64_t end)
{
    (void)j, (void)end;
    ((seen *)ctx)->epoch_at = ((seen *)ctx)->n;
}

static void on_bye(void *ctx, unsigned j, const fgi_wire_bye *b)
{
    (void)j, (void)b;
    ((seen *)ctx)->bye_at = ((seen *)ctx)->n;
}

static void on_error(void *ctx, unsigned j, fg_error e)
{
    (void)j, (void)e;
    ((seen *)ctx)->error_at = ((seen *)ctx)->n;
}

static void on_other(void *ctx, unsigned j)
{
    (void)j;
    ((seen *)ctx)->bad = 1;
}

static void on_hits(void *ctx, unsigned j, fgi_hits *h)
{
    fgi_epoch_free_hits(h);
    on_other(ctx, j);
}

static void on_find(void *ctx, unsigned j, const fgi_wire_find *f)
{
    (void)f;
    on_other(ctx, j);
}

static const fgi_wire_handlers handlers = {.cand = on_cand, .hits = on_hits, .find = on_find,
                                           .epoch = on_epoch, .bye = on_bye,
                                           .error = on_error};

static void died(void *ctx, unsigned j, int status, const fgi_dying *dying,
                 const char *killed_for, const fgi_slot *slot)
{
    seen *s = ctx;
    (void)j;
    s->died_at = s->n;
    s->killed_for = killed_for;
    s->sent = slot->pos;
    s->died_status = status;
    s->dying = dying && strcmp(dying->kind, "crash") == 0;
}

/* Runs one executor through the script to its end. */
static void run_script(const script *sc, seen *s)
{
    /* A limit above what this process holds now (a forked executor starts with it;
     * under a sanitizer it can be large), below that plus the 160 MiB. */
    uint64_t rss_mb = sc->end == END_OOM_KILLED ? (fgi_sup_rss(getpid()) >> 20) + 64 : 0;
    memset(s, 0, sizeof *s);
    s->sc = sc;
    s->epoch_at = s->bye_at = s->died_at = s->error_at = -1;
    fgi_sup_ops ops = {s, child, &handlers, died};
    fgi_sup *sup = fgi_sup_new(1, 64, 10000, rss_mb, &ops);
    CHECK(sup != NULL);
    CHECK(fgi_sup_start(sup, 0, 0) == FG_OK);
    while (fgi_sup_running(sup))
        fgi_sup_step(sup);
    fgi_sup_free(sup);
}

/* ~1.5 MB of records through the 1 MiB ring: it fills, the executor waits and nudges. */
FG_TEST(sup_every_ring_record_comes_before_the_goodbye)
{
    script sc = {.records = 2000, .end = END_BYE};
    seen s;
    run_script(&sc, &s);
    CHECK(!s.bad);
    CHECK_EQ_U(s.n, 2000);
    CHECK(s.bye_at == 2000);
    CHECK(s.died_at == -1 && s.error_at == -1);
}

FG_TEST(sup_an_epoch_end_sits_between_its_records_and_the_next)
{
    script sc = {.records = 600, .epoch_after = 350, .end = END_BYE};
    seen s;
    run_script(&sc, &s);
    CHECK(!s.bad);
    CHECK(s.epoch_at == 350);
    CHECK(s.bye_at == 600);
}

FG_TEST(sup_a_record_larger_than_the_ring_comes_whole)
{
    script sc = {.records = 5, .huge = (size_t)3 << 20, .end = END_BYE};
    seen s;
    run_script(&sc, &s);
    CHECK(!s.bad);
    CHECK_EQ_U(s.n, 5);
    CHECK(s.bye_at == 5);
}

/* A death loses nothing the ring held: the records come before the death is reported,
 * with the last words from the pipe. (Here the step's own take finds them: the last
 * words wake it after the records are in.) */
FG_TEST(sup_a_death_comes_after_every_record_it_left_in_the_ring)
{
    script sc = {.records = 1500, .end = END_DYING_KILLED};
    seen s;
    run_script(&sc, &s);
    CHECK(!s.bad);
    CHECK_EQ_U(s.n, 1500);
    CHECK(s.died_at == 1500);
    CHECK(s.dying);
    CHECK(WIFSIGNALED(s.died_status) && WTERMSIG(s.died_status) == SIGKILL);
    CHECK(s.bye_at == -1);
}

FG_TEST(sup_damaged_ring_indices_are_one_error_and_the_executor_goes_on)
{
    script sc = {.records = 300, .end = END_DAMAGE};
    seen s;
    run_script(&sc, &s);
    CHECK(!s.bad);
    CHECK(s.error_at == 300);
    CHECK_EQ_U(s.n, 301); /* the record after the damage */
    CHECK(s.bye_at == 301);
    CHECK(s.died_at == -1);
}

/* Killed by the supervisor while writing: every record it finished comes before the
 * death is reported, those written after the supervisor's last take included. */
FG_TEST(sup_a_killed_executor_loses_no_record_it_finished)
{
    script sc = {.end = END_OOM_KILLED, .memfd = memfd_create("test_supervisor", MFD_CLOEXEC)};
    CHECK(sc.memfd >= 0);
    static char page[1 << 16];
    memset(page, 1, sizeof page);
    for (size_t o = 0; o < OOM_BYTES; o += sizeof page)
        CHECK(pwrite(sc.memfd, page, sizeof page, (off_t)o) == (ssize_t)sizeof page);
    seen s;
    run_script(&sc, &s);
    close(sc.memfd);
    CHECK(!s.bad);
    CHECK(s.killed_for && strcmp(s.killed_for, "oom") == 0);
    CHECK(s.sent >= 2000);
    CHECK(s.n >= s.sent); /* one more when it died between a record and the count */
    CHECK(s.died_at == (long)s.n);
}
