/* test/support/proc.h — child processes and the scratch files they leave: run, capture, read. */
#ifndef FG_TEST_PROC_H
#define FG_TEST_PROC_H

#include <stddef.h>

typedef struct fgt_run {
    int exited;        /* 1 if it exited normally */
    int code;          /* exit status when exited */
    int signal;        /* the fatal signal otherwise */
    char *out;         /* everything it wrote to stdout (malloc'd, NUL-terminated) */
    char *err;         /* everything it wrote to stderr */
    long peak_kib;     /* the largest resident size of it, or of a child it waited for
                        * (wait4's ru_maxrss) */
} fgt_run;

/* Runs argv (argv[0] a path) with extra environment assignments env ("NAME=VALUE",
 * NULL-terminated, may be NULL) and captures its output. Returns 0 or -1. */
int fgt_spawn(char *const argv[], char *const env[], fgt_run *r);
/* When fgt_spawn_timed signals a run and how long it waits for it. */
typedef struct fgt_timing {
    int sig;           /* sent delay_ms after the start (0: none) */
    unsigned delay_ms;
    unsigned wait_ms;  /* after the signal (or the start): then its process group is
                        * killed with SIGKILL */
} fgt_timing;

/* fgt_spawn in a process group of its own, on t's schedule. *ended_ms: how long after the
 * signal (without one, after the start) it ended; -1 when it ended before the signal or
 * had to be killed. Returns 0 or -1. */
int fgt_spawn_timed(char *const argv[], char *const env[], const fgt_timing *t, fgt_run *r,
                    double *ended_ms);
/* Calls fn(ctx) in a forked child and captures its output as fgt_spawn does; the child
 * exits with what fn returns (0..255). An abort (an assertion, a sanitizer's report) or a
 * crash there fails the one test that checks r, not the runner. Returns 0 or -1. */
int fgt_call_in_child(int (*fn)(void *ctx), void *ctx, fgt_run *r);
void fgt_run_free(fgt_run *r);
/* Runs the gate of <build>/test-planted over the comma-separated targets, with
 * --findings=<root>/<findings> and an empty corpus (<root>/no-corpus); 0 or -1. */
int fgt_planted_gate(const char *root, const char *findings, const char *targets,
                     fgt_run *r);

/* A fresh temporary directory (path into buf, capacity cap); 0 or -1. */
int fgt_tmpdir(char *buf, size_t cap);
/* mkdir -p: path and every missing parent (0755); 0, or -1 with errno. */
int fgt_mkdirs(const char *path);
/* rm -rf of a temporary directory. */
void fgt_rmrf(const char *path);
/* Reads a whole file (malloc'd, NUL-terminated, size in *n); NULL if unreadable. */
char *fgt_slurp(const char *path, size_t *n);
/* Writes a file; 0 or -1. */
int fgt_write(const char *path, const void *data, size_t n);
/* Finds the first file in dir whose name starts with prefix and ends with suffix;
 * its full path into buf. Returns the number of such files. */
int fgt_find(const char *dir, const char *prefix, const char *suffix, char *buf, size_t cap);
/* The entries of dir (not "." and "..") whose name contains part ("" for all); 0 when dir
 * cannot be opened. */
size_t fgt_count_entries(const char *dir, const char *part);

#endif
