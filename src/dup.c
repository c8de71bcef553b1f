/* dup.c - --duplicates: every distinct main line of a run kept once, found
 * again exactly.  A 64-bit hash of the line's words picks a bucket and
 * gives each entry a 32-bit tag; an entry whose tag matches is a
 * candidate only, confirmed by comparing the words themselves with the
 * copy in the arena.  So a hash collision costs a comparison, never a
 * wrong answer (PGNCHECK_DUP_HASH_BITS forces collisions for the tests).
 *
 * Memory per distinct line: a 12-byte entry (kept in chunks, never moved),
 * 4 to 8 bytes of buckets (one per entry or two, a power of two), and in
 * the arena a 32-byte header, the words and the players' names and the
 * date, 8-byte aligned (blocks of ARENA_BLOCK, or one block for a line
 * larger than that).
 *
 * A line is the same game only with compatible players (players.c) and
 * dates, or when it is long (DUP_LONG_PLIES): a short line played again
 * by other players is kept once more for them, at most DUP_MAX_PLAYERS
 * times, so that a copy of their game is found too. */
#include "dup.h"

#include "mem.h"
#include "players.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define ENTRY_CHUNK 4096u          /* entries allocated at once */
#define ARENA_BLOCK (64u << 10)    /* bytes of an arena block */
#define BUCKETS_MIN 1024u
#define MAX_CHUNKS ((size_t)UINT32_MAX / ENTRY_CHUNK + 1)  /* entries are numbered in 32 bits */
#define NAME_MAX_KEPT 255u         /* bytes of a name or date kept */

typedef struct Entry {
    uint32_t next;              /* the next entry of the bucket + 1, 0: none */
    uint32_t tag;               /* 32 bits of the hash; the bucket is tag & (nbucket - 1) */
    uint32_t at;                /* where its record is in the arena, in 8-byte units */
} Entry;

typedef struct Record {
    uint64_t index;
    uint32_t file;
    uint32_t line;
    uint32_t nwords;
    int32_t result;
    uint16_t white, black, date; /* bytes of each (then a NUL) after the words */
    uint16_t pad;
} Record;                       /* then nwords words, the names and the date */

typedef struct Block {
    unsigned char *p;
    uint64_t start;             /* its first byte's place in the arena, in 8-byte units */
    size_t size, used;          /* bytes */
} Block;

struct DupTable {
    uint64_t max_bytes, bytes;
    uint64_t mask;              /* the hash bits kept */
    Entry **chunks;
    size_t nchunks, chunks_cap;
    uint32_t n;                 /* entries */
    uint32_t *bucket;           /* the first entry + 1, 0: none */
    uint32_t nbucket;
    Block *blocks;
    size_t nblocks, blocks_cap;
    uint64_t arena_end;         /* 8-byte units given out so far */
    const char **files;
    size_t nfiles, files_cap;
};

DupTable *dup_new(uint64_t max_bytes)
{
    DupTable *t = mem_calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->max_bytes = max_bytes;
    t->mask = UINT64_MAX;
    const char *bits = getenv("PGNCHECK_DUP_HASH_BITS");
    if (bits && *bits) {
        char *end;
        unsigned long v = strtoul(bits, &end, 10);
        if (*end == '\0' && v >= 1 && v < 64)
            t->mask = ((uint64_t)1 << v) - 1;
    }
    t->bucket = mem_calloc(BUCKETS_MIN, sizeof *t->bucket);
    if (!t->bucket) {
        mem_free(t);
        return NULL;
    }
    t->nbucket = BUCKETS_MIN;
    t->bytes = sizeof *t + BUCKETS_MIN * sizeof *t->bucket;
    return t;
}

void dup_free(DupTable *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nchunks; i++)
        mem_free(t->chunks[i]);
    for (size_t i = 0; i < t->nblocks; i++)
        mem_free(t->blocks[i].p);
    mem_free(t->chunks);
    mem_free(t->blocks);
    mem_free(t->bucket);
    mem_free(t->files);
    mem_free(t);
}

uint64_t dup_bytes(const DupTable *t) { return t->bytes; }
uint64_t dup_lines(const DupTable *t) { return t->n; }

static uint64_t hash_words(const uint16_t *w, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15u ^ (uint64_t)n;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        uint64_t x;
        memcpy(&x, w + i, sizeof x);
        h = (h ^ x) * 0xBF58476D1CE4E5B9u;
        h ^= h >> 31;
    }
    uint64_t x = 0;
    memcpy(&x, w + i, (n - i) * sizeof *w);
    h = (h ^ x) * 0x94D049BB133111EBu;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9u;
    return h ^ h >> 32;
}

static Entry *entry_at(const DupTable *t, uint32_t i)
{
    return &t->chunks[i / ENTRY_CHUNK][i % ENTRY_CHUNK];
}

