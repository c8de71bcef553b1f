/* baseline.c - findings recorded and left out (baseline.h). */
#include "baseline.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "rewrite.h"

#define KEY_MAX 96              /* "ID CODE PLY N": 16 + 1 + slug + 1 + 11 + 1 + 10 */
#define HEADER "# pgncheck baseline 1"

struct Baseline {
    char (*key)[KEY_MAX];
    bool *matched;
    size_t n, cap;
    bool sorted;
};

/* FNV-1a, 64 bits: a game's identity need not resist an adversary, only
 * tell apart the games of an archive (2^-64 a pair). */
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * FNV_PRIME;
    return h;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

uint64_t baseline_game_id(const PgnGame *g)
{
    /* the tags as a set (a re-export puts them in another order) */
    uint64_t tags = 0;
    for (size_t i = 0; i < g->ntags; i++) {
        uint64_t h = fnv(FNV_OFFSET, g->tags[i].name, strlen(g->tags[i].name) + 1);
        tags += mix(fnv(h, g->tags[i].value, strlen(g->tags[i].value)));
    }
    uint64_t h = fnv(FNV_OFFSET, &tags, sizeof tags);
    for (size_t i = 0; i < g->nelems; i++) {
        const PgnElem *e = &g->elems[i];
        unsigned char k = e->kind;
        h = fnv(h, &k, 1);
        h = fnv(h, e->text, (size_t)e->len + 1);
    }
    unsigned char r = (unsigned char)g->result;
    return mix(fnv(h, &r, 1));
}

uint64_t baseline_file_id(const char *name)
{
    return mix(fnv(fnv(FNV_OFFSET, "file:", 5), name, strlen(name)));
}

Baseline *baseline_new(void)
{
    return mem_calloc(1, sizeof(Baseline));
}

void baseline_free(Baseline *b)
{
    if (!b)
        return;
    mem_free(b->key);
    mem_free(b->matched);
    mem_free(b);
}

static bool add_key(Baseline *b, const char *key)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        char (*k)[KEY_MAX] = mem_realloc(b->key, cap, KEY_MAX);
        if (!k)
            return false;
        b->key = k;
        bool *m = mem_realloc(b->matched, cap, sizeof *m);
        if (!m)
            return false;
        b->matched = m;
        b->cap = cap;
    }
    snprintf(b->key[b->n], KEY_MAX, "%s", key);
    b->matched[b->n] = false;
    b->n++;
    b->sorted = false;
    return true;
}

static int key_cmp(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* Sorted (strcmp: sort(1) in the C locale), each key once. */
static void settle(Baseline *b)
{
    if (b->sorted || b->n == 0) {
        b->sorted = true;
        return;
    }
    qsort(b->key, b->n, KEY_MAX, key_cmp);
    size_t w = 0;
    for (size_t i = 0; i < b->n; i++)
        if (w == 0 || strcmp(b->key[w - 1], b->key[i]) != 0)
            memmove(b->key[w++], b->key[i], KEY_MAX);
    b->n = w;
    memset(b->matched, 0, b->n * sizeof *b->matched);
    b->sorted = true;
}

/* A key as the file writes it. */
static void make_key(char out[KEY_MAX], uint64_t id, DiagCode code, int32_t ply, uint32_t nth)
{
    snprintf(out, KEY_MAX, "%016" PRIx64 " %s %" PRId32 " %" PRIu32, id,
             code < D_COUNT ? diag_info[code].slug : "unknown", ply, nth);
}

/* Is key in b?  If so it is marked matched. */
static bool lookup(Baseline *b, const char *key)
{
    settle(b);
    if (b->n == 0)
        return false;
    char (*hit)[KEY_MAX] = bsearch(key, b->key, b->n, KEY_MAX, key_cmp);
    if (!hit)
        return false;
    b->matched[hit - b->key] = true;
    return true;
}

/* One line: "ID CODE PLY N" with a known code, nothing else. */
static bool parse_line(const char *s, char out[KEY_MAX])
{
    char slug[64];
    unsigned long long id;
    long ply;
    unsigned long nth;
    int used = 0;
    if (strlen(s) >= KEY_MAX || sscanf(s, "%16llx %63s %ld %lu%n", &id, slug, &ply, &nth, &used) != 4 ||
        s[used] != '\0')
        return false;
    DiagCode c = diag_lookup(slug, strlen(slug));
    if (c == D_COUNT)
        return false;
    make_key(out, (uint64_t)id, c, (int32_t)ply, (uint32_t)nth);
    return strcmp(out, s) == 0;     /* written as the program writes it */
}

bool baseline_load(Baseline *b, const char *path, char *why, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, cap, "%s: %s", path, strerror(errno));
        return false;
    }
    char line[256];
    unsigned long n = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        n++;
        size_t len = strlen(line);
        bool whole = len && line[len - 1] == '\n';
        if (whole)
            line[--len] = '\0';
        char key[KEY_MAX];
        if (line[0] == '#' && (whole || feof(f)))
            continue;
        if (!(whole || feof(f)) || !parse_line(line, key)) {
            snprintf(why, cap, "%s:%lu: not a baseline line (ID CODE PLY N)", path, n);
            ok = false;
        } else if (!add_key(b, key)) {
            snprintf(why, cap, "out of memory");
            ok = false;
        }
    }
    if (ok && ferror(f)) {
        snprintf(why, cap, "%s: %s", path, strerror(errno));
        ok = false;
    }
    fclose(f);
    settle(b);
    return ok;
}

