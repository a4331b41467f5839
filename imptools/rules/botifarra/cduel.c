/* Botifarra's double-dummy solver for two players, in C: a line-by-line port of `duel.Duel` (duel.py), the search
 * it makes (`gain`, `node`, `masters`, `order`), its table (`find`, `store`, `grow`, `slot_of`) and what it calls of
 * masks.py (`legal_coded`, `beats`, the points and suit masks). It visits the very positions `duel.Duel` visits, in
 * the same order, with the same bounds, move order and table (the same slots, hashing, pairs, replacement and
 * doubling), so its values and `nodes` are the Python class's (tests/test_native_duel.py). The search holds no
 * Python object: the cards are 48-bit masks in `uint64_t`, the table two flat arrays (12 bytes a slot, as the
 * Python class's `array`s), freed with the solver. docs/ANALYSIS.md says how the search works.
 *
 * One thing it adds, off unless asked (`exact`, which the analysis sets: `position.DUEL_EXACT`): a table of the
 * exact values of the trick starts, worked out before the search from the last trick back (`Exact` below). The
 * values stay the Python class's; the positions visited fall (the same test compares them).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Whether the build targets a processor that counts a word's bits in one instruction (x86-64 with `-mpopcnt`, which
 * hatch_build.py passes where the building processor has it; every ARM64 processor). */
#if defined(__POPCNT__) || defined(__aarch64__)
#define POPCNT 1
#else
#define POPCNT 0
#endif

/* Whether it targets one that gathers a word's bits by a mask in one instruction (x86-64 with `-mbmi2`, as
 * csolver.c): `settled` tells a legal set without runs by it. */
#if defined(__BMI2__) && defined(__x86_64__)
#define PEXT 1
#include <immintrin.h>
#else
#define PEXT 0
#endif

#define DUEL_SLOTS (1LL << 25)
#define FIRST_SLOTS (1LL << 16)

/* masks.py's tables, written out (the test compares them with the Python ones) */
static const int POINTS_OF[48] = {
    0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5,
    0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5,
};
static const uint64_t SUIT_MASK[4] = {0xFFFULL, 0xFFFULL << 12, 0xFFFULL << 24, 0xFFFULL << 36};
static const uint64_t POINT_MASK = 0xF80F80F80F80ULL;

static inline int bitlen(uint64_t x) { return x ? 64 - __builtin_clzll(x) : 0; }
/* the bits set: the instruction where the build targets it (`POPCNT`), else by halves (portable:
 * no call into the compiler's library where the target has no instruction) */
static inline int popcount(uint64_t x)
{
#if POPCNT
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}
static inline int low_bit(uint64_t x) { return __builtin_ctzll(x); }

/* masks.beats */
static inline int beats(int card, int winning, int trump)
{
    int s = card / 12, w = winning / 12;
    return (s == w && card > winning) || (s == trump && w != trump);
}

/* The cards that beat `card` played after it (`beats` over a mask). */
static inline uint64_t beat_mask(int card, int trump)
{
    int s = card / 12;
    uint64_t m = SUIT_MASK[s] & ~((2ULL << card) - 1);
    if (trump >= 0 && s != trump) m |= SUIT_MASK[trump];
    return m;
}

/* The ranks of a mask's cards, every suit folded onto the first (a card's points are its rank's, `POINTS_OF`:
 * bits 7 to 11 are worth 1 to 5, the others nothing). */
static inline uint64_t ranks(uint64_t m) { return (m | m >> 12 | m >> 24 | m >> 36) & 0xFFF; }

/* The most points of a card of `m`, -1 if it is empty. */
static inline int64_t most_points(uint64_t m)
{
    uint64_t r = ranks(m);
    if (!r) return -1;
    return r & 0xF80 ? bitlen(r & 0xF80) - 7 : 0;
}

/* The fewest points of a card of `m`, 99 if it is empty. */
static inline int64_t least_points(uint64_t m)
{
    uint64_t r = ranks(m);
    if (!r) return 99;
    return r & 0x7F ? 0 : low_bit(r) - 6;
}

/* masks.lows */
static inline uint64_t lows(uint64_t held)
{
    uint64_t out = 0;
    for (int s = 0; s < 4; s++) {
        uint64_t x = held & SUIT_MASK[s];
        if (x) out |= x & (~x + 1);
    }
    return out;
}

/* masks._allowed */
static inline uint64_t allowed(int cell, uint64_t pool, uint64_t low)
{
    return cell == 1 ? low : pool & (POINT_MASK | low);
}

/* masks.legal_coded (`led` >= 0 and `winning` >= 0 where it matters) */
static uint64_t legal_coded(int cells, int trump, int led, int winning, int partner_master, uint64_t held)
{
    if (led < 0) return held;
    uint64_t follow = held & SUIT_MASK[led];
    if (partner_master) {
        uint64_t pool = follow ? follow : held;
        int cell = cells & 3;
        return cell == 0 ? pool : allowed(cell, pool, lows(pool));
    }
    uint64_t above = ~((2ULL << winning) - 1);
    if (follow) {
        uint64_t beaters = winning / 12 == led ? follow & above : 0;
        if (beaters) return beaters;
        int cell = cells >> 2 & 3;
        return cell == 0 ? follow : allowed(cell, follow, follow & (~follow + 1));
    }
    if (trump >= 0) {
        uint64_t trumps = held & SUIT_MASK[trump];
        if (winning / 12 == trump) trumps &= above;
        if (trumps) return trumps;
    }
    int cell = cells >> 4 & 3;
    return cell == 0 ? held : allowed(cell, held, lows(held));
}

/* duel.slot_of */
static inline int64_t slot_of(int64_t key, int64_t mask)
{
    uint64_t k = (uint64_t)key;
    return (int64_t)((((k & 0xFFFFFF) * 0x9E3779B1ULL ^ (k >> 24) * 0x85EBCA77ULL) >> 24) & (uint64_t)mask);
}

/* ------------------------------------------------------------------------ the table of exact values
 *
 * With two players every card lies in a pile (a card in hand is a pile of one), and the piles are played from the
 * top: a player's cards left are told by how many cards each of his piles has lost, and a trick start by the two
 * players' counts and the leader. Where those trick starts are few enough (`exact_most`: every one of a
 * `rector-vicar` hand, some 39M from trick 1; in `piles-and-hand`, whose eight cards in hand make thousands of times
 * more, those of its last tricks), their exact values are worked out once, from the last trick back, every lead against
 * every answer (the level below in the cache: a level is at most a few megabytes), and the search reads them in
 * place of searching: a trick start at a level the table holds is valued at once. The values are the search's (the
 * same minimax over the same legal cards), so every answer is the same; only the positions visited fall. */
