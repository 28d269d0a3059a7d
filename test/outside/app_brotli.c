/* test/outside/app_brotli.c — a user's target over Brotli, built outside the tree against
 * the installed fuzzgate_brotli.h (test/scripts/install.sh, Brotli builds only): the reference
 * oracle's round trip, with the size bound where Brotli promises it. */
#include <fuzzgate.h>
#include <fuzzgate_brotli.h>
#include <stdlib.h>

static uint64_t trip_run(const uint8_t *data, size_t size)
{
    fg_brotli_params p = {.quality = size ? data[0] % 12 : 5, .lgwin = 16, .mode = 0};
    fg_brotli_trip trip;
    uint8_t *stream = NULL;
    int ok = fg_brotli_roundtrip(&p, data, size, &stream, &trip);
    free(stream);
    FG_CHECK(ok != 0, "a %zu-byte round trip at quality %d is %s", size, p.quality,
             fg_brotli_status_name(trip.decode.status));
    FG_CHECK(p.quality < 2 || trip.size <= trip.bound, "%zu bytes past the bound %zu",
             trip.size, trip.bound);
    return fg_sig((uint64_t)p.quality, fg_bucket(size, 8));
}
FG_TARGET(app_brotli, .flags = FG_NO_CORPUS,
          .run = trip_run, .what = "Brotli round trips", .max_len = 128)
