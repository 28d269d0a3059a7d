/* targets/strftime.c — strftime and strptime, each checked by the other: broken-down times
 * printed and read back, and text read, printed and read again.
 *
 * Input: d[0] bit 0 the mode, bits 1-3 the number of conversions k (1 + that % 6); then k
 * bytes, each a conversion (CONVS, low 5 bits) and the separator after it (SEPS, high 3
 * bits); then, in mode 0, the fields of a struct tm (FIELD_BYTES bytes, each reduced to its
 * range), in mode 1 a text (up to a NUL).
 *   mode 0  fields -> strftime -> strptime: the text is read whole, and every field the
 *           format determines comes back;
 *   mode 1  text -> strptime -> strftime -> strptime: what strptime makes of any text is in
 *           range (POSIX's ranges), and printing it and reading it again changes nothing.
 * "Determines" is what POSIX and glibc agree on, in the C locale: a field set by a
 * conversion of the format, the year only from %Y, from %C with %y, or from %y alone for
 * 1969-2068 (the two-digit rule), the hour from a last 24-hour conversion or from a
 * 12-hour one with %p. (%Y with %C is not compared: glibc then takes the century alone, as
 * its source says, "strange, but so be it".) No %s, %Z or locale: nothing here reads the
 * environment.
 */
#include "fuzzgate.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define STRFTIME_MAX_LEN 128
#define MAX_CONVS 6
#define FIELD_BYTES 12

/* What a conversion sets. */
enum {
    F_YEAR4 = 1 << 0,  /* %Y */
    F_YEAR2 = 1 << 1,  /* %y */
    F_CENT = 1 << 2,   /* %C */
    F_MON = 1 << 3,
    F_MDAY = 1 << 4,
    F_HOUR24 = 1 << 5,
    F_HOUR12 = 1 << 6, /* %I: the hour modulo 12 */
    F_AMPM = 1 << 7,   /* %p */
    F_MIN = 1 << 8,
    F_SEC = 1 << 9,
    F_WDAY = 1 << 10,
    F_YDAY = 1 << 11,
    F_GMTOFF = 1 << 12,
};

static const struct conv {
    const char *spec;
    unsigned sets;
} CONVS[32] = {
    {"%Y", F_YEAR4}, {"%y", F_YEAR2}, {"%C", F_CENT}, {"%m", F_MON}, {"%b", F_MON},
    {"%B", F_MON}, {"%h", F_MON}, {"%d", F_MDAY}, {"%e", F_MDAY}, {"%H", F_HOUR24},
    {"%I", F_HOUR12}, {"%p", F_AMPM}, {"%M", F_MIN}, {"%S", F_SEC}, {"%a", F_WDAY},
    {"%A", F_WDAY}, {"%u", F_WDAY}, {"%w", F_WDAY}, {"%j", F_YDAY}, {"%z", F_GMTOFF},
    {"%D", F_MON | F_MDAY | F_YEAR2}, {"%F", F_YEAR4 | F_MON | F_MDAY},
    {"%T", F_HOUR24 | F_MIN | F_SEC}, {"%R", F_HOUR24 | F_MIN},
    {"%r", F_HOUR12 | F_MIN | F_SEC | F_AMPM},
    {"%c", F_WDAY | F_MON | F_MDAY | F_HOUR24 | F_MIN | F_SEC | F_YEAR4},
    {"%x", F_MON | F_MDAY | F_YEAR2}, {"%X", F_HOUR24 | F_MIN | F_SEC}, {"%n", 0}, {"%t", 0},
    {"%%", 0}, {"%Y", F_YEAR4},
};
static const char *const SEPS[8] = {" ", "-", ":", "/", ",", ".", "T", "_"};

/* A format, and which fields it determines. */
typedef struct format {
    char text[MAX_CONVS * 3 + 1];
    unsigned sets;     /* union of the conversions' sets */
    int hour12_last;   /* the last conversion setting the hour is a 12-hour one */
    unsigned nconv;
} format;

static void build_format(const uint8_t *d, unsigned k, format *f)
{
    memset(f, 0, sizeof *f);
    for (unsigned i = 0; i < k; i++) {
        const struct conv *c = &CONVS[d[i] & 31];
        strcat(f->text, c->spec);
        if (i + 1 < k)
            strcat(f->text, SEPS[d[i] >> 5]);
        f->sets |= c->sets;
        if (c->sets & (F_HOUR24 | F_HOUR12))
            f->hour12_last = (c->sets & F_HOUR12) != 0;
    }
    f->nconv = k;
}

/* The fields of `want` that strptime must give back for this format (see the top). */
typedef struct fields {
    int year, mon, mday, hour, min, sec, wday, yday, gmtoff;
} fields;