/* The record at arena place `at` (8-byte units): its block by a binary
 * search, which only a candidate pays (a tag that matches). */
static const Record *record_at(const DupTable *t, uint32_t at)
{
    size_t lo = 0, hi = t->nblocks;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->blocks[mid].start <= at)
            lo = mid;
        else
            hi = mid;
    }
    const Block *b = &t->blocks[lo];
    return (const Record *)(const void *)(b->p + (size_t)(at - b->start) * 8);
}

/* Room for `more` bytes of memory within the limit? */
static bool within(const DupTable *t, uint64_t more)
{
    return t->bytes + more <= t->max_bytes;
}

/* Grows *v (of *cap elements of elem bytes) to hold need, at most maxcap
 * (mem_grow); false, with *v unchanged, when it cannot. */
static bool grow_array(void **v, size_t *cap, size_t need, size_t elem, size_t maxcap)
{
    void *p = mem_grow(*v, cap, need, elem, maxcap);
    if (!p)
        return false;
    *v = p;
    return true;
}

/* The file's number: the last one's when it is the same string. */
static bool file_number(DupTable *t, const char *file, uint32_t *no)
{
    if (t->nfiles && t->files[t->nfiles - 1] == file) {
        *no = (uint32_t)(t->nfiles - 1);
        return true;
    }
    if (t->nfiles >= UINT32_MAX)
        return false;
    size_t old = t->files_cap;
    if (!grow_array((void **)&t->files, &t->files_cap, t->nfiles + 1, sizeof *t->files, UINT32_MAX))
        return false;
    t->bytes += (t->files_cap - old) * sizeof *t->files;
    *no = (uint32_t)t->nfiles;
    t->files[t->nfiles++] = file;
    return true;
}

/* Doubles the buckets (one per entry at most), linking every entry again. */
static bool rehash(DupTable *t)
{
    uint32_t nb = t->nbucket * 2;
    uint32_t *b = mem_calloc(nb, sizeof *b);
    if (!b)
        return false;
    for (uint32_t i = 0; i < t->n; i++) {
        Entry *e = entry_at(t, i);
        uint32_t k = e->tag & (nb - 1);
        e->next = b[k];
        b[k] = i + 1;
    }
    mem_free(t->bucket);
    t->bytes += (uint64_t)(nb - t->nbucket) * sizeof *b;
    t->bucket = b;
    t->nbucket = nb;
    return true;
}

static const char *rec_white(const Record *r) { return (const char *)(const void *)((const uint16_t *)(r + 1) + r->nwords); }
static const char *rec_black(const Record *r) { return rec_white(r) + r->white + 1; }
static const char *rec_date(const Record *r) { return rec_black(r) + r->black + 1; }

static size_t kept(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    return n > NAME_MAX_KEPT ? NAME_MAX_KEPT : n;
}

/* Are the players of r and who the same, and the dates? */
static bool same_players(const Record *r, const DupWho *who)
{
    return players_compatible(rec_white(r), r->white, who->white ? who->white : "", kept(who->white)) &&
           players_compatible(rec_black(r), r->black, who->black ? who->black : "", kept(who->black));
}

static void tell_first(const DupTable *t, const Record *r, DupFirst *first)
{
    first->file = t->files[r->file];
    first->index = r->index;
    first->line = r->line;
    first->result = r->result;
    first->white = rec_white(r);
    first->black = rec_black(r);
    first->date = rec_date(r);
}

