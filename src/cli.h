/* cli.h - the command line: options, the file loop, the exit policy. */
#ifndef PGNCHECK_CLI_H
#define PGNCHECK_CLI_H

#define PGNCHECK_VERSION "0.1.0"

/* Exit statuses (man page, EXIT STATUS). */
enum {
    EXIT_CLEAN = 0,     /* no errors (warnings allowed unless --strict) */
    EXIT_FOUND = 1,     /* at least one game with an error */
    EXIT_TROUBLE = 2,   /* bad usage, unreadable input, failed write */
};

/* Runs pgncheck with the given arguments; returns the exit status. */
int cli_main(int argc, char **argv);

#endif
