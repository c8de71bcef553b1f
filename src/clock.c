/* clock.c - clock forensics: TimeControl forms, each side's clock rebuilt
 * from [%clk] (time left after the move) and [%emt] (time the move used),
 * and the side whose flag fell.  Sources: PGN standard 9.6.1 (TimeControl)
 * and the FIDE Laws 6.2-6.9 (the clock, the flag) and 7.5.5 (an arbiter's
 * award of time); the rules and their reasons are in the man page, CLOCKS. */
#include "clock.h"

#include <stdio.h>
#include <string.h>

#define CS_SECOND 100
#define CS_MINUTE 6000
#define MAX_RISE_NOTES 6        /* rise notes a game; the rest are counted in one */

/* ---------------------------------------------------------------------
 * TimeControl.
 * ------------------------------------------------------------------- */
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c; }

/* Digits at *p (at most 9) into *v; false if none. */
static bool read_num(const char **p, const char *e, int64_t *v)
{
    const char *s = *p;
    int64_t x = 0;
    int n = 0;
    while (s < e && is_digit(*s) && n < 9) {
        x = x * 10 + (*s++ - '0');
        n++;
    }
    if (n == 0 || (s < e && is_digit(*s)))
        return false;
    *v = x;
    *p = s;
    return true;
}

/* One field of PGN 9.6.1, [s, e): "N", "N+I", "M/N", "M/N+I" (FIDE's
 * increment per period), or "*N" (sandclock, *sand set). */
static bool read_field(const char *s, const char *e, TcPeriod *pd, bool *sand)
{
    int64_t a, b = 0, inc = 0;
    *sand = s < e && *s == '*';
    s += *sand;
    if (!read_num(&s, e, &a))
        return false;
    uint32_t moves = 0;
    if (!*sand && s < e && *s == '/') {
        s++;
        if (!read_num(&s, e, &b) || a == 0)
            return false;
        moves = (uint32_t)a;
        a = b;
    }
    if (!*sand && s < e && *s == '+') {
        s++;
        if (!read_num(&s, e, &inc))
            return false;
        /* "+5d": a delay, not an increment: the clock never rises */
        if (s < e && (*s == 'd' || *s == 'D')) {
            s++;
            inc = 0;
        }
    }
    if (s != e)
        return false;
    pd->moves = moves;
    pd->base = a * CS_SECOND;
    pd->inc = inc * CS_SECOND;
    return true;
}

/* The standard's forms: fields joined by ':'. */
static bool read_standard(const char *s, const char *e, TimeControl *tc)
{
    unsigned n = 0;
    while (s < e) {
        const char *f = memchr(s, ':', (size_t)(e - s));
        if (!f)
            f = e;
        bool sand;
        if (n == TC_MAX_PERIODS || !read_field(s, f, &tc->period[n], &sand))
            return false;
        if (sand && (n > 0 || f != e))
            return false;
        /* a period without a move count is the rest of the game: last */
        if (n > 0 && tc->period[n - 1].moves == 0)
            return false;
        n++;
        tc->kind = sand ? TC_SANDCLOCK : TC_PERIODS;
        s = f + (f < e);
        if (f < e && s == e)
            return false;
    }
    tc->nperiods = n;
    if (n == 1 && tc->period[0].moves == 1)
        tc->kind = TC_DAILY;
    return n > 0;
}

/* A unit after a number: 3600 (hours), 60 (minutes), 1 (seconds), -1 (a
 * move count), 0 none; *len its length. */
static int unit_at(const char *p, const char *e, size_t *len)
{
    static const struct {
        const char *w;
        int unit;
    } units[] = {{"hours", 3600}, {"hour", 3600}, {"hrs", 3600}, {"hr", 3600}, {"h", 3600},
                 {"''", 1}, {"minutes", 60}, {"minute", 60}, {"mins", 60}, {"min", 60}, {"m", 60}, {"'", 60},
                 {"seconds", 1}, {"second", 1}, {"secs", 1}, {"sec", 1}, {"s", 1}, {"\"", 1},
                 {"moves", -1}, {"move", -1}, {"mv", -1}};
    while (p < e && *p == ' ')
        p++;
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        size_t l = strlen(units[u].w);
        bool letters = units[u].w[0] >= 'a' && units[u].w[0] <= 'z';
        if ((size_t)(e - p) >= l && memcmp(p, units[u].w, l) == 0 &&
            !(letters && p + l < e && p[l] >= 'a' && p[l] <= 'z')) {
            *len = l;
            return units[u].unit;
        }
    }
    *len = 0;
    return 0;
}

/* A period's time with no unit in US notation ("40/2", "SD/60", "G/90"):
 * hours up to 6, minutes above. */
static int64_t bare_period(int64_t v) { return v * (v <= 6 ? 60 * CS_MINUTE : CS_MINUTE); }

/* Free text, as FIDE's and federations' own files have it: "90 min + 30
 * sec/move", "40 moves in 90 min, then 30 min, 30 sec increment",
 * "90'+30''", "40/90, SD30; +30", "G/90;d5".  Each number takes its
 * unit: hours and minutes are a period's time, seconds an increment after
 * "+" or before "/move", "inc", "per move"; a delay ("d5") never adds. */
