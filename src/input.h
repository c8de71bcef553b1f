/* input.h - what an input file holds, judged by its first bytes, and the
 * system decompressor that reads a compressed one. */
#ifndef PGNCHECK_INPUT_H
#define PGNCHECK_INPUT_H

#include <stdbool.h>
#include <stddef.h>
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

#endif
