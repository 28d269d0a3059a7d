/* test/support/proc.h — running sibling programs in child processes and reading what they left. */
#ifndef FG_TEST_PROC_H
#define FG_TEST_PROC_H

#include <stddef.h>

typedef struct fgt_run {
    int exited;        /* 1 if it exited normally */
    int code;          /* exit status when exited */
    int signal;        /* the fatal signal otherwise */
    char *out;         /* everything it wrote to stdout (malloc'd, NUL-terminated) */
    char *err;         /* everything it wrote to stderr */
} fgt_run;

/* Runs argv (argv[0] a path) with extra environment assignments env ("NAME=VALUE",
 * NULL-terminated, may be NULL) and captures its output. Returns 0 or -1. */
int fgt_spawn(char *const argv[], char *const env[], fgt_run *r);
void fgt_run_free(fgt_run *r);
/* Runs the gate of <build>/test-planted over the comma-separated targets, with
 * --findings=<root>/<findings> and an empty corpus (<root>/no-corpus); 0 or -1. */
int fgt_planted_gate(const char *root, const char *findings, const char *targets,
                     fgt_run *r);

/* A fresh temporary directory (path into buf, capacity cap); 0 or -1. */
int fgt_tmpdir(char *buf, size_t cap);
/* rm -rf of a temporary directory. */
void fgt_rmrf(const char *path);
/* Reads a whole file (malloc'd, NUL-terminated, size in *n); NULL if unreadable. */
char *fgt_slurp(const char *path, size_t *n);
/* Writes a file; 0 or -1. */
int fgt_write(const char *path, const void *data, size_t n);
/* Finds the first file in dir whose name starts with prefix and ends with suffix;
 * its full path into buf. Returns the number of such files. */
int fgt_find(const char *dir, const char *prefix, const char *suffix, char *buf, size_t cap);

#endif
