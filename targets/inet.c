/* targets/inet.c — inet_pton and inet_ntop for IPv4 and IPv6, from text and from raw bytes.
 *
 * The first byte picks the mode: even means text (the rest, up to a NUL, is given to
 * inet_pton for both families); odd means raw (the next 4 bytes are an IPv4 address, or
 * when bit 1 is also set the next 16 bytes are an IPv6 address, printed with inet_ntop).
 */
#include "fuzzgate.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#define INET_MAX_LEN 64

/* Where the text has "::": 0 nowhere, 1 at the start, 2 at the end, 3 inside. */
static unsigned gap_place(const char *text)
{
    const char *g = strstr(text, "::");
    if (!g)
        return 0;
    if (g == text)
        return 1;
    return g[2] == '\0' ? 2 : 3;
}

/* The longest run of zero 16-bit groups (0..8): what decides where inet_ntop puts "::". */
static unsigned zero_run(const unsigned char *a)
{
    unsigned best = 0, run = 0;
    for (int g = 0; g < 8; g++) {
        run = a[2 * g] == 0 && a[2 * g + 1] == 0 ? run + 1 : 0;
        if (run > best)
            best = run;
    }
    return best;
}

/* Prints addr with inet_ntop into out (INET6_ADDRSTRLEN bytes) and checks the text is
 * well formed and reads back, with inet_pton, as the same bytes. Messages here quote no
 * address: a finding's class is a hash of its message, and the input is stored anyway. */
static void ntop_round_trip(int af, const unsigned char *addr, char *out)
{
    size_t n = af == AF_INET ? 4 : 16;
    const char *fam = af == AF_INET ? "AF_INET" : "AF_INET6";
    const char *t = inet_ntop(af, addr, out, INET6_ADDRSTRLEN);
    FG_CHECK(t == out, "inet_ntop(%s) fails", fam);
    size_t len = strlen(out);
    FG_CHECK(len > 0 && len < (af == AF_INET ? INET_ADDRSTRLEN : INET6_ADDRSTRLEN),
             "inet_ntop(%s) gives %zu characters", fam, len);
    size_t good = strspn(out, af == AF_INET ? "0123456789." : "0123456789abcdef:.");
    FG_CHECK(good == len, "inet_ntop(%s) gives a character outside its alphabet at offset %zu",
             fam, good);
    const char *gap = strstr(out, "::");
    FG_CHECK(!gap || !strstr(gap + 1, "::"), "inet_ntop(%s) gives a text with two '::'", fam);
    if (af == AF_INET6) {
        /* RFC 5952 4.2: "::" stands for the longest run of zero groups, never for one. */
        unsigned run = zero_run(addr);
        FG_CHECK((gap != NULL) == (run >= 2),
                 "inet_ntop(AF_INET6) %s '::' where the longest zero run is %u groups",
                 gap ? "uses" : "omits", run);
    }
    unsigned char back[16];
    int rc = inet_pton(af, out, back);
    FG_CHECK(rc == 1, "inet_pton(%s) refuses inet_ntop's own output (returns %d)", fam, rc);
    FG_CHECK(memcmp(back, addr, n) == 0,
             "inet_ntop(%s)'s output reads back with inet_pton as other bytes", fam);
}

