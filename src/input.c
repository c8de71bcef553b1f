/* input.c - see input.h. */
#include "input.h"

#include "mem.h"
#include "names.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* What the feeding thread has given its decompressor, shared by the
 * thread and the input (each holds a reference). */
struct InputFeed {
    atomic_uint_fast64_t fed;
    atomic_int refs;
};

typedef struct Feed {
    int src, dst;
    unsigned char *head;
    size_t head_len;
    unsigned char *buf;             /* FEED_BUF bytes: each feeder its own */
    InputFeed *count;
} Feed;

#define FEED_BUF 65536

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

uint64_t input_feed_bytes(const InputFeed *f)
{
    return f ? (uint64_t)atomic_load_explicit(&f->fed, memory_order_relaxed) : 0;
}

void input_feed_release(InputFeed *f)
{
    if (f && atomic_fetch_sub_explicit(&f->refs, 1, memory_order_acq_rel) == 1)
        mem_free(f);
}

/* The feeding thread: the head, then the rest of src, into the
 * decompressor.  It owns src (the input's descriptor, handed over by
 * input_spawn) and closes it when done: the input closing it while this
 * thread still reads it would let its number go to the next file opened,
 * whose bytes would then reach this decompressor. */
static void *feed(void *arg)
{
    Feed *f = arg;
    /* Interrupts are taken by the main thread, which clears the progress
     * line (progress.c). */
    sigset_t stop_set;
    sigemptyset(&stop_set);
    sigaddset(&stop_set, SIGINT);
    sigaddset(&stop_set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_set, NULL);
    /* A decompressor that stops reading (a corrupt stream) must not end
     * pgncheck with SIGPIPE: here the write fails with EPIPE instead, and
     * the signal, pending for this thread alone, is taken back. */
    sigset_t pipe_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, NULL);
    bool ok = write_all(f->dst, f->head, f->head_len);
    while (ok) {
        ssize_t k = read(f->src, f->buf, FEED_BUF);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        ok = write_all(f->dst, f->buf, (size_t)k);
        if (ok)
            atomic_fetch_add_explicit(&f->count->fed, (uint_fast64_t)k, memory_order_relaxed);
    }
    if (!ok && errno == EPIPE) {
        struct timespec zero = {0, 0};
        sigtimedwait(&pipe_set, NULL, &zero);
    }
    close(f->dst);
    if (f->src > STDIN_FILENO)
        close(f->src);
    input_feed_release(f->count);
    mem_free(f->buf);
    mem_free(f->head);
    mem_free(f);
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

int input_spawn(const char *prog, int src, const unsigned char *head, size_t head_len, pid_t *pid, int *out,
                InputFeed **count)
{
    int op[2], ip[2] = {-1, -1}, e;
    if (count)
        *count = NULL;
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
        Feed *f = mem_alloc(sizeof *f);
        unsigned char *copy = mem_alloc(head_len), *buf = mem_alloc(FEED_BUF);
        InputFeed *c = mem_alloc(sizeof *c);
        pthread_t t;
        if (f && copy && buf && c) {
            memcpy(copy, head, head_len);
            atomic_init(&c->fed, head_len);
            atomic_init(&c->refs, 2);
            *f = (Feed){src, ip[1], copy, head_len, buf, c};
            if (pthread_create(&t, NULL, feed, f) == 0) {
                pthread_detach(t);
                if (count)
                    *count = c;
                else
                    input_feed_release(c);
                return 0;
            }
        }
        mem_free(f);
        mem_free(copy);
        mem_free(buf);
        mem_free(c);
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

/* ---- the inputs of a run */

bool input_name_is_pgn(const char *name)
{
    static const char *const ends[] = {".pgn", ".pgn.gz", ".pgn.xz", ".pgn.bz2", ".pgn.zst"};
    size_t n = strlen(name);
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
        size_t e = strlen(ends[k]);
        if (n <= e)
            continue;
        size_t i = 0;
        while (i < e && (name[n - e + i] | 0x20) == ends[k][i])
            i++;
        if (i == e)
            return true;
    }
    return false;
}

