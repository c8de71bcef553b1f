/* input.h - what an input file holds, judged by its first bytes, the
 * system decompressor that reads a compressed one, and the bytes of an
 * input being read. */
#ifndef PGNCHECK_INPUT_H
#define PGNCHECK_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/* Bytes looked at before the first is read as PGN. */
#define INPUT_SNIFF 4096

typedef enum { SNIFF_TEXT, SNIFF_COMPRESSED, SNIFF_NOT_TEXT } SniffKind;

typedef struct Sniff {
    SniffKind kind;
    const char *prog;           /* SNIFF_COMPRESSED: the decompressor, run as "prog -dc" */
    int warn_status;            /* its exit status that means a warning only, 0 if none */
    const char *what;           /* SNIFF_NOT_TEXT: what was found, said to the user */
} Sniff;

/* Judges the first n bytes of an input (all of it when shorter than
 * INPUT_SNIFF): text, a compressed stream, or not PGN text. */
Sniff input_sniff(const unsigned char *b, size_t n);

/* What a feeding thread has given its decompressor so far (the head
 * among it): the compressed bytes read of a pipe. */
typedef struct InputFeed InputFeed;
uint64_t input_feed_bytes(const InputFeed *f);
/* Gives up the caller's reference (NULL: nothing). */
void input_feed_release(InputFeed *f);

/* Starts prog -dc with posix_spawnp (no shell), its standard output a pipe
 * whose read end goes to *out.  Its standard input is src, or, when head_len
 * is not 0, a pipe that a detached thread fills with the head_len bytes at
 * head (already read from src) and then the rest of src; that thread then
 * owns src and closes it at its end (unless it is standard input), and
 * *count (if not NULL) gets a reference to its count of bytes fed.  0, or an
 * errno (ENOENT: the program is not installed). */
int input_spawn(const char *prog, int src, const unsigned char *head, size_t head_len, pid_t *pid, int *out,
                InputFeed **count);

/* Waits for the decompressor; false, with a message in why, when it failed. */
bool input_wait(pid_t pid, const char *prog, int warn_status, char *why, size_t cap);

/* Ends a decompressor not read to its end and waits for it. */
void input_kill(pid_t pid);

/* ---- the inputs of a run: the arguments, with -r the files found in
 * the directories among them */

typedef enum {
    ITEM_INPUT,                 /* a file or standard input, to be checked */
    ITEM_FAILED,                /* a directory the walk could not read */
    ITEM_NO_PGN,                /* a directory walked that holds no PGN file */
} InputItemKind;

typedef struct InputItem {
    InputItemKind kind;
    char *path;                 /* as reported; "-" is standard input */
    bool owned;                 /* path was allocated (a file found by the walk) */
    int err;                    /* ITEM_FAILED: errno of the directory */
    bool regular;               /* a regular file when listed */
    uint64_t size;              /* its size then (as on disk: compressed or not) */
} InputItem;

typedef struct InputList {
    InputItem *v;
    size_t n, cap;
} InputList;

/* Does a name found by the walk name a PGN file: *.pgn, *.pgn.gz,
 * *.pgn.xz, *.pgn.bz2 or *.pgn.zst, in any case? */
bool input_name_is_pgn(const char *name);

/* Adds the input arg names.  With recursive, a directory (or a symbolic
 * link to one) is walked instead: its entries in byte order of name, each
 * directory's where its name sorts, every file whose name
 * input_name_is_pgn (its content is then judged by its first bytes, as any
 * input's), following symbolic links but not into a directory already on
 * the path from arg (a loop: a warning on standard error); a directory
 * with none is an ITEM_NO_PGN.  implied: arg
 * is the "." that -r checks when no FILE is given, left out of the names.
 * False when out of memory. */
bool input_list_add(InputList *l, char *arg, bool recursive, bool implied);

void input_list_free(InputList *l);

/* ---- an input being read: a file, standard input, or a decompressor's
 * output; its bytes, and for -jN the state of its pieces */

struct PgnReader;

/* How the run reads an input: not at all (it failed, or it is a directory
 * with no PGN file), whole by one reader on the main thread, or with -jN
 * in pieces (a regular file) or in segments (a pipe). */
typedef enum InputMode { INPUT_UNREAD = 0, INPUT_WHOLE, INPUT_PIECES, INPUT_SEGMENTS } InputMode;