static uint64_t text_mode(const uint8_t *data, size_t size)
{
    char text[INET_MAX_LEN + 1];
    size_t len = size < INET_MAX_LEN ? size : INET_MAX_LEN; /* corpus files may be longer */
    const uint8_t *nul = memchr(data, '\0', len);
    if (nul)
        len = (size_t)(nul - data);
    memcpy(text, data, len);
    text[len] = '\0';

    unsigned char a4[4], a6[16];
    char out[INET6_ADDRSTRLEN];
    int ok4 = inet_pton(AF_INET, text, a4);
    FG_CHECK(ok4 == 0 || ok4 == 1, "inet_pton(AF_INET) returns %d", ok4);
    int ok6 = inet_pton(AF_INET6, text, a6);
    FG_CHECK(ok6 == 0 || ok6 == 1, "inet_pton(AF_INET6) returns %d", ok6);
    FG_CHECK(!(ok4 && ok6), "a text is accepted as both an IPv4 and an IPv6 address");
    if (ok4) {
        ntop_round_trip(AF_INET, a4, out);
        /* glibc accepts only plain dotted decimal (no leading zeros, no short forms), so an
         * accepted IPv4 text is already the one inet_ntop prints. */
        FG_CHECK(strcmp(out, text) == 0,
                 "an accepted IPv4 text of %zu characters prints as %zu other characters",
                 len, strlen(out));
    }
    if (ok6) {
        ntop_round_trip(AF_INET6, a6, out);
        /* The printed form is canonical: printing what it reads gives it again. */
        unsigned char again[16];
        char out2[INET6_ADDRSTRLEN];
        FG_CHECK(inet_pton(AF_INET6, out, again) == 1, "the printed IPv6 text no longer reads");
        ntop_round_trip(AF_INET6, again, out2);
        FG_CHECK(strcmp(out, out2) == 0, "the printed IPv6 text prints differently once read");
    }
    uint64_t sig = fg_sig(1, (uint64_t)(ok4 * 2 + ok6));
    sig = fg_fold(sig, fg_bucket(len, 7));
    sig = fg_fold(sig, gap_place(text));
    return fg_fold(sig, (uint64_t)(strchr(text, '.') != NULL));
}

static uint64_t raw_mode(uint8_t mode, const uint8_t *data, size_t size)
{
    int af = mode & 2 ? AF_INET6 : AF_INET;
    size_t n = af == AF_INET ? 4 : 16;
    if (size < n)
        return fg_sig(2, (uint64_t)(af == AF_INET6));
    unsigned char addr[16];
    char out[INET6_ADDRSTRLEN];
    memcpy(addr, data, n);
    ntop_round_trip(af, addr, out);
    unsigned zeros = 0;
    if (af == AF_INET6) {
        zeros = zero_run(addr);
    } else {
        for (size_t i = 0; i < 4; i++)
            zeros += addr[i] == 0;
    }
    uint64_t sig = fg_sig(3, (uint64_t)(af == AF_INET6));
    sig = fg_fold(sig, zeros);
    sig = fg_fold(sig, gap_place(out));
    return fg_fold(sig, (uint64_t)(af == AF_INET6 && strchr(out, '.') != NULL));
}

static uint64_t inet_run(const uint8_t *data, size_t size)
{
    if (size == 0)
        return fg_sig(0, 0);
    if ((data[0] & 1) == 0)
        return text_mode(data + 1, size - 1);
    return raw_mode(data[0], data + 1, size - 1);
}

static void inet_seed(fg_seeds *seeds)
{
    static const char *const texts[] = {
        "t1.2.3.4", "t10.0.0.255", "t::1", "tfe80::1:2", "t2001:db8:0:0:1:0:0:1",
        "t::ffff:192.168.0.1", "t1:2:3:4:5:6:7:8", "t1.2.3.4.5",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        fg_seeds_add(seeds, texts[i], strlen(texts[i]));
    static const uint8_t raw4[] = {'a', 127, 0, 0, 1};
    static const uint8_t raw6[] = {'c', 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
                                   0,   0,    0,    0,    0,    0, 0, 1};
    static const uint8_t mapped[] = {'c', 0, 0, 0, 0, 0, 0, 0, 0,
                                     0,   0, 0xff, 0xff, 10, 0, 0, 1};
    fg_seeds_add(seeds, raw4, sizeof raw4);
    fg_seeds_add(seeds, raw6, sizeof raw6);
    fg_seeds_add(seeds, mapped, sizeof mapped);
}

FG_TARGET(inet,
          .what = "inet_pton/inet_ntop for IPv4 and IPv6: text and raw round trips",
          .run = inet_run,
          .seed = inet_seed,
          .max_len = INET_MAX_LEN);