static bool list_push(InputList *l, InputItemKind kind, char *path, bool owned, int err)
{
    InputItem *v = mem_grow(l->v, &l->cap, l->n + 1, sizeof *v, SIZE_MAX / sizeof *v);
    if (!v) {
        if (owned)
            mem_free(path);
        return false;
    }
    l->v = v;
    InputItem *it = &l->v[l->n++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->path = path;
    it->owned = owned;
    it->err = err;
    struct stat st;
    if (kind == ITEM_INPUT && (strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &st) : stat(path, &st)) == 0 &&
        S_ISREG(st.st_mode)) {
        it->regular = true;
        it->size = (uint64_t)st.st_size;
    }
    return true;
}

/* A directory on the path from the argument walked. */
typedef struct DirUp {
    dev_t dev;
    ino_t ino;
    const struct DirUp *up;
} DirUp;

static int name_order(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A warning of the walk on standard error, the path as names.h shows it. */
static void walk_warning(const char *path, const char *what)
{
    char *shown = name_shown(path);
    fprintf(stderr, "pgncheck: warning: %s: %s\n", shown ? shown : "?", what);
    mem_free(shown);
}

/* Walks dir (which the walk then owns when owned: it is kept as a failed
 * directory's name, or freed). */
static bool walk(InputList *l, char *dir, bool owned, bool implied, const DirUp *up)
{
    DIR *d = opendir(dir);
    if (!d)
        return list_push(l, ITEM_FAILED, dir, owned, errno);
    /* the names first, sorted, and the directory closed before going down:
     * one descriptor at a time however deep the tree */
    char **names = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    struct dirent *e;
    while (ok && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char **v = mem_grow(names, &cap, n + 1, sizeof *v, SIZE_MAX / sizeof *v);
        if (!v) {
            ok = false;
            break;
        }
        names = v;
        if (!(names[n] = mem_strdup(e->d_name)))
            ok = false;
        else
            n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, name_order);
    size_t dlen = strlen(dir);
    bool slash = dlen > 0 && dir[dlen - 1] == '/';
    for (size_t i = 0; i < n && ok; i++) {
        size_t len = implied ? strlen(names[i]) : dlen + !slash + strlen(names[i]);
        char *path = mem_alloc(len + 1);
        if (!path) {
            ok = false;
            break;
        }
        if (implied)
            memcpy(path, names[i], len + 1);
        else
            snprintf(path, len + 1, "%s%s%s", dir, slash ? "" : "/", names[i]);
        struct stat st;
        int serr = stat(path, &st) == 0 ? 0 : errno;
        if (!serr && S_ISDIR(st.st_mode)) {
            const DirUp *a = up;
            while (a && !(a->dev == st.st_dev && a->ino == st.st_ino))
                a = a->up;
            if (a) {
                walk_warning(path, "recursive directory loop (not followed)");
                mem_free(path);
                continue;
            }
            DirUp here = {st.st_dev, st.st_ino, up};
            ok = walk(l, path, true, false, &here);
            continue;
        }
        if (serr && serr != ENOENT) {
            /* (a name too long, no permission, a link loop, an I/O error:
             * it may be a directory, never dropped without a word) */
            ok = list_push(l, ITEM_FAILED, path, true, serr);
        } else if (!input_name_is_pgn(names[i])) {
            mem_free(path);
        } else if (!serr && !S_ISREG(st.st_mode)) {
            /* a FIFO, a device or a socket: not read in a walk (a FIFO
             * with no writer would wait for ever), as grep -r does, but
             * said; named as an argument it is read */
            walk_warning(path, S_ISFIFO(st.st_mode) ? "a FIFO, not a regular file: not read (name it to read it)"
                                                    : "not a regular file: not read (name it to read it)");
            mem_free(path);
        } else {
            /* a file, or a name that stat cannot follow (a dangling
             * link): opening it says what is wrong */
            ok = list_push(l, ITEM_INPUT, path, true, 0);
        }
    }
    for (size_t i = 0; i < n; i++)
        mem_free(names[i]);
    mem_free(names);
    if (owned)
        mem_free(dir);
    return ok;
}

bool input_list_add(InputList *l, char *arg, bool recursive, bool implied)
{
    struct stat st;
    if (recursive && strcmp(arg, "-") != 0 && stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
        DirUp top = {st.st_dev, st.st_ino, NULL};
        size_t before = l->n;
        if (!walk(l, arg, false, implied, &top))
            return false;
        return l->n > before || list_push(l, ITEM_NO_PGN, arg, false, 0);
    }
    return list_push(l, ITEM_INPUT, arg, false, 0);
}

void input_list_free(InputList *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i].owned)
            mem_free(l->v[i].path);
    mem_free(l->v);
    memset(l, 0, sizeof *l);
}

