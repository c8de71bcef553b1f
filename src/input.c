/* input.c - see input.h. */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static bool starts(const unsigned char *b, size_t n, const char *magic, size_t len)
{
    return n >= len && memcmp(b, magic, len) == 0;
}

Sniff input_sniff(const unsigned char *b, size_t n)
{
    Sniff s = {SNIFF_TEXT, NULL, 0, NULL};
    /* compressed streams, by their magic numbers */
    if (starts(b, n, "\x1f\x8b", 2)) {
        s.kind = SNIFF_COMPRESSED, s.prog = "gzip", s.warn_status = 2;
        return s;
    }
    if (starts(b, n, "\xfd" "7zXZ\0", 6)) {
        s.kind = SNIFF_COMPRESSED, s.prog = "xz", s.warn_status = 2;
        return s;
    }
    if (starts(b, n, "\x28\xb5\x2f\xfd", 4)) {
        s.kind = SNIFF_COMPRESSED, s.prog = "zstd";
        return s;
    }
    if (starts(b, n, "BZh", 3) && n >= 4 && b[3] >= '1' && b[3] <= '9') {
        s.kind = SNIFF_COMPRESSED, s.prog = "bzip2";
        return s;
    }
    s.kind = SNIFF_NOT_TEXT;
    /* UTF-16: a byte order mark, or (ASCII text in UTF-16) a NUL in nearly
     * every other byte and almost none between them */
    if (starts(b, n, "\xff\xfe", 2) || starts(b, n, "\xfe\xff", 2)) {
        s.what = "UTF-16 text (a byte order mark): convert it with iconv -f UTF-16 -t UTF-8";
        return s;
    }
    size_t nul[2] = {0, 0};
    for (size_t i = 0; i < n; i++)
        nul[i & 1] += b[i] == 0;
    size_t pairs = n / 2;
    if (pairs >= 8 && ((nul[1] * 10 >= pairs * 9 && nul[0] * 10 <= pairs) ||
                       (nul[0] * 10 >= pairs * 9 && nul[1] * 10 <= pairs))) {
        s.what = "UTF-16 text: convert it with iconv -f UTF-16 -t UTF-8";
        return s;
    }
    static const struct { const char *magic; size_t len; const char *what; } bin[] = {
        {"\x7f" "ELF", 4, "an ELF executable, not PGN text"},
        {"\x89PNG\r\n\x1a\n", 8, "a PNG image, not PGN text"},
        {"\xff\xd8\xff", 3, "a JPEG image, not PGN text"},
        {"GIF8", 4, "a GIF image, not PGN text"},
        {"PK\x03\x04", 4, "a ZIP archive: extract it first (unzip)"},
        {"PK\x05\x06", 4, "a ZIP archive: extract it first (unzip)"},
        {"%PDF-", 5, "a PDF document, not PGN text"},
    };
    for (size_t k = 0; k < sizeof bin / sizeof bin[0]; k++)
        if (starts(b, n, bin[k].magic, bin[k].len)) {
            s.what = bin[k].what;
            return s;
        }
    /* Binary data: control bytes (NUL, and the others text does not use:
     * not tab, line feed, vertical tab, form feed, carriage return or
     * escape) in more than one byte in 32 of the first block, and at
     * least 8 of them.  Real PGN has none but strays (the corpus: no first
     * block has one); random bytes have about one in eleven. */
    size_t ctl = 0;
    for (size_t i = 0; i < n; i++)
        ctl += b[i] < 0x09 || (b[i] >= 0x0e && b[i] < 0x20 && b[i] != 0x1b) || b[i] == 0x7f;
    if (ctl >= 8 && ctl * 32 > n) {
        s.what = "binary data (NUL or other control bytes), not PGN text";
        return s;
    }
    s.kind = SNIFF_TEXT;
    return s;
}

/* ---- the decompressor and the thread that feeds it */

