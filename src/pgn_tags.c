/* pgn_tags.c - tag pairs: the fast paths over the usual lines and the
 * general steps, the arena, the duplicate filter (knows no chess). */
#include "pgn_tags.h"

#include <stdio.h>
#include <string.h>

#include "mem.h"

/* ---------------------------------------------------------------------
 * Tag pairs.  Called with buf[pos] == '['.  Leaves pos after the pair, or
 * (after BAD_TAG) at the next line or at a following '['.
 * ------------------------------------------------------------------- */
/* Room in the arena for the longest tag pair.  The arena is moved by hand,
 * not with realloc, so that the stored tags' pointers can be moved with it
 * (then end_game has none to set). */
static bool arena_reserve(PgnGame *g)
{
    GameStore *st = g->priv;
    size_t need = st->alen + PGN_MAX_TAG_NAME + PGN_MAX_TAG_VALUE + 2;
    if (need <= st->acap)
        return true;
    size_t nc = st->acap ? st->acap : 16;
    while (nc < need)
        nc = nc > SIZE_MAX / 2 ? need : nc * 2;
    char *a = mem_alloc(nc);
    if (a == NULL) {
        g->out_of_memory = true; /* the caller says so and exits 2 */
        return false;
    }
    if (st->alen)
        memcpy(a, st->arena, st->alen);
    for (size_t t = 0; t < g->ntags; t++) {
        g->tags[t].name = a + (g->tags[t].name - st->arena);
        g->tags[t].value = a + (g->tags[t].value - st->arena);
    }
    mem_free(st->arena);
    st->arena = a;
    st->acap = nc;
    return true;
}

static void tag_error(PgnReader *r, const char *msg)
{
    pgn_game_diag(r, D_BAD_TAG, pos_of(r, r->pos), msg);
    if (r->pos < r->end && r->buf[r->pos] == '[')
        return;
    pgn_skip_line(r);
}

/* Skips blanks (also line ends) inside a tag pair; false at end of input. */
static bool tag_ws(PgnReader *r)
{
    for (;;) {
        if (r->pos >= r->end && pgn_refill(r) == 0)
            return false;
        unsigned c = r->buf[r->pos];
        if (!(pgn_cls[c] & K_WS))
            return true;
        if (pgn_cls[c] & K_NL)
            newline_at(r, r->pos);
        r->pos++;
    }
}

/* A blank as the reader has it anywhere (space, tab, form feed, vertical
 * tab): what may follow the ']' that ends a tag line. */
static inline bool line_blank(char c)
{
    return (pgn_cls[(unsigned char)c] & K_WS) != 0;
}

/* Duplicate check: a 128-bit filter on (first, last and next-to-last byte,
 * length) spares most strcmp calls (the usual tag names all differ in it).
 * The filter bit of a name, the same for any case of its letters (bit 5
 * set), so that one bit stands for Event in every case (tag_lines_body): */
static inline unsigned tag_hash(const unsigned char *nm, size_t nlen)
{
    return 2u * (nm[0] | 32u) + (nm[nlen - 1] | 32u) + 25u * (nlen >= 2 ? nm[nlen - 2] | 32u : 0u) + (unsigned)nlen;
}

/* Are the names a and b the same but for the case of their letters? */
static bool name_ieq(const char *a, const char *b)
{
    for (; *a && (*a | 32) == (*b | 32); a++, b++)
        if (!(pgn_cls[(unsigned char)*a] & K_ALPHA) && *a != *b)
            return false;
    return *a == *b;
}

/* tag_commit for every case. */
static void tag_commit_slow(PgnReader *r, PgnPos tpos, PgnPos vpos, size_t name_off, size_t nlen,
                            size_t val_off, size_t vlen)
{
    PgnGame *g = r->g;
    GameStore *st = g->priv;
    char *ar = st->arena;
    if (g->ntags >= PGN_MAX_TAGS) {
        if (!r->too_many_tags) {
            r->too_many_tags = true;
            char msg[PGN_MSG];
            snprintf(msg, sizeof msg, "more than %d tag pairs; the rest are dropped", PGN_MAX_TAGS);
            pgn_game_diag(r, D_TOO_MANY_TAGS, tpos, msg);
        }
        return;
    }
    unsigned h = tag_hash((const unsigned char *)ar + name_off, nlen);
    uint64_t bit = (uint64_t)1 << (h & 63u);
    unsigned half = (h >> 6) & 1u;
    if (g->ntags == 0)
        r->tag_bloom[0] = r->tag_bloom[1] = 0;
    if (r->tag_bloom[half] & bit) {
      for (size_t t = 0; t < g->ntags; t++) {
        if (strcmp(g->tags[t].name, ar + name_off) == 0) {
            char msg[PGN_MSG];
            snprintf(msg, sizeof msg, "tag %s appears more than once", ar + name_off);
            pgn_game_diag(r, D_DUPLICATE_TAG, tpos, msg);
            break;
        }
        if (name_ieq(g->tags[t].name, ar + name_off))
            g->tag_case_twin = true;
      }
    }
    r->tag_bloom[half] |= bit;
    /* (g->ntags < PGN_MAX_TAGS here: only memory can fail) */
    PgnTag *tp = mem_grow(g->tags, &st->tcap, g->ntags + 1, sizeof(PgnTag), PGN_MAX_TAGS);
    if (tp == NULL) {
        g->out_of_memory = true; /* the caller says so and exits 2 */
        return;
    }
    g->tags = tp;
    PgnTag *tag = &g->tags[g->ntags];
    tag->name = ar + name_off;
    tag->value = ar + val_off;
    tag->pos = tpos;
    tag->value_pos = vpos;
    g->ntags++;
    st->alen = val_off + vlen + 1;
}

