/* input.h - what an input file holds, judged by its first bytes, and the
 * system decompressor that reads a compressed one. */
#ifndef PGNCHECK_INPUT_H
#define PGNCHECK_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

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

/* Starts prog -dc with posix_spawnp (no shell), its standard output a pipe
 * whose read end goes to *out.  Its standard input is src, or, when head_len
 * is not 0, a pipe that a detached thread fills with the head_len bytes at
 * head (already read from src) and then the rest of src.  0, or an errno
 * (ENOENT: the program is not installed). */
int input_spawn(const char *prog, int src, const unsigned char *head, size_t head_len, pid_t *pid, int *out);

/* Waits for the decompressor; false, with a message in why, when it failed. */
bool input_wait(pid_t pid, const char *prog, int warn_status, char *why, size_t cap);

/* Ends a decompressor not read to its end and waits for it. */
void input_kill(pid_t pid);

/* Bytes the feeding thread of the last input_spawn with head bytes (a
 * compressed pipe: there is one, standard input) has given its
 * decompressor so far, the head among them: the compressed bytes read. */
uint64_t input_fed(void);

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

#endif
