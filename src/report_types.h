/* report_types.h - the types the report's callers and its formats share:
 * the format, the run's totals, the Report (opaque to callers). */
#ifndef PGNCHECK_REPORT_TYPES_H
#define PGNCHECK_REPORT_TYPES_H

#include <stdint.h>

#include "diag.h"

typedef enum ReportFormat { FMT_TEXT = 0, FMT_JSONL, FMT_TSV, FMT_GITHUB } ReportFormat;

/* Totals of a run (man page, OUTPUT FORMATS, jsonl: the summary record). */
typedef struct ReportSummary {
    uint64_t files;     /* inputs opened and read */
    uint64_t games;
    uint64_t ok;
    uint64_t warning;
    uint64_t error;
    uint64_t skipped;
    uint64_t plies;
    uint64_t bytes;
    double seconds;
    /* diagnostics of each severity not printed for --min-severity (the
     * text summary says so; not a field of the JSON Lines record) */
    uint64_t hidden[SEV_ERROR + 1];
    uint64_t inputs;    /* inputs to check: files named or found (-r), standard input */
    uint64_t failed;    /* of them, those not opened, not read to their end or not PGN text */
} ReportSummary;

/* One formatter bound to one stream.  Lines are built in memory and written
 * with one fwrite each; write errors are left on the stream for the caller
 * (ferror) to decide about. */
typedef struct Report Report;

#endif