/* Files a read tag pair whose name and value are in the arena at name_off
 * and val_off: the common case (room for it, a new filter bit) here, the
 * rest in tag_commit_slow. */
static inline void tag_commit(PgnReader *r, PgnPos tpos, PgnPos vpos, size_t name_off, size_t nlen,
                              size_t val_off, size_t vlen)
{
    PgnGame *g = r->g;
    GameStore *st = g->priv;
    size_t n = g->ntags;
    unsigned h = tag_hash((const unsigned char *)st->arena + name_off, nlen);
    uint64_t bit = (uint64_t)1 << (h & 63u);
    unsigned half = (h >> 6) & 1u;
    if (n == 0)
        r->tag_bloom[0] = r->tag_bloom[1] = 0;
    if (n >= st->tcap || (r->tag_bloom[half] & bit)) {
        tag_commit_slow(r, tpos, vpos, name_off, nlen, val_off, vlen);
        return;
    }
    /* n < tcap <= PGN_MAX_TAGS */
    r->tag_bloom[half] |= bit;
    PgnTag *tag = &g->tags[n];
    tag->name = st->arena + name_off;
    tag->value = st->arena + val_off;
    tag->pos = tpos;
    tag->value_pos = vpos;
    g->ntags = n + 1;
    st->alen = val_off + vlen + 1;
}

/* The name of a tag pair at buf[pos] into the arena at name_off; false
 * (after BAD_TAG) when there is none or it is too long. */
static bool read_tag_name(PgnReader *r, char *ar, size_t name_off, size_t *nlenp)
{
    size_t nlen = 0;
    unsigned c = r->buf[r->pos];
    if (!(pgn_cls[c] & (K_ALPHA | K_DIGIT)) && c != '_') {
        tag_error(r, "tag pair without a tag name");
        return false;
    }
    for (;;) {
        if (r->pos >= r->end && pgn_refill(r) == 0)
            break;
        c = r->buf[r->pos];
        if (!(pgn_cls[c] & K_SYM))
            break;
        if (nlen < PGN_MAX_TAG_NAME - 1)
            ar[name_off + nlen] = (char)c;
        nlen++;
        r->pos++;
    }
    if (nlen > PGN_MAX_TAG_NAME - 1) {
        tag_error(r, "tag name too long");
        return false;
    }
    ar[name_off + nlen] = '\0';
    *nlenp = nlen;
    return true;
}

/* A tag pair whose value is not a string, at buf[pos]: only this pair is
 * skipped, up to its ] when the line has one, so that what follows it on
 * the line ("[pgn] 1. e4 ...") is read, not lost with the rest of the line
 * (a game without moves, then). */
static void skip_bad_value(PgnReader *r)
{
    pgn_game_diag(r, D_BAD_TAG, pos_of(r, r->pos), "tag value is not a string");
    /* (at most LOOKAHEAD bytes, however many the buffer holds: the
     * same answer for any cut of the input) */
    size_t n = pgn_need(r, LOOKAHEAD), j = 0;
    if (n > LOOKAHEAD)
        n = LOOKAHEAD;
    while (j < n && r->buf[r->pos + j] != ']' && r->buf[r->pos + j] != '"' && !(pgn_cls[r->buf[r->pos + j]] & K_NL))
        j++;
    if (j < n && r->buf[r->pos + j] == ']')
        r->pos += j + 1;
    else if (r->buf[r->pos] != '[')
        pgn_skip_line(r);
}

/* [Site Lille]: a value without quotes, up to a ']' on the same line
 * with no quote or bracket before it, read into dst (trailing blanks
 * left out) and pos put past the ']': the pair is kept, so that its
 * bad-tag is not followed by a missing tag (one fault).  False, nothing
 * read, for any other shape. */
static bool read_unquoted_value(PgnReader *r, char *dst, size_t *vlenp)
{
    size_t n = pgn_need(r, LOOKAHEAD), j = 0;
    if (n > LOOKAHEAD)
        n = LOOKAHEAD;
    const unsigned char *b = r->buf + r->pos;
    while (j < n && b[j] != ']' && b[j] != '"' && b[j] != '[' && !(pgn_cls[b[j]] & K_NL))
        j++;
    if (j == n || b[j] != ']')
        return false;
    size_t v = j;
    while (v > 0 && (pgn_cls[b[v - 1]] & K_WS))
        v--;
    if (v == 0 || v >= PGN_MAX_TAG_VALUE)
        return false;
    for (size_t k = 0; k < v; k++)
        dst[k] = b[k] ? (char)b[k] : ' ';
    dst[v] = '\0';
    *vlenp = v;
    r->pos += j + 1;
    return true;
}

/* The bytes of a tag value from pos (after its opening quote) into dst,
 * unescaped, up to PGN_MAX_TAG_VALUE - 1 of them (*toolong if more):
 * true when its closing quote was read (pos past it), false at a line end
 * or the end of input. */