/* ---------------------------------------------------------------- an input being read */

/* read(2), or pread(2) at *off (which it advances) when off is not NULL;
 * retried on EINTR.  -1 with *err set on an error. */
long input_read_retry(int fd, char *buf, size_t cap, uint64_t *off, int *err)
{
    for (;;) {
        ssize_t k = off ? pread(fd, buf, cap, (off_t)*off) : read(fd, buf, cap);
        if (k >= 0) {
            if (off)
                *off += (uint64_t)k;
            return (long)k;
        }
        if (errno != EINTR) {
            *err = errno;
            return -1;
        }
    }
}

/* Reads the input's descriptor; at a decompressor's end, its failure is a
 * read error. */
static long input_fd_read(Input *in, char *buf, size_t cap)
{
    if (in->sniff_err) {
        errno = in->err = in->sniff_err;
        in->sniff_err = 0;
        return -1;
    }
    long k = input_read_retry(in->fd, buf, cap, NULL, &in->err);
    if (k == 0 && in->child > 0) {
        bool ok = input_wait(in->child, in->prog, in->warn_status, in->why, sizeof in->why);
        in->child = 0;
        if (!ok) {
            errno = in->err = EIO;
            return -1;
        }
    }
    return k;
}

long input_read(void *ctx, char *buf, size_t cap)
{
    Input *in = ctx;
    if (in->pend_len) {
        /* bytes a pipe's first look took (pieces_pipe), counted then;
         * pend_off counts those already given (they start at pend[0]) */
        size_t n = in->pend_len < cap ? in->pend_len : cap;
        memcpy(buf, in->pend + (size_t)in->pend_off, n);
        in->pend_off += n;
        in->pend_len -= n;
        return (long)n;
    }
    long k = input_fd_read(in, buf, cap);
    if (k > 0)
        in->bytes += (uint64_t)k;
    return k;
}

/* A compressed input's first bytes after decompression are judged as
 * an input's are (zeros, an executable, UTF-16 compressed): they wait in
 * in->pend, as a pipe's do; anything but text is refused at once (the
 * decompressor is ended by input_close), so a bomb of zeros is not
 * decompressed further. */
static void sniff_decompressed(Input *in)
{
    if (!in->pend && !(in->pend = mem_alloc(INPUT_SNIFF))) {
        in->err = ENOMEM;
        return;
    }
    if (in->pend_cap < INPUT_SNIFF)
        in->pend_cap = INPUT_SNIFF;
    size_t n = 0;
    while (n < INPUT_SNIFF) {
        long k = input_fd_read(in, (char *)in->pend + n, INPUT_SNIFF - n);
        if (k < 0) {
            /* (a decompressor that failed early: the reading reports it
             * after the bytes before, as it would have without this look) */
            in->sniff_err = in->err;
            in->err = 0;
            break;
        }
        if (k == 0)
            break;
        n += (size_t)k;
    }
    in->pend_off = 0;
    in->pend_len = n;
    in->bytes = n;
    Sniff s = input_sniff(in->pend, n);
    if (s.kind == SNIFF_TEXT)
        return;
    in->err = EILSEQ;
    in->pend_len = 0;
    snprintf(in->why, sizeof in->why, "%s-compressed %s", in->prog,
             s.kind == SNIFF_COMPRESSED ? "data that is compressed again: decompress it first" : s.what);
}

/* Looks at the input's first bytes: text is read as it is (a pipe's bytes
 * looked at wait in in->pend, as pieces_pipe's do), a compressed stream
 * through its decompressor, and anything else is refused (in->err). */