static bool read_free_text(const char *s, const char *e, TimeControl *tc)
{
    char buf[128];
    size_t n = 0;
    for (const char *q = s; q < e && n + 1 < sizeof buf; q++)
        buf[n++] = lower(*q);
    buf[n] = '\0';
    const char *p = buf, *end = buf + n;
    unsigned np = 0;
    int64_t inc = -1, pending_moves = 0;
    bool plus = false, sd = false;
    while (p < end) {
        char c = *p;
        if (c == '+') {
            plus = true;
            p++;
            continue;
        }
        if (!is_digit(c)) {
            /* "sd", "g/", "game": the period for the rest of the game */
            if ((c == 's' && p + 1 < end && p[1] == 'd') || (c == 'g' && (p + 1 == end || p[1] == '/' || p[1] == ' ' || is_digit(p[1])))) {
                sd = true;
                pending_moves = 0;
            }
            /* "d5": a delay */
            if (c == 'd' && p + 1 < end && is_digit(p[1]) && (p == buf || !(p[-1] >= 'a' && p[-1] <= 'z'))) {
                int64_t v;
                p++;
                if (!read_num(&p, end, &v))
                    return false;
                plus = false;
                continue;
            }
            p++;
            continue;
        }
        int64_t v;
        const char *num = p;
        if (!read_num(&p, end, &v))
            return false;
        if (num - buf >= 5 && memcmp(num - 5, "move ", 5) == 0 && !plus) {
            continue;   /* "from move 1" */
        }
        size_t ul;
        int unit = unit_at(p, end, &ul);
        const char *after = p;
        while (after < end && *after == ' ')
            after++;
        if (unit == 0 && after < end && *after == '/' && after + 1 < end && is_digit(after[1]) && !sd) {
            /* "40/90": moves in time */
            int64_t t;
            p = after + 1;
            if (!read_num(&p, end, &t) || np == TC_MAX_PERIODS)
                return false;
            int tu = unit_at(p, end, &ul);
            tc->period[np].moves = (uint32_t)v;
            tc->period[np].base = tu > 0 ? t * tu * CS_SECOND : bare_period(t);
            np++;
            p += ul;
        } else if (unit == -1) {
            const char *b = num;
            while (b > buf && b[-1] == ' ')
                b--;
            if (np > 0 && b > buf && b[-1] == '/' && tc->period[np - 1].moves == 0)
                tc->period[np - 1].moves = (uint32_t)v;   /* "90 min/40 moves" */
            else
                pending_moves = v;
            p = after + ul;
        } else if (unit >= 60 || (unit == 0 && sd)) {
            if (np == TC_MAX_PERIODS)
                return false;
            tc->period[np].base = unit ? v * unit * CS_SECOND : bare_period(v);
            tc->period[np].moves = (uint32_t)pending_moves;
            pending_moves = 0;
            np++;
            p = after + ul;
            sd = false;
        } else if (unit == 1 || (unit == 0 && plus)) {
            const char *q = after + ul;
            if (q < end && *q == 'd') {
                p = q + 1;       /* "+5d": a delay */
                plus = false;
                continue;
            }
            while (q < end && *q == ' ')
                q++;
            bool per_move = (q < end && *q == '/') || strncmp(q, "per", 3) == 0 || strncmp(q, "inc", 3) == 0 ||
                            strncmp(q, "a move", 6) == 0 || strncmp(q, "from", 4) == 0 || strncmp(q, "bonus", 5) == 0 ||
                            strncmp(q, "each", 4) == 0;
            if (!(plus || per_move || np > 0))
                return false;
            inc = v * CS_SECOND;
            p = after + ul;
        } else
            return false;   /* a number without a unit: not a form read here */
        plus = false;
    }
    if (np == 0)
        return false;
    for (unsigned i = 0; i < np; i++)
        tc->period[i].inc = inc > 0 ? inc : 0;
    tc->nperiods = np;
    tc->kind = TC_PERIODS;
    tc->guess = "free text";
    return true;
}

void clock_parse_tc(const char *s, TimeControl *tc)
{
    memset(tc, 0, sizeof *tc);
    if (!s) {
        tc->kind = TC_ABSENT;
        return;
    }
    const char *e = s + strlen(s);
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    if (e - s == 1 && (*s == '?' || *s == '-')) {
        tc->kind = *s == '?' ? TC_UNKNOWN : TC_UNTIMED;
        return;
    }
    if (read_standard(s, e, tc))
        return;
    memset(tc, 0, sizeof *tc);
    if (e - s < 120 && read_free_text(s, e, tc))
        return;
    memset(tc, 0, sizeof *tc);
    tc->kind = TC_UNREAD;
}

/* After a side's k-th move (1-based) in a control of periods: the
 * increment it gets, and the time of the next period when the move ends
 * one (the last period, counted in moves, repeats: "40/7200"). */