static bool read_tag_value(PgnReader *r, char *dst, size_t *vlenp, bool *toolong)
{
    size_t vlen = 0;
    bool closed = false;
    for (;;) {
        if (r->pos >= r->end && pgn_refill(r) == 0)
            break;
        {
            /* plain bytes: copied in a tight loop with locals */
            const unsigned char *b = r->buf;
            size_t i = r->pos, e = r->end;
            while (i < e) {
                unsigned x = b[i];
                if (x == '"' || x == '\\' || x < 0x20 || x == 0x7F)
                    break;
                if (vlen < PGN_MAX_TAG_VALUE - 1)
                    dst[vlen++] = (char)x;
                else
                    *toolong = true;
                i++;
            }
            r->pos = i;
            if (i == e)
                continue;
        }
        unsigned c = r->buf[r->pos];
        if (c == '"') {
            r->pos++;
            closed = true;
            break;
        }
        if (c == '\n' || c == '\r')
            break;
        if (c == '\\') {
            if (pgn_need(r, 2) >= 2 && (r->buf[r->pos + 1] == '"' || r->buf[r->pos + 1] == '\\')) {
                r->pos++;
                c = r->buf[r->pos];
            } else {
                pgn_game_diag(r, D_BAD_ESCAPE, pos_of(r, r->pos),
                          "backslash not followed by \" or \\ (kept as written)");
            }
        } else if ((c < 0x20 && c != '\t') || c == 0x7F) {
            pgn_bad_byte(r, r->pos, c);
            if (c == 0) {
                r->pos++;
                continue;
            }
        }
        if (vlen < PGN_MAX_TAG_VALUE - 1)
            dst[vlen++] = (char)c;
        else
            *toolong = true;
        r->pos++;
    }
    dst[vlen] = '\0';
    *vlenp = vlen;
    return closed;
}

/* BAD_BYTE for a tag value at vpos holding a byte that is neither UTF-8
 * nor printable Latin-1 (once a game). */
static void value_bytes(PgnReader *r, PgnPos vpos, const char *v, size_t vlen)
{
    if (r->bad_byte)
        return;
    size_t bad = pgn_first_bad((const unsigned char *)v, vlen);
    if (bad < vlen) {
        char msg[80];
        snprintf(msg, sizeof msg, "byte 0x%02X in a tag value is neither valid UTF-8 nor printable Latin-1",
                 (unsigned char)v[bad]);
        pgn_game_diag(r, D_BAD_BYTE, vpos, msg);
        r->bad_byte = true;
    }
}

/* [White "Smith, John "The King""]: a value with quotes not escaped
 * (PGN 7 writes them \"), its string closed too early at `after` (pos:
 * the first byte after it that is no blank, on the same line).  When the
 * line ends in '"' ']' with no bracket between, the value is read on up
 * to that last quote (a blank as one space) and the pair kept: one
 * finding, at the quote that closed the string, that says why, not a
 * pair "not closed by ]" and then a missing tag.  False (nothing read)
 * for any other shape, or a line longer than the look-ahead. */
static bool read_unescaped_rest(PgnReader *r, PgnPos after, char *dst, size_t *vlenp, bool *toolong)
{
    size_t n = pgn_need(r, LOOKAHEAD), le = 0;
    if (n > LOOKAHEAD)
        n = LOOKAHEAD;
    const unsigned char *b = r->buf + r->pos;
    while (le < n && !(pgn_cls[b[le]] & K_NL))
        le++;
    if (le == n && n == LOOKAHEAD)
        return false;
    size_t k = le;
    while (k > 0 && (pgn_cls[b[k - 1]] & K_WS))
        k--;
    if (k < 2 || b[k - 1] != ']')
        return false;
    size_t q = k - 1;   /* the ']' */
    while (q > 0 && (pgn_cls[b[q - 1]] & K_WS))
        q--;
    if (q == 0 || b[q - 1] != '"')
        return false;
    q--;                /* the last quote */
    for (size_t j = 0; j < q; j++)
        if (b[j] == '[' || b[j] == ']')
            return false;
    size_t vlen = *vlenp;
    uint64_t blanks = pos_of(r, r->pos).offset - after.offset;
    for (uint64_t j = 0; j <= blanks + q; j++) {
        char c = j == 0 ? '"' : j <= blanks ? ' ' : (char)b[j - blanks - 1];
        if (vlen < PGN_MAX_TAG_VALUE - 1)
            dst[vlen++] = c;
        else
            *toolong = true;
    }
    dst[vlen] = '\0';
    *vlenp = vlen;
    PgnPos qpos = after;
    qpos.offset--;
    qpos.col--;
    pgn_game_diag(r, D_BAD_TAG, qpos,
                  "a \" inside the tag value is not escaped (write \\\"): the value is read to the last \" before ]");
    r->pos += k;
    return true;
}

