/* engine/supervise/wire.h — THE protocol between an executor and its supervisor: every frame
 * and every message body of both sides, one frame writer and one frame reader.
 *
 * Three channels join an executor to its supervisor (supervisor.c makes them at the fork):
 *
 *   executor ── outbox, a ring in shared memory (outbox.h) ──► supervisor  CAND HITS FIND EPOCH
 *   executor ── message pipe ──────────────────────────────► supervisor  DYING DRAIN BYE
 *   supervisor ── command pipe (jobs > 1) ──────────────────► executor    CAND HITS EPOCH
 *
 * The outbox carries what an executor's cases found, in the order it found it: candidates
 * and hit counts (the epoch records of engine/search/epoch.h), the findings it survived,
 * and EPOCH after an epoch's last record. The pipe carries what must not wait in a ring: a
 * dying case's last words (written from a signal handler), a nudge to take the ring
 * (DRAIN: after each EPOCH, and when the ring is full), and the goodbye. With several
 * executors the supervisor sends every executor the merged epoch: its records, sorted,
 * then EPOCH. ERROR never crosses: it is what a receiver's handlers are told when a message
 * is damaged or records were lost (fgi_wire_handlers.error).
 *
 * A frame is a head {uint32 type, uint32 len} and len bytes of body, in native encoding
 * (both ends are one binary on one machine). The bodies, by example:
 *   CAND   cand_head {seq 812, sig, size 3, fhash, base 5, hang 0, force 0, nkeys 2,
 *          ncmps 1, nstrs 0, work 310, nreads 2}, then the 3 input bytes, 2 uint64 keys, 1
 *          fgi_cmp_int, 2 fgi_read (its read record: engine/feedback/reads.h)
 *   HITS   {uint64 which (0 signatures, 1 features), uint64 n}, n uint64 keys, n uint32
 *          counts
 *   FIND   fgi_find_head (below), then the input's bytes and the kind, site and detail
 *          texts, without NULs
 *   EPOCH  uint64: the position the epoch's records end at
 *   DYING  fgi_dying (oracle/crash.h), whole, in one write below PIPE_BUF
 *   BYE    fgi_wire_bye
 *   DRAIN  no body
 * Every decoder trusts no length: a truncated, oversized or inconsistent body, or a type
 * the receiver does not take, is refused and reported, never read past.
 */
#ifndef FG_WIRE_H
#define FG_WIRE_H

#include "engine/internal.h"
#include "engine/mutate/mutate.h"
#include "engine/search/epoch.h"
#include "oracle/crash.h"

enum fgi_msg {
    FGI_MSG_CAND = 1, /* an epoch candidate */
    FGI_MSG_HITS,     /* a chunk's hit counts */
    FGI_MSG_FIND,     /* a finding the executor survived */
    FGI_MSG_DYING,    /* the executor is about to die of a case */
    FGI_MSG_EPOCH,    /* an epoch's records are all sent */
    FGI_MSG_BYE,      /* an orderly end */
    FGI_MSG_DRAIN     /* take the outbox now (no body) */
};

typedef struct fgi_wire_head {
    uint32_t type, len;
} fgi_wire_head;

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

/* What an executor reports at its orderly end (FGI_MSG_BYE). */
typedef struct fgi_wire_bye {
    uint64_t reached;     /* the position it got to */
    uint64_t slow;        /* cases past the soft time threshold */
    uint32_t slowest_ms;  /* the longest a case ran, as its watchdog saw it */
    uint32_t err;         /* its engine error (fg_error), FG_OK for none */
} fgi_wire_bye;