static void tc_after_move(const TimeControl *tc, uint32_t k, int64_t *inc, int64_t *bonus)
{
    *inc = 0;
    *bonus = 0;
    if (tc->kind != TC_PERIODS)
        return;
    uint64_t cum = 0;
    for (unsigned j = 0; j < tc->nperiods; j++) {
        const TcPeriod *p = &tc->period[j];
        *inc = p->inc;
        if (p->moves == 0)
            return;
        if (j + 1 == tc->nperiods) {
            uint64_t rest = k > cum ? k - cum : 0;
            if (rest > 0 && rest % p->moves == 0)
                *bonus = p->base;
            return;
        }
        if (k <= cum + p->moves) {
            if (k == cum + p->moves)
                *bonus = tc->period[j + 1].base;
            return;
        }
        cum += p->moves;
    }
}

/* The control as its reading has it, for messages: "300 s + 3 s",
 * "40 moves in 120 min, then 60 min". */
static void tc_describe(const TimeControl *tc, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (unsigned j = 0; j < tc->nperiods && n + 1 < cap; j++) {
        const TcPeriod *p = &tc->period[j];
        long long b = (long long)(p->base / CS_SECOND), i = (long long)(p->inc / CS_SECOND);
        int w = snprintf(out + n, cap - n, "%s", j ? ", then " : tc->kind == TC_SANDCLOCK ? "sandclock " : "");
        n += w > 0 ? (size_t)w : 0;
        if (p->moves && n + 1 < cap) {
            w = snprintf(out + n, cap - n, tc->kind == TC_DAILY ? "a move in " : "%u moves in ", p->moves);
            n += w > 0 ? (size_t)w : 0;
        }
        if (n + 1 < cap) {
            if (p->base >= 10 * CS_MINUTE && p->base % CS_MINUTE == 0)
                w = snprintf(out + n, cap - n, "%lld min", b / 60);
            else
                w = snprintf(out + n, cap - n, "%lld s", b);
            n += w > 0 ? (size_t)w : 0;
        }
        if (i && n + 1 < cap) {
            w = snprintf(out + n, cap - n, " + %lld s", i);
            n += w > 0 ? (size_t)w : 0;
        }
    }
}

/* ---------------------------------------------------------------------
 * Termination.
 * ------------------------------------------------------------------- */
/* Does s contain w, case-blind? */
static bool contains(const char *s, const char *w)
{
    size_t l = strlen(w);
    for (; *s; s++) {
        size_t i = 0;
        while (i < l && lower(s[i]) == w[i])
            i++;
        if (i == l)
            return true;
    }
    return false;
}

int clock_termination_on_time(const char *term)
{
    if (!term || !*term)
        return 0;
    /* the usual values first, at once: lichess's "Normal", "Time forfeit" */
    if (term[0] == 'N' && strcmp(term, "Normal") == 0)
        return 0;
    if (term[0] == 'T' && strcmp(term, "Time forfeit") == 0)
        return 1;
    char low[96];
    size_t n = 0;
    for (; term[n] && n + 1 < sizeof low; n++)
        low[n] = lower(term[n]);
    low[n] = '\0';
    if (!strstr(low, "time") && !strstr(low, "flag"))
        return 0;
    /* chess.com: "Game drawn by timeout vs insufficient material" */
    if (strstr(low, "drawn") && (strstr(low, "timeout") || strstr(low, "on time")))
        return 2;
    if (strstr(low, "time forfeit") || strstr(low, "time-forfeit") || strstr(low, "timeforfeit") ||
        strstr(low, "won on time") || strstr(low, "lost on time") || strstr(low, "by timeout") ||
        strstr(low, "flag fall") || strstr(low, "flagged"))
        return 1;
    /* "time" alone (the PGN standard's 9.8.1 list has "time forfeit") */
    return strcmp(low, "time") == 0;
}

/* A game played online: the server's clock, which runs for the side to
 * move only, and records the flag of that side. */
static bool is_online(const ClockGame *cg)
{
    static const char *const sites[] = {"lichess", "chess.com", "chessclub.com", "freechess", "playchess", NULL};
    for (const char *const *w = sites; *w; w++)
        if ((cg->site && contains(cg->site, *w)) || (cg->event && contains(cg->event, *w)))
            return true;
    return cg->event && (contains(cg->event, "live chess") || contains(cg->event, "titled tuesday"));
}

static bool is_lichess(const ClockGame *cg)
{
    return (cg->site && contains(cg->site, "lichess")) || (cg->event && contains(cg->event, "lichess"));
}

/* ---------------------------------------------------------------------
 * The clocks, ply by ply.
 * ------------------------------------------------------------------- */
static const char *const side_name[2] = {"White", "Black"};

/* A time in centiseconds as h:mm:ss, with tenths or hundredths when the
 * record has them. */
static const char *fmt_cs(int64_t cs, int prec, char *buf, size_t cap)
{
    const char *sign = cs < 0 ? "-" : "";
    int64_t a = cs < 0 ? -cs : cs;
    int64_t s = a / CS_SECOND;
    int w = snprintf(buf, cap, "%s%lld:%02lld:%02lld", sign, (long long)(s / 3600), (long long)(s / 60 % 60),
                     (long long)(s % 60));
    if (prec < CS_SECOND && w > 0 && (size_t)w < cap)
        snprintf(buf + w, cap - (size_t)w, ".%02lld", (long long)(a % CS_SECOND));
    return buf;
}