#define EXACT_MAX_PILES 24
#define EXACT_MAX_STATES (1 << 22)

/* A search that needs less time than the table takes to work out should not pay for it (an endgame, a position in
 * the middle of a hand). So the table is planned at once (how many values: milliseconds) but worked out only once
 * the solver has visited, since, as many positions as it has values (a value costs about what a searched position
 * does: a search pays at most twice what it would have alone, and from a hand's middle it mostly ends first); from a
 * whole hand's first trick only an eighth of that many (every first value from trick 1 measured took more positions
 * than the table has values: a search pays at most an eighth more). A table of the last tricks alone (where every
 * trick start from there would pass `exact_most`) is planned only where `exact_after` asks for it: the search goes
 * on above those tricks, and as measured it saved a tenth of a whole `piles-and-hand` hand's positions but cost more
 * than that from a hand's middle (docs/PERFORMANCE.md). */
#define EXACT_RENT 8
#define WHOLE_HAND 24 /* each player's cards at a hand's first trick */

typedef struct {
    int piles[2];                                  /* each player's piles (his cards in hand one each) */
    int size[2][EXACT_MAX_PILES];                  /* their cards at the table's root */
    int card[2][EXACT_MAX_PILES][4 * 12];          /* their cards, the top one first */
    uint64_t pile[2][EXACT_MAX_PILES];             /* their cards as a mask */
    int64_t weight[2][EXACT_MAX_PILES];            /* a pile's digit in a player's state (the cards it lost) */
    int pile_of[48];                               /* the pile a card lies in */
    int states[2];                                 /* a player's states: the product of his piles' sizes + 1 */
    int cards;                                     /* each player's cards at the root: the levels 0 to `cards` */
    int from;                                      /* the lowest level held (0: every trick start) */
    uint8_t *level[2];                             /* a state's level: the cards its player has played */
    int32_t *rank[2];                              /* its place among its level's states */
    uint64_t *tops[2];                             /* the cards its player may play: his piles' top cards */
    int count[2][49];                              /* the states of each level */
    int64_t base[49];                              /* where a level's values start in `value` */
    uint8_t *value;                                /* the first seat's sum from each trick start held */
} Exact;

typedef struct {
    PyObject_HEAD
    PyObject *weakrefs;
    int cells;
    int trump;
    uint64_t trump_mask;
    uint64_t under[48];
    uint64_t bare; /* the cards with no pile card under them (none where the rule asks for point cards) */
    long long most;
    int64_t mask;
    long long size;
    int64_t *keys; /* the cards left and the leader, -1 for none */
    int32_t *vals; /* the lower and upper bound, the best card + 1, packed */
    long long taken;
    long long nodes;
    int failed; /* the table could not double: `gain` raises MemoryError */
    int stopped; /* a signal's handler raised (Ctrl-C): the search unwinds, storing nothing, and `gain` raises */
    long long exact_most;    /* the most entries of the table of exact values (`Exact`), 0 for none */
    long long exact_after;   /* the positions searched before its values are worked out, -1 for the solver's rule
                              * (`EXACT_RENT`; no table of the last tricks alone) */
    Exact *exact;            /* planned at the first trick start `gain` is asked from, NULL if none was */
    int exact_tried;         /* whether it was: one plan a solver */
    int exact_on;            /* whether this `gain`'s position lies in it (its piles as the table has them) */
    int exact_due;           /* the search stopped to work the values out (the positions it may visit are spent) */
    long long exact_since;   /* `nodes` when it was planned */
    long long exact_budget;  /* the positions the search may visit after that before the values are worked out */
    long long exact_entries; /* the exact values it holds, 0 until they are worked out */
    /* the search's state, set by `gain` */
    uint64_t hands[2];
    uint64_t free[2];
    int me;
    int to_lead;
    uint64_t live;
    int64_t live_points;
} DuelObject;

/* Duel.grow: twice the slots, in place, each entry in its slot or the same slot of the upper half */
static int grow(DuelObject *d)
{
    int64_t n = d->size;
    int64_t *keys = (int64_t *)realloc(d->keys, (size_t)(2 * n) * sizeof(int64_t));
    if (keys == NULL) return -1;
    d->keys = keys;
    int32_t *vals = (int32_t *)realloc(d->vals, (size_t)(2 * n) * sizeof(int32_t));
    if (vals == NULL) return -1; /* keys is larger, the table as it was */
    d->vals = vals;
    memcpy(keys + n, keys, (size_t)n * sizeof(int64_t));
    memcpy(vals + n, vals, (size_t)n * sizeof(int32_t));
    d->size = 2 * n;
    int64_t mask = d->mask = 2 * n - 1;
    for (int64_t i = 0; i < n; i++) {
        int64_t key = keys[i];
        if (key < 0) continue;
        if (slot_of(key, mask) & n)
            keys[i] = -1;
        else
            keys[i + n] = -1;
    }
    return 0;
}

/* Duel.store */
static void store(DuelObject *d, int64_t key, int64_t entry)
{
    int64_t *keys = d->keys;
    int64_t i = slot_of(key, d->mask);
    int64_t k0 = keys[i];
    if (k0 != key) {
        int64_t j = i ^ 1;
        int64_t k1 = keys[j];
        if (k1 == key)
            i = j;
        else if (k0 < 0)
            d->taken++;
        else if (k1 < 0) {
            i = j;
            d->taken++;
        } else if (popcount((uint64_t)k1 & 0xFFFFFFFFFFFFULL) < popcount((uint64_t)k0 & 0xFFFFFFFFFFFFULL))
            i = j;
    }
    keys[i] = key;
    d->vals[i] = (int32_t)entry;
    if (4 * d->taken > d->size && d->size < d->most) {
        if (grow(d) < 0) {
            d->failed = 1;
            d->most = d->size;
        }
    }
}