/* A tag pair, at buf[pos] == '[', by the general steps. */
static void read_tag(PgnReader *r)
{
    PgnGame *g = r->g;
    GameStore *st = g->priv;
    PgnPos tpos = pos_of(r, r->pos);
    r->pos++;
    r->tag_nl = 0;
    if (!tag_ws(r)) {
        pgn_game_diag(r, D_BAD_TAG, tpos, "tag pair cut off by the end of input");
        return;
    }
    /* reserve the worst case for this pair once: no per-byte checks */
    if (!arena_reserve(g)) {
        tag_error(r, "out of memory for tag pair");
        return;
    }
    size_t name_off = st->alen, nlen = 0;
    char *ar = st->arena;
    if (!read_tag_name(r, ar, name_off, &nlen))
        return;
    if (!tag_ws(r)) {
        pgn_game_diag(r, D_BAD_TAG, tpos, "tag pair cut off by the end of input");
        return;
    }
    if (r->buf[r->pos] != '"') {
        PgnPos upos = pos_of(r, r->pos);
        size_t uoff = name_off + nlen + 1, ulen = 0;
        if (read_unquoted_value(r, ar + uoff, &ulen)) {
            pgn_game_diag(r, D_BAD_TAG, upos, "tag value is not a string (read as if it were quoted)");
            tag_commit(r, tpos, upos, name_off, nlen, uoff, ulen);
            return;
        }
        skip_bad_value(r);
        return;
    }
    PgnPos vpos = pos_of(r, r->pos);
    size_t val_off = name_off + nlen + 1, vlen = 0;
    bool toolong = false;
    r->pos++;
    if (!read_tag_value(r, ar + val_off, &vlen, &toolong)) {
        /* [Event "Tournament \"]: a backslash meant as such escapes the
         * closing quote (every quote in the value came from \").  Read
         * as a backslash that ends the value, the pair is kept: one
         * finding, not also a missing tag. */
        char *v = ar + val_off;
        size_t n = vlen;
        while (n > 0 && line_blank(v[n - 1]))
            n--;
        if (!toolong && n >= 2 && v[n - 1] == ']' && v[n - 2] == '"') {
            vlen = n - 1;
            v[vlen - 1] = '\\';
            v[vlen] = '\0';
            pgn_game_diag(r, D_UNTERMINATED_STRING, vpos,
                          "string not closed: its last quote is escaped (\\\"]); read as a backslash that ends it");
            tag_commit(r, tpos, vpos, name_off, nlen, val_off, vlen);
            return;
        }
        /* [Event "Lille]: the closing quote left out; the value is read
         * up to the ']' that ends the line, and the pair kept. */
        if (!toolong && n >= 2 && v[n - 1] == ']') {
            vlen = n - 1;
            while (vlen > 0 && line_blank(v[vlen - 1]))
                vlen--;
            v[vlen] = '\0';
            pgn_game_diag(r, D_UNTERMINATED_STRING, vpos,
                          "string not closed: no quote before the ] that ends its line; read as if there were");
            tag_commit(r, tpos, vpos, name_off, nlen, val_off, vlen);
            return;
        }
        pgn_game_diag(r, D_UNTERMINATED_STRING, vpos, "string not closed before the end of its line");
        return;   /* pos at the line end: the next line is read as usual */
    }
    if (toolong) {
        char msg[PGN_MSG];
        snprintf(msg, sizeof msg, "tag value longer than %d bytes; the rest is dropped",
                 PGN_MAX_TAG_VALUE - 1);
        pgn_game_diag(r, D_TAG_TOO_LONG, vpos, msg);
    }
    value_bytes(r, vpos, ar + val_off, vlen);
    PgnPos after = pos_of(r, r->pos);
    uint32_t line = r->line;
    if (!tag_ws(r)) {
        /* [Event "x" and the input ends: as before a new line, only the
         * ] is missing (so a copy of the game that ends in a line end
         * reads as the game does). */
        pgn_game_diag(r, D_BAD_TAG, after, "tag pair not closed by ] before the end of input (read as if it were)");
        tag_commit(r, tpos, vpos, name_off, nlen, val_off, vlen);
        return;
    }
    if (r->buf[r->pos] != ']') {
        if (r->line != line || r->buf[r->pos] == '[') {
            /* [Event "x" and the line (or the next pair) begins: only the
             * ] is missing; said where it belongs, and the pair is kept,
             * so that it is not also a missing tag. */
            pgn_game_diag(r, D_BAD_TAG, after, "tag pair not closed by ] (read as if it were)");
            tag_commit(r, tpos, vpos, name_off, nlen, val_off, vlen);
            r->tag_nl = r->line - line; /* (an empty line read: the next game's tags) */
            return;
        }
        bool cut = false;
        if (read_unescaped_rest(r, after, ar + val_off, &vlen, &cut)) {
            if (cut && !toolong) {
                char msg[PGN_MSG];
                snprintf(msg, sizeof msg, "tag value longer than %d bytes; the rest is dropped",
                         PGN_MAX_TAG_VALUE - 1);
                pgn_game_diag(r, D_TAG_TOO_LONG, vpos, msg);
            }
            value_bytes(r, vpos, ar + val_off, vlen);
            tag_commit(r, tpos, vpos, name_off, nlen, val_off, vlen);
            return;
        }
        tag_error(r, "tag pair not closed by ]");
        return;
    }
    r->pos++;
    tag_commit(r, tpos, vpos, name_off, nlen, val_off, vlen);
}

/* Fast path for a well-formed tag pair wholly in the buffer at buf[i]:
 * '[' Name spaces '"' value without escapes or control bytes '"' ']'.
 * Returns the index just past ']' with the name and value copied to the
 * arena, or 0 (nothing changed) for anything else. */
typedef struct TagScan {
    size_t name_off, nlen, val_off, vlen, vq, end;
    bool event, high;
} TagScan;

#ifdef PGN_SYM16
/* tag_scan's usual shape, '[' Name ' ' '"' value '"' ']' with a name under
 * 16 bytes and a plain ASCII value under 32, straight through (n >= 96
 * bytes buffered at s, and arena room for the longest pair) */