/* The shared slot, one per executor. */
typedef struct fgi_slot {
    _Atomic unsigned long cases; /* bodies started by this executor (0 at its start):
                                  * progress the supervisor watches */
    volatile int active;         /* a case body is running */
    volatile int stop;           /* set by the supervisor: run no further case */
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

/* ---- the executor's side ------------------------------------------------------------ */

/* An executor's ends of its channels. The supervisor fills the descriptors and the ring
 * before it calls the executor's body; scratch is the link's own (fgi_wire_link_free). */
typedef struct fgi_wire_link {
    int msg_fd;              /* the message pipe (write end) */
    int cmd_fd;              /* the command pipe (read end) */
    struct fgi_outbox *box;  /* the ring, in the slot's mapping */
    fgi_str scratch;         /* a body being encoded, or a frame being read */
} fgi_wire_link;

FGI_HIDDEN void fgi_wire_link_free(fgi_wire_link *l);

/* Each puts one record in the outbox, waiting for room when it must (and nudging the
 * supervisor on the pipe once per wait). FG_OK; FG_ENOMEM when the body cannot be
 * encoded; FG_EIO when the pipe is gone or the ring's indices are not the supervisor's. */
FGI_HIDDEN fg_error fgi_wire_put_cand(fgi_wire_link *l, const fgi_cand *c);
FGI_HIDDEN fg_error fgi_wire_put_hits(fgi_wire_link *l, const fgi_hits *h);
FGI_HIDDEN fg_error fgi_wire_put_find(fgi_wire_link *l, const fgi_wire_find *f);
/* The epoch's end, in the outbox after its records, then a nudge on the pipe so the
 * supervisor takes them now. */
FGI_HIDDEN fg_error fgi_wire_put_epoch(fgi_wire_link *l, uint64_t end);
/* The goodbye, on the pipe. */
FGI_HIDDEN fg_error fgi_wire_say_bye(fgi_wire_link *l, const fgi_wire_bye *b);
/* A dying case's last words, in one write on the pipe fd. Signal-safe. 0 or -1. */
FGI_HIDDEN int fgi_wire_say_dying(int fd, const fgi_dying *d);

/* An executor of several: reads the merged epoch from the command pipe into log (cleared
 * first), up to its EPOCH. 1 when the epoch came whole; 0 at end of file (the run is
 * over); -1 with *err set (FG_ENOMEM, or FG_EIO for a damaged or unexpected message). */
FGI_HIDDEN int fgi_wire_get_epoch(fgi_wire_link *l, fgi_epoch_log *log, fg_error *err);

/* ---- the supervisor's side ---------------------------------------------------------- */

/* The merged epoch to one executor: log's records as they are ordered, then EPOCH `end`.
 * scratch: the caller's buffer, reused. FG_OK, FG_ENOMEM, or FG_EIO (the executor is
 * gone: its death is handled as any other). */
FGI_HIDDEN fg_error fgi_wire_send_epoch(int fd, const fgi_epoch_log *log, uint64_t end,
                                        fgi_str *scratch);

/* One frame as read: its type and body, borrowed from the reader's buffer. */
typedef struct fgi_wire_msg {
    uint32_t type;
    const uint8_t *body;
    size_t len;
} fgi_wire_msg;

/* The frame at the start of p[0..n): the bytes it takes, with m filled, or 0 when p does
 * not hold a whole frame yet. Both sides read every frame through this. */
FGI_HIDDEN size_t fgi_wire_frame(const uint8_t *p, size_t n, fgi_wire_msg *m);

/* A receiver's handlers, one per message type; a NULL one means the receiver does not
 * take that type, and such a message is an error. ctx and j (the executor's number) are
 * passed through. Ownership: cand and hits receive records whose buffers they own; every
 * other pointer is borrowed for the call. */
typedef struct fgi_wire_handlers {
    void (*cand)(void *ctx, unsigned j, fgi_cand *c);
    void (*hits)(void *ctx, unsigned j, fgi_hits *h);
    void (*find)(void *ctx, unsigned j, const fgi_wire_find *f);
    void (*epoch)(void *ctx, unsigned j, uint64_t end);
    void (*dying)(void *ctx, unsigned j, const fgi_dying *d);
    void (*drain)(void *ctx, unsigned j);
    void (*bye)(void *ctx, unsigned j, const fgi_wire_bye *b);
    /* A damaged message or one of a type not taken (FG_EIO), a record that could not be
     * decoded for want of memory (FG_ENOMEM), or records lost on the way (the caller's). */
    void (*error)(void *ctx, unsigned j, fg_error e);
} fgi_wire_handlers;

/* Decodes m by its type and calls the handler for it (or error). */
FGI_HIDDEN void fgi_wire_dispatch(const fgi_wire_msg *m, const fgi_wire_handlers *h, void *ctx,
                                  unsigned j);

/* ---- the bodies, for the dispatcher and the tests ----------------------------------- */

/* Appends the body of a message to out. 0, or -1 when out ran out of memory. */
FGI_HIDDEN int fgi_wire_encode_find(const fgi_wire_find *f, fgi_str *out);
FGI_HIDDEN int fgi_wire_encode_cand(const fgi_cand *c, fgi_str *out);
FGI_HIDDEN int fgi_wire_encode_hits(const fgi_hits *h, fgi_str *out);

/* Decodes a FGI_MSG_FIND body of n bytes into f: data and applied point into p, site and
 * detail are copied NUL-terminated into text, kind is one of the engine's own strings.
 * 0, or -1 for a truncated, oversized or inconsistent body (f is then unspecified). */
FGI_HIDDEN int fgi_wire_decode_find(const uint8_t *p, size_t n, fgi_wire_find *f,
                                    char text[FGI_WIRE_TEXT]);
/* A candidate or a hit batch into owned buffers (free with fgi_epoch_free_*): 0; -1 for a
 * malformed body (nothing to free), -2 when out of memory (nothing to free). */
FGI_HIDDEN int fgi_wire_decode_cand(const uint8_t *p, size_t n, fgi_cand *c);
FGI_HIDDEN int fgi_wire_decode_hits(const uint8_t *p, size_t n, fgi_hits *h);
/* The fixed-size bodies: 0, or -1 when n is not their size. A dying message's texts come
 * out NUL-terminated and its frame count at most FGI_FRAMES, whatever was sent. */
FGI_HIDDEN int fgi_wire_decode_epoch(const uint8_t *p, size_t n, uint64_t *end);
FGI_HIDDEN int fgi_wire_decode_dying(const uint8_t *p, size_t n, fgi_dying *d);
FGI_HIDDEN int fgi_wire_decode_bye(const uint8_t *p, size_t n, fgi_wire_bye *b);

/* The finding kind an executor named in n bytes at k, as the engine's own static string;
 * a kind it does not know is a "crash" (the executor is a fork of this binary, so that
 * means a damaged message, and a crash is what damages one). */
FGI_HIDDEN const char *fgi_wire_kind(const char *k, size_t n);

#endif
