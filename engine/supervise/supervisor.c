/* engine/supervise/supervisor.c — starting executors, reading them, and outliving them. */
#include "engine/supervise/supervisor.h"

#include "engine/base/clock.h"
#include "engine/base/errout.h"
#include "engine/base/resident.h"
#include "engine/base/safeio.h"
#include "engine/supervise/outbox.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OUTPUT_BUDGET (64 * 1024) /* target stdout forwarded per run; the rest is counted */
#define GRACE_MS 5000             /* past the deadline before the supervisor kills */
#define WATCH_EVERY_MS 100
/* After fgi_sup_stop, an executor still in a case this long is killed: the run's end
 * (an interrupt, its time) does not wait for a case that may never end. Arbitrary: far
 * longer than a case that is not stuck takes to notice the stop, short enough that with
 * a watch period and the reports the run ends within a second. */
#define STOP_GRACE_MS 300
/* ...and one not in a case (an engine step that should have ended) this long. */
#define STOP_HARD_MS 3000
/* How long a killed executor is waited for before it is left to init: SIGKILL takes
 * effect when an uninterruptible sleep ends, which may be never. */
#define REAP_WAIT_MS 2000
#define OUTBOX_SIZE ((size_t)1 << 20) /* an epoch's records, mostly: a fuller ring waits */

typedef struct executor {
    pid_t pid;          /* 0 when not running */
    int msg, out;       /* read ends, -1 when closed */
    int cmd;            /* the write end of its command pipe, -1 when closed */
    fgi_slot *slot;
    fgi_outbox *box;    /* its ring, in the slot's mapping (this copy: the executor's is in
                         * memory it can write) */
    fgi_str in;         /* unparsed message bytes from the pipe */
    fgi_str boxed;      /* ...and from the outbox */
    int bye;            /* it said goodbye: its exit is orderly */
    fgi_dying dying;
    int have_dying;
    unsigned long seen_cases; /* progress at the last watch */
    double seen_at;     /* when it last moved */
    const char *killed_for;
} executor;

struct fgi_sup {
    fgi_sup_ops ops;
    unsigned jobs;
    size_t cap, slot_bytes;
    unsigned time_ms;
    uint64_t rss_limit;
    double last_watch;
    size_t out_used;
    unsigned long long out_dropped;
    unsigned batch_us;
    fgi_str scratch;    /* a merged epoch's record being encoded (fgi_sup_send_epoch) */
    double stop_at;     /* when fgi_sup_stop was first called (ms), 0 before */
    executor ex[];
};

static double now_ms(void)
{
    return fgi_clock_now_s() * 1e3;
}

fgi_sup *fgi_sup_new(unsigned jobs, size_t cap, unsigned time_ms, uint64_t rss_limit_mb,
                     const fgi_sup_ops *ops)
{
    if (jobs == 0)
        return NULL;
    FG_ASSERT(ops->on && ops->on->cand && ops->on->hits && ops->on->find && ops->on->epoch &&
              ops->on->bye && ops->on->error);
    fgi_sup *s = fgi_calloc(1, sizeof *s + jobs * sizeof(executor));
    if (!s)
        return NULL;
    s->ops = *ops;
    s->jobs = jobs;
    s->cap = cap ? cap : 1;
    size_t box_at = (sizeof(fgi_slot) + s->cap + 63) & ~(size_t)63;
    s->slot_bytes = box_at + fgi_outbox_bytes(OUTBOX_SIZE);
    s->time_ms = time_ms;
    s->rss_limit = fgi_mib_bytes(rss_limit_mb);
    for (unsigned j = 0; j < jobs; j++) {
        executor *e = &s->ex[j];
        e->msg = e->out = e->cmd = -1;
        void *m = mmap(NULL, s->slot_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                       -1, 0);
        if (m == MAP_FAILED) {
            fgi_sup_free(s);
            return NULL;
        }
        e->slot = m;
        e->slot->cap = s->cap;
        e->box = e->slot->outbox = (fgi_outbox *)((char *)m + box_at);
    }
    return s;
}