static fields determined(const format *f, const struct tm *want)
{
    unsigned s = f->sets;
    int year = want->tm_year + 1900, two_digit_ok = year >= 1969 && year <= 2068;
    fields d = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    if (!(s & F_CENT))
        d.year = (s & F_YEAR4 && !(s & F_YEAR2)) || (s & F_YEAR2 && two_digit_ok);
    else
        d.year = s & F_YEAR2 && !(s & F_YEAR4);
    d.mon = (s & F_MON) != 0;
    d.mday = (s & F_MDAY) != 0;
    d.hour = (s & (F_HOUR24 | F_HOUR12)) && (!f->hour12_last || s & F_AMPM);
    d.min = (s & F_MIN) != 0;
    d.sec = (s & F_SEC) != 0;
    d.wday = (s & F_WDAY) != 0;
    d.yday = (s & F_YDAY) != 0;
    d.gmtoff = (s & F_GMTOFF) != 0;
    return d;
}

/* Checks that every determined field of got equals want's. Messages name the field, not
 * the values' text, so one broken field is one finding class. */
static void same_fields(const fields *d, const struct tm *want, const struct tm *got,
                        const char *how)
{
    FG_CHECK(!d->year || got->tm_year == want->tm_year, "%s changes tm_year (%d to %d)", how,
             want->tm_year, got->tm_year);
    FG_CHECK(!d->mon || got->tm_mon == want->tm_mon, "%s changes tm_mon (%d to %d)", how,
             want->tm_mon, got->tm_mon);
    FG_CHECK(!d->mday || got->tm_mday == want->tm_mday, "%s changes tm_mday (%d to %d)", how,
             want->tm_mday, got->tm_mday);
    FG_CHECK(!d->hour || got->tm_hour == want->tm_hour, "%s changes tm_hour (%d to %d)", how,
             want->tm_hour, got->tm_hour);
    FG_CHECK(!d->min || got->tm_min == want->tm_min, "%s changes tm_min (%d to %d)", how,
             want->tm_min, got->tm_min);
    FG_CHECK(!d->sec || got->tm_sec == want->tm_sec, "%s changes tm_sec (%d to %d)", how,
             want->tm_sec, got->tm_sec);
    FG_CHECK(!d->wday || got->tm_wday == want->tm_wday, "%s changes tm_wday (%d to %d)", how,
             want->tm_wday, got->tm_wday);
    FG_CHECK(!d->yday || got->tm_yday == want->tm_yday, "%s changes tm_yday (%d to %d)", how,
             want->tm_yday, got->tm_yday);
    FG_CHECK(!d->gmtoff || got->tm_gmtoff == want->tm_gmtoff,
             "%s changes tm_gmtoff (%ld to %ld)", how, (long)want->tm_gmtoff,
             (long)got->tm_gmtoff);
}

/* strftime of tm, then strptime of that text: read whole, fields back. */
static void print_and_read(const format *f, const struct tm *tm, const char *how)
{
    char text[256];
#pragma GCC diagnostic push /* the format is the fuzzer's: that is the point */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    size_t len = strftime(text, sizeof text, f->text, tm);
#pragma GCC diagnostic pop
    FG_CHECK(len > 0 && len < sizeof text, "strftime writes nothing for a %u-conversion format",
             f->nconv);
    struct tm back;
    memset(&back, 0, sizeof back);
    const char *end = strptime(text, f->text, &back);
    FG_CHECK(end != NULL, "%s: strptime refuses the %zu characters strftime wrote", how, len);
    FG_CHECK(*end == '\0', "%s: strptime reads %td of the %zu characters strftime wrote", how,
             end - text, len);
    fields d = determined(f, tm);
    same_fields(&d, tm, &back, how);
}

static unsigned byte_at(const uint8_t *d, size_t n, size_t i)
{
    return i < n ? d[i] : 0;
}

static uint64_t fields_mode(const format *f, const uint8_t *p, size_t n)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    tm.tm_year = (int)((byte_at(p, n, 0) | byte_at(p, n, 1) << 8) % 10000) - 1900;
    tm.tm_mon = (int)(byte_at(p, n, 2) % 12);
    tm.tm_mday = 1 + (int)(byte_at(p, n, 3) % 31);
    tm.tm_hour = (int)(byte_at(p, n, 4) % 24);
    tm.tm_min = (int)(byte_at(p, n, 5) % 60);
    tm.tm_sec = (int)(byte_at(p, n, 6) % 61); /* 60: a leap second */
    tm.tm_wday = (int)(byte_at(p, n, 7) % 7);
    tm.tm_yday = (int)((byte_at(p, n, 8) | byte_at(p, n, 9) << 8) % 366);
    int minutes = (int)(int16_t)(byte_at(p, n, 10) | byte_at(p, n, 11) << 8) % 6000;
    tm.tm_gmtoff = (long)minutes * 60; /* whole minutes within +-99:59: what %z prints */
    print_and_read(f, &tm, "the round trip");
    fields d = determined(f, &tm);
    unsigned mask = (unsigned)d.year | (unsigned)d.mon << 1 | (unsigned)d.mday << 2 |
                    (unsigned)d.hour << 3 | (unsigned)(d.min | d.sec) << 4 |
                    (unsigned)(d.wday | d.yday) << 5 | (unsigned)d.gmtoff << 6;
    return fg_fold(fg_sig(1, mask), (uint64_t)(tm.tm_year + 1900 < 1000) |
                                        (uint64_t)(f->sets & F_CENT ? 2 : 0));
}