ALWAYS_INLINE static inline bool tag_scan_short(GameStore *st, const unsigned char *s, size_t i, TagScan *ts)
{
    unsigned nl16 = ctz64(~(uint64_t)sym16(s + 1));
    size_t q = 1 + nl16;
    if (!(nl16 < 16 && s[q] == ' ' && s[q + 1] == '"'))
        return false;
    const unsigned char *v = s + q + 2;
    unsigned m = tv_stop16(v) | tv_stop16(v + 16) << 16;
    unsigned vl = m ? ctz64(m) : 32;
    if (!(vl < 32 && v[vl] == '"' && v[vl + 1] == ']'))
        return false;
    char *ar = st->arena + st->alen;
    memcpy(ar, s + 1, 16);
    ar[nl16] = '\0';
    memcpy(ar + nl16 + 1, v, 32);
    ar[nl16 + 1 + vl] = '\0';
    ts->name_off = st->alen;
    ts->nlen = nl16;
    ts->val_off = st->alen + nl16 + 1;
    ts->vlen = vl;
    ts->vq = i + q + 1;
    ts->end = i + q + 2 + vl + 2;
    ts->event = nl16 == 5 && name_event(s + 1);
    ts->high = false;
    return true;
}
#endif

/* The end of a plain tag value at s[k..vlim): the index of its first byte
 * that is a control byte, DEL, '"' or '\\' (or vlim); bytes above 0x7F are
 * plain and or'ed into *high. */
ALWAYS_INLINE static inline size_t tag_value_end(const unsigned char *s, size_t k, size_t vlim, unsigned *high)
{
#ifdef PGN_SYM16
    while (vlim - k >= 16) {
        unsigned m = tv_stop16(s + k);
        if (m) {
            k += ctz64(m);
            if (s[k] < 0x80)
                return k;      /* the loops below would stop here too */
            break;
        }
        k += 16;
    }
#endif
#ifdef PGN_SWAR
    while (vlim - k >= 8) {
        uint64_t x = load64(s + k);
        uint64_t m = w_gt(x, 0x7E) | w_lt(x, 0x20) | w_eq(x, '"') | w_eq(x, '\\');
        if (m) {
            k += w_first(m);
            break;
        }
        k += 8;
    }
#endif
    while (k < vlim && !pgn_tv_stop[s[k]]) {
        *high |= s[k];
        k++;
    }
    return k;
}

/* Copies tag_scan's name (nlen bytes at s + 1) and value (vlen bytes at
 * s + vq + 1) to the arena, n bytes buffered at s: short ones in fixed
 * sizes when the bytes are in the buffer (the arena has room for the
 * longest name and value). */
ALWAYS_INLINE static inline void tag_scan_copy(GameStore *st, const TagScan *ts, const unsigned char *s, size_t n,
                                               size_t vq)
{
    size_t nlen = ts->nlen, vlen = ts->vlen;
    if (nlen < 16 && n >= 17)
        memcpy(st->arena + ts->name_off, s + 1, 16);
    else
        memcpy(st->arena + ts->name_off, s + 1, nlen);
    st->arena[ts->name_off + nlen] = '\0';
    if (vlen < 32 && n - (vq + 1) >= 32)
        memcpy(st->arena + ts->val_off, s + vq + 1, 32);
    else
        memcpy(st->arena + ts->val_off, s + vq + 1, vlen);
    st->arena[ts->val_off + vlen] = '\0';
}

static bool tag_scan(PgnReader *r, size_t i, TagScan *ts)
{
    PgnGame *g = r->g;
    GameStore *st = g->priv;
    const unsigned char *s = r->buf + i;
    size_t n = r->end - i, k = 1;
    if (n < 8 || g->ntags >= PGN_MAX_TAGS)
        return false;
    unsigned c = s[1];
    if (!(pgn_cls[c] & (K_ALPHA | K_DIGIT)) && c != '_')
        return false;
#ifdef PGN_SYM16
    if (n >= 96 && st->acap - st->alen >= PGN_MAX_TAG_NAME + PGN_MAX_TAG_VALUE + 2 && tag_scan_short(st, s, i, ts))
        return true;
#endif
    size_t nlim = n < PGN_MAX_TAG_NAME + 1 ? n : PGN_MAX_TAG_NAME + 1;
#ifdef PGN_SYM16
    if (n >= 17)
        k = 1 + ctz64(~(uint64_t)sym16(s + 1));   /* 17 if all 16 are symbol bytes */
#endif
    while (k < nlim && (pgn_cls[s[k]] & K_SYM))
        k++;
    size_t nlen = k - 1;
    if (k >= nlim)
        return false;          /* name too long or cut off by the buffer end */
    while (k < n && s[k] == ' ')
        k++;
    if (k >= n || s[k] != '"')
        return false;
    size_t vq = k++;
    size_t vlim = n - 1;       /* room for ']' after the closing quote */
    if (k >= vlim)
        return false;
    if (vlim - k > PGN_MAX_TAG_VALUE - 2)
        vlim = k + PGN_MAX_TAG_VALUE - 2;
    unsigned high = 0;
    k = tag_value_end(s, k, vlim, &high);
    if (k >= vlim || s[k] != '"' || s[k + 1] != ']')
        return false;
    size_t vlen = k - vq - 1;
    if (st->acap - st->alen < PGN_MAX_TAG_NAME + PGN_MAX_TAG_VALUE + 2 && !arena_reserve(g))
        return false;
    ts->name_off = st->alen;
    ts->nlen = nlen;
    ts->val_off = st->alen + nlen + 1;
    ts->vlen = vlen;
    ts->vq = i + vq;
    ts->end = i + k + 2;
    ts->event = nlen == 5 && name_event(s + 1);
    ts->high = (high & 0x80) != 0;
    tag_scan_copy(st, ts, s, n, vq);
    return true;
}