DupVerdict dup_add(DupTable *t, const char *file, uint64_t index, uint32_t line, int result, const DupWho *who,
                   const uint16_t *words, size_t nwords, DupFirst *first)
{
    uint64_t h = hash_words(words, nwords) & t->mask;
    uint32_t tag = (uint32_t)(h ^ h >> 32);
    /* Of the games with this line (newest first in the bucket): the
     * first of all, and the first with these players. */
    const Record *any = NULL, *same = NULL;
    uint32_t any_no = UINT32_MAX, same_no = UINT32_MAX, copies = 0;
    for (uint32_t i = t->bucket[tag & (t->nbucket - 1)]; i; i = entry_at(t, i - 1)->next) {
        const Entry *e = entry_at(t, i - 1);
        if (e->tag != tag)
            continue;
        const Record *r = record_at(t, e->at);
        if (r->nwords != nwords || memcmp(r + 1, words, nwords * sizeof *words) != 0)
            continue;           /* the same hash, another line */
        copies++;
        if (i - 1 < any_no)
            any = r, any_no = i - 1;
        if (i - 1 < same_no && same_players(r, who) && players_dates_agree(rec_date(r), who->date))
            same = r, same_no = i - 1;
    }
    if (same || (any && who->plies >= DUP_LONG_PLIES)) {
        const Record *r = same ? same : any;
        tell_first(t, r, first);
        first->players = same_players(r, who);
        first->dates = players_dates_agree(rec_date(r), who->date);
        return DUP_SEEN;
    }
    if (any) {
        tell_first(t, any, first);
        first->players = same_players(any, who);
        first->dates = players_dates_agree(rec_date(any), who->date);
        if (copies >= DUP_MAX_PLAYERS)
            return DUP_SAME_MOVES;  /* (not kept again: see the man page) */
    }
    DupVerdict found = any ? DUP_SAME_MOVES : DUP_NEW;

    /* New: the record, its entry, and buckets to keep one per entry. */
    size_t wn = kept(who->white), bn = kept(who->black), dn = kept(who->date);
    size_t size = (sizeof(Record) + nwords * sizeof *words + wn + bn + dn + 3 + 7) & ~(size_t)7;
    Block *cur = t->nblocks ? &t->blocks[t->nblocks - 1] : NULL;
    bool block = !cur || cur->size - cur->used < size;
    size_t bsize = size > ARENA_BLOCK ? size : ARENA_BLOCK;
    bool chunk = t->n / ENTRY_CHUNK >= t->nchunks; /* (kept when a later step failed) */
    bool more_buckets = t->n >= t->nbucket;
    uint64_t need = (block ? bsize + sizeof(Block) : 0) + (chunk ? ENTRY_CHUNK * sizeof(Entry) : 0) +
                    (more_buckets ? (uint64_t)t->nbucket * sizeof *t->bucket : 0);
    uint32_t fileno;
    if (!within(t, need) || t->n == UINT32_MAX || t->nbucket > UINT32_MAX / 2 ||
        t->arena_end + bsize / 8 > UINT32_MAX)
        return DUP_FULL;
    if (!file_number(t, file, &fileno))
        return DUP_NOMEM;
    if (more_buckets && !rehash(t))
        return DUP_NOMEM;
    if (chunk) {
        if (!grow_array((void **)&t->chunks, &t->chunks_cap, t->nchunks + 1, sizeof *t->chunks, MAX_CHUNKS))
            return DUP_NOMEM;
        Entry *c = mem_alloc(ENTRY_CHUNK * sizeof *c);
        if (!c)
            return DUP_NOMEM;
        t->chunks[t->nchunks++] = c;
        t->bytes += ENTRY_CHUNK * sizeof *c;
    }
    if (block) {
        if (!grow_array((void **)&t->blocks, &t->blocks_cap, t->nblocks + 1, sizeof *t->blocks, SIZE_MAX / sizeof *t->blocks))
            return DUP_NOMEM;
        unsigned char *p = mem_alloc(bsize);
        if (!p)
            return DUP_NOMEM;
        /* (what the last block has left unused is passed over) */
        t->blocks[t->nblocks++] = (Block){p, t->arena_end, bsize, 0};
        t->arena_end += bsize / 8;
        t->bytes += bsize + sizeof(Block);
        cur = &t->blocks[t->nblocks - 1];
    }
    Record r = {index, fileno, line, (uint32_t)nwords, result, (uint16_t)wn, (uint16_t)bn, (uint16_t)dn, 0};
    unsigned char *at = cur->p + cur->used;
    memcpy(at, &r, sizeof r);
    memcpy(at + sizeof r, words, nwords * sizeof *words);
    unsigned char *nm = at + sizeof r + nwords * sizeof *words;
    memcpy(nm, who->white ? who->white : "", wn);
    nm[wn] = '\0';
    memcpy(nm + wn + 1, who->black ? who->black : "", bn);
    nm[wn + 1 + bn] = '\0';
    memcpy(nm + wn + bn + 2, who->date ? who->date : "", dn);
    nm[wn + bn + 2 + dn] = '\0';
    Entry *e = entry_at(t, t->n);
    e->tag = tag;
    e->at = (uint32_t)(cur->start + cur->used / 8);
    cur->used += size;
    uint32_t k = tag & (t->nbucket - 1);
    e->next = t->bucket[k];
    t->bucket[k] = ++t->n;
    return found;
}

static void start_words(const Position *p, uint16_t out[DUP_START_WORDS])
{
    uint8_t b[2 * DUP_START_WORDS] = {0};
    for (int sq = 0; sq < 64; sq += 2)
        b[sq / 2] = (uint8_t)(p->board[sq] | p->board[sq + 1] << 4);
    b[32] = p->side;
    b[33] = p->castling;
    for (int i = 0; i < 4; i++)
        b[34 + i] = p->castling >> i & 1 ? p->castle_rook[i] : 0;
    b[38] = p->ep_legal ? p->ep : SQ_NONE;
    memcpy(out, b, sizeof b);
}

size_t dup_start_words(const Position *p, uint16_t out[DUP_START_WORDS])
{
    start_words(p, out);
    Position std;
    pos_startpos(&std);
    uint16_t std_words[DUP_START_WORDS];
    start_words(&std, std_words);
    return memcmp(out, std_words, sizeof std_words) ? DUP_START_WORDS : 0;
}
