/* test/support/proc.c — child processes and the scratch files they leave: run, capture, read. */
#include "test/support/proc.h"

#include "test/support/check.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

char *fgt_slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
        if (len + 1 == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
            }
            buf = b;
        }
    }
    fclose(f);
    if (buf) {
        buf[len] = '\0';
        if (n)
            *n = len;
    }
    return buf;
}

int fgt_write(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(data, 1, n, f) == n;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

int fgt_tmpdir(char *buf, size_t cap)
{
    const char *base = getenv("TMPDIR");
    snprintf(buf, cap, "%s/fgt-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(buf) ? 0 : -1;
}

int fgt_mkdirs(const char *path)
{
    char p[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof p) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(p, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (p[i] != '/' && p[i] != '\0')
            continue;
        char c = p[i];
        p[i] = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST)
            return -1;
        p[i] = c;
    }
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

void fgt_rmrf(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char sub[4096];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            fgt_rmrf(sub);
        }
        closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

int fgt_find(const char *dir, const char *prefix, const char *suffix, char *buf, size_t cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int found = 0;
    struct dirent *e;
    size_t lp = strlen(prefix), ls = strlen(suffix);
    while ((e = readdir(d)) != NULL) {
        size_t ln = strlen(e->d_name);
        if (ln < lp + ls || strncmp(e->d_name, prefix, lp) != 0 ||
            strcmp(e->d_name + ln - ls, suffix) != 0)
            continue;
        if (!found++ && buf)
            snprintf(buf, cap, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    return found;
}

size_t fgt_count_entries(const char *dir, const char *part)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strstr(e->d_name, part);
    closedir(d);
    return n;
}

/* What a child of fork_capture does once its output is redirected: never returns. */
typedef void child_fn(void *ctx);

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Waits for pid as fork_capture's caller asked (t: fgt_spawn_timed's schedule, or NULL
 * for as long as it takes); its wait status. */
static int wait_for(pid_t pid, const fgt_timing *t, double *ended_ms, struct rusage *ru)
{
    int st = 0;
    if (!t) {
        while (wait4(pid, &st, 0, ru) < 0)
            ;
        return st;
    }
    double start = now_ms();
    if (t->sig) {
        while (now_ms() - start < t->delay_ms && wait4(pid, &st, WNOHANG, ru) != pid) {
            struct timespec tick = {0, 5 * 1000 * 1000};
            nanosleep(&tick, NULL);
        }
        if (now_ms() - start < t->delay_ms) { /* it ended before the signal */
            *ended_ms = -1;
            return st;
        }
        start = now_ms();
        kill(pid, t->sig);
    }
    for (;;) {
        if (wait4(pid, &st, WNOHANG, ru) == pid) {
            *ended_ms = now_ms() - start;
            return st;
        }
        if (now_ms() - start > t->wait_ms) {
            kill(-pid, SIGKILL); /* its group: the executors too */
            kill(pid, SIGKILL);
            while (wait4(pid, &st, 0, ru) < 0)
                ;
            *ended_ms = -1;
            return st;
        }
        struct timespec tick = {0, 2 * 1000 * 1000};
        nanosleep(&tick, NULL);
    }
}

/* Forks; the child sends stdout and stderr to files and calls body; the parent waits (as
 * wait_for says) and fills r with how it ended and what it wrote. 0 or -1. */
static int fork_capture(child_fn *body, void *ctx, fgt_run *r, const fgt_timing *t,
                        double *ended_ms)
{
    memset(r, 0, sizeof *r);
    char dir[256], outp[300], errp[300];
    if (fgt_tmpdir(dir, sizeof dir) != 0)
        return -1;
    snprintf(outp, sizeof outp, "%s/out", dir);
    snprintf(errp, sizeof errp, "%s/err", dir);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fgt_rmrf(dir);
        return -1;
    }
    if (pid == 0) {
        if (t)
            setpgid(0, 0); /* so a run that does not end is killed whole */
        int o = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (o < 0 || e < 0)
            _exit(127);
        dup2(o, 1);
        dup2(e, 2);
        body(ctx);
        _exit(127);
    }
    if (t)
        setpgid(pid, pid); /* both sides set it, so neither races the other */
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    int st = wait_for(pid, t, ended_ms, &ru);
    r->peak_kib = ru.ru_maxrss;
    r->exited = WIFEXITED(st);
    r->code = r->exited ? WEXITSTATUS(st) : -1;
    r->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    r->out = fgt_slurp(outp, NULL);
    r->err = fgt_slurp(errp, NULL);
    if (!r->out)
        r->out = strdup("");
    if (!r->err)
        r->err = strdup("");
    fgt_rmrf(dir);
    return 0;
}

typedef struct exec_args {
    char *const *argv, *const *env;
} exec_args;

static void exec_body(void *ctx)
{
    const exec_args *a = ctx;
    for (size_t i = 0; a->env && a->env[i]; i++)
        putenv(a->env[i]);
    execv(a->argv[0], a->argv);
    _exit(127);
}

int fgt_spawn(char *const argv[], char *const env[], fgt_run *r)
{
    exec_args a = {argv, env};
    return fork_capture(exec_body, &a, r, NULL, NULL);
}

int fgt_spawn_timed(char *const argv[], char *const env[], const fgt_timing *t, fgt_run *r,
                    double *ended_ms)
{
    exec_args a = {argv, env};
    return fork_capture(exec_body, &a, r, t, ended_ms);
}

typedef struct call_args {
    int (*fn)(void *ctx);
    void *ctx;
} call_args;

static void call_body(void *ctx)
{
    const call_args *a = ctx;
    int rc = a->fn(a->ctx);
    fflush(NULL);
    _exit(rc & 0xff);
}

int fgt_call_in_child(int (*fn)(void *ctx), void *ctx, fgt_run *r)
{
    call_args a = {fn, ctx};
    return fork_capture(call_body, &a, r, NULL, NULL);
}

int fgt_planted_gate(const char *root, const char *findings, const char *targets,
                     fgt_run *r)
{
    char prog[300], farg[600], carg[300];
    snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
    snprintf(farg, sizeof farg, "--findings=%s/%s", root, findings);
    snprintf(carg, sizeof carg, "--corpus=%s/no-corpus", root);
    char *argv[] = {prog, farg, carg, (char *)targets, NULL};
    return fgt_spawn(argv, NULL, r);
}

void fgt_run_free(fgt_run *r)
{
    free(r->out);
    free(r->err);
    memset(r, 0, sizeof *r);
}