typedef struct Feed {
    int src, dst;
    unsigned char *head;
    size_t head_len;
} Feed;

static bool write_all(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

static void *feed(void *arg)
{
    Feed *f = arg;
    /* A decompressor that stops reading (a corrupt stream) must not end
     * pgncheck with SIGPIPE: here the write fails with EPIPE instead, and
     * the signal, pending for this thread alone, is taken back. */
    sigset_t pipe_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, NULL);
    bool ok = write_all(f->dst, f->head, f->head_len);
    static unsigned char buf[65536];    /* one feeder: standard input */
    while (ok) {
        ssize_t k = read(f->src, buf, sizeof buf);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        ok = write_all(f->dst, buf, (size_t)k);
    }
    if (!ok && errno == EPIPE) {
        struct timespec zero = {0, 0};
        sigtimedwait(&pipe_set, NULL, &zero);
    }
    close(f->dst);
    free(f->head);
    free(f);
    return NULL;
}

static int pipe_cloexec(int p[2])
{
    if (pipe(p) != 0)
        return errno;
    fcntl(p[0], F_SETFD, FD_CLOEXEC);
    fcntl(p[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

int input_spawn(const char *prog, int src, const unsigned char *head, size_t head_len, pid_t *pid, int *out)
{
    int op[2], ip[2] = {-1, -1}, e;
    if ((e = pipe_cloexec(op)) != 0)
        return e;
    if (head_len && (e = pipe_cloexec(ip)) != 0) {
        close(op[0]);
        close(op[1]);
        return e;
    }
    int child_in = head_len ? ip[0] : src;
    posix_spawn_file_actions_t fa;
    if ((e = posix_spawn_file_actions_init(&fa)) != 0)
        goto fail;
    if (child_in != STDIN_FILENO)
        e = posix_spawn_file_actions_adddup2(&fa, child_in, STDIN_FILENO);
    if (!e)
        e = posix_spawn_file_actions_adddup2(&fa, op[1], STDOUT_FILENO);
    /* zstd alone shows progress unless told not to */
    char name[16], opts[8];
    snprintf(name, sizeof name, "%s", prog);
    snprintf(opts, sizeof opts, "%s", strcmp(prog, "zstd") == 0 ? "-dcq" : "-dc");
    char *argv[] = {name, opts, NULL};
    if (!e)
        e = posix_spawnp(pid, prog, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e)
        goto fail;
    close(op[1]);
    *out = op[0];
    if (head_len) {
        close(ip[0]);
        Feed *f = malloc(sizeof *f);
        unsigned char *copy = malloc(head_len);
        pthread_t t;
        if (f && copy) {
            memcpy(copy, head, head_len);
            *f = (Feed){src, ip[1], copy, head_len};
            if (pthread_create(&t, NULL, feed, f) == 0) {
                pthread_detach(t);
                return 0;
            }
        }
        free(f);
        free(copy);
        close(ip[1]);
        close(op[0]);
        input_kill(*pid);
        return ENOMEM;
    }
    return 0;
fail:
    close(op[0]);
    close(op[1]);
    if (head_len) {
        close(ip[0]);
        close(ip[1]);
    }
    return e;
}

bool input_wait(pid_t pid, const char *prog, int warn_status, char *why, size_t cap)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            snprintf(why, cap, "%s -dc: %s", prog, strerror(errno));
            return false;
        }
    if (WIFEXITED(st) && (WEXITSTATUS(st) == 0 || (warn_status && WEXITSTATUS(st) == warn_status)))
        return true;
    if (WIFEXITED(st))
        snprintf(why, cap, "%s -dc failed (exit status %d): the compressed data is damaged or cut short",
                 prog, WEXITSTATUS(st));
    else
        snprintf(why, cap, "%s -dc ended by signal %d", prog, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return false;
}

void input_kill(pid_t pid)
{
    int st;
    kill(pid, SIGTERM);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
}