/* Duel.masters: what the leader and the other are sure of at a trick's start */
static void masters(DuelObject *d, int lead, int64_t *got_lead, int64_t *got_other)
{
    uint64_t *hands = d->hands;
    int other = 1 - lead;
    uint64_t tm = d->trump_mask;
    int64_t got[2] = {0, 0};
    for (int pass = 0; pass < 2; pass++) {
        int i = pass == 0 ? lead : other;
        int b = bitlen(hands[1 - i] & tm);
        uint64_t t = (hands[i] & tm) >> b;
        while (t) {
            if (t & 1) got[i] += 1 + 2 * POINTS_OF[b];
            t >>= 1;
            b++;
        }
    }
    if (!(hands[other] & tm)) {
        uint64_t lv = d->live;
        uint64_t free = d->free[lead];
        for (int s = 0; s < 4; s++) {
            if (s == d->trump) continue;
            uint64_t t = lv & SUIT_MASK[s];
            while (t) {
                int b = bitlen(t) - 1;
                uint64_t top = 1ULL << b;
                if (!(free & top)) break;
                got[lead] += 1 + 2 * POINTS_OF[b];
                free |= d->under[b];
                t ^= top;
            }
        }
    }
    *got_lead = got[lead];
    *got_other = got[other];
}

/* Duel.order: one card of each run of equivalent legal cards, in the order to try them; their number */
static int order(DuelObject *d, uint64_t legal, int k, int win, int *moves)
{
    uint64_t lv = d->live;
    const uint64_t *under = d->under;
    int reps[48];
    int n = 0;
    int prev = -1;
    uint64_t x = legal;
    while (x) {
        int b = low_bit(x);
        x &= x - 1;
        if (prev >= 0 && prev / 12 == b / 12 && POINTS_OF[prev] == POINTS_OF[b]
            && !(lv & ((1ULL << b) - (2ULL << prev))) && !under[prev] && !under[b]) {
            prev = b;
            continue;
        }
        prev = b;
        reps[n++] = b;
    }
    if (n == 1) {
        moves[0] = reps[0];
        return 1;
    }
    int64_t out[48];
    int trump = d->trump;
    uint64_t reply = k == 0 ? d->free[1 - d->to_lead] : 0;
    for (int r = 0; r < n; r++) {
        int b = reps[r];
        int64_t p = POINTS_OF[b];
        int64_t score;
        if (k == 0) {
            uint64_t answers = legal_coded(d->cells, trump, b / 12, b, 0, reply);
            /* the dearest answer that beats the lead, the cheapest that does not (-1, 99 for none) */
            uint64_t beaters = beat_mask(b, trump);
            int64_t dear = most_points(answers & beaters);
            int64_t cheap = least_points(answers & ~beaters);
            score = dear >= 0 ? 64 + p + dear : 32 - p - cheap;
            score = score * 16 + b % 12;
        } else if (beats(b, win, trump))
            score = -64 - p;
        else
            score = p * 16 + b % 12;
        /* `score << 6 | b` */
        int64_t v = score * 64 + b;
        int j = r;
        while (j > 0 && out[j - 1] > v) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = v;
    }
    for (int r = 0; r < n; r++) moves[r] = (int)(out[r] & 63);
    return n;
}

/* The table's pair of `key`'s slots fetched into the cache ahead of the lookup (the search's time goes mostly to
 * waiting for the table's memory): the key and the entry, asked together for every card of a trick's second
 * player before the first is searched. It changes nothing the search does. */
static inline void prefetch_slot(const DuelObject *d, int64_t key)
{
    int64_t i = slot_of(key, d->mask);
    __builtin_prefetch(&d->keys[i]);
    __builtin_prefetch(&d->vals[i]);
}

/* Where the trick that `b` completes leaves the table's key: the cards left and the winner, who leads next. */
static inline int64_t next_key(const DuelObject *d, int lead, int seat, int win, int b)
{
    int winner = beats(b, win, d->trump) ? seat : lead;
    return (int64_t)((d->live ^ (1ULL << win | 1ULL << b)) | (uint64_t)winner << 48);
}

/* masks.asks_points: whether a cell of the play rule asks for a point card (LOW_OR_POINT, coded 2) */
static inline int asks_points(int cells)
{
    return (cells & 3) == 2 || (cells >> 2 & 3) == 2 || (cells >> 4 & 3) == 2;
}

/* duel.Duel.settled: `legal` less the cards no search needs where who takes the trick is settled, one card of each
 * run with nothing in play between and no pile card under any: the follower's dearest where he takes the trick, else
 * his cheapest; a leader's dearest where the other can take none of it. */
static uint64_t settled(const DuelObject *d, uint64_t legal, int seat, int k, int win)
{
    uint64_t cand = legal & d->bare;
    if (!(cand & (cand - 1))) return legal;
    uint64_t lv = d->live;
#if PEXT
    { /* no two of them side by side among the cards in play: no run */
        uint64_t packed = _pext_u64(cand, lv);
        if (!(packed & packed >> 1)) return legal;
    }
#endif
    uint64_t out = legal & ~cand, x = cand;
    while (x) {
        int c = low_bit(x);
        x &= x - 1;
        int top = c;
        uint64_t run = 1ULL << c;
        while (x) {
            int b = low_bit(x);
            if (b / 12 != c / 12 || (lv & ((1ULL << b) - (2ULL << top)))) break;
            top = b;
            run |= 1ULL << b;
            x &= x - 1;
        }
        if (top == c) {
            out |= run;
        } else if (k) {
            out |= 1ULL << (beats(c, win, d->trump) ? top : c);
        } else { /* a lead: settled where the other can take none of the run (all of it compares alike) */
            uint64_t reply = d->free[1 - seat];
            uint64_t follow = reply & SUIT_MASK[c / 12];
            uint64_t takes = follow ? follow & ~((2ULL << c) - 1)
                                    : reply & d->trump_mask & (c / 12 == d->trump ? ~((2ULL << c) - 1) : ~0ULL);
            out |= takes ? run : 1ULL << top;
        }
    }
    return out;
}

/* ------------------------------------------------------------------------ the table of exact values: its work */

static void exact_free(Exact *x)
{
    if (x == NULL) return;
    for (int s = 0; s < 2; s++) {
        free(x->level[s]);
        free(x->rank[s]);
        free(x->tops[s]);
    }
    free(x->value);
    free(x);
}

/* A player's state where `live` holds the cards left: each pile's cards lost, by its weight. */
static inline int64_t exact_state(const Exact *x, int s, uint64_t live)
{
    int64_t st = 0;
    for (int i = 0; i < x->piles[s]; i++) st += (x->size[s][i] - popcount(live & x->pile[s][i])) * x->weight[s][i];
    return st;
}