fgi_slot *fgi_sup_slot(fgi_sup *s, unsigned j)
{
    return s->ex[j].slot;
}

unsigned fgi_sup_running(const fgi_sup *s)
{
    unsigned n = 0;
    for (unsigned j = 0; j < s->jobs; j++)
        n += s->ex[j].pid != 0;
    return n;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Kills the executor's whole process group (what the target forked goes too) and reaps
 * it. Returns its wait status. A killed one stuck where SIGKILL cannot reach it yet (an
 * uninterruptible sleep) is waited for REAP_WAIT_MS, then left to init: its status is
 * then said to be SIGKILL's. (It cannot touch its slot again: the kill is pending.) */
static int reap(executor *e, int kill_it)
{
    int status = 0;
    if (kill_it) {
        kill(-e->pid, SIGKILL);
        kill(e->pid, SIGKILL);
        for (int waited = 0;; waited += 5) {
            pid_t got = waitpid(e->pid, &status, WNOHANG);
            if (got == e->pid || (got < 0 && errno != EINTR))
                break;
            if (waited >= REAP_WAIT_MS) {
                status = SIGKILL; /* as a wait status: killed by SIGKILL */
                break;
            }
            struct timespec t = {0, 5 * 1000 * 1000};
            nanosleep(&t, NULL);
        }
    } else {
        while (waitpid(e->pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    kill(-e->pid, SIGKILL); /* anything the target left behind in the group */
    return status;
}

void fgi_sup_free(fgi_sup *s)
{
    if (!s)
        return;
    for (unsigned j = 0; j < s->jobs; j++) {
        executor *e = &s->ex[j];
        if (e->pid)
            reap(e, 1);
        close_fd(&e->msg);
        close_fd(&e->out);
        close_fd(&e->cmd);
        fgi_str_free(&e->in);
        fgi_str_free(&e->boxed);
        if (e->slot)
            munmap(e->slot, s->slot_bytes);
    }
    if (s->out_dropped)
        fprintf(fgi_errout_file(), "fuzzgate: %llu bytes of target output were dropped "
                "(only the first %d KiB of a run's stdout is shown)\n", s->out_dropped,
                OUTPUT_BUDGET / 1024);
    fgi_str_free(&s->scratch);
    fgi_free(s);
}

/* The executor side of a fork: its own process group (so the supervisor can kill what the
 * target forks), death with the parent, stdout into the supervisor's pipe, no stdin. */
static FG_NORETURN void child_main(fgi_sup *s, unsigned j, uint64_t from, int msg_w,
                                   int out_w, int cmd_r, pid_t parent)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(3);
    for (unsigned i = 0; i < s->jobs; i++) {
        close_fd(&s->ex[i].msg);
        close_fd(&s->ex[i].out);
        close_fd(&s->ex[i].cmd);
    }
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0) {
        dup2(null, 0);
        close(null);
    }
    dup2(out_w, 1);
    close(out_w);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    fgi_wire_link link = {.msg_fd = msg_w, .cmd_fd = cmd_r, .box = s->ex[j].box};
    int status = s->ops.child(s->ops.ctx, j, from, &link, s->ex[j].slot);
    fgi_wire_link_free(&link);
    fflush(stdout);
    _exit(status);
}

fg_error fgi_sup_start(fgi_sup *s, unsigned j, uint64_t from)
{
    executor *e = &s->ex[j];
    FG_ASSERT(e->pid == 0);
    int mp[2], op[2], cp[2];
    if (pipe2(mp, O_CLOEXEC) != 0)
        return FG_EIO;
    if (pipe2(op, O_CLOEXEC) != 0) {
        close(mp[0]);
        close(mp[1]);
        return FG_EIO;
    }
    if (pipe2(cp, O_CLOEXEC) != 0) {
        close(mp[0]);
        close(mp[1]);
        close(op[0]);
        close(op[1]);
        return FG_EIO;
    }
    e->slot->active = 0;
    atomic_store(&e->slot->cases, 0);
    e->slot->stop = 0;
    e->slot->pos = from;
    e->slot->seq = from;
    e->slot->size = 0;
    e->bye = e->have_dying = 0;
    e->killed_for = NULL;
    e->in.len = 0;
    fgi_str_free(&e->boxed); /* and a failed one's flag */
    e->slot->outbox = e->box;
    fgi_outbox_init(e->box, OUTBOX_SIZE);
    fflush(stdout); /* or the child would write the parent's buffered text again */
    fflush(stderr);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(mp[0]);
        close(mp[1]);
        close(op[0]);
        close(op[1]);
        close(cp[0]);
        close(cp[1]);
        return FG_EIO;
    }
    if (pid == 0) {
        close(mp[0]);
        close(op[0]);
        close(cp[1]);
        child_main(s, j, from, mp[1], op[1], cp[0], parent);
    }
    setpgid(pid, pid); /* both sides set it, so neither races the other */
    close(mp[1]);
    close(op[1]);
    close(cp[0]);
    e->cmd = cp[1];
    fcntl(mp[0], F_SETFL, O_NONBLOCK);
    fcntl(op[0], F_SETFL, O_NONBLOCK);
    e->pid = pid;
    e->msg = mp[0];
    e->out = op[0];
    e->seen_cases = atomic_load(&e->slot->cases);
    e->seen_at = now_ms();
    return FG_OK;
}

fg_error fgi_sup_send_epoch(fgi_sup *s, unsigned j, const fgi_epoch_log *log, uint64_t end)
{
    executor *e = &s->ex[j];
    if (!e->pid || e->cmd < 0)
        return FG_EIO;
    return fgi_wire_send_epoch(e->cmd, log, end, &s->scratch);
}

void fgi_sup_close_cmd(fgi_sup *s, unsigned j)
{
    close_fd(&s->ex[j].cmd);
}

int fgi_sup_is_running(const fgi_sup *s, unsigned j)
{
    return s->ex[j].pid != 0;
}

void fgi_sup_batch(fgi_sup *s, unsigned us)
{
    s->batch_us = us;
}

void fgi_sup_stop(fgi_sup *s)
{
    if (!s->stop_at)
        s->stop_at = now_ms();
    for (unsigned j = 0; j < s->jobs; j++)
        s->ex[j].slot->stop = 1;
}

static void take_outbox(fgi_sup *s, unsigned j);

/* What the supervisor reads from executor j: its pipe's bytes, or its outbox's (boxed). */
typedef struct reading {
    fgi_sup *s;
    int boxed;
} reading;

static void on_cand(void *ctx, unsigned j, fgi_cand *c)
{
    fgi_sup *s = ((reading *)ctx)->s;
    s->ops.on->cand(s->ops.ctx, j, c);
}

static void on_hits(void *ctx, unsigned j, fgi_hits *h)
{
    fgi_sup *s = ((reading *)ctx)->s;
    s->ops.on->hits(s->ops.ctx, j, h);
}

static void on_find(void *ctx, unsigned j, const fgi_wire_find *f)
{
    fgi_sup *s = ((reading *)ctx)->s;
    s->ops.on->find(s->ops.ctx, j, f);
}

static void on_epoch(void *ctx, unsigned j, uint64_t end)
{
    fgi_sup *s = ((reading *)ctx)->s;
    s->ops.on->epoch(s->ops.ctx, j, end);
}

static void on_error(void *ctx, unsigned j, fg_error e)
{
    fgi_sup *s = ((reading *)ctx)->s;
    s->ops.on->error(s->ops.ctx, j, e);
}

/* Last words: kept for `ended`, which reports the death with them. */
static void on_dying(void *ctx, unsigned j, const fgi_dying *d)
{
    executor *e = &((reading *)ctx)->s->ex[j];
    e->dying = *d;
    e->have_dying = 1;
}

/* Everything in the outbox was written before a nudge or a goodbye in the pipe, so the
 * outbox is taken first; a nudge is only that. */
static void on_drain(void *ctx, unsigned j)
{
    reading *rd = ctx;
    if (!rd->boxed)
        take_outbox(rd->s, j);
}

static void on_bye(void *ctx, unsigned j, const fgi_wire_bye *b)
{
    reading *rd = ctx;
    on_drain(ctx, j);
    rd->s->ex[j].bye = 1;
    rd->s->ops.on->bye(rd->s->ops.ctx, j, b);
}

static const fgi_wire_handlers reader = {on_cand, on_hits, on_find, on_epoch, on_dying,
                                         on_drain, on_bye, on_error};

/* Hands every complete message in `in` (executor j's pipe bytes, or its outbox's: boxed)
 * on, in order. */
static void parse(fgi_sup *s, unsigned j, fgi_str *in, int boxed)
{
    if (!in->len)
        return; /* its buf may be NULL: no arithmetic on it, nor memmove */
    reading rd = {s, boxed};
    size_t at = 0, k;
    fgi_wire_msg m;
    while ((k = fgi_wire_frame((const uint8_t *)in->buf + at, in->len - at, &m)) != 0) {
        fgi_wire_dispatch(&m, &reader, &rd, j);
        at += k;
    }
    memmove(in->buf, in->buf + at, in->len - at);
    in->len -= at;
}

/* Takes executor j's outbox and hands its messages on; a failure reaches the caller's
 * error handler. */
static void take_outbox(fgi_sup *s, unsigned j)
{
    executor *e = &s->ex[j];
    int rc = fgi_outbox_take(e->box, OUTBOX_SIZE, &e->boxed);
    if (rc > 0)
        parse(s, j, &e->boxed, 1);
    else if (rc < 0)
        s->ops.on->error(s->ops.ctx, j, e->boxed.failed ? FG_ENOMEM : FG_EIO);
}

/* Reads what is there; returns 0 at end of file, 1 otherwise. */
static int drain_messages(fgi_sup *s, unsigned j)
{
    executor *e = &s->ex[j];
    char buf[65536];
    for (;;) {
        ssize_t n = read(e->msg, buf, sizeof buf);
        if (n > 0) {
            fgi_str_addn(&e->in, buf, (size_t)n);
            parse(s, j, &e->in, 0);
            continue;
        }
        if (n == 0)
            return 0;
        if (errno == EINTR)
            continue;
        return 1; /* EAGAIN: nothing more now */
    }
}

static void drain_output(fgi_sup *s, executor *e)
{
    char buf[65536];
    for (;;) {
        ssize_t n = read(e->out, buf, sizeof buf);
        if (n == 0) {
            close_fd(&e->out);
            return;
        }
        if (n < 0)
            return;
        size_t show = s->out_used < OUTPUT_BUDGET ? OUTPUT_BUDGET - s->out_used : 0;
        if (show > (size_t)n)
            show = (size_t)n;
        if (show)
            fgi_write_all(2, buf, show);
        s->out_used += show;
        s->out_dropped += (size_t)n - show;
    }
}

/* An executor that said goodbye has done its work; a checker that runs at exit (valgrind's
 * --error-exitcode, LeakSanitizer) may still change its status, which is said, not
 * blamed on an input. */
static int is_orderly(const executor *e, int status)
{
    if (!e->bye || e->killed_for)
        return 0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fprintf(fgi_errout_file(), "fuzzgate: an executor ended with %s %d after its work "
                "(a checker at exit, such as a leak checker, reported something above)\n",
                WIFEXITED(status) ? "status" : "signal",
                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    return 1;
}

/* Executor j is gone (or is to go: kill_it): reaps it unless that was done already
 * (reaped, with its status), takes what it left in the pipes, and reports a death that was
 * not an orderly end. */
static void ended(fgi_sup *s, unsigned j, int kill_it, int reaped, int status)
{
    executor *e = &s->ex[j];
    if (reaped)
        kill(-e->pid, SIGKILL); /* anything the target left behind in the group */
    else
        status = reap(e, kill_it);
    drain_messages(s, j);
    take_outbox(s, j);
    if (e->out >= 0)
        drain_output(s, e);
    close_fd(&e->msg);
    close_fd(&e->out);
    close_fd(&e->cmd);
    e->pid = 0;
    if (!is_orderly(e, status))
        s->ops.died(s->ops.ctx, j, status, e->have_dying ? &e->dying : NULL, e->killed_for,
                    e->slot);
}

uint64_t fgi_sup_rss(int pid)
{
    return fgi_resident_bytes(pid);
}

/* Deadlines and memory: an executor past either is killed (and reported by `ended`). */
static void watch(fgi_sup *s)
{
    double now = now_ms();
    if (now - s->last_watch < WATCH_EVERY_MS)
        return;
    s->last_watch = now;
    for (unsigned j = 0; j < s->jobs; j++) {
        executor *e = &s->ex[j];
        if (!e->pid || e->killed_for)
            continue;
        unsigned long cases = atomic_load(&e->slot->cases);
        if (cases != e->seen_cases || !e->slot->active) {
            e->seen_cases = cases;
            e->seen_at = now;
        } else if (now - e->seen_at > (double)s->time_ms + GRACE_MS) {
            e->killed_for = "timeout";
        }
        if (s->rss_limit && fgi_sup_rss(e->pid) > s->rss_limit)
            e->killed_for = "oom";
        /* Past the stop: one still in a case (or still anywhere, much later) is cut short.
         * Not one whose goodbye or end of file is in: it is on its way out. */
        double stopped = s->stop_at ? now - s->stop_at : 0;
        if (!e->killed_for && !e->bye && e->msg >= 0 &&
            ((e->slot->active && stopped > STOP_GRACE_MS) || stopped > STOP_HARD_MS))
            e->killed_for = "stop";
        if (e->killed_for) {
            kill(-e->pid, SIGKILL);
            kill(e->pid, SIGKILL);
        }
    }
}

void fgi_sup_step(fgi_sup *s)
{
    struct pollfd fds[2 * 64];
    unsigned who[2 * 64], n = 0;
    for (unsigned j = 0; j < s->jobs && n + 2 <= FGI_ARRAY_LEN(fds); j++) {
        executor *e = &s->ex[j];
        if (!e->pid)
            continue;
        if (e->msg >= 0) {
            fds[n] = (struct pollfd){.fd = e->msg, .events = POLLIN};
            who[n++] = j;
        }
        if (e->out >= 0) {
            fds[n] = (struct pollfd){.fd = e->out, .events = POLLIN};
            who[n++] = j;
        }
    }
    int r = poll(fds, n, WATCH_EVERY_MS);
    if (r > 0 && s->batch_us) {
        /* Let more arrive: a wake-up per message would cost the supervisor's core more
         * than the executor spends on a chunk of a cheap target. */
        struct timespec t = {0, (long)s->batch_us * 1000};
        nanosleep(&t, NULL);
    }
    for (unsigned i = 0; r > 0 && i < n; i++) {
        if (!fds[i].revents)
            continue;
        executor *e = &s->ex[who[i]];
        if (fds[i].fd == e->msg) {
            if (drain_messages(s, who[i]) == 0)
                close_fd(&e->msg);
        } else if (fds[i].fd == e->out) {
            drain_output(s, e);
        }
    }
    for (unsigned j = 0; j < s->jobs; j++)
        if (s->ex[j].pid)
            take_outbox(s, j);
    watch(s);
    for (unsigned j = 0; j < s->jobs; j++) {
        executor *e = &s->ex[j];
        if (!e->pid)
            continue;
        int status = 0;
        /* The message pipe closed (the usual end), or the process is gone while something
         * it forked still holds the pipe (reaped here by WNOHANG), or it was killed. */
        if (e->msg < 0 || e->killed_for)
            ended(s, j, e->killed_for != NULL, 0, 0);
        else if (waitpid(e->pid, &status, WNOHANG) == e->pid)
            ended(s, j, 0, 1, status);
    }
}