/* Seconds, for a difference: "31 s", "0.4 s". */
static const char *fmt_secs(int64_t cs, char *buf, size_t cap)
{
    if (cs % CS_SECOND == 0)
        snprintf(buf, cap, "%lld s", (long long)(cs / CS_SECOND));
    else
        snprintf(buf, cap, "%lld.%02lld s", (long long)(cs / CS_SECOND), (long long)((cs < 0 ? -cs : cs) % CS_SECOND));
    return buf;
}

/* One ply of the main line as the clocks see it. */
typedef struct Ply {
    const PgnElem *el;
    uint32_t ply;
    uint32_t number;      /* its move number: periods count by it (FIDE 6.3) */
    int side;
    bool has_clk, has_emt;
    int64_t clk, emt;
} Ply;

/* Walks the main line: the moves at depth 0, with their [%emt]. */
typedef struct Walker {
    const PgnGame *g;
    size_t i, m;          /* next element, next emt */
    int depth;
    uint32_t ply, plies;
    int first_side;
    uint32_t first_number;
} Walker;

static bool walk_next(Walker *w, Ply *p)
{
    const PgnGame *g = w->g;
    while (w->i < g->nelems && w->ply < w->plies) {
        size_t i = w->i++;
        const PgnElem *el = &g->elems[i];
        if (el->kind == PGN_EL_VAR_START) {
            w->depth++;
            continue;
        }
        if (el->kind == PGN_EL_VAR_END) {
            w->depth -= w->depth > 0;
            continue;
        }
        if (w->depth != 0)
            continue;
        p->el = el;
        p->ply = ++w->ply;
        p->side = (w->first_side + (int)(p->ply - 1)) & 1;
        p->number = w->first_number + (uint32_t)(w->first_side + (int)p->ply - 1) / 2;
        /* (pgn.h: a negative time -t is kept as -1 - t) */
        p->has_clk = el->clock != -1;
        p->clk = el->clock >= 0 ? el->clock : (int64_t)el->clock + 1;
        p->has_emt = false;
        while (w->m < g->nemts && g->emts[w->m].elem <= i) {
            if (g->emts[w->m].elem == i) {
                p->has_emt = true;
                p->emt = g->emts[w->m].cs;
            }
            w->m++;
        }
        return true;
    }
    return false;
}

typedef struct Ck {
    const ClockGame *cg;
    ClockSay say;
    void *arg;
    TimeControl tc;
    const char *tc_text;        /* the tag's value */
    const PgnPos *tc_pos;       /* where it is (NULL: no tag) */
    bool tc_bad;                /* the clocks refute it (time-control-contradicted) */
    char tc_desc[96];           /* tc described, made when a message needs it (desc()) */
    int prec;                   /* the record's precision: 100 (whole seconds) or 10 cs */
    int online, lichess;        /* -1 until asked (online(), lichess()) */
    /* per side */
    bool seen[2];               /* a clock of this side known (last[]) */
    int64_t last[2];            /* its clock after its last move (shown or rebuilt) */
    bool last_shown[2];         /* last[] is a [%clk], not rebuilt */
    uint32_t moves[2];          /* the number of its last move (0: none yet) */
    int64_t used[2];
    bool used_known[2];
    /* a period's time not yet seen: the move that should have had it */
    int64_t pend_bonus[2];
    uint32_t pend_move[2];
    uint32_t pend_ply[2];
    const PgnElem *pend_el[2];
    bool berserk[2];            /* started at half the time (clock-berserk) */
    int64_t start_inc[2];       /* an increment given at the start (a clock in Fischer mode) */
    uint32_t plies, with;       /* main-line plies, and those with a clock comment */
    Ply without;                /* the first without one (el NULL: none) */
    unsigned rise_notes, rises_more;
} Ck;