/* Where the trick start of states `a`, `b` (the first and second seat's) and leader `lead` lies in `value`. */
static inline int64_t exact_index(const Exact *x, int k, int64_t a, int64_t b, int lead)
{
    return x->base[k] + ((int64_t)x->rank[0][a] * x->count[1][k] + x->rank[1][b]) * 2 + lead;
}

/* The piles of each player at a trick start (`hands`, `free`: his cards and those he may play; `under`), or 0 where
 * they do not make piles the table can count (a card under none of his free cards, too many states). */
static int exact_piles(Exact *x, const DuelObject *d, const uint64_t hands[2], const uint64_t free_[2])
{
    for (int b = 0; b < 48; b++) x->pile_of[b] = -1;
    int64_t total[2];
    for (int s = 0; s < 2; s++) {
        uint64_t seen = 0, tops = free_[s];
        int n = 0;
        int64_t states = 1;
        while (tops) {
            if (n == EXACT_MAX_PILES) return 0;
            int c = low_bit(tops);
            tops &= tops - 1;
            int m = 0;
            uint64_t pile = 0;
            for (;;) {
                uint64_t bb = 1ULL << c;
                if (!(hands[s] & bb) || (seen & bb)) return 0;
                seen |= bb;
                pile |= bb;
                x->card[s][n][m++] = c;
                x->pile_of[c] = n;
                if (!d->under[c]) break;
                c = low_bit(d->under[c]);
            }
            x->size[s][n] = m;
            x->pile[s][n] = pile;
            x->weight[s][n] = states;
            states *= m + 1;
            if (states > EXACT_MAX_STATES) return 0;
            n++;
        }
        if (seen != hands[s]) return 0;
        x->piles[s] = n;
        x->states[s] = (int)states;
        total[s] = popcount(hands[s]);
    }
    if (total[0] != total[1] || total[0] == 0) return 0;
    x->cards = (int)total[0];
    return 1;
}

/* Each player's states: level, place in it, the cards he may play; each level's states counted. */
static int exact_states(Exact *x)
{
    for (int s = 0; s < 2; s++) {
        int n = x->states[s];
        x->level[s] = (uint8_t *)malloc((size_t)n);
        x->rank[s] = (int32_t *)malloc((size_t)n * sizeof(int32_t));
        x->tops[s] = (uint64_t *)malloc((size_t)n * sizeof(uint64_t));
        if (x->level[s] == NULL || x->rank[s] == NULL || x->tops[s] == NULL) return 0;
        memset(x->count[s], 0, sizeof x->count[s]);
        for (int st = 0; st < n; st++) {
            int rest = st, level = 0;
            uint64_t tops = 0;
            for (int i = 0; i < x->piles[s]; i++) {
                int lost = rest % (x->size[s][i] + 1);
                rest /= x->size[s][i] + 1;
                level += lost;
                if (lost < x->size[s][i]) tops |= 1ULL << x->card[s][i][lost];
            }
            x->level[s][st] = (uint8_t)level;
            x->rank[s][st] = x->count[s][level]++;
            x->tops[s][st] = tops;
        }
    }
    return 1;
}

/* The lowest level whose trick starts, with every level below it, fit `most` entries; -1 if not even the last
 * trick's do. */
static int exact_from(Exact *x, long long most)
{
    int64_t entries = 0;
    int from = -1;
    for (int k = x->cards; k >= 0; k--) {
        int64_t here = (int64_t)x->count[0][k] * x->count[1][k] * 2;
        if (entries + here > most) break;
        entries += here;
        from = k;
    }
    if (from < 0) return -1;
    int64_t at = 0;
    for (int k = from; k <= x->cards; k++) {
        x->base[k] = at;
        at += (int64_t)x->count[0][k] * x->count[1][k] * 2;
    }
    x->from = from;
    return 0;
}

/* The values the table holds: every level from `from` up. */
static inline int64_t exact_size(const Exact *x) { return x->base[x->cards] + 2; }

/* Each player's states by level, in their order (the inverse of `rank`). */
static int32_t *exact_by_level(const Exact *x, int s, int64_t starts[50])
{
    int32_t *out = (int32_t *)malloc((size_t)x->states[s] * sizeof(int32_t));
    if (out == NULL) return NULL;
    starts[0] = 0;
    for (int k = 0; k <= x->cards; k++) starts[k + 1] = starts[k] + x->count[s][k];
    for (int st = 0; st < x->states[s]; st++) out[starts[x->level[s][st]] + x->rank[s][st]] = st;
    return out;
}

/* The values, from the last trick start back to `from`: seat 0's sum, the leader's best lead against the other's
 * best answer to it (the legal answers of `legal_coded`, as the search's). 0 where a signal's handler raised. */
static int exact_values(DuelObject *d, Exact *x)
{
    int64_t starts[2][50];
    int32_t *by[2] = {exact_by_level(x, 0, starts[0]), exact_by_level(x, 1, starts[1])};
    int ok = by[0] != NULL && by[1] != NULL;
    int trump = d->trump, cells = d->cells;
    for (int k = x->cards; ok && k >= x->from; k--) {
        uint8_t *here = x->value + x->base[k];
        if (k == x->cards) {
            here[0] = here[1] = 0;
            continue;
        }
        if (PyErr_CheckSignals() < 0) {
            ok = 0;
            break;
        }
        const uint8_t *next = x->value + x->base[k + 1];
        int64_t width = x->count[1][k + 1];
        for (int64_t i = starts[0][k]; i < starts[0][k + 1]; i++) {
            int64_t a = by[0][i];
            uint64_t free_a = x->tops[0][a];
            for (int64_t j = starts[1][k]; j < starts[1][k + 1]; j++) {
                int64_t b = by[1][j];
                uint64_t free_b = x->tops[1][b];
                for (int lead = 0; lead < 2; lead++) {
                    /* seat 0's sum: the leader's lead `c` from `leads`, the follower's answers `e` from `reply` */
                    uint64_t leads = lead ? free_b : free_a, reply = lead ? free_a : free_b;
                    int best = lead ? 255 : -1;
                    while (leads) {
                        int c = low_bit(leads);
                        leads &= leads - 1;
                        int64_t led_state = (lead ? b : a) + x->weight[lead][x->pile_of[c]];
                        int32_t led_rank = x->rank[lead][led_state];
                        uint64_t answers = legal_coded(cells, trump, c / 12, c, 0, reply);
                        int worst = lead ? -1 : 255; /* the follower's best, as seat 0's sum */
                        while (answers) {
                            int e = low_bit(answers);
                            answers &= answers - 1;
                            int64_t answer_state = (lead ? a : b) + x->weight[1 - lead][x->pile_of[e]];
                            int32_t answer_rank = x->rank[1 - lead][answer_state];
                            int taker = beats(e, c, trump) ? 1 - lead : lead;
                            int64_t at = lead ? (int64_t)answer_rank * width + led_rank
                                              : (int64_t)led_rank * width + answer_rank;
                            int v = next[at * 2 + taker] + (taker == 0 ? 2 * (POINTS_OF[c] + POINTS_OF[e]) + 1 : 0);
                            if (lead ? v > worst : v < worst) {
                                worst = v;
                                if (lead ? worst >= best : worst <= best) break; /* no better than a lead tried */
                            }
                        }
                        if (lead ? worst < best : worst > best) best = worst;
                    }
                    here[((i - starts[0][k]) * x->count[1][k] + (j - starts[1][k])) * 2 + lead] = (uint8_t)best;
                }
            }
        }
    }
    free(by[0]);
    free(by[1]);
    return ok;
}

