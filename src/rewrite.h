/* rewrite.h - a file replaced whole and safely (--in-place, and the
 * baseline written): a temporary file in the target's own directory,
 * written, fsync'd, given the target's mode and owner, then renamed over
 * it.  Until the rename the target is untouched; on any failure, or a
 * signal, the temporary file is removed and the target stays as it was. */
#ifndef PGNCHECK_REWRITE_H
#define PGNCHECK_REWRITE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct Rewrite Rewrite;

/* Starts replacing path (a symbolic link: the file it names, which keeps
 * the link).  keep_meta: the new file takes the old one's mode and owner
 * (path must exist).  NULL on failure, with why filled ("cannot create a
 * temporary file in DIR: Permission denied"). */
Rewrite *rewrite_begin(const char *path, bool keep_meta, char *why, size_t cap)
    __attribute__((warn_unused_result));

/* Where the new content goes. */
FILE *rewrite_file(Rewrite *rw);

/* Flushes, fsyncs and renames the temporary file over the target; false,
 * with why, if any write failed (ENOSPC, EFBIG, EIO...) or the rename did
 * (the temporary file is removed, the target left as it was).  Frees rw. */
bool rewrite_commit(Rewrite *rw, char *why, size_t cap) __attribute__((warn_unused_result));

/* Removes the temporary file; the target stays as it was.  Frees rw. */
void rewrite_abort(Rewrite *rw);

/* A fatal signal (SIGINT, SIGTERM, SIGHUP) removes the temporary file of
 * the rewrite under way before the process ends; SIGXFSZ (ulimit -f) is
 * ignored, so that a write past the limit fails (EFBIG) and is reported. */
void rewrite_catch_signals(void);

#endif