typedef struct Input {
    const char *name;           /* as given (JSON Lines reports it so) */
    char *shown;                /* as shown in text (names.h) */
    int fd;
    int err;                    /* errno of a failed open or read, 0 if none */
    bool open_failed;           /* err is open(2)'s (or the input is a directory) */
    uint64_t ngames;            /* games of it output so far */
    bool no_pgn;                /* a directory walked (-r) with no PGN file in it */
    bool regular;
    uint64_t size;              /* regular files: bytes in the file */
    uint64_t origin;            /* regular files: the offset reading began at */
    uint64_t bytes;             /* bytes read so far */
    InputMode mode;             /* set by the run */
    struct PgnReader *reader;   /* INPUT_WHOLE: its reader, freed by the run */
    /* INPUT_PIECES, INPUT_SEGMENTS: kept by the output side (pieces.h). */
    bool ended;                 /* the input's end (or a read error) was output */
    uint64_t expect;            /* offset where the next piece's games must start */
    uint32_t expect_col;        /* its column (PgnOptions.column) */
    bool expect_tok;            /* and PgnOptions.line_tok there */
    uint64_t line_base;         /* the line of that offset */
    uint64_t index_base;        /* games of this input output so far */
    /* A pipe read in segments (-jN): its bytes not yet handed to a segment,
     * [pend_off, pend_off + pend_len), and whether it has ended. */
    unsigned char *pend;
    size_t pend_len, pend_cap;
    uint64_t pend_off;
    bool pend_eof;
    /* Bytes before gap_end are not all kept any more: a stretch read again
     * that ran far past the segments dropped them (stream_read). */
    uint64_t gap_end;
    /* A compressed input: fd reads its decompressor's output. */
    bool compressed;
    int zfd;                    /* the compressed file, read by the decompressor from
                                 * the same offset (progress), or -1 (a pipe) */
    uint64_t zstart;            /* its offset when the decompressor began */
    uint64_t psize;             /* progress: bytes of the input on disk (a regular
                                 * file, compressed or not), 0 if not known */
    struct timespec mtime;      /* and its time of change then */
    pid_t child;                /* the decompressor, 0 once waited for */
    InputFeed *feed;            /* a pipe's: what its feeding thread has given it */
    int sniff_err;              /* a read error met by the first look after
                                 * decompression, given after its bytes */
    const char *prog;
    int warn_status;
    char why[160];              /* said instead of strerror(err) when set */
} Input;

/* Opens path ("-": standard input, reported as label) and looks at its
 * first bytes: text is read as it is, a compressed stream through its
 * decompressor, anything else is refused (err, why).  A failed open is an
 * input with err set; NULL when out of memory. */
Input *input_open(const char *path, const char *label);

/* A directory the walk (-r) could not read: an input that failed to open
 * (or, err 0, one that held no PGN file).  NULL when out of memory. */
Input *input_failed(const char *path, int err);

/* Has a regular input (compressed or not) changed since it was opened
 * (its size or its time of change)?  Then true, with what was found in
 * why: a file written or cut while it was read. */
bool input_changed(const Input *in, char *why, size_t cap);

/* Closes the input (its reader is freed by its user first) and ends a
 * decompressor not read to its end. */
void input_close(Input *in);

/* read(2), or pread(2) at *off (which it advances) when off is not NULL;
 * retried on EINTR.  -1 with *err set on an error. */
long input_read_retry(int fd, char *buf, size_t cap, uint64_t *off, int *err);

/* A PgnReader's source (ctx: the Input): the bytes a pipe's first look
 * took, then the descriptor; 0 at the end, -1 on an error (in->err). */
long input_read(void *ctx, char *buf, size_t cap);

/* Bytes of a regular input at off (counted from where its reading
 * began), up to n; -1 on an error (errno).  ctx: the Input. */
long input_pread(void *ctx, char *buf, size_t n, uint64_t off);

/* How far the input has been read, as progress counts it: a compressed
 * input's compressed bytes (how far its decompressor has read). */
uint64_t input_pos(const Input *in);

/* An input's bytes once it is done: as on disk where that is known. */
uint64_t input_done_bytes(const Input *in);

#define INPUT_PEND_READ (256u << 10)    /* bytes read from a pipe at once into pend */

/* Reads up to INPUT_PEND_READ more of the pipe into in->pend; false at
 * its end or on an error (in->err; ENOMEM when out of memory). */
bool input_pend_more(Input *in);

/* Drops the pending bytes before offset upto. */
void input_pend_drop(Input *in, uint64_t upto);

/* A byte source for pgn_reader_new (PgnReadFn): a file descriptor read
 * with read(2); ctx points to an int holding the descriptor. */
long input_read_fd(void *ctx, char *buf, size_t cap);

#endif
