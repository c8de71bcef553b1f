/* names.h - a file name (or another argument) as pgncheck shows it in
 * text: control bytes, C1 controls and bytes that are not UTF-8 written
 * as escapes, so that a name cannot move the cursor, set a terminal's
 * title or break a FILE:LINE:COL line, and two names never look alike. */
#ifndef PGNCHECK_NAMES_H
#define PGNCHECK_NAMES_H

#include <stddef.h>

/* The character at s[0..n) (n >= 1) as shown, into out (at most
 * NAME_CHAR_MAX bytes; *used: the bytes of s it stands for).  Returns the
 * bytes written.  A backslash is "\\", a tab, line feed and carriage
 * return "\t", "\n", "\r", any other byte below 0x20, DEL, each byte of
 * a C1 control (U+0080-U+009F) and any byte that is not part of valid
 * UTF-8 "\xHH"; every other character is itself. */
#define NAME_CHAR_MAX 8
size_t name_char(const unsigned char *s, size_t n, size_t *used, char out[NAME_CHAR_MAX]);

/* name as shown, in a new string; NULL when out of memory. */
char *name_shown(const char *name);

#endif
