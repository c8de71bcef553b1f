/* tags.c - the Seven Tag Roster, the tag a name means, the Variant names of Chess960. */
#include "tags.h"

#include <string.h>

const char *const tags_roster[TAGS_ROSTER_N] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};

int tags_roster_index(const char *name)
{
    int i;
    switch (name[0]) {     /* (one candidate by the first letter) */
    case 'E': i = TAGS_EVENT; break;
    case 'S': i = TAGS_SITE; break;
    case 'D': i = TAGS_DATE; break;
    case 'R': i = name[1] == 'o' ? TAGS_ROUND : TAGS_RESULT; break;
    case 'W': i = TAGS_WHITE; break;
    case 'B': i = TAGS_BLACK; break;
    default: return -1;
    }
    return strcmp(name, tags_roster[i]) == 0 ? i : -1;
}

const PgnTag *tags_find(const PgnGame *g, const char *name)
{
    for (size_t i = 0; i < g->ntags; i++)
        if (g->tags[i].name && strcmp(g->tags[i].name, name) == 0)
            return &g->tags[i];
    for (size_t i = 0; i < g->ntags; i++)
        if (g->tags[i].name && pgn_name_casecmp(g->tags[i].name, name) == 0)
            return &g->tags[i];
    return NULL;
}

const char *tags_value(const PgnGame *g, const char *name)
{
    const PgnTag *t = tags_find(g, name);
    return t ? t->value : NULL;
}

int tags_variant(const char *value)
{
    if (!value)
        return 0;
    /* blanks, hyphens and underscores dropped, letters in lower case */
    char norm[64];
    size_t n = 0;
    for (const char *p = value; *p && n + 1 < sizeof norm; p++) {
        char ch = *p;
        if (ch == ' ' || ch == '-' || ch == '_')
            continue;
        if (ch >= 'A' && ch <= 'Z')
            ch = (char)(ch + 32);
        norm[n++] = ch;
    }
    norm[n] = '\0';
    static const char *const standard[] = {"standard", "chess", "normal", "fromposition", "orthodox"};
    static const char *const chess960[] = {"chess960", "960", "fischerandom", "fischerrandom", "freestyle", "frc",
                                           "fischerrandomchess", "freestylechess"};
    if (n == 0)
        return 0;
    for (size_t i = 0; i < sizeof standard / sizeof standard[0]; i++)
        if (strcmp(norm, standard[i]) == 0)
            return 0;
    for (size_t i = 0; i < sizeof chess960 / sizeof chess960[0]; i++)
        if (strcmp(norm, chess960[i]) == 0)
            return 1;
    return -1;
}
