/* engine/supervise/wire.h — the messages an executor sends its supervisor, and the shared slot.
 *
 * A message is a header (type, body length) and a body, written in order by one executor:
 * records, findings and epoch ends into its outbox (outbox.h), the rest on its pipe. The
 * slot is a shared mapping the executor keeps current before every case body (position,
 * input bytes, mutations) so the supervisor can still see the input of a case that killed
 * its executor. Native encoding: both ends are one binary.
 */
#ifndef FG_WIRE_H
#define FG_WIRE_H

#include "engine/internal.h"
#include "engine/mutate/mutate.h"

#include <stdatomic.h>

enum fgi_msg {
    FGI_MSG_CAND = 1, /* an epoch candidate (epoch.h) */
    FGI_MSG_HITS,     /* a chunk's hit counts (epoch.h) */
    FGI_MSG_FIND,     /* a finding the executor survived (fgi_find_head + bytes) */
    FGI_MSG_DYING,    /* the executor is about to die of a case (fgi_dying) */
    FGI_MSG_EPOCH,    /* an epoch's cases are all run: uint64_t end position */
    FGI_MSG_BYE,      /* an orderly end: uint64_t position reached */
    FGI_MSG_ERROR,    /* an engine error in the executor: int32 fg_error */
    FGI_MSG_DRAIN     /* the outbox is full: take it (no body; outbox.h) */
};

typedef struct fgi_wire_head {
    uint32_t type, len;
} fgi_wire_head;

#define FGI_FRAMES 24 /* return addresses captured from a dying case */

/* Written from a signal handler in one write (smaller than PIPE_BUF, so atomic). */
typedef struct fgi_dying {
    char kind[16];      /* "crash", "timeout", "exit" */
    char what[200];     /* the detail and class key: "the target died of SIGSEGV ..." */
    uint32_t nframes;   /* frames[0] is the innermost; 0 when not captured */
    uint32_t from_sanitizer; /* captured inside a sanitizer's report path */
    uint64_t frames[FGI_FRAMES];
} fgi_dying;

/* A survivable finding (FGI_MSG_FIND) on the wire: this head, then the input's bytes and
 * the kind, site and detail texts, without NULs. A check that failed on the 3-byte input
 * 0a0b0c travels as
 *     head {seq 812, case_index 811, size 3, napplied 2, kindlen 5, sitelen 24,
 *           detaillen 40, applied {4, 9}}  0a 0b 0c  "check"  "targets/tlv.c: ..."  "..."
 * and the body's length is exactly the head plus those lengths. */
typedef struct fgi_find_head {
    uint64_t seq;
    int64_t case_index;
    uint64_t size;
    uint32_t napplied, kindlen, sitelen, detaillen;
    uint8_t applied[FGI_MUT_STACK];
} fgi_find_head;

#define FGI_WIRE_SITE_MAX 256    /* a site's bytes, its NUL included (a case result's) */
#define FGI_WIRE_DETAIL_MAX 1024 /* a detail's bytes, its NUL included */
#define FGI_WIRE_TEXT (FGI_WIRE_SITE_MAX + FGI_WIRE_DETAIL_MAX)

/* A survivable finding, as the codec sees it: every pointer borrowed. */
typedef struct fgi_wire_find {
    uint64_t seq;           /* the input's position in the run */
    int64_t case_index;     /* its generated case number, -1 for a replayed input */
    const uint8_t *data;    /* the input */
    size_t size;
    const uint8_t *applied; /* the mutators that made it (indexes), napplied of them */
    unsigned napplied;      /* at most FGI_MUT_STACK */
    const char *kind;       /* "check", "write", ...; decoded: one of fgi_wire_kind's */
    const char *site;       /* "" for none; shorter than FGI_WIRE_SITE_MAX */
    const char *detail;     /* shorter than FGI_WIRE_DETAIL_MAX */
} fgi_wire_find;

/* Appends f's message body to out. 0, or -1 when out ran out of memory (out->failed). */
FGI_HIDDEN int fgi_wire_encode_find(const fgi_wire_find *f, fgi_str *out);

/* Decodes a FGI_MSG_FIND body of n bytes into f: data and applied point into p, site and
 * detail are copied NUL-terminated into text, kind is one of the engine's own strings.
 * 0, or -1 for a truncated, oversized or inconsistent body (f is then unspecified). */
FGI_HIDDEN int fgi_wire_decode_find(const uint8_t *p, size_t n, fgi_wire_find *f,
                                    char text[FGI_WIRE_TEXT]);

/* The finding kind an executor named in n bytes at k, as the engine's own static string;
 * a kind it does not know is a "crash" (the executor is a fork of this binary, so that
 * means a damaged message, and a crash is what damages one). */
FGI_HIDDEN const char *fgi_wire_kind(const char *k, size_t n);

/* The shared slot, one per executor. */
typedef struct fgi_slot {
    _Atomic unsigned long cases; /* bodies started by this executor (0 at its start):
                                  * progress the supervisor watches */
    volatile int active;         /* a case body is running */
    volatile int stop;           /* set by the supervisor: end at the next chunk */
    uint64_t pos;                /* the executor's position (the case it is on) */
    uint64_t seq;                /* the input in data: its position (a re-run's own) */
    int64_t case_index;          /* -1 for a replayed input */
    uint64_t size;               /* bytes of data in use */
    uint32_t napplied;
    uint8_t applied[FGI_MUT_STACK];
    volatile uint32_t ended_ms;  /* the slowest case seen to end (fgi_watchdog_start's ended_ms) */
    struct fgi_outbox *outbox;   /* the executor's records (outbox.h), in the same mapping */
    size_t cap;                  /* capacity of data */
    uint8_t data[];
} fgi_slot;

/* Writes one message (header and body) to fd; 0 or -1. Signal-safe. */
FGI_HIDDEN int fgi_wire_send(int fd, uint32_t type, const void *body, size_t len);

#endif