/* Keeps diagnostic d (the nth of its code and ply) or says it is known. */
static bool known_one(Baseline *known, Baseline *rec, uint64_t id, const Diag *d, uint32_t nth, bool *oom)
{
    char key[KEY_MAX];
    make_key(key, id, d->code, d->ply, nth);
    if (rec && !add_key(rec, key))
        *oom = true;
    return known && lookup(known, key);
}

/* The place of v[i] among v[0..i] of its code and ply, from 1. */
static uint32_t nth_of(const Diag *v, size_t i)
{
    uint32_t k = 1;
    for (size_t j = 0; j < i; j++)
        k += v[j].code == v[i].code && v[j].ply == v[i].ply;
    return k;
}

size_t baseline_game(Baseline *known, Baseline *rec, uint64_t id, GameReport *rep, Diag *extra, size_t *nextra,
                     bool *oom)
{
    size_t dropped = 0;
    for (int pass = 0; pass < 2; pass++) {
        Diag *v = pass ? extra : rep->diags;
        size_t n = pass ? *nextra : rep->ndiags, w = 0;
        bool gone[GAME_MAX_DIAGS + 8];
        for (size_t i = 0; i < n; i++) {
            if (i < sizeof gone)
                gone[i] = v[i].severity >= SEV_WARNING && known_one(known, rec, id, &v[i], nth_of(v, i), oom);
        }
        /* A repair-found note belongs to the error it follows at its ply:
         * known with it, and new with it (it is no finding of its own). */
        for (size_t i = 1; i < n && i < sizeof gone; i++)
            if (v[i].code == D_REPAIR_FOUND && v[i - 1].ply == v[i].ply && v[i - 1].severity == SEV_ERROR)
                gone[i] = gone[i - 1];
        for (size_t i = 0; i < n; i++) {
            if (i < sizeof gone && gone[i]) {
                rep->counts[v[i].severity]--;
                dropped += v[i].severity >= SEV_WARNING;
                continue;
            }
            v[w++] = v[i];
        }
        if (pass)
            *nextra = w;
        else
            rep->ndiags = w;
    }
    if (dropped && rep->status != STATUS_SKIPPED)
        rep->status = rep->counts[SEV_ERROR] ? STATUS_ERROR : rep->counts[SEV_WARNING] ? STATUS_WARNING : STATUS_OK;
    return dropped;
}

bool baseline_file_diag(Baseline *known, Baseline *rec, uint64_t id, const Diag *d, uint32_t nth, bool *oom)
{
    return d->severity >= SEV_WARNING && known_one(known, rec, id, d, nth, oom);
}

size_t baseline_unmatched(const Baseline *known)
{
    size_t k = 0;
    for (size_t i = 0; i < known->n; i++)
        k += !known->matched[i];
    return k;
}

bool baseline_write(Baseline *rec, const char *path, char *why, size_t cap)
{
    settle(rec);
    Rewrite *rw = rewrite_begin(path, false, why, cap);
    if (!rw)
        return false;
    FILE *f = rewrite_file(rw);
    fputs(HEADER "\n", f);
    for (size_t i = 0; i < rec->n; i++) {
        fputs(rec->key[i], f);
        fputc('\n', f);
    }
    return rewrite_commit(rw, why, cap);
}
