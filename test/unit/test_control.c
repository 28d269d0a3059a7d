/* test/unit/test_control.c — a run's bottom services (engine/run/control.c): the interrupt
 * (a second signal of either kind ends the process; catches nest). */
#include "test/support/check.h"
#include "test/support/proc.h"

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