/* The table of exact values planned from the trick start `gain` was asked from (its piles, states and levels; the
 * values not yet worked out): `d->exact` stays NULL where none is made (piles the table cannot count, too few
 * entries allowed for even the last trick, or for every trick start where `exact_after` does not ask for the last
 * tricks' alone). */
static void exact_plan(DuelObject *d, const uint64_t hands[2], const uint64_t free_[2])
{
    Exact *x = (Exact *)calloc(1, sizeof(Exact));
    if (x == NULL) return;
    if (!exact_piles(x, d, hands, free_) || !exact_states(x) || exact_from(x, d->exact_most) < 0
        || (x->from > 0 && d->exact_after < 0)) {
        exact_free(x);
        return;
    }
    d->exact = x;
    d->exact_since = d->nodes;
    int64_t entries = exact_size(x);
    d->exact_budget = d->exact_after >= 0      ? d->exact_after
                      : x->cards == WHOLE_HAND ? entries / EXACT_RENT
                                               : entries;
}

/* The planned table's values worked out: 0, or -1 with an exception where a signal's handler raised (the plan is
 * kept: the next `gain` works them out again). Without the memory for them, the plan is dropped and the solver
 * searches. */
static int exact_fill(DuelObject *d)
{
    Exact *x = d->exact;
    int64_t entries = exact_size(x);
    x->value = (uint8_t *)malloc((size_t)entries);
    if (x->value != NULL && exact_values(d, x)) {
        d->exact_entries = entries;
        return 0;
    }
    free(x->value);
    x->value = NULL;
    if (PyErr_Occurred()) return -1;
    exact_free(x);
    d->exact = NULL;
    return 0;
}

/* Whether the position `gain` is asked from lies in the table: each pile's cards left are its lowest ones, and each
 * player may play his piles' top cards (after the trick's first card, where there is one), as a legal play leaves
 * them (a card played out of turn, `not-visible`, breaks a pile: the search values that position). */
static int exact_holds(const Exact *x, const uint64_t hands[2], const uint64_t free_[2], uint64_t live, int leader,
                       int led)
{
    for (int s = 0; s < 2; s++) {
        uint64_t mine = 0;
        for (int i = 0; i < x->piles[s]; i++) {
            uint64_t left = live & x->pile[s][i];
            int lost = x->size[s][i] - popcount(left);
            for (int m = lost; m < x->size[s][i]; m++)
                if (!(left >> x->card[s][i][m] & 1)) return 0;
            mine |= x->pile[s][i];
        }
        uint64_t held = hands[s] | (led >= 0 && s == leader ? 1ULL << led : 0);
        if (held != (live & mine)) return 0;
        uint64_t tops = x->tops[s][exact_state(x, s, live)];
        if (led >= 0 && s == leader) {
            if (!(tops >> led & 1)) return 0;
            int i = x->pile_of[led], lost = x->size[s][i] - popcount(live & x->pile[s][i]);
            tops ^= 1ULL << led;
            if (lost + 1 < x->size[s][i]) tops |= 1ULL << x->card[s][i][lost + 1];
        }
        if (tops != free_[s]) return 0;
    }
    return 1;
}

/* Seat 0's sum from the trick start of `live` and `lead`, -1 where the table does not hold its level. */
static inline int exact_value(const Exact *x, uint64_t live, int lead)
{
    int64_t a = exact_state(x, 0, live);
    int k = x->level[0][a];
    if (k < x->from) return -1;
    return x->value[exact_index(x, k, a, exact_state(x, 1, live), lead)];
}

