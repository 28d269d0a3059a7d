/* test/unit/test_control.c — a run's bottom services (engine/run/control.c): the interrupt
 * (a second signal of either kind ends the process; catches nest), and a timed run's
 * generation stopping short of its seconds to leave the rest to minimising a new class. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include "engine/base/clock.h"
#include "engine/run/control.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* In a child: the first signal is noted (and halts a --no-fork run's cases), the second,
 * of the other kind, ends the process with the default action. Exits 0 only if it lived. */
static int second_signal(void *ctx)
{
    (void)ctx;
    fgi_control_catch();
    raise(SIGTERM);
    if (fgi_run_interrupted() != SIGTERM || *fgi_control_halt() != 1)
        return 3;
    raise(SIGINT);
    return 0; /* not reached when it works */
}

FG_TEST(control_a_second_signal_of_either_kind_ends_the_process)
{
    fgt_run r;
    CHECK(fgt_call_in_child(second_signal, NULL, &r) == 0);
    CHECK(!r.exited && r.signal == SIGINT);
    fgt_run_free(&r);
}

/* Catches nest: the inner release keeps the run's handler (a trial inside a depth run's
 * minimisation), the outer one puts the host's back. */
static int nested(void *ctx)
{
    (void)ctx;
    fgi_control_catch();
    fgi_control_catch();
    fgi_control_release();
    raise(SIGTERM); /* still the run's handler: noted */
    if (fgi_run_interrupted() != SIGTERM)
        return 3;
    return 0;
}

static int released(void *ctx)
{
    (void)ctx;
    fgi_control_catch();
    fgi_control_catch();
    fgi_control_release();
    fgi_control_release();
    raise(SIGTERM); /* the host's (the default): the process ends */
    return 0;
}

FG_TEST(control_catches_nest)
{
    fgt_run r;
    CHECK(fgt_call_in_child(nested, NULL, &r) == 0);
    CHECK(r.exited && r.code == 0);
    fgt_run_free(&r);
    CHECK(fgt_call_in_child(released, NULL, &r) == 0);
    CHECK(!r.exited && r.signal == SIGTERM);
    fgt_run_free(&r);
}

static uint64_t pass(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    return 0;
}

static const fg_target plain = {.name = "control_plain", .run = pass};

/* A timed run of `seconds` started `ago` seconds back: whether its generation is over,
 * with or without a new class found (known: the class is on the known list). */
static int time_up(unsigned seconds, double ago, int found, int known, unsigned min_trials)
{
    fg_options *o = fg_options_new();
    char secs[16], trials[16];
    snprintf(secs, sizeof secs, "%u", seconds);
    snprintf(trials, sizeof trials, "%u", min_trials);
    CHECK(o && fg_options_set(o, "seconds", secs) == FG_OK &&
          fg_options_set(o, "min_trials", trials) == FG_OK);
    fg_error e;
    fg_session *s = fg_session_new(o, &e);
    fg_options_free(o);
    CHECK(s != NULL);
    if (!s)
        return -1;
    run r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.t = &plain;
    r.o = fgi_outcome_new(plain.name);
    CHECK(r.o != NULL);
    fgi_control_init(&r);
    r.prog.start -= ago;
    if (found && r.o) {
        fgi_finding_place place = {.target = plain.name};
        fgi_finding_rec rec = {.at = &place, .kind = "check", .detail = "planted",
                               .data = (const uint8_t *)"x", .size = 1, .case_index = 3,
                               .seq = 3, .mutations = ""};
        fgi_finding_classify(&rec);
        int changed;
        fg_finding *f = fgi_outcome_add(r.o, &rec, &changed);
        CHECK(f != NULL);
        if (f && known)
            CHECK(fgi_outcome_set_known(f, "triaged") == 0);
    }
    CHECK(fgi_run_ends_at(&r) == r.prog.start + seconds);
    int up = fgi_run_time_up(&r);
    fg_outcome_free(r.o);
    fg_session_free(s);
    return up;
}

/* Nothing to minimise: the whole of its seconds. A new class: a tenth of them (at least
 * 1 s, at most 30 s, never more than half) is left for minimising it. */
FG_TEST(control_a_timed_run_leaves_time_to_minimise_a_new_class)
{
    CHECK_EQ_U(time_up(10, 9.5, 0, 0, 1000), 0);
    CHECK_EQ_U(time_up(10, 9.5, 1, 0, 1000), 1);  /* 1 s kept: from 9 s on */
    CHECK_EQ_U(time_up(10, 8.5, 1, 0, 1000), 0);
    CHECK_EQ_U(time_up(10, 9.5, 1, 1, 1000), 0);  /* a known class is not minimised */
    CHECK_EQ_U(time_up(10, 9.5, 1, 0, 0), 0);     /* nor anything with --min-trials=0 */
    CHECK_EQ_U(time_up(100, 89.5, 1, 0, 1000), 0); /* a tenth: from 90 s on */
    CHECK_EQ_U(time_up(100, 90.5, 1, 0, 1000), 1);
    CHECK_EQ_U(time_up(1000, 965, 1, 0, 1000), 0); /* at most 30 s: from 970 s on */
    CHECK_EQ_U(time_up(1000, 971, 1, 0, 1000), 1);
    CHECK_EQ_U(time_up(1, 0.4, 1, 0, 1000), 0);    /* never more than half */
    CHECK_EQ_U(time_up(1, 0.6, 1, 0, 1000), 1);
    fg_options *o = fg_options_new();
    fg_error e;
    fg_session *s = fg_session_new(o, &e); /* a counted run has no clock */
    fg_options_free(o);
    run r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.t = &plain;
    fgi_control_init(&r);
    r.prog.start -= 1e6;
    CHECK_EQ_U(fgi_run_time_up(&r), 0);
    CHECK(fgi_run_ends_at(&r) == 0);
    fg_session_free(s);
}