#ifdef PGN_SYM16
/* A tag line as tag_lines reads it: the name at s + 1 (nlen bytes) and the
 * value at v (vl bytes). */
typedef struct TagLine {
    const unsigned char *v;
    unsigned nlen, vl;
} TagLine;

/* The usual tag line at s, '[' Name ' ' '"' value '"' ']', into *tl; false
 * for any other line.  The name of letters is tested with one branch (the
 * bytes read are in the buffer whatever the line holds; with the test
 * first, gcc would load the value test's constants in the loop).  A name
 * is found up to 15 bytes and a value up to 31: a longer one fails the
 * test of the bytes after it (a letter is not ' ', and a '"' would have
 * stopped the value before). */
ALWAYS_INLINE static inline bool tag_line_parse(const unsigned char *s, TagLine *tl,
                                                unsigned (*stop32)(const unsigned char *))
{
    uint16_t sq, qb;              /* ' ' '"' after the name, '"' ']' after the value */
    memcpy(&sq, " \"", 2);
    memcpy(&qb, "\"]", 2);
    unsigned nlen = ctz64(~(uint64_t)alpha16(s + 1) | 1u << 15);
    const unsigned char *v = s + nlen + 3;
    unsigned vl = ctz64(stop32(v) | 1u << 31);
    uint16_t w1, w2;
    memcpy(&w1, s + 1 + nlen, 2);
    memcpy(&w2, v + vl, 2);
    if ((s[0] != '[') | (nlen == 0) | (w1 != sq) | (w2 != qb)) {
        /* other names (digits, '_' ...), or a line that stops the loop */
        unsigned c = s[1];
        if (s[0] != '[' || (!(pgn_cls[c] & (K_ALPHA | K_DIGIT)) && c != '_'))
            return false;
        nlen = ctz64(~(uint64_t)sym16(s + 1) | 1u << 15);
        memcpy(&w1, s + 1 + nlen, 2);
        if (w1 != sq)
            return false;
        v = s + nlen + 3;
        vl = ctz64(stop32(v) | 1u << 31);
        memcpy(&w2, v + vl, 2);
        if (w2 != qb)
            return false;
    }
    tl->v = v;
    tl->nlen = nlen;
    tl->vl = vl;
    return true;
}

/* Sets the filter bit of the name nm (nlen bytes) in *bl0 or *bl1; false,
 * with nothing set, when it was set already (a possible duplicate). */
ALWAYS_INLINE static inline bool bloom_add(uint64_t *bl0, uint64_t *bl1, const unsigned char *nm, size_t nlen)
{
    unsigned h = tag_hash(nm, nlen);
    uint64_t bit = (uint64_t)1 << (h & 63u);
    if ((h & 64u ? *bl1 : *bl0) & bit)
        return false;
    if (h & 64u)
        *bl1 |= bit;
    else
        *bl0 |= bit;
    return true;
}

/* Files the tag line at s (tl), at input offset off, line and column lc
 * (the line in the low half, the column in the high half), in *tag, its
 * name and value copied to the arena at ap; returns where the next name
 * goes. */
ALWAYS_INLINE static inline char *tag_line_store(PgnTag *tag, char *ap, const unsigned char *s, const TagLine *tl,
                                                 uint64_t off, uint64_t lc)
{
    unsigned nlen = tl->nlen, vl = tl->vl;
    memcpy(ap, s + 1, 16);
    ap[nlen] = '\0';
    memcpy(ap + nlen + 1, tl->v, 32);
    ap[nlen + 1 + vl] = '\0';
    tag->name = ap;
    tag->value = ap + nlen + 1;
    char *next = ap + nlen + 1 + vl + 1;
#ifdef PGN_POS128
    __m128i pb = _mm_set_epi64x((long long)lc, (long long)off);
    _mm_storeu_si128((__m128i *)(void *)&tag->pos, pb);
    _mm_storeu_si128((__m128i *)(void *)&tag->value_pos,
                     _mm_add_epi64(pb, _mm_loadu_si128((const __m128i *)(const void *)pos_add[nlen + 2])));
#else
    tag->pos.offset = off;
    tag->value_pos.offset = off + nlen + 2;
    tag->pos.line = tag->value_pos.line = (uint32_t)lc;
    tag->pos.col = (uint32_t)(lc >> 32);
    tag->value_pos.col = (uint32_t)(lc >> 32) + nlen + 2;
#endif
    return next;
}

/* The state tag_lines keeps in locals, written back when it stops. */
typedef struct TagLines {
    PgnTag *tag0, *tag;           /* the first tag it filed, the next */
    char *ap;                     /* where the next name goes */
    uint64_t bl0, bl1;            /* the duplicate filter */
    uint64_t lc;                  /* line (low half) and column (high half) */
    uint64_t s_off;               /* input offset where it stopped */
    bool open;                    /* stopped after a tag, before its line end */
} TagLines;