/* A field strptime set is within its POSIX range. */
static void in_range(const char *field, long v, long lo, long hi)
{
    FG_CHECK(v >= lo && v <= hi, "strptime gives %s %ld, outside [%ld, %ld]", field, v, lo, hi);
}

static uint64_t text_mode(const format *f, const uint8_t *p, size_t n)
{
    char text[STRFTIME_MAX_LEN + 1];
    size_t len = n < STRFTIME_MAX_LEN ? n : STRFTIME_MAX_LEN;
    const uint8_t *nul = memchr(p, '\0', len);
    if (nul)
        len = (size_t)(nul - p);
    memcpy(text, p, len);
    text[len] = '\0';
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    const char *end = strptime(text, f->text, &tm);
    if (!end)
        return fg_sig(2, f->sets & 0xff);
    FG_CHECK(end >= text && end <= text + len, "strptime's end is outside the text");
    fields d = determined(f, &tm);
    if (d.year)
        in_range("tm_year + 1900", tm.tm_year + 1900L, 0, 9999);
    if (d.mon)
        in_range("tm_mon", tm.tm_mon, 0, 11);
    if (d.mday)
        in_range("tm_mday", tm.tm_mday, 1, 31);
    if (d.hour)
        in_range("tm_hour", tm.tm_hour, 0, 23);
    if (d.min)
        in_range("tm_min", tm.tm_min, 0, 59);
    if (d.sec)
        in_range("tm_sec", tm.tm_sec, 0, 60); /* POSIX.1-2008: "The seconds [00,60]" */
    if (d.wday)
        in_range("tm_wday", tm.tm_wday, 0, 6);
    if (d.yday)
        in_range("tm_yday", tm.tm_yday, 0, 365);
    if (d.gmtoff)
        in_range("tm_gmtoff", tm.tm_gmtoff, -(99 * 3600L + 59 * 60), 99 * 3600L + 59 * 60);
    print_and_read(f, &tm, "reading what strptime read");
    return fg_fold(fg_sig(3, f->sets & 0x3ff), (uint64_t)(*end != '\0'));
}

static uint64_t strftime_run(const uint8_t *data, size_t size)
{
    if (size < 1)
        return fg_sig(0, 0);
    unsigned k = 1 + (data[0] >> 1 & 7) % MAX_CONVS;
    if (size < 1 + (size_t)k)
        return fg_sig(0, 1);
    format f;
    build_format(data + 1, k, &f);
    const uint8_t *rest = data + 1 + k;
    size_t n = size - 1 - k;
    return data[0] & 1 ? text_mode(&f, rest, n) : fields_mode(&f, rest, n);
}

static void strftime_seed(fg_seeds *seeds)
{
    /* Fields: "%FT%T %z" over 2024-02-29 13:45:59 +05:30; "%c" in 1900; "%D %r" on a leap
     * second at the end of 1999, -08:00. Text: "%Y-%m-%d %H:%M:%S" of a leap second on a
     * day that does not exist; "%a %b %e". */
    static const uint8_t iso[] = {0x04, 21 | 6 << 5, 22, 19, 0xe8, 0x07, 1, 28, 13, 45, 59,
                                  4, 59, 0, 0x4a, 0x01};
    static const uint8_t c_1900[] = {0x00, 25, 0x6c, 0x07, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const uint8_t us[] = {0x02, 20, 24, 0xcf, 0x07, 11, 30, 23, 59, 60, 6, 0x6c, 0x01,
                                 0x20, 0xfe};
    static const uint8_t dt[] = {0x0b, 0 | 1 << 5, 3 | 1 << 5, 7, 9 | 2 << 5, 12 | 2 << 5, 13,
                                 '2', '0', '2', '6', '-', '0', '2', '-', '2', '9', ' ', '2',
                                 '3', ':', '5', '9', ':', '6', '0'};
    static const uint8_t names[] = {0x05, 14, 4, 8, 'T', 'h', 'u', ' ', 'D', 'e', 'c', ' ',
                                    ' ', '3'};
    fg_seeds_add(seeds, iso, sizeof iso);
    fg_seeds_add(seeds, c_1900, sizeof c_1900);
    fg_seeds_add(seeds, us, sizeof us);
    fg_seeds_add(seeds, dt, sizeof dt);
    fg_seeds_add(seeds, names, sizeof names);
}

FG_TARGET(strftime, .what = "strftime/strptime: fields printed and read back, text read twice",
          .run = strftime_run, .seed = strftime_seed, .max_len = STRFTIME_MAX_LEN)