static void input_sniff_open(Input *in)
{
    unsigned char head[INPUT_SNIFF];
    const unsigned char *b = head;
    size_t n = 0;
    bool piped = false;
    if (in->regular) {
        off_t at = lseek(in->fd, 0, SEEK_CUR);
        uint64_t off = at > 0 ? (uint64_t)at : 0;
        in->origin = off;
        int e = 0;
        while (n < sizeof head) {
            long k = input_read_retry(in->fd, (char *)head + n, sizeof head - n, &off, &e);
            if (k <= 0)
                break;          /* an error: the reading reports it */
            n += (size_t)k;
        }
    } else if (!isatty(in->fd)) {
        /* (a terminal is typed at: not looked at) */
        piped = true;
        if (!(in->pend = mem_alloc(INPUT_SNIFF))) {
            in->err = ENOMEM;
            return;
        }
        in->pend_cap = INPUT_SNIFF;
        while (n < INPUT_SNIFF) {
            long k = input_read_retry(in->fd, (char *)in->pend + n, INPUT_SNIFF - n, NULL, &in->err);
            if (k < 0)
                return;
            if (k == 0)
                break;
            n += (size_t)k;
        }
        in->pend_len = n;
        in->bytes = n;
        b = in->pend;
    }
    Sniff s = input_sniff(b, n);
    if (s.kind == SNIFF_NOT_TEXT) {
        in->err = EILSEQ;
        snprintf(in->why, sizeof in->why, "%s", s.what);
    } else if (s.kind == SNIFF_COMPRESSED) {
        int out;
        pid_t pid;
        /* (a pipe's descriptor goes to the feeding thread, which closes it) */
        int e = input_spawn(s.prog, in->fd, piped ? b : NULL, piped ? n : 0, &pid, &out, &in->feed);
        if (e) {
            in->err = e;
            snprintf(in->why, sizeof in->why, "%s-compressed, but %s could not be started: %s%s", s.prog, s.prog,
                     strerror(e), e == ENOENT ? " (install it, or decompress the file first)" : "");
            return;
        }
        /* The decompressor (or its feeder) reads the file; a regular
         * one is kept open here to see how far it has read (progress:
         * compressed bytes), as it shares this descriptor's offset. */
        in->compressed = true;
        in->zfd = -1;
        if (!piped) {
            off_t at = lseek(in->fd, 0, SEEK_CUR);
            in->zfd = in->fd;
            in->zstart = at > 0 ? (uint64_t)at : 0;
        }
        in->fd = out;
        in->child = pid;
        in->prog = s.prog;
        in->warn_status = s.warn_status;
        in->regular = false;
        in->size = 0;
        in->pend_len = 0;
        in->bytes = 0;
        sniff_decompressed(in);
    }
}

Input *input_open(const char *path, const char *label)
{
    Input *in = mem_calloc(1, sizeof *in);
    if (!in)
        return NULL;
    in->fd = -1;
    in->zfd = -1;
    in->name = strcmp(path, "-") == 0 ? label : path;
    if (!(in->shown = name_shown(in->name))) {
        mem_free(in);
        return NULL;
    }
    if (strcmp(path, "-") == 0) {
        in->fd = STDIN_FILENO;
    } else {
        in->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (in->fd < 0) {
            in->err = errno;
            in->open_failed = true;
            return in;
        }
    }
    struct stat st;
    if (fstat(in->fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            /* (as grep says it; -r walks a directory named, never opens it) */
            in->err = EISDIR;
            in->open_failed = true;
            snprintf(in->why, sizeof in->why, "%s (-r checks the PGN files in it)", strerror(EISDIR));
            return in;
        }
        in->regular = S_ISREG(st.st_mode);
        in->size = in->regular ? (uint64_t)st.st_size : 0;
        in->psize = in->size;
        in->mtime = st.st_mtim;
    }
    input_sniff_open(in);
    return in;
}

/* A directory the walk (-r) could not read: an input that failed to open
 * (or, err 0, one that held no PGN file). */