/* Writes tag_lines' state back to the reader (it filed a tag). */
ALWAYS_INLINE static inline void tag_lines_done(PgnReader *r, const TagLines *t, bool hev, bool *have_event,
                                                unsigned *nlp)
{
    PgnGame *g = r->g;
    GameStore *st = g->priv;
    const PgnTag *tag = t->tag;
    g->ntags = (size_t)(tag - g->tags);
    st->alen = (size_t)(t->ap - st->arena);
    r->tag_bloom[0] = t->bl0;
    r->tag_bloom[1] = t->bl1;
    r->line = (uint32_t)t->lc;
    /* the line start: of the last tag's line if it is still open */
    r->line_start = t->open ? tag[-1].pos.offset - tag[-1].pos.col + 1 : t->s_off;
    r->line_tok = t->open;
    r->last_tok = tag[-1].pos;
    /* an Event pair among these (not tested in the loop: the usual one
     * is the first) */
    if (!hev)
        for (const PgnTag *p = t->tag0; p < tag; p++)
            if (name_event((const unsigned char *)p->name) && p->name[5] == '\0') {
                *have_event = true;
                break;
            }
    *nlp = !t->open;
}

/* Runs of the usual tag line, '[' Name ' ' '"' value '"' ']' and a line end
 * (LF or CR LF), with a name under 16 bytes and a plain ASCII value under 32,
 * straight through from buf[i] with the reader's state in locals: nothing
 * of tag_scan, pos_of and tag_commit is needed for them but the checks
 * below.  It stops (leaving the line to tags_fast, which does the same for
 * it through the general steps) at any other line, at a tag that ends the
 * game or repeats a filter bit (a possible duplicate), where the tag or
 * arena room runs short, and near the end of the buffer.  *nlp and
 * *have_event as in tags_fast; returns the index where it stopped. */
ALWAYS_INLINE static inline size_t tag_lines_body(PgnReader *r, size_t i, bool *have_event, unsigned *nlp,
                                                  unsigned (*stop32)(const unsigned char *),
                                                  uint64_t (*lf)(const unsigned char *))
{
    PgnGame *g = r->g;
    GameStore *st = g->priv;
    const unsigned char *const b = r->buf;
    size_t n = g->ntags;
    /* room: tags below tcap (<= PGN_MAX_TAGS, tag_scan's count check), 50
     * arena bytes a tag (the fixed-size copies), the 96 buffered bytes
     * tag_scan wants, and columns far from saturating (after the first
     * line every tag is in column 1) */
    size_t room = st->tcap > n ? st->tcap - n : 0, aroom = (st->acap - st->alen) / 50;
    if (aroom < room)
        room = aroom;
    uint64_t base = r->base;
    if (room == 0 || r->end - i < 96 || base + i - r->line_start >= UINT32_MAX / 2
        || (n > 0 && *nlp >= 2))      /* tags_fast ends the game there */
        return i;
    PgnTag *tag = g->tags + n, *const tag_end = tag + room;
    char *ap = st->arena + st->alen;    /* where the next name goes */
    /* the loop walks a pointer; the input offset of *s is sbase + s */
    const unsigned char *s = b + i, *const slim = b + (r->end - 96);
    const uint64_t sbase = base - (uint64_t)(uintptr_t)b;
    /* the line in the low half, the column in the high half: one store */
    uint64_t lc = r->line | (base + i - r->line_start + 1) << 32;
    const bool hev = *have_event;
    uint64_t bl0 = n > 0 ? r->tag_bloom[0] : 0, bl1 = n > 0 ? r->tag_bloom[1] : 0;
    /* An Event pair after an Event pair ends the game (tags_fast): with
     * have_event set, Event's filter bit is set here, so that such a pair
     * stops the loop as a possible duplicate, with no test of its own (the
     * bit, also where no Event pair is stored, only sends an Event pair to
     * the general steps; it is the bit of Event in every case, tag_hash) */
    if (hev)
        (void)bloom_add(&bl0, &bl1, (const unsigned char *)"Event", 5);
    PgnTag *const tag0 = tag;
    bool open = false;            /* stopped after a tag, before its line end */
    while (s <= slim && tag < tag_end) {
        /* the line feed ending the line, found apart from the parse below:
         * the next line's place then waits on this search alone, not on
         * the whole chain of the parse (a tag line here is under 64 bytes,
         * and none of its bytes before the line end is a line feed) */
        unsigned le = ctz64(lf(s) | (uint64_t)1 << 63);
        TagLine tl;
        if (!tag_line_parse(s, &tl, stop32))
            break;
        if (!bloom_add(&bl0, &bl1, s + 1, tl.nlen))
            break;            /* maybe a duplicate: tag_commit_slow checks */
        ap = tag_line_store(tag, ap, s, &tl, sbase + (uintptr_t)s, lc);
        tag++;
        /* its line end (a CR LF counts once) */
        size_t end = tl.nlen + tl.vl + 5;
        if (le != end + (s[end] == '\r')) {
            s += end;
            open = true;
            break;
        }
        s += le + 1;
        lc = (uint32_t)((uint32_t)lc + 1u) | (uint64_t)1 << 32;
    }
    if (tag != tag0) {
        TagLines t = {tag0, tag, ap, bl0, bl1, lc, sbase + (uintptr_t)s, open};
        tag_lines_done(r, &t, hev, have_event, nlp);
    }
    return (size_t)(s - b);
}

