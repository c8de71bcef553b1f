/* rewrite.c - a file replaced whole and safely (rewrite.h). */
#include "rewrite.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mem.h"

struct Rewrite {
    FILE *f;
    char *target;               /* the file replaced (a link resolved) */
    char *tmp;                  /* the temporary file beside it */
};

/* The temporary file of the rewrite under way, for the signal handler. */
static char sig_tmp[PATH_MAX + 64];
static volatile sig_atomic_t sig_tmp_set;
static struct sigaction sig_old[3];
static const int sig_list[3] = {SIGINT, SIGTERM, SIGHUP};

static void say(char *why, size_t cap, const char *what, const char *name, int err)
{
    snprintf(why, cap, "%s %s: %s", what, name, strerror(err));
}

/* The file path names: a symbolic link is followed (each link in turn,
 * a relative one from its own directory) to the file it names, which is
 * rewritten there, so the link stays a link and what it names changes;
 * a name that does not exist yet (a baseline written the first time) is
 * taken as it is.  NULL when out of memory or past 40 links (ELOOP). */
static char *resolve(const char *path)
{
    char *p = mem_strdup(path);
    for (int hops = 0; p && hops < 40; hops++) {
        struct stat st;
        if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode))
            return p;
        char link[PATH_MAX];
        ssize_t n = readlink(p, link, sizeof link - 1);
        if (n < 0) {
            return p;
        }
        link[n] = '\0';
        const char *slash = strrchr(p, '/');
        size_t dlen = link[0] != '/' && slash ? (size_t)(slash - p) + 1 : 0;
        char *q = mem_alloc(dlen + (size_t)n + 1);
        if (q) {
            memcpy(q, p, dlen);
            memcpy(q + dlen, link, (size_t)n + 1);
        }
        mem_free(p);
        p = q;
    }
    mem_free(p);
    errno = ELOOP;
    return NULL;
}

/* (a new file's mode as open(2) with 0666 would give it) */
static mode_t umask_now(void)
{
    mode_t m = umask(022);
    umask(m);
    return m;
}

Rewrite *rewrite_begin(const char *path, bool keep_meta, char *why, size_t cap)
{
    Rewrite *rw = mem_calloc(1, sizeof *rw);
    if (!rw || !(rw->target = resolve(path))) {
        say(why, cap, "cannot rewrite", path, rw ? errno : ENOMEM);
        goto fail;
    }
    struct stat st;
    bool exists = stat(rw->target, &st) == 0;
    if (keep_meta && !exists) {
        say(why, cap, "cannot rewrite", path, errno);
        goto fail;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        snprintf(why, cap, "cannot rewrite %s: not a regular file", path);
        goto fail;
    }
    /* DIR/.NAME.pgncheck-XXXXXX: the same directory, so rename(2) is atomic */
    const char *slash = strrchr(rw->target, '/');
    size_t dlen = slash ? (size_t)(slash - rw->target) + 1 : 0;
    size_t n = strlen(rw->target) + 32;
    if (!(rw->tmp = mem_calloc(n, 1))) {
        snprintf(why, cap, "out of memory");
        goto fail;
    }
    snprintf(rw->tmp, n, "%.*s.%s.pgncheck-XXXXXX", (int)dlen, rw->target, rw->target + dlen);
    int fd = mkstemp(rw->tmp);
    if (fd < 0) {
        int e = errno;
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", dlen ? (int)dlen : 1, dlen ? rw->target : ".");
        say(why, cap, "cannot create a temporary file in", dir, e);
        mem_free(rw->tmp);
        rw->tmp = NULL;
        goto fail;
    }
    if (strlen(rw->tmp) < sizeof sig_tmp) {
        memcpy(sig_tmp, rw->tmp, strlen(rw->tmp) + 1);
        sig_tmp_set = 1;
    }
    if (exists && keep_meta) {
        /* the old file's mode, owner and group (an owner we cannot give
         * it back is a failure, not a silent change) */
        if (fchmod(fd, st.st_mode & 07777) != 0 ||
            (fchown(fd, st.st_uid, st.st_gid) != 0 && (st.st_uid != geteuid() || st.st_gid != getegid()))) {
            say(why, cap, "cannot keep the mode and owner of", path, errno);
            close(fd);
            goto fail;
        }
    } else if (fchmod(fd, 0666 & ~umask_now()) != 0) {
        say(why, cap, "cannot set the mode of", rw->tmp, errno);
        close(fd);
        goto fail;
    }
    if (!(rw->f = fdopen(fd, "w"))) {
        say(why, cap, "cannot write", rw->tmp, errno);
        close(fd);
        goto fail;
    }
    return rw;
fail:
    rewrite_abort(rw);
    return NULL;
}

FILE *rewrite_file(Rewrite *rw)
{
    return rw->f;
}

static void rewrite_free(Rewrite *rw)
{
    sig_tmp_set = 0;
    mem_free(rw->target);
    mem_free(rw->tmp);
    mem_free(rw);
}

void rewrite_abort(Rewrite *rw)
{
    if (!rw)
        return;
    if (rw->f)
        fclose(rw->f);
    if (rw->tmp)
        unlink(rw->tmp);
    rewrite_free(rw);
}

bool rewrite_commit(Rewrite *rw, char *why, size_t cap)
{
    int e = 0;
    if (fflush(rw->f) != 0 || ferror(rw->f))
        e = errno ? errno : EIO;
    else if (fsync(fileno(rw->f)) != 0)
        e = errno;
    if (fclose(rw->f) != 0 && !e)
        e = errno;
    rw->f = NULL;
    if (e) {
        say(why, cap, "cannot write the new", rw->target, e);
        rewrite_abort(rw);
        return false;
    }
    if (rename(rw->tmp, rw->target) != 0) {
        say(why, cap, "cannot rename the new file to", rw->target, errno);
        rewrite_abort(rw);
        return false;
    }
    /* the rename itself made durable: the directory's entry */
    const char *slash = strrchr(rw->target, '/');
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - rw->target) + 1 : 1, slash ? rw->target : ".");
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    rewrite_free(rw);
    return true;
}

/* Removes the temporary file (unlink(2) is async-signal-safe), then lets
 * the signal do what it did before: the progress line's handler, or the
 * default, which ends the process. */
static void on_fatal_signal(int sig)
{
    if (sig_tmp_set)
        unlink(sig_tmp);
    for (int k = 0; k < 3; k++)
        if (sig_list[k] == sig)
            sigaction(sig, &sig_old[k], NULL);
    raise(sig);
}

void rewrite_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (int k = 0; k < 3; k++)
        if (sigaction(sig_list[k], NULL, &sig_old[k]) == 0 && sig_old[k].sa_handler != SIG_IGN)
            sigaction(sig_list[k], &sa, NULL);
    signal(SIGXFSZ, SIG_IGN);
}