Input *input_failed(const char *path, int err)
{
    Input *in = mem_calloc(1, sizeof *in);
    if (!in)
        return NULL;
    in->fd = -1;
    in->zfd = -1;
    in->name = path;
    if (!(in->shown = name_shown(in->name))) {
        mem_free(in);
        return NULL;
    }
    in->err = err;
    in->open_failed = true;
    return in;
}

void input_close(Input *in)
{
    if (!in)
        return;
    if (in->fd > STDIN_FILENO)
        close(in->fd);
    if (in->zfd > STDIN_FILENO)
        close(in->zfd);
    if (in->child > 0)
        input_kill(in->child);  /* not read to its end (a stop) */
    input_feed_release(in->feed);
    mem_free(in->shown);
    mem_free(in->pend);
    mem_free(in);
}

bool input_changed(const Input *in, char *why, size_t cap)
{
    int fd = in->zfd >= 0 ? in->zfd : in->regular ? in->fd : -1;
    struct stat st;
    if (fd < 0 || !in->psize || fstat(fd, &st) != 0)
        return false;
    if ((uint64_t)st.st_size == in->psize && st.st_mtim.tv_sec == in->mtime.tv_sec &&
        st.st_mtim.tv_nsec == in->mtime.tv_nsec)
        return false;
    snprintf(why, cap, "the file changed while it was read (%llu bytes when opened, %llu now): what was checked "
                       "may not be the file",
             (unsigned long long)in->psize, (unsigned long long)st.st_size);
    return true;
}

/* How far the input has been read, as progress counts it: a compressed
 * input's compressed bytes (how far its decompressor has read). */
uint64_t input_pos(const Input *in)
{
    if (!in->compressed)
        return in->bytes;
    if (in->zfd < 0)
        return input_feed_bytes(in->feed);
    off_t at = lseek(in->zfd, 0, SEEK_CUR);
    return at > 0 && (uint64_t)at > in->zstart ? (uint64_t)at - in->zstart : 0;
}

/* An input's bytes once it is done: as on disk where that is known. */
uint64_t input_done_bytes(const Input *in)
{
    return in->psize ? in->psize : input_pos(in);
}

/* Bytes of a regular input at off (counted from where its reading
 * began), up to n; -1 on an error (errno). */
long input_pread(void *ctx, char *buf, size_t n, uint64_t off)
{
    const Input *in = ctx;
    uint64_t at = in->origin + off;
    size_t got = 0;
    int err = 0;
    while (got < n) {
        long k = input_read_retry(in->fd, buf + got, n - got, &at, &err);
        if (k < 0) {
            errno = err;
            return -1;
        }
        if (k == 0)
            break;
        got += (size_t)k;
    }
    return (long)got;
}

/* Reads more of the pipe into in->pend; false at its end or on an error
 * (in->err). */
bool input_pend_more(Input *in)
{
    if (in->pend_eof)
        return false;
    if (in->pend_cap - in->pend_len < INPUT_PEND_READ) {
        size_t cap = in->pend_cap ? in->pend_cap * 2 : 2 * INPUT_PEND_READ;
        while (cap - in->pend_len < INPUT_PEND_READ)
            cap *= 2;
        unsigned char *p = mem_realloc(in->pend, cap, 1);
        if (!p) {
            in->err = ENOMEM;
            in->pend_eof = true;
            return false;
        }
        in->pend = p;
        in->pend_cap = cap;
    }
    long k = input_fd_read(in, (char *)in->pend + in->pend_len, INPUT_PEND_READ);
    if (k <= 0) {
        in->pend_eof = true;
        return false;
    }
    in->pend_len += (size_t)k;
    in->bytes += (uint64_t)k;
    return true;
}

/* Drops the pending bytes before offset upto. */
void input_pend_drop(Input *in, uint64_t upto)
{
    if (upto <= in->pend_off)
        return;
    size_t n = upto - in->pend_off < in->pend_len ? (size_t)(upto - in->pend_off) : in->pend_len;
    memmove(in->pend, in->pend + n, in->pend_len - n);
    in->pend_len -= n;
    in->pend_off += n;
}

long input_read_fd(void *ctx, char *buf, size_t cap)
{
    int fd = *(const int *)ctx;
    ssize_t n = read(fd, buf, cap);
    return (long)n;
}