NOINLINE static size_t tag_lines(PgnReader *r, size_t i, bool *have_event, unsigned *nlp)
{
    return tag_lines_body(r, i, have_event, nlp, tv_stop32, lf64);
}

#ifdef PGN_AVX2
/* the same compiled for AVX2 (three-operand forms of the same vector
 * operations, andn, shlx), where pgn_walk_avx2 says the CPU has it */
__attribute__((target("avx2,bmi,bmi2"))) NOINLINE static size_t tag_lines_avx2(PgnReader *r, size_t i,
                                                                               bool *have_event, unsigned *nlp)
{
    return tag_lines_body(r, i, have_event, nlp, tv_stop32_avx2, lf64_avx2);
}
#endif
#endif

/* Fast path for the tag section: blanks, line ends and well-formed tag pairs
 * in the buffer.  *ws_nl counts the line ends of the current blank run
 * (pgn_tags_read adds it to what skip_ws finds).  Returns true if the game
 * ended (before a tag that starts the next game). */
static bool tags_fast(PgnReader *r, bool *have_event, unsigned *ws_nl)
{
    PgnGame *g = r->g;
    const unsigned char *b = r->buf;
    size_t i = r->pos, e = r->end;
    unsigned nl = *ws_nl;
    while (i < e) {
        unsigned c = b[i];
        if (c == ' ' || c == '\t') {
            i++;
            continue;
        }
        if (c == '\n' || c == '\r') {
            if (!(c == '\n' && b[i - 1] == '\r')) {
                r->line++;
                nl++;
            }
            r->line_start = r->base + i + 1;
            r->line_tok = false;
            i++;
            continue;
        }
#ifdef PGN_SYM16
        if (c == '[') {
            size_t j;
#ifdef PGN_AVX2
            if (pgn_walk_avx2)
                j = tag_lines_avx2(r, i, have_event, &nl);
            else
#endif
                j = tag_lines(r, i, have_event, &nl);
            if (j != i) {
                i = j;
                continue;
            }
        }
#endif
        TagScan ts;
        if (c != '[' || !tag_scan(r, i, &ts))
            break;
        PgnPos p = pos_of(r, i);
        if (g->ntags > 0 && (nl >= 2 || (ts.event && *have_event))) {
            r->pos = i;
            return pgn_ends_at(r, p.offset);
        }
        *have_event |= ts.event;
        r->line_tok = true;
        r->last_tok = p;
        /* the opening quote is on the same line */
        PgnPos vpos = p;
        vpos.offset += ts.vq - i;
        uint64_t vc = (uint64_t)p.col + (ts.vq - i);
        vpos.col = vc > UINT32_MAX ? UINT32_MAX : (uint32_t)vc;
        if (ts.high)
            value_bytes(r, vpos, ((GameStore *)g->priv)->arena + ts.val_off, ts.vlen);
        tag_commit(r, p, vpos, ts.name_off, ts.nlen, ts.val_off, ts.vlen);
        i = ts.end;
        nl = 0;
    }
    r->pos = i;
    *ws_nl = nl;
    return false;
}

/* The tag section of a game, from its first tag: true when the game
 * ended in it (r->ended says how). */
static bool tags_read(PgnReader *r)
{
    PgnGame *g = r->g;
    bool have_event = false;
    unsigned ws_nl = 0;
    for (;;) {
        if (tags_fast(r, &have_event, &ws_nl))
            return true;
        if (!pgn_skip_ws_at(r)) {
            g->truncated = true;
            return pgn_ends_at(r, off_of(r, r->pos));
        }
        r->nl_run += ws_nl;
        ws_nl = 0;
        unsigned c = r->buf[r->pos];
        PgnPos p = pos_of(r, r->pos);
        if (c == '[') {
            bool ev = false;
            if (!pgn_tag_like(r, &ev)) {
                /* a malformed tag line after an empty line: the next
                 * game's (as a well-formed one would be) */
                if (g->ntags > 0 && r->nl_run >= 2) {
                    return pgn_ends_at(r, p.offset);
                }
                r->line_tok = true;
                r->last_tok = p;
                read_tag(r);   /* reports BAD_TAG */
                ws_nl = r->tag_nl ? r->tag_nl : !r->line_tok;   /* (its line ends, where it took them) */
                continue;
            }
            if (g->ntags > 0 && (r->nl_run >= 2 || (ev && have_event))) {
                return pgn_ends_at(r, p.offset);
            }
            have_event |= ev;
            r->line_tok = true;
            r->last_tok = p;
            read_tag(r);
            /* a line end read with a tag pair in error counts in the blank
             * run after it, as the one after a pair read whole does; so do
             * those after a pair not closed by ] */
            ws_nl = r->tag_nl ? r->tag_nl : !r->line_tok;
            continue;
        }
        if ((c == '%' && p.col == 1) || c == ';') {
            pgn_skip_line(r);
            pgn_note(r, c == ';' ? PGN_NOTE_SEMICOLON : PGN_NOTE_ESCAPE, p.offset, 0, 0);
            ws_nl = !r->line_tok;
            continue;
        }
        return false;   /* movetext begins */
    }
}

PgnEnd pgn_tags_read(PgnReader *r)
{
    return tags_read(r) ? r->ended : PGN_END_NONE;
}
