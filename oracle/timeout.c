/* oracle/timeout.c — the watchdog's verdict, delivered to the running case's own thread. */
#include "oracle/timeout.h"

#include "engine/base/case.h"
#include "oracle/crash.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The watchdog's signal, delivered to the case's own thread so the finding is stored
 * while the case is stopped and its bytes cannot change under the store. */
#define TIMEOUT_SIGNAL (SIGRTMIN + 4)

/* Process-wide because the signal handler reads it. Written by the watchdog's thread
 * before it signals the case; the handler on the case's thread reads it. */
static struct {
    char detail[160];      /* the verdict's detail */
    volatile unsigned long started; /* which case it is about (fgi_case_started) */
    struct sigaction saved; /* the timeout signal's handler before fgi_timeout_arm */
} timeout;

static void timed_out(void)
{
    fgi_crash_store("timeout", timeout.detail,
                    "timed out; the case cannot be taken back, so this process ends with "
                    "status 1");
    /* Flush the summaries printed so far, unless the stuck target holds stdout. */
    if (ftrylockfile(stdout) == 0) {
        fflush_unlocked(stdout);
        funlockfile(stdout);
    }
    _exit(1);
}

/* 1 while the case the verdict is about is the one running. */
static int still_that_case(void)
{
    int active;
    unsigned long now = fgi_case_started(&active);
    return active && now == timeout.started && !fgi_case_now.reporting;
}

static void on_timeout_signal(int sig)
{
    (void)sig;
    if (fgi_case_on_thread() && still_that_case())
        timed_out();
}

void fgi_timeout_deliver(const char *detail, unsigned long started)
{
    if (fgi_case_now.reporting)
        return;
    snprintf(timeout.detail, sizeof timeout.detail, "%s", detail);
    timeout.started = started;
    if (!still_that_case())
        return;
    pthread_kill(fgi_case_now.thread, TIMEOUT_SIGNAL);
    /* A target that blocks the signal (or sits in an uninterruptible call) gets the store
     * from this thread after a grace period. */
    struct timespec grace = {2, 0};
    nanosleep(&grace, NULL);
    if (still_that_case())
        timed_out();
}

void fgi_timeout_arm(void)
{
    struct sigaction st;
    memset(&st, 0, sizeof st);
    st.sa_handler = on_timeout_signal;
    st.sa_flags = SA_ONSTACK;
    sigemptyset(&st.sa_mask);
    sigaction(TIMEOUT_SIGNAL, &st, &timeout.saved);
}

void fgi_timeout_disarm(void)
{
    sigaction(TIMEOUT_SIGNAL, &timeout.saved, NULL);
}