/* Duel.node: the sum the searching seat wins from here, fail-soft in (alpha, beta) */
static int64_t node(DuelObject *d, int k, int lead, int win, int64_t pts, int64_t alpha, int64_t beta)
{
    d->nodes++;
    if ((d->nodes & 0xFFFF) == 0) {
        if ((d->nodes & 0xFFFFF) == 0 && PyErr_CheckSignals() < 0)
            d->stopped = 1;
        else if (d->exact != NULL && d->exact->value == NULL && d->nodes - d->exact_since >= d->exact_budget)
            d->stopped = d->exact_due = 1; /* unwinds, storing nothing; `gain` works the table out and asks again */
    }
    if (d->stopped) return 0;
    uint64_t *free = d->free;
    int me = d->me;
    int trump = d->trump;
    int64_t lo = 0, hi = 0;
    int first = -1;
    int64_t key = -1;
    if (k == 0) {
        uint64_t lv = d->live;
        if (!lv) return 0;
        if (d->exact_on) {
            int v = exact_value(d->exact, lv, lead);
            if (v >= 0) return me ? 2 * d->live_points + popcount(lv) / 2 - v : v;
        }
        int left = popcount(lv);
        if (left == 2) { /* the last trick: one card each */
            int b0 = bitlen(free[lead]) - 1;
            int b1 = bitlen(free[1 - lead]) - 1;
            int64_t got = 2 * (POINTS_OF[b0] + POINTS_OF[b1]) + 1;
            int winner = beats(b1, b0, trump) ? 1 - lead : lead;
            return winner == me ? got : 0;
        }
        hi = 2 * d->live_points + left / 2;
        key = (int64_t)(lv | (uint64_t)lead << 48);
        int64_t i = slot_of(key, d->mask);
        int64_t e = -1;
        if (d->keys[i] == key)
            e = d->vals[i];
        else if (d->keys[i ^ 1] == key)
            e = d->vals[i ^ 1];
        if (e >= 0) {
            int64_t elo = e & 0xFF;
            int64_t ehi = e >> 8 & 0xFF;
            first = (int)((e >> 16) - 1);
            if (me) {
                int64_t t = elo;
                elo = hi - ehi;
                ehi = hi - t;
            }
            if (elo > lo) lo = elo;
            if (ehi < hi) hi = ehi;
        } else {
            int64_t ours, theirs;
            masters(d, lead, &ours, &theirs);
            if (lead != me) {
                int64_t t = ours;
                ours = theirs;
                theirs = t;
            }
            lo = ours;
            hi -= theirs;
        }
        if (lo >= beta || lo == hi) return lo;
        if (hi <= alpha) return hi;
    }
    int seat = (lead + k) & 1;
    uint64_t held = free[seat];
    uint64_t legal = k == 0 ? held : legal_coded(d->cells, trump, win / 12, win, 0, held);
    if (legal & (legal - 1)) legal = settled(d, legal, seat, k, win);
    int moves[49];
    int count;
    int lazy = first >= 0 && (legal >> first & 1) && (legal & (legal - 1));
    if (lazy) {
        moves[0] = first;
        count = 1;
    } else {
        d->to_lead = lead;
        if (legal & (legal - 1))
            count = order(d, legal, k, win, moves);
        else {
            moves[0] = bitlen(legal) - 1;
            count = 1;
        }
    }
    if (k == 1 && popcount(d->live) > 4)
        for (int r = 0; r < count; r++) prefetch_slot(d, next_key(d, lead, seat, win, moves[r]));
    int maxing = seat == me;
    int64_t a = alpha, bt = beta;
    int64_t best = maxing ? -1 : (1 << 20);
    int move = -1;
    uint64_t *hands = d->hands;
    uint64_t own = hands[seat];
    int i = 0;
    while (i < count) {
        int b = moves[i];
        i++;
        uint64_t bb = 1ULL << b;
        free[seat] = (held ^ bb) | d->under[b];
        hands[seat] = own ^ bb;
        int64_t v;
        if (k == 0)
            v = node(d, 1, lead, b, 2 * POINTS_OF[b], a, bt);
        else {
            int64_t got = pts + 2 * POINTS_OF[b] + 1;
            int winner = beats(b, win, trump) ? seat : lead;
            int64_t add = winner == me ? got : 0;
            uint64_t tm = 1ULL << win | bb;
            d->live ^= tm;
            d->live_points -= POINTS_OF[b] + POINTS_OF[win];
            v = add + node(d, 0, winner, -1, 0, a - add, bt - add);
            d->live ^= tm;
            d->live_points += POINTS_OF[b] + POINTS_OF[win];
        }
        free[seat] = held;
        hands[seat] = own;
        if (d->stopped) return best;
        if (maxing) {
            if (v > best) {
                best = v;
                move = b;
                if (v > a) {
                    a = v;
                    if (v >= bt) break;
                }
            }
        } else if (v < best) {
            best = v;
            move = b;
            if (v < bt) {
                bt = v;
                if (v <= a) break;
            }
        }
        if (lazy) {
            lazy = 0;
            d->to_lead = lead;
            int ordered[48];
            int n = order(d, legal, k, win, ordered);
            count = 1;
            for (int r = 0; r < n; r++)
                if (ordered[r] != first) moves[count++] = ordered[r];
            if (k == 1 && popcount(d->live) > 4)
                for (int r = 1; r < count; r++) prefetch_slot(d, next_key(d, lead, seat, win, moves[r]));
        }
    }
    if (key >= 0) {
        if (best <= alpha)
            hi = best < hi ? best : hi;
        else if (best >= beta)
            lo = best > lo ? best : lo;
        else
            lo = hi = best;
        if (me) {
            int64_t total = 2 * d->live_points + popcount(d->live) / 2;
            int64_t t = lo;
            lo = total - hi;
            hi = total - t;
        }
        store(d, key, lo | hi * 256 | (int64_t)(move + 1) * 65536);
    }
    return best;
}

/* ------------------------------------------------------------------------------------------ the Python type */

/* An error raised, and -1 for a function that returns a status (`NULL_ERROR`: NULL for one that returns an object) */
static int fail(PyObject *type, const char *message)
{
    PyErr_SetString(type, message);
    return -1;
}
#define NULL_ERROR(type, message) (fail(type, message), (PyObject *)NULL)

static int mask_arg(PyObject *o, uint64_t *out)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (v >> 48) return fail(PyExc_ValueError, "a card mask has 48 bits");
    *out = v;
    return 0;
}

static int pair_arg(PyObject *o, uint64_t out[2], const char *what)
{
    if (!PyList_Check(o) || PyList_GET_SIZE(o) != 2) {
        PyErr_Format(PyExc_TypeError, "%s: a list of two masks", what);
        return -1;
    }
    for (int i = 0; i < 2; i++)
        if (mask_arg(PyList_GET_ITEM(o, i), &out[i]) < 0) return -1;
    return 0;
}

