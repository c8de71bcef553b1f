/* progress.c - the progress line on standard error (progress.h). */
#include "progress.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROG "pgncheck"

/* The width of the progress line on screen, for the signal handler that
 * clears it (0: none shown). */
static volatile sig_atomic_t progress_cols;

double progress_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool progress_due(Progress *p, bool force)
{
    if (!p->on)
        return false;
    double t = progress_now();
    if (!force && t - p->last < 0.25)
        return false;
    p->last = t;
    return true;
}

void progress_clear(Progress *p)
{
    if (!p->shown)
        return;
    fprintf(stderr, "\r%*s\r", (int)p->width, "");
    fflush(stderr);
    p->shown = false;
    progress_cols = 0;
}

/* Ctrl-C (or a kill) while the progress line is shown: the line is
 * cleared, with write(2) alone (async-signal-safe), and the signal, its
 * handler reset (SA_RESETHAND), ends the process once this returns. */
static void on_stop_signal(int sig)
{
    static const char spaces[33] = "                                ";
    int w = progress_cols;
    if (w > 0) {
        ssize_t r = write(STDERR_FILENO, "\r", 1);
        while (w > 0 && r >= 0) {
            int k = w < 32 ? w : 32;
            r = write(STDERR_FILENO, spaces, (size_t)k);
            w -= k;
        }
        r = write(STDERR_FILENO, "\r", 1);
        (void)r;
    }
    raise(sig);
}

/* (not when ignored: nohup, a background job of a shell without job
 * control) */
void progress_catch_signals(void)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    const int sigs[] = {SIGINT, SIGTERM};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++)
        if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sigs[k], &sa, NULL);
}

/* The handler then never runs while a worker could write. */
void progress_block_signals(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/* A file name for the progress line: 24 bytes at most, "..." and its
 * end where it is longer (the file's own name is at the end), controls as
 * '?'. */
#define PROGRESS_NAME 24
static void progress_name(char *out, const char *name)
{
    size_t n = strlen(name), from = 0, k = 0;
    if (n > PROGRESS_NAME) {
        from = n - (PROGRESS_NAME - 3);
        while (from < n && ((unsigned char)name[from] & 0xC0) == 0x80)
            from++;             /* not inside a UTF-8 character */
        memcpy(out, "...", 3);
        k = 3;
    }
    for (size_t i = from; i < n; i++)
        out[k++] = (unsigned char)name[i] < 0x20 || name[i] == 0x7f ? '?' : name[i];
    out[k] = '\0';
}

void progress_draw(Progress *p, const ProgressAt *at)
{
    double el = p->last - p->t0;
    uint64_t bytes = at->bytes;
    char line[200];
    int n;
    double frac = -1;
    if (at->ninputs > 1) {
        /* several inputs: which is read, and the bytes of them all */
        char name[PROGRESS_NAME + 1];
        progress_name(name, at->name);
        if (at->total_known && at->total) {
            n = snprintf(line, sizeof line, PROG ": [%zu/%zu] %s: %.1f/%.1f MB", at->reading, at->ninputs, name,
                         (double)bytes / 1e6, (double)at->total / 1e6);
            frac = (double)bytes / (double)at->total;
        } else {
            n = snprintf(line, sizeof line, PROG ": [%zu/%zu] %s: %.1f MB", at->reading, at->ninputs, name,
                         (double)bytes / 1e6);
        }
    } else {
        n = snprintf(line, sizeof line, PROG ": %.1f MB", (double)bytes / 1e6);
        if (at->psize)
            frac = (double)at->here / (double)at->psize;
    }
    if (n > 0 && (size_t)n < sizeof line) {
        /* (with a name the line drops games/s: it stays within 80 columns,
         * where a "\r" can take it back) */
        int m = at->ninputs > 1
                    ? snprintf(line + n, sizeof line - (size_t)n, ", %llu games", (unsigned long long)at->games)
                    : snprintf(line + n, sizeof line - (size_t)n, ", %llu games, %.0f games/s",
                               (unsigned long long)at->games, el > 0 ? (double)at->games / el : 0.0);
        if (m > 0)
            n += m;
    }
    if (frac >= 0 && n > 0 && (size_t)n < sizeof line) {
        if (frac > 1)
            frac = 1;
        int m = snprintf(line + n, sizeof line - (size_t)n, ", %.0f%%", frac * 100);
        if (m > 0)
            n += m;
        if (frac > 0.01 && (size_t)n < sizeof line) {
            unsigned long eta = (unsigned long)(el * (1 - frac) / frac + 0.5);
            m = snprintf(line + n, sizeof line - (size_t)n, ", ETA %lu:%02lu", eta / 60, eta % 60);
            if (m > 0)
                n += m;
        }
    }
    if (n < 0)
        return;
    size_t len = strlen(line);
    size_t width = len > p->width ? len : p->width;
    progress_cols = (sig_atomic_t)width;    /* before the line is written */
    fprintf(stderr, "\r%s", line);
    if (p->shown && p->width > len)
        fprintf(stderr, "%*s", (int)(p->width - len), "");
    fflush(stderr);
    p->shown = true;
    p->width = width;
}
