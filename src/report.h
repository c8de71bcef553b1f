/* report.h - formats games and diagnostics as text, JSON Lines, TSV or GitHub
 * annotations: the calls the run makes, each handed to the format's file
 * (src/README: the report rooms). */
#ifndef PGNCHECK_REPORT_H
#define PGNCHECK_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "game.h"
#include "pgn.h"
#include "report_checks.h"
#include "report_lines.h"
#include "report_stats.h"
#include "report_types.h"

/* Returns NULL when out of memory.  color: ANSI colours in text format. */
Report *report_new(FILE *out, ReportFormat fmt, bool color);
void report_free(Report *rp);

/* A report that keeps its records in memory instead of writing them: the
 * thread that checks a batch of games formats their records there, and
 * the thread that writes the output in input order writes them with
 * report_deferred_write, adding the game index and line number of the
 * batch's start, which are known only then (a piece of a file read by a
 * reader of its own counts both from 1).  JSON Lines and TSV (whose
 * file-level findings go elsewhere: report_file_diag keeps nothing for
 * them) only: NULL for another format (or when out of memory). */
Report *report_new_deferred(ReportFormat fmt);
/* Writes src's records to dst's stream, each game index plus index_base
 * and each line number plus line_delta, and empties src.  False if some
 * of them were lost for want of memory while they were made or written
 * (report_out_of_memory). */
bool report_deferred_write(Report *src, Report *dst, uint64_t index_base, uint64_t line_delta);
/* Empties src without writing it. */
void report_deferred_reset(Report *src);

/* Whether a record of rp (or --stats' lines written through it) was lost
 * for want of memory; from then on rp writes nothing, and the caller says
 * "out of memory" (exit 2).  False for NULL. */
bool report_out_of_memory(const Report *rp);

/* --min-severity: a game's diagnostics below min are not printed (text
 * lines, github annotations, JSON Lines diagnostics lists and records;
 * TSV rows and their counts are whole).  The diagnostics passed as extra
 * to report_game (the changes --fix-results made) are always printed.
 * Nothing else depends on it: statuses, counts and the exit status are
 * those of every diagnostic.  Default SEV_NOTE: all of them. */
void report_set_min_severity(Report *rp, Severity min);
/* Adds to hidden[] the diagnostics of each severity rp did not print. */
void report_hidden(const Report *rp, uint64_t hidden[SEV_ERROR + 1]);
/* --duplicates: game records get the field (JSON Lines "duplicate_of",
 * null or {"file","index","line"} of the first game with the main line)
 * or the last column (TSV "duplicate_of", FILE:INDEX or empty). */
void report_show_duplicates(Report *rp);

/* --max-repeats: in text, a warning's or note's code is printed for the
 * first max games of an input that have it, then counted and summed up
 * in one line at the input's end (report_file_end); in github, max
 * annotations of each code in an input (of every severity), and a notice
 * per code with its count in the summary.  0: all.  Nothing for jsonl
 * and tsv (every record is kept).  False when out of memory. */
bool report_set_max_repeats(Report *rp, uint64_t max);
/* The end of input file: text's roll-up lines of it (--max-repeats). */
void report_file_end(Report *rp, const char *file);

/* Parses "text", "jsonl", "tsv", "github"; false if unknown. */
bool report_format_parse(const char *name, ReportFormat *fmt);

/* The TSV header row (nothing for the other formats). */
void report_begin(Report *rp);

/* One game.  extra[0..nextra) are diagnostics the caller adds after the
 * game's own (the --fix-results changes).  In text format a game with no
 * diagnostics prints nothing. */
void report_game(Report *rp, const char *file, const PgnGame *g, const GameReport *rep,
                 const Diag *extra, size_t nextra);

/* A diagnostic about the input rather than one game (text between games, a
 * read error, an input with no game).  A position with line 0 is none (an
 * input that could not be opened): the text has no line and column, the
 * record null ones, the annotation none. */
void report_file_diag(Report *rp, const char *file, const Diag *d);

/* The final summary record (JSON Lines; github: --max-repeats' notices;
 * nothing for the other formats). */
void report_summary(Report *rp, const ReportSummary *s);

/* The human summary line that --summary writes on standard error, and a
 * line with the diagnostics not printed, if any. */
void report_summary_text(FILE *out, const ReportSummary *s);

/* The value of the tag a name means (tags.h: in its case, else in any
 * case), or NULL. */
const char *report_tag(const PgnGame *g, const char *name);

/* A message as a {"type":"message","message":TEXT} record (JSON Lines
 * only: nothing for the other formats). */
void report_message(Report *rp, const char *text);

#endif