static int Duel_init(DuelObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"rules", "trump", "under", "slots", "first", "exact", "exact_after", NULL};
    PyObject *rules, *under;
    int trump;
    long long slots = DUEL_SLOTS, first = FIRST_SLOTS, exact = 0, exact_after = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "UiO|LLLL", kwlist, &rules, &trump, &under, &slots, &first, &exact,
                                     &exact_after))
        return -1;
    if (exact < 0) return fail(PyExc_ValueError, "exact: the most exact values to hold, 0 for none");
    if (exact_after < -1) return fail(PyExc_ValueError, "exact_after: positions, or -1 for the solver's own rule");
    if (trump < -1 || trump > 3) return fail(PyExc_ValueError, "trump: a suit 0 to 3, or -1 for botifarra");
    long long size = first < slots ? first : slots;
    if (size < 2 || (size & (size - 1)) || slots < 2 || (slots & (slots - 1)))
        return fail(PyExc_ValueError, "slots and first: powers of two, at least 2");
    if (!PyList_Check(under) || PyList_GET_SIZE(under) != 48)
        return fail(PyExc_TypeError, "under: a list of 48 masks");
    uint64_t u[48];
    for (int b = 0; b < 48; b++)
        if (mask_arg(PyList_GET_ITEM(under, b), &u[b]) < 0) return -1;
    /* the obligation table coded as masks.coded codes it, from the rules data */
    PyObject *masks = PyImport_ImportModule("imptools.rules.botifarra.masks");
    if (masks == NULL) return -1;
    PyObject *code = PyObject_CallMethod(masks, "coded", "O", rules);
    Py_DECREF(masks);
    if (code == NULL) return -1;
    long cells = PyLong_AsLong(code);
    Py_DECREF(code);
    if (cells == -1 && PyErr_Occurred()) return -1;
    int64_t *keys = (int64_t *)malloc((size_t)size * sizeof(int64_t));
    int32_t *vals = (int32_t *)calloc((size_t)size, sizeof(int32_t));
    if (keys == NULL || vals == NULL) {
        free(keys);
        free(vals);
        PyErr_NoMemory();
        return -1;
    }
    memset(keys, 0xFF, (size_t)size * sizeof(int64_t));
    free(self->keys);
    free(self->vals);
    self->keys = keys;
    self->vals = vals;
    self->cells = (int)cells;
    self->trump = trump;
    self->trump_mask = trump >= 0 ? SUIT_MASK[trump] : 0;
    memcpy(self->under, u, sizeof u);
    self->bare = 0;
    for (int b = 0; b < 48 && !asks_points((int)cells); b++)
        if (!u[b]) self->bare |= 1ULL << b;
    self->most = slots;
    self->size = size;
    self->mask = size - 1;
    self->taken = 0;
    self->nodes = 0;
    self->failed = 0;
    self->stopped = 0;
    exact_free(self->exact);
    self->exact = NULL;
    self->exact_most = exact;
    self->exact_after = exact_after;
    self->exact_tried = self->exact_on = self->exact_due = 0;
    self->exact_since = self->exact_budget = self->exact_entries = 0;
    self->hands[0] = self->hands[1] = self->free[0] = self->free[1] = 0;
    self->me = self->to_lead = 0;
    self->live = 0;
    self->live_points = 0;
    return 0;
}

static void Duel_dealloc(DuelObject *self)
{
    if (self->weakrefs != NULL) PyObject_ClearWeakRefs((PyObject *)self);
    free(self->keys);
    free(self->vals);
    exact_free(self->exact);
    self->keys = NULL;
    self->vals = NULL;
    self->exact = NULL;
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int ready(DuelObject *self)
{
    if (self->keys == NULL) return fail(PyExc_RuntimeError, "Duel is not initialised");
    return 0;
}

static int card_arg(PyObject *o, int *out)
{
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v >= 48) return fail(PyExc_ValueError, "a card's bit is 0 to 47");
    *out = (int)v;
    return 0;
}

static PyObject *Duel_gain(DuelObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"hands", "free", "live", "live_points", "leader", "trick", "seat", "alpha", "beta", NULL};
    PyObject *hands, *free_, *live, *trick;
    long long live_points, alpha, beta;
    int leader, seat;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOLiOiLL", kwlist, &hands, &free_, &live, &live_points, &leader,
                                     &trick, &seat, &alpha, &beta))
        return NULL;
    if (ready(self) < 0) return NULL;
    uint64_t h[2], f[2], lv;
    if (pair_arg(hands, h, "hands") < 0 || pair_arg(free_, f, "free") < 0 || mask_arg(live, &lv) < 0) return NULL;
    if (!PyList_Check(trick)) return NULL_ERROR(PyExc_TypeError, "trick: a list of cards");
    if ((leader != 0 && leader != 1) || (seat != 0 && seat != 1))
        return NULL_ERROR(PyExc_ValueError, "leader and seat: 0 or 1");
    if (alpha < -(1LL << 60) || beta > (1LL << 60)) return NULL_ERROR(PyExc_ValueError, "the window is out of range");
    int led = -1;
    if (PyList_GET_SIZE(trick) && card_arg(PyList_GET_ITEM(trick, 0), &led) < 0) return NULL;
    self->hands[0] = h[0];
    self->hands[1] = h[1];
    self->free[0] = f[0];
    self->free[1] = f[1];
    self->me = seat;
    self->live = lv;
    self->live_points = live_points;
    self->stopped = 0;
    if (self->exact_most > 0 && self->exact == NULL && !self->exact_tried && led < 0) {
        self->exact_tried = 1;
        exact_plan(self, h, f);
    }
    int64_t got = 0;
    for (int ask = 0; ask < 2; ask++) { /* a second time where the search stopped to work the table out */
        Exact *x = self->exact;
        if (x != NULL && x->value == NULL && (self->exact_due || self->nodes - self->exact_since >= self->exact_budget))
            if (exact_fill(self) < 0) return NULL;
        self->exact_due = 0;
        self->exact_on = self->exact != NULL && self->exact->value != NULL
                         && exact_holds(self->exact, h, f, lv, leader, led);
        if (led >= 0)
            got = node(self, 1, leader, led, 2 * POINTS_OF[led], alpha, beta);
        else
            got = node(self, 0, leader, -1, 0, alpha, beta);
        if (!self->exact_due) break;
        self->stopped = 0;
    }
    if (self->stopped) {
        self->stopped = 0;
        return NULL; /* the handler's exception, KeyboardInterrupt for Ctrl-C */
    }
    if (self->failed) {
        self->failed = 0;
        return PyErr_NoMemory();
    }
    return PyLong_FromLongLong(got);
}

static PyObject *Duel_masters(DuelObject *self, PyObject *arg)
{
    long lead = PyLong_AsLong(arg);
    if (lead == -1 && PyErr_Occurred()) return NULL;
    if (lead != 0 && lead != 1) return NULL_ERROR(PyExc_ValueError, "lead: 0 or 1");
    int64_t ours, theirs;
    masters(self, (int)lead, &ours, &theirs);
    return Py_BuildValue("(LL)", (long long)ours, (long long)theirs);
}

static PyObject *Duel_order(DuelObject *self, PyObject *args)
{
    unsigned long long legal;
    int k, win;
    if (!PyArg_ParseTuple(args, "Kii", &legal, &k, &win)) return NULL;
    if (legal == 0 || legal >> 48 || (k != 0 && k != 1) || (k == 1 && (win < 0 || win >= 48)))
        return NULL_ERROR(PyExc_ValueError, "order: a non-empty legal mask, k 0 or 1, the led card");
    int moves[48];
    int n = order(self, legal, k, win, moves);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(moves[i]));
    return out;
}