static void say(Ck *k, DiagCode code, const PgnElem *at, uint32_t ply, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void say(Ck *k, DiagCode code, const PgnElem *at, uint32_t ply, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const PgnPos *pos = at ? &at->pos : NULL;
    if (!at && (code == D_TIME_CONTROL_UNREAD || code == D_TIME_CONTROL_FORM || code == D_TIME_CONTROL_CONTRADICTED))
        pos = k->tc_pos;
    k->say(k->arg, code, pos, ply, at ? at->text : NULL, fmt, ap);
    va_end(ap);
}

/* "2. Nf3" or "2... Nf6" for a ply. */
static const char *move_label(const Ply *p, char *buf, size_t cap)
{
    snprintf(buf, cap, "%u%s %s", p->number, p->side ? "..." : ".", p->el->text);
    return buf;
}

/* Before the rebuild: each side's first clock (the start is judged on
 * them) and the record's precision so far; the walk stops once both are
 * found, at the second ply of most games. */
typedef struct Survey {
    bool has_first[2];
    int64_t first[2];
    uint32_t first_k[2];         /* the move number it was shown after */
    int prec;
} Survey;

static void survey(const ClockGame *cg, Survey *sv)
{
    memset(sv, 0, sizeof *sv);
    sv->prec = CS_SECOND;
    Walker w = {cg->g, 0, 0, 0, 0, cg->plies, cg->side_at_end ^ (int)(cg->plies & 1), cg->first_number};
    Ply p;
    while (!(sv->has_first[0] && sv->has_first[1]) && walk_next(&w, &p)) {
        if (p.has_clk && !sv->has_first[p.side]) {
            sv->has_first[p.side] = true;
            sv->first[p.side] = p.clk;
            sv->first_k[p.side] = p.number;
            if (p.clk % CS_SECOND != 0)
                sv->prec = 10;
        }
    }
}

/* The time a side may show after its k-th move at most: the start, each
 * move's increment and each period's time added by then. */
static int64_t ceiling_after(const TimeControl *tc, uint32_t kmax)
{
    if (tc->kind == TC_DAILY || tc->kind == TC_SANDCLOCK)
        return tc->period[0].base;
    /* digital clocks in Fischer mode give the first increment when started */
    int64_t t = tc->period[0].base + tc->period[0].inc;
    for (uint32_t k = 1; k <= kmax; k++) {
        int64_t inc, bonus;
        tc_after_move(tc, k, &inc, &bonus);
        t += inc + bonus;
    }
    return t;
}

static bool tc_known(const TimeControl *tc)
{
    return tc->kind == TC_PERIODS || tc->kind == TC_SANDCLOCK || tc->kind == TC_DAILY;
}

/* The control described, for a message (made once, when first needed). */
static const char *desc(Ck *k)
{
    if (!k->tc_desc[0])
        tc_describe(&k->tc, k->tc_desc, sizeof k->tc_desc);
    return k->tc_desc;
}

static bool online(Ck *k)
{
    if (k->online < 0)
        k->online = is_online(k->cg);
    return k->online;
}

static bool lichess(Ck *k)
{
    if (k->lichess < 0)
        k->lichess = is_lichess(k->cg);
    return k->lichess;
}

/* The start: first clocks above what the control gives are a warning
 * (PGN 9.6.1), unless the tag reads in minutes where the standard has
 * seconds and the clocks fit that (said in a note); a lichess side
 * starting at half the time berserked (a note). */
static void check_start(Ck *k, const Survey *sv)
{
    TimeControl *tc = &k->tc;
    if (!tc_known(tc))
        return;
    bool over[2] = {false, false};
    for (int s = 0; s < 2; s++)
        over[s] = sv->has_first[s] && sv->first[s] > ceiling_after(tc, sv->first_k[s]) + k->prec;
    char a[32], b[32];
    /* minutes: a start of at most 4 hours, and a first clock in the
     * upper half of it (a start a clock can show, not any time below) */
    if ((over[0] || over[1]) && !tc->guess && tc->kind == TC_PERIODS && tc->period[0].base <= 240 * CS_SECOND) {
        TimeControl m = *tc;
        for (unsigned j = 0; j < m.nperiods; j++)
            m.period[j].base *= 60;
        bool fits = false;
        for (int s = 0; s < 2; s++)
            if (sv->has_first[s] && sv->first[s] >= m.period[0].base / 2)
                fits = true;
        for (int s = 0; s < 2; s++)
            if (sv->has_first[s] && sv->first[s] > ceiling_after(&m, sv->first_k[s]) + k->prec)
                fits = false;
        if (fits) {
            m.guess = "minutes";
            *tc = m;
            k->tc_desc[0] = '\0';
            say(k, D_TIME_CONTROL_FORM, NULL, 0,
                "TimeControl \"%.24s\" is not in seconds (PGN 9.6.1): read as minutes, %s, which the clocks fit",
                k->tc_text, desc(k));
            return;
        }
    }
    for (int s = 0; s < 2; s++)
        if (over[s]) {
            say(k, D_TIME_CONTROL_CONTRADICTED, NULL, 0,
                "TimeControl \"%.24s\" (%s%s) gives %s at most, but %s's first clock shows %s", k->tc_text,
                tc->guess ? "read from free text: " : "", desc(k),
                fmt_cs(ceiling_after(tc, sv->first_k[s]), k->prec, a, sizeof a), side_name[s],
                fmt_cs(sv->first[s], k->prec, b, sizeof b));
            k->tc_bad = true;   /* a control the clocks refute judges no move */
            return;   /* one finding: the tag is wrong, not each side */
        }
    /* a first clock above the time and one increment: the clock gave the
     * first increment when started (ceiling_after), the start it had */
    for (int s = 0; s < 2; s++)
        if (tc->kind == TC_PERIODS && sv->has_first[s] && sv->first_k[s] == 1 &&
            sv->first[s] > tc->period[0].base + tc->period[0].inc)
            k->start_inc[s] = tc->period[0].inc;
    if (tc->kind == TC_PERIODS && tc->nperiods == 1 && tc->period[0].moves == 0)
        for (int s = 0; s < 2; s++) {
            int64_t half = tc->period[0].base / 2;
            if (sv->has_first[s] && sv->first_k[s] == 1 && sv->first[s] <= half + k->prec &&
                sv->first[s] >= half - 2 * CS_SECOND && lichess(k) && (k->berserk[s] = true))
                say(k, D_CLOCK_BERSERK, NULL, 0, "%s's clock starts at %s, half of %s: a lichess berserk",
                    side_name[s], fmt_cs(sv->first[s], k->prec, a, sizeof a), desc(k));
        }
}

/* Why a clock rose by r more than the control gives. */
static const char *rise_cause(Ck *k, int64_t r)
{
    if (r >= 14 * CS_SECOND && r <= 16 * CS_SECOND && lichess(k))
        return "lichess's give time, +15 s";
    if (r >= 119 * CS_SECOND && r <= 121 * CS_SECOND && !online(k))
        return "an arbiter's award, FIDE 7.5.5";
    return "give time, lag compensation, or an arbiter's award";
}

/* One ply of a side with its clock known before (k->last) and after (c). */
static void check_step(Ck *k, const Ply *p, int64_t prev, int64_t c, int64_t inc, int64_t bonus)
{
    int s = p->side;
    char a[32], b[32], e[32], d[24], f[24], mv[40];
    int64_t add = inc + bonus;
    /* a period's time missing here, seen later: at the wrong move */
    if (bonus > 0 && c <= prev + inc + k->prec) {
        k->pend_bonus[s] = bonus;
        k->pend_move[s] = k->moves[s];
        k->pend_ply[s] = p->ply;
        k->pend_el[s] = p->el;
        add = inc;
    }
    int64_t r = c - (prev + add);
    if (k->pend_bonus[s] > 0 && k->pend_move[s] != k->moves[s] && r > k->pend_bonus[s] / 2) {
        say(k, D_CLOCK_PERIOD_MISPLACED, p->el, p->ply,
            "%s's %s for the next period came after %s, not after move %u as \"%.24s\" has it",
            side_name[s], fmt_secs(k->pend_bonus[s], d, sizeof d), move_label(p, mv, sizeof mv),
            k->pend_move[s], k->tc_text);
        r -= k->pend_bonus[s];
        k->pend_bonus[s] = 0;
    }
    if (r >= CS_SECOND && r > k->prec) {
        if (k->rise_notes < MAX_RISE_NOTES) {
            k->rise_notes++;
            say(k, D_CLOCK_RISE, p->el, p->ply, "%s's clock went from %s to %s after %s under %.16s: %s beyond the increment (%s)",
                side_name[s], fmt_cs(prev, k->prec, a, sizeof a), fmt_cs(c, k->prec, b, sizeof b),
                move_label(p, mv, sizeof mv), k->tc_text, fmt_secs(r, d, sizeof d), rise_cause(k, r));
        } else
            k->rises_more++;
    }
    if (p->has_emt && p->has_clk) {
        int64_t want = prev + add - p->emt, diff = c > want ? c - want : want - c;
        if (r <= k->prec && diff > 2 * k->prec + CS_SECOND)
            say(k, D_CLOCK_EMT_MISMATCH, p->el, p->ply,
                "after %s %s's [%%clk] %s and [%%emt] %s disagree: %s + %s - %s is %s", move_label(p, mv, sizeof mv),
                side_name[s], fmt_cs(c, k->prec, a, sizeof a), fmt_secs(p->emt, d, sizeof d),
                fmt_cs(prev, k->prec, b, sizeof b), fmt_secs(add, f, sizeof f), d, fmt_cs(want, k->prec, e, sizeof e));
    }
    int64_t u = p->has_emt ? p->emt : prev + add - c;
    k->used[s] += u > 0 ? u : 0;
}

/* A negative time shown, or rebuilt from [%emt]: no clock shows one
 * (FIDE 6.1: the flag falls at zero). */
static void check_negative(Ck *k, const Ply *p, int64_t c, bool rebuilt)
{
    char a[32], mv[40];
    if (c < 0 && (!rebuilt || c < -(2 * k->prec + CS_SECOND)))
        say(k, D_CLOCK_NEGATIVE, p->el, p->ply, "%s's clock %s %s after %s: a clock stops at zero",
            side_name[p->side], rebuilt ? "rebuilt from [%emt] is" : "shows", fmt_cs(c, k->prec, a, sizeof a),
            move_label(p, mv, sizeof mv));
}

/* Every ply of the main line, each side's clock carried from its last
 * move to this one. */
/* One ply in general (any control, [%emt], a clock missing, a finding
 * to make): each side's clock carried in *k. */
static void step(Ck *k, const Ply *p, bool known, bool daily)
{
    int s = p->side;
    if (p->has_clk || p->has_emt)
        k->with++;
    else if (!k->without.el)
        k->without = *p;
    if (p->has_clk && k->prec > 10 && p->clk % CS_SECOND != 0)
        k->prec = 10;    /* (tenths seen: the precision the record has) */
    int64_t inc, bonus;
    tc_after_move(&k->tc, p->number, &inc, &bonus);
    if (p->has_clk)
        check_negative(k, p, p->clk, false);
    if (daily) {
        /* a day a move, not saved up: the clock shows what is left of it */
        if (p->has_clk)
            k->used[s] += k->tc.period[0].base - p->clk > 0 ? k->tc.period[0].base - p->clk : 0;
        else if (p->has_emt)
            k->used[s] += p->emt;
        else
            k->used_known[s] = false;
        k->last[s] = p->has_clk ? p->clk : k->last[s];
        k->seen[s] |= p->has_clk;
        k->last_shown[s] |= p->has_clk;
        return;
    }
    if (p->has_clk) {
        if (k->seen[s] && known)
            check_step(k, p, k->last[s], p->clk, inc, bonus);
        else if (k->seen[s]) {
            /* no control read: only the time used */
            int64_t u = p->has_emt ? p->emt : k->last[s] - p->clk;
            k->used[s] += u > 0 ? u : 0;
        } else
            k->used_known[s] = false;   /* the time before the first clock is not known */
        k->last[s] = p->clk;
        k->seen[s] = true;
        k->last_shown[s] = true;
    } else if (p->has_emt) {
        k->used[s] += p->emt;
        if (k->seen[s] && known) {
            int64_t c = k->last[s] + inc + bonus - p->emt;
            check_negative(k, p, c, true);
            k->last[s] = c;
        } else
            k->seen[s] = false;
        k->last_shown[s] = false;
    } else {
        k->seen[s] = false;          /* the clock is lost until the next [%clk] */
        k->used_known[s] = false;
        k->last_shown[s] = false;
    }
}

/* Every ply of the main line, each side's clock carried from its last
 * move to this one. */
static void rebuild(Ck *k)
{
    const ClockGame *cg = k->cg;
    const PgnGame *g = cg->g;
    bool known = tc_known(&k->tc) && !k->tc_bad, daily = known && k->tc.kind == TC_DAILY;
    /* the clocks start at the control's time (half of it after a
     * berserk); a game from a set-up position started on clocks not known */
    bool start = known && cg->first_number == 1;
    for (int s = 0; s < 2; s++) {
        k->seen[s] = start && !daily;
        k->last[s] = start ? k->tc.period[0].base / (k->berserk[s] ? 2 : 1) + k->start_inc[s] : 0;
        k->used_known[s] = start;
    }
    /* The usual game, one period ("300+3"), a [%clk] after every move and
     * no [%emt]: each ply in a few instructions on local copies (games
     * with clocks are to cost little more than without); anything else,
     * or a rise to report, takes step(). */
    bool fast = known && k->tc.kind == TC_PERIODS && k->tc.nperiods == 1 && k->tc.period[0].moves == 0 &&
                g->nemts == 0;
    int64_t inc0 = k->tc.period[0].inc;
    int64_t last[2] = {k->last[0], k->last[1]}, used[2] = {0, 0};
    bool seen[2] = {k->seen[0], k->seen[1]}, shown[2] = {false, false};
    int first_side = cg->side_at_end ^ (int)(cg->plies & 1), side = first_side, depth = 0;
    uint32_t ply = 0, with = 0;
    size_t m = 0;
    for (size_t i = 0; i < g->nelems && ply < cg->plies; i++) {
        const PgnElem *el = &g->elems[i];
        if (el->kind != PGN_EL_MOVE) {
            depth += el->kind == PGN_EL_VAR_START ? 1 : -(depth > 0);
            continue;
        }
        if (depth)
            continue;
        int s = side;
        side ^= 1;
        ply++;
        int32_t ck = el->clock;
        if (fast && ck >= 0 && seen[s]) {
            int64_t r = ck - (last[s] + inc0);
            if (r < CS_SECOND) {
                used[s] -= r < 0 ? r : 0;
                last[s] = ck;
                shown[s] = true;
                with++;
                continue;
            }
        }
        Ply p = {el, ply, cg->first_number + (uint32_t)(first_side + (int)ply - 1) / 2, s, ck != -1, false,
                 ck >= 0 ? ck : (int64_t)ck + 1, 0};
        while (m < g->nemts && g->emts[m].elem <= i) {
            if (g->emts[m].elem == i) {
                p.has_emt = true;
                p.emt = g->emts[m].cs;
            }
            m++;
        }
        for (int t = 0; t < 2; t++) {
            k->last[t] = last[t];
            k->seen[t] = seen[t];
            k->last_shown[t] |= shown[t];
            k->used[t] += used[t];
            used[t] = 0;
            shown[t] = false;
        }
        k->moves[s] = p.number;
        k->with += with;
        with = 0;
        step(k, &p, known, daily);
        for (int t = 0; t < 2; t++) {
            last[t] = k->last[t];
            seen[t] = k->seen[t];
        }
    }
    for (int t = 0; t < 2; t++) {
        k->last[t] = last[t];
        k->seen[t] = seen[t];
        k->last_shown[t] |= shown[t];
        k->used[t] += used[t];
        /* each side's last move number (the fast step leaves it) */
        uint32_t lp = (((first_side + (int)ply - 1) & 1) == t) ? ply : ply - 1;
        if (lp >= 1 && ply >= 1)
            k->moves[t] = cg->first_number + (uint32_t)(first_side + (int)lp - 1) / 2;
    }
    k->plies = ply;
    k->with += with;
    if (k->rises_more)
        say(k, D_CLOCK_RISE, NULL, 0, "and %u more clock rises beyond the increment in this game", k->rises_more);
    for (int s = 0; s < 2; s++)
        if (k->pend_bonus[s] > 0 && k->moves[s] > k->pend_move[s]) {
            char d[24], mv[40];
            Ply at = {k->pend_el[s], k->pend_ply[s], k->pend_move[s], s, false, false, 0, 0};
            say(k, D_CLOCK_PERIOD_MISPLACED, k->pend_el[s], k->pend_ply[s],
                "%s's %s for the next period was never added: due after %s (\"%.24s\")", side_name[s],
                fmt_secs(k->pend_bonus[s], d, sizeof d), move_label(&at, mv, sizeof mv), k->tc_text);
        }
}

/* Who ran out of time (FIDE 6.9): the flag falls on the clock that runs,
 * the side to move; on a board also on a player who made a move and had
 * not yet pressed the clock (FIDE 6.2.1: the move is not completed), whose
 * last clock then shows no time left. */
static void check_flag(Ck *k, ClockVerdict *v)
{
    const ClockGame *cg = k->cg;
    if (cg->ended_on_board || (cg->declared != PGN_RES_WHITE && cg->declared != PGN_RES_BLACK))
        return;
    int loser = cg->declared == PGN_RES_WHITE ? 1 : 0, to_move = cg->side_at_end;
    int term = clock_termination_on_time(cg->termination);
    char a[32];
    if (term == 1) {
        v->on_time = 1;
        if (loser == to_move)
            return;
        if (online(k))
            say(k, D_FLAG_WRONG_SIDE, NULL, 0,
                "%s lost on time, but after the last move %s's clock was running: online the flag falls on the side to move",
                side_name[loser], side_name[to_move]);
        else if (k->last_shown[loser] && k->last[loser] > k->prec)
            say(k, D_FLAG_WRONG_SIDE, NULL, 0,
                "%s lost on time, but completed the last move with %s left: the clock running was %s's",
                side_name[loser], fmt_cs(k->last[loser], k->prec, a, sizeof a), side_name[to_move]);
        return;
    }
    if (term != 0 || !k->last_shown[loser] || k->last[loser] != 0 || loser != to_move)
        return;
    bool normal = cg->termination && contains(cg->termination, "normal");
    if (!normal && !(cg->termination && *cg->termination))
        v->on_time = 2;
    say(k, D_FLAG_UNMARKED, NULL, 0, "%s, who lost, was on move with %s on the clock%s", side_name[loser],
        fmt_cs(0, k->prec, a, sizeof a),
        normal ? ", yet Termination is \"Normal\": a flag fall?" : ": read as a loss on time");
}

static void summarize(const Ck *k, ClockSummary *sum)
{
    sum->present = true;
    for (int s = 0; s < 2; s++) {
        sum->final_ms[s] = k->last_shown[s] || (k->moves[s] && tc_known(&k->tc) && !k->tc_bad && k->seen[s])
                               ? k->last[s] * 10 : CLOCK_UNKNOWN;
        sum->used_ms[s] = k->used_known[s] && k->moves[s] ? k->used[s] * 10 : CLOCK_UNKNOWN;
    }
}

void clock_check(const ClockGame *cg, ClockSay say_fn, void *arg, ClockSummary *sum, ClockVerdict *v)
{
    memset(sum, 0, sizeof *sum);
    memset(v, 0, sizeof *v);
    if (!cg->g->clocks || cg->plies == 0)
        return;
    Survey sv;
    survey(cg, &sv);
    Ck k;
    memset(&k, 0, sizeof k);
    k.cg = cg;
    k.say = say_fn;
    k.arg = arg;
    k.prec = sv.prec;
    k.online = k.lichess = -1;
    const char *tcv = NULL;
    for (size_t t = 0; t < cg->g->ntags; t++)
        if ((cg->g->tags[t].name[0] | 32) == 't' && (strcmp(cg->g->tags[t].name, "TimeControl") == 0 ||
                                                      pgn_name_casecmp(cg->g->tags[t].name, "TimeControl") == 0)) {
            tcv = cg->g->tags[t].value;
            k.tc_pos = &cg->g->tags[t].value_pos;
        }
    k.tc_text = tcv ? tcv : "";
    clock_parse_tc(tcv, &k.tc);
    check_start(&k, &sv);
    rebuild(&k);
    if (k.with == 0)
        return;   /* (clock comments in variations only: nothing said, no "clocks") */
    if (k.tc.kind == TC_UNREAD)
        say(&k, D_TIME_CONTROL_UNREAD, NULL, 0,
            "TimeControl \"%.40s\" is in no form read here, of PGN 9.6.1, FIDE or free text: the clocks are not held to it",
            k.tc_text);
    else if (k.tc.guess && strcmp(k.tc.guess, "free text") == 0)
        say(&k, D_TIME_CONTROL_FORM, NULL, 0, "TimeControl \"%.40s\" is not a PGN 9.6.1 form: read from free text as %s",
            k.tc_text, desc(&k));
    /* (a broadcast often ends before the last move's clock is sent: a
     * missing last clock alone is no finding) */
    if (k.without.el && !(k.with + 1 == k.plies && k.without.ply == k.plies)) {
        char mv[40];
        say(&k, D_CLOCK_PARTIAL, k.without.el, k.without.ply, "clocks on %u of %u moves: the first without is %s",
            k.with, k.plies, move_label(&k.without, mv, sizeof mv));
    }
    check_flag(&k, v);
    summarize(&k, sum);
}
