/* diag.c - the diagnostic code table (see diag.h). */
#include "diag.h"

#include <string.h>

const DiagInfo diag_info[D_COUNT] = {
#define DIAG_ROW(id, slug, sev, text) {slug, sev, text},
    DIAG_TABLE(DIAG_ROW)
#undef DIAG_ROW
};

const char *diag_severity_name(Severity s)
{
    switch (s) {
    case SEV_ERROR: return "error";
    case SEV_WARNING: return "warning";
    case SEV_NOTE: return "note";
    default: return "ignored";
    }
}

DiagCode diag_lookup(const char *slug, unsigned long len)
{
    for (int i = 0; i < D_COUNT; i++)
        if (strlen(diag_info[i].slug) == len && memcmp(diag_info[i].slug, slug, len) == 0)
            return (DiagCode)i;
    return D_COUNT;
}