static PyObject *Duel_find(DuelObject *self, PyObject *arg)
{
    long long key = PyLong_AsLongLong(arg);
    if (key == -1 && PyErr_Occurred()) return NULL;
    if (ready(self) < 0) return NULL;
    int64_t i = slot_of(key, self->mask); /* Duel.find */
    int64_t e = self->keys[i] == key ? self->vals[i] : self->keys[i ^ 1] == key ? self->vals[i ^ 1] : -1;
    return PyLong_FromLongLong(e);
}

static PyObject *Duel_store(DuelObject *self, PyObject *args)
{
    long long key, entry;
    if (!PyArg_ParseTuple(args, "LL", &key, &entry)) return NULL;
    if (ready(self) < 0) return NULL;
    if (key < 0 || key >> 49 || entry < 0 || entry > INT32_MAX)
        return NULL_ERROR(PyExc_ValueError, "store: a key of 49 bits and an entry of 31");
    store(self, key, entry);
    if (self->failed) {
        self->failed = 0;
        return PyErr_NoMemory();
    }
    Py_RETURN_NONE;
}

static PyObject *Duel_grow(DuelObject *self, PyObject *Py_UNUSED(ignored))
{
    if (ready(self) < 0) return NULL;
    if (grow(self) < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyMethodDef Duel_methods[] = {
    {"gain", (PyCFunction)(void (*)(void))Duel_gain, METH_VARARGS | METH_KEYWORDS,
     "gain(hands, free, live, live_points, leader, trick, seat, alpha, beta): the sum `seat` wins from here, "
     "fail-soft in (alpha, beta)."},
    {"masters", (PyCFunction)Duel_masters, METH_O, "masters(lead): what the leader and the other are sure of."},
    {"order", (PyCFunction)Duel_order, METH_VARARGS, "order(legal, k, win): the cards to try, in order."},
    {"find", (PyCFunction)Duel_find, METH_O, "find(key): the entry kept for key, -1 if none is."},
    {"store", (PyCFunction)Duel_store, METH_VARARGS, "store(key, entry): keep entry for key."},
    {"grow", (PyCFunction)Duel_grow, METH_NOARGS, "grow(): twice the slots, every entry kept."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Duel_members[] = {
    {"nodes", T_LONGLONG, offsetof(DuelObject, nodes), 0, "The positions visited."},
    {"slots", T_LONGLONG, offsetof(DuelObject, size), READONLY, "The table's slots now."},
    {"taken", T_LONGLONG, offsetof(DuelObject, taken), READONLY, "The table's slots taken."},
    {"most", T_LONGLONG, offsetof(DuelObject, most), READONLY, "The most slots the table may grow to."},
    {"exact", T_LONGLONG, offsetof(DuelObject, exact_entries), READONLY,
     "The exact values worked out for the trick starts (0 where none were)."},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject DuelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "imptools.rules.botifarra.cduel.Duel",
    .tp_doc = PyDoc_STR("Duel(rules, trump, under, slots=DUEL_SLOTS, first=FIRST_SLOTS): duel.Duel in C."),
    .tp_basicsize = sizeof(DuelObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Duel_init,
    .tp_dealloc = (destructor)Duel_dealloc,
    .tp_weaklistoffset = offsetof(DuelObject, weakrefs),
    .tp_methods = Duel_methods,
    .tp_members = Duel_members,
};

/* ------------------------------------------------------------------------------------------ module functions */

static PyObject *mod_beats(PyObject *Py_UNUSED(m), PyObject *args)
{
    int card, winning, trump;
    if (!PyArg_ParseTuple(args, "iii", &card, &winning, &trump)) return NULL;
    return PyBool_FromLong(beats(card, winning, trump));
}

static PyObject *mod_legal_coded(PyObject *Py_UNUSED(m), PyObject *args)
{
    int cells, trump, led, winning, partner_master;
    unsigned long long held;
    if (!PyArg_ParseTuple(args, "iiiipK", &cells, &trump, &led, &winning, &partner_master, &held)) return NULL;
    if (led > 3 || trump < -1 || trump > 3 || (led >= 0 && (winning < 0 || winning >= 48)) || held >> 48)
        return NULL_ERROR(PyExc_ValueError, "legal_coded: a suit, a card and a mask of 48 bits");
    return PyLong_FromUnsignedLongLong(legal_coded(cells, trump, led, winning, partner_master, held));
}

static PyObject *mod_slot_of(PyObject *Py_UNUSED(m), PyObject *args)
{
    long long key, mask;
    if (!PyArg_ParseTuple(args, "LL", &key, &mask)) return NULL;
    return PyLong_FromLongLong(slot_of(key, mask));
}

static PyMethodDef module_methods[] = {
    {"beats", mod_beats, METH_VARARGS, "masks.beats in C."},
    {"legal_coded", mod_legal_coded, METH_VARARGS, "masks.legal_coded in C."},
    {"slot_of", mod_slot_of, METH_VARARGS, "duel.slot_of in C."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "imptools.rules.botifarra.cduel",
    "Botifarra's double-dummy solver for two players in C: duel.Duel, visiting the very positions it visits.", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

static PyObject *int_tuple(const int64_t *values, int n)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t != NULL && i < n; i++) {
        PyObject *v = PyLong_FromLongLong(values[i]);
        if (v == NULL)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

PyMODINIT_FUNC PyInit_cduel(void)
{
    if (PyType_Ready(&DuelType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    int64_t points[48], suits[4];
    for (int i = 0; i < 48; i++) points[i] = POINTS_OF[i];
    for (int i = 0; i < 4; i++) suits[i] = (int64_t)SUIT_MASK[i];
    Py_INCREF(&DuelType);
    if (PyModule_AddObject(m, "Duel", (PyObject *)&DuelType) < 0
        || PyModule_AddObject(m, "POINTS_OF", int_tuple(points, 48)) < 0
        || PyModule_AddObject(m, "SUIT_MASK", int_tuple(suits, 4)) < 0
        || PyModule_AddObject(m, "POINT_MASK", PyLong_FromUnsignedLongLong(POINT_MASK)) < 0
        || PyModule_AddObject(m, "DUEL_SLOTS", PyLong_FromLongLong(DUEL_SLOTS)) < 0
        || PyModule_AddObject(m, "FIRST_SLOTS", PyLong_FromLongLong(FIRST_SLOTS)) < 0
        || PyModule_AddObject(m, "POPCNT", PyBool_FromLong(POPCNT)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
