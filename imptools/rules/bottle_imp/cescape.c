/* The Bottle Imp's `Escape` (with its partition solver) and `Gains` in C: a line-by-line port of escape.py's searches
 * and of what they call of search.py (`legal_of`, `_runs`, `_close`/`_reopen`, `_fate`, `holds`,
 * `_price_coins`, `_wins_nothing`) and bottles.py (`judge_prices`), for every table without the automaton: one pack,
 * or two packs a seat (Bright House, the Eye of the Demon: a card's holder is then twice its seat plus its pack, and
 * each pack is judged alone against the led colour, as `legal_of` judges it).
 * It visits the very positions the Python classes visit, in the same order, with the same bounds, move order
 * (`_moves`, `nearest_price`, `killer_first`, the history count, the best card's place) and tables (the same keys
 * up to their packing, generations turning over at the same size), so its answers, `nodes` and `shared` are theirs
 * (tests/test_native_escape.py). The search holds no Python object: the cards are masks of 128 bits, a key a row of
 * bytes (each card's holder and colour, and for `Gains` its coins, as one byte, low card first; the leader, the
 * bottles, the cards lying), as long as the position needs, the tables open addressing over flat arrays with the keys
 * in an arena, freed with the object.
 * docs/ANALYSIS.md says how the searches work.
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

typedef unsigned __int128 mask_t;

#define MAX_CARDS 128 /* engine cards are below 76 */
#define MAX_SEATS 8
#define MAX_BOTTLES 2
#define MAX_TRICK 8
#define MAX_CLASSES 64
#define DEPTHS 1100
#define START_PRICE 38
#define FAILED (-1)
#define NO_BOUND 0xFFFF
#define NO_CARD 127
#define HIGH (1LL << 30)
#define ESCAPE_CAP 1000000
#define GAINS_CAP 6000000
#define FIRST_SLOTS 64
#define KILLER_SLOTS (1 << 16) /* order.py's KILLER_SLOTS */

/* Built with `-DTREE_COUNTS` (bench/tree_shape.py), the searches count, at each position with more than one card to
 * try, which card cut off (the first to the fourth, a later one) or that none did: `Escape` by its question (to
 * escape, and gain a coin, at most one bottle) and by whether the player moving is of the side asked about, `Gains`
 * by that alone. `tree_counts()` returns them and starts again from nothing. A plain build has none of it. */
#ifdef TREE_COUNTS
static long long TC_ESCAPE[3][2][6], TC_GAINS[2][6];
#endif

/* a card's bit and the cards below it, by table (`fill_bits`, at import): a shift of 128 bits is a branch */
static mask_t BITS[128], BELOWS[129];
static void fill_bits(void)
{
    for (int c = 0; c < 128; c++) BITS[c] = (mask_t)1 << c;
    BELOWS[0] = 0;
    for (int c = 1; c < 128; c++) BELOWS[c] = BITS[c] - 1;
    BELOWS[128] = ~(mask_t)0;
}
static inline mask_t bit(int c) { return BITS[c]; }
static inline mask_t below(int c) { return BELOWS[c <= 0 ? 0 : c >= 128 ? 128 : c]; }
/* seat `x` taken round the table of `n` seats: `x % n` by subtraction, as `x` is a seat plus the cards lying (below
 * three times the seats: with two packs a seat plays twice a trick) */
static inline int round_seat(int x, int n)
{
    while (x >= n) x -= n;
    return x;
}
/* the bits set: the instruction where the build targets it (`POPCNT`), else by halves */
static inline int popcount64(uint64_t x)
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
static inline int popcount(mask_t x) { return popcount64((uint64_t)x) + popcount64((uint64_t)(x >> 64)); }
static inline int bitlen(mask_t x)
{
    uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;
    if (hi) return 128 - __builtin_clzll(hi);
    return lo ? 64 - __builtin_clzll(lo) : 0;
}
static inline int low_bit(mask_t x)
{
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

/* ------------------------------------------------------------------------------------------------ the tables */

/* A dict of byte strings (at most 255 bytes) to 64-bit values: open addressing, linear probing, doubling at three
 * quarters full; the keys, each as its length and its bytes, one after another in an arena of their own (a key's
 * memory is its length: as a Python int's, the keys of positions late in the hand are short). Only its entries count
 * (`count`), as `len(dict)` does. A slot is the top half of its key's hash (with the low bit set; 0: an empty slot),
 * where the key lies in the arena and the value, 16 bytes: a probe reads one slot, and the key's bytes only where
 * the halves agree; the slot's place is the hash's low bits. */
typedef struct {
    uint32_t tag;
    uint32_t off;
    uint64_t val;
} Slot;

static inline uint32_t tag_of(uint64_t h) { return (uint32_t)(h >> 32) | 1; }

typedef struct {
    Slot *slot;
    unsigned char *arena;
    size_t slots, count, used, room;
} Table;

static int oom = 0; /* a table could not grow: the call raises MemoryError */
static int stop = 0; /* a signal (Ctrl-C) came: the search unwinds without storing, and the call raises */

/* Every 2^20 positions, whether a signal came (as csolver.c): a long proof can then be stopped. */
static inline int stopped(uint64_t nodes)
{
    if (!stop && !(nodes & 0xFFFFF) && PyErr_CheckSignals() < 0) stop = 1;
    return stop;
}

/* A key's hash, eight bytes a step (the last step's bytes zero-padded), its length mixed in at the end: so that keys
 * sharing a head of whole eight-byte words share the state after it (`hash_words`), and each is finished from there
 * (`hash_finish`) without hashing the head again. */
#define HASH_SEED 0x9E3779B97F4A7C15ULL

static inline uint64_t hash_step(uint64_t h, uint64_t w)
{
    h ^= w;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 31);
}

/* The state after the first `words` eight-byte words of `k`. */
static inline uint64_t hash_words(const unsigned char *k, size_t words)
{
    uint64_t h = HASH_SEED;
    for (size_t i = 0; i < words; i++) {
        uint64_t w;
        memcpy(&w, k + 8 * i, 8);
        h = hash_step(h, w);
    }
    return h;
}

/* The hash of `k` (`len` bytes) from `h`, the state after its bytes before `from` (a multiple of eight). */
static inline uint64_t hash_finish(uint64_t h, const unsigned char *k, size_t from, size_t len)
{
    size_t i = from;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, k + i, 8);
        h = hash_step(h, w);
    }
    if (i < len) {
        uint64_t w = 0;
        memcpy(&w, k + i, len - i);
        h = hash_step(h, w);
    }
    h ^= len;
    h ^= h >> 29;
    h *= 0x94D049BB133111EBULL;
    h ^= h >> 32;
    return h;
}

static inline uint64_t hash_key(const unsigned char *k, size_t len) { return hash_finish(HASH_SEED, k, 0, len); }

static void table_free(Table *t)
{
    free(t->slot);
    free(t->arena);
    memset(t, 0, sizeof(Table));
}

/* The slot of `k` (`len` bytes, hash `h`): where it is, or the empty slot where it would go. */
static inline size_t slot_of(const Table *t, const unsigned char *k, size_t len, uint64_t h)
{
    size_t mask = t->slots - 1, i = (size_t)h & mask;
    uint32_t tag = tag_of(h);
    while (t->slot[i].tag) {
        if (t->slot[i].tag == tag) {
            const unsigned char *at = t->arena + t->slot[i].off;
            if (at[0] == len && memcmp(at + 1, k, len) == 0) break;
        }
        i = (i + 1) & mask;
    }
    return i;
}

static inline int table_get(const Table *t, const unsigned char *k, size_t len, uint64_t h, uint64_t *out)
{
    if (!t->slots) return 0;
    size_t i = slot_of(t, k, len, h);
    if (!t->slot[i].tag) return 0;
    *out = t->slot[i].val;
    return 1;
}

/* The slots doubled (the keys stay where they are in the arena); -1 where memory ran out. */
static int table_grow(Table *t)
{
    size_t slots = t->slots ? t->slots * 2 : FIRST_SLOTS;
    Slot *slot = calloc(slots, sizeof(Slot));
    if (slot == NULL) {
        oom = 1;
        return -1;
    }
    size_t mask = slots - 1;
    for (size_t j = 0; j < t->slots; j++) {
        if (!t->slot[j].tag) continue;
        const unsigned char *at = t->arena + t->slot[j].off; /* the slot's place again, from its key */
        size_t i = (size_t)hash_key(at + 1, at[0]) & mask;
        while (slot[i].tag) i = (i + 1) & mask;
        slot[i] = t->slot[j];
    }
    free(t->slot);
    t->slot = slot, t->slots = slots;
    return 0;
}

static inline void table_set(Table *t, const unsigned char *k, size_t len, uint64_t h, uint64_t v)
{
    if (stop) return; /* a value found while unwinding is no value */
    if ((t->count + 1) * 4 > t->slots * 3 && table_grow(t) < 0) return;
    size_t i = slot_of(t, k, len, h);
    if (!t->slot[i].tag) {
        if (t->used + len + 1 > t->room) {
            size_t room = t->room ? t->room * 2 : 4096;
            while (room < t->used + len + 1) room *= 2;
            unsigned char *arena = room >> 32 ? NULL : realloc(t->arena, room);
            if (arena == NULL) {
                oom = 1;
                return;
            }
            t->arena = arena, t->room = room;
        }
        t->arena[t->used] = (unsigned char)len;
        memcpy(t->arena + t->used + 1, k, len);
        t->slot[i].tag = tag_of(h);
        t->slot[i].off = (uint32_t)t->used;
        t->used += len + 1;
        t->count++;
    }
    t->slot[i].val = v;
}

/* `older` dropped, `table` becomes it, a new one starts (`older, table = table, {}`). */
static void table_turn(Table *table, Table *older)
{
    table_free(older);
    *older = *table;
    memset(table, 0, sizeof(Table));
}

/* --------------------------------------------------------------------------------------------- the object */

typedef struct {
    Table table, older, stored, ostored;
    int16_t refuted[DEPTHS];
    int made;
} ESolver;

typedef struct {
    Table table, older;
    int64_t hist[MAX_CARDS];
    int made;
    uint64_t killers[KILLER_SLOTS]; /* order.py's `killer_hash`, the card in its seven low bits; 0: empty */
} GSolver;

typedef struct {
    PyObject_HEAD
    /* the position's static data */
    int n, per_trick, last, played_out, nb, top;
    int coins[MAX_CARDS], colour[MAX_CARDS], holder[MAX_CARDS];
    unsigned char edigit[MAX_CARDS], gdigit[MAX_CARDS];
    int cls[MAX_CARDS]; /* each dealt card's class (`Escape._classes`) */
    int nclasses;
    mask_t classes[MAX_CLASSES];
    mask_t suit[MAX_CARDS];
    int team[MAX_SEATS];
    int counts_tricks;
    /* two packs a seat (`SearchBottle.packs`): 0 one pack, 1 two, 2 two with an open pack played first (Bright
     * House: `first_pack`, the pack each seat plays a trick's first card from) */
    int packs, first_pack[MAX_SEATS];
    mask_t pack[MAX_SEATS][2];
    long long escape_cap, gains_cap;
    /* the dynamic state of a call, played on as `SearchBottle` is */
    mask_t hands[MAX_SEATS], live;
    int trick[MAX_TRICK], ntrick, leader, prices[MAX_BOTTLES], owners[MAX_BOTTLES];
    int64_t in_play;
    /* the searches and their tables */
    ESolver *esolvers[MAX_SEATS][3]; /* a seat's questions: escape, gaining, at most one bottle (`QUESTIONS`) */
    GSolver *gsolvers[MAX_SEATS];
    long long escape_nodes, gain_nodes, shared;
} Lines;

/* ------------------------------------------------------------------ search.py and bottles.py, on the state */

static inline int max_price(const Lines *L)
{
    int p = L->prices[0];
    for (int i = 1; i < L->nb; i++)
        if (L->prices[i] > p) p = L->prices[i];
    return p;
}

/* bottles.judge_prices: the winning card's index, and the bottle taken (-1: none). */
static inline void judge_prices(const int *cards, int k, const int *prices, int nb, int *win, int *taken)
{
    int price = prices[0], top = 0;
    for (int i = 1; i < nb; i++)
        if (prices[i] > price) price = prices[i], top = i;
    int best = -1, w = -1;
    for (int i = 0; i < k; i++)
        if (best < cards[i] && cards[i] < price) best = cards[i], w = i;
    if (w >= 0) {
        *win = w;
        *taken = top;
        return;
    }
    int hi = 0;
    for (int i = 1; i < k; i++)
        if (cards[i] > cards[hi]) hi = i;
    *win = hi;
    *taken = -1;
}

typedef struct {
    int leader, trick[MAX_TRICK], ntrick, taken, price, owner;
} Saved;

/* SearchBottle._close */
static inline void close_trick(Lines *L, int card, Saved *s)
{
    int leader = L->leader;
    L->hands[round_seat(leader + L->ntrick, L->n)] ^= bit(card);
    L->trick[L->ntrick++] = card;
    int win, taken;
    judge_prices(L->trick, L->ntrick, L->prices, L->nb, &win, &taken);
    int winner = round_seat(leader + win, L->n);
    mask_t gone = 0;
    for (int i = 0; i < L->ntrick; i++) gone |= bit(L->trick[i]);
    L->live ^= gone;
    s->leader = leader;
    s->ntrick = L->ntrick;
    memcpy(s->trick, L->trick, sizeof(int) * L->ntrick);
    s->taken = taken;
    s->price = s->owner = 0;
    if (taken >= 0) {
        s->price = L->prices[taken];
        s->owner = L->owners[taken];
        L->prices[taken] = L->trick[win];
        L->owners[taken] = winner;
    }
    L->leader = winner;
    L->ntrick = 0;
}

/* SearchBottle._reopen */
static inline void reopen(Lines *L, const Saved *s)
{
    mask_t gone = 0;
    for (int i = 0; i < s->ntrick; i++) gone |= bit(s->trick[i]);
    L->live ^= gone;
    if (s->taken >= 0) {
        L->prices[s->taken] = s->price;
        L->owners[s->taken] = s->owner;
    }
    memcpy(L->trick, s->trick, sizeof(int) * s->ntrick);
    L->ntrick = s->ntrick - 1;
    L->leader = s->leader;
    L->hands[round_seat(s->leader + L->ntrick, L->n)] |= bit(s->trick[s->ntrick - 1]);
}

static inline int holds(const Lines *L, int seat)
{
    int tm = L->team[seat], k = 0;
    for (int i = 0; i < L->nb; i++)
        if (L->owners[i] >= 0 && (tm >> L->owners[i] & 1)) k++;
    return k;
}

static inline mask_t side_hands(const Lines *L, int seat)
{
    int tm = L->team[seat];
    if (tm == 1 << seat) return L->hands[seat];
    mask_t held = 0;
    for (int i = 0; i < L->n; i++)
        if (tm >> i & 1) held |= L->hands[i];
    return held;
}

static inline mask_t side_lying(const Lines *L, int seat)
{
    int tm = L->team[seat];
    mask_t lying = 0;
    for (int j = 0; j < L->ntrick; j++)
        if (tm >> round_seat(L->leader + j, L->n) & 1) lying |= bit(L->trick[j]);
    return lying;
}

/* Escape's questions, the second index of `esolvers`: ends without a bottle; without one and gains a coin; ends with at
 * most one of the two bottles. */
#define ESCAPE 0
#define GAINING 1
#define AT_MOST_ONE 2
#define QUESTIONS 3

/* SearchBottle._fate: 1 (surely without a bottle), 0 (surely with one), -1 (a search). */
static inline int fate(const Lines *L, int seat)
{
    int top = 0; /* the bottle a card below the higher price takes: the first of that price */
    for (int i = 1; i < L->nb; i++)
        if (L->prices[i] > L->prices[top]) top = i;
    mask_t low_cards = below(L->prices[top]);
    mask_t his = side_hands(L, seat) | side_lying(L, seat);
    mask_t low = his & low_cards, others_low = L->live & ~his & low_cards;
    int held = holds(L, seat);
    if (held) {
        if (!others_low) return 0;
        if (L->nb > 1) { /* the bottle of the lower price, taken only by a card below it */
            int lower = 1 - top, o = L->owners[lower];
            if (o >= 0 && (L->team[seat] >> o & 1) && !(others_low & below(L->prices[lower]))) return 0;
        }
        if (low) return -1;
        if (L->nb == 1) return 1;
        int o = L->owners[top];
        return held == 1 && o >= 0 && (L->team[seat] >> o & 1) ? 1 : -1;
    }
    return !low ? 1 : !others_low ? 0 : -1;
}

/* _Lines._bottles: the bottles' indices, the highest price first (ties in their order). */
static inline void bottle_order(const Lines *L, int *order)
{
    order[0] = 0;
    if (L->nb > 1) {
        order[1] = 1;
        if (L->prices[1] > L->prices[0]) order[0] = 1, order[1] = 0;
    }
}

/* SearchBottle._fate_one: 1 (surely at most one bottle), 0 (surely both), -1 (a search). */
static inline int fate_one(const Lines *L, int seat)
{
    mask_t low_cards = below(max_price(L));
    mask_t his = side_hands(L, seat) | side_lying(L, seat);
    int held = holds(L, seat);
    if (held + popcount(his & low_cards) <= 1) return 1;
    if (held == L->nb && !(L->live & ~his & low_cards)) return 0;
    int tm = L->team[seat], without = 1;
    int order[MAX_BOTTLES] = {0, 1}; /* asked with two bottles only */
    bottle_order(L, order);          /* order[1]: the bottle a trick does not take now */
    int o = L->owners[order[1]];
    if (!(o >= 0 && (tm >> o & 1)) && popcount(his & below(L->prices[order[1]])) <= 1) return 1;
    for (o = 0; o < L->n; o++) {
        if (tm >> o & 1) continue;
        int f = fate(L, o);
        if (f == 0) return 1;
        without = without && f == 1;
    }
    if (without) {
        for (int i = 0; i < L->nb; i++)
            if (L->owners[i] < 0) return -1;
        return 0;
    }
    return -1;
}

static inline int64_t price_coins(const Lines *L, int seat)
{
    int tm = L->team[seat];
    int64_t mine = 0;
    for (int i = 0; i < L->nb; i++)
        if (L->owners[i] >= 0 && (tm >> L->owners[i] & 1) && L->prices[i] != START_PRICE) mine += L->coins[L->prices[i]];
    return mine;
}

static inline int wins_nothing(const Lines *L, int seat)
{
    mask_t held = side_hands(L, seat);
    if (!held) return 1;
    if (held & below(max_price(L))) return 0;
    mask_t under = below(bitlen(held) - 1);
    int tm = L->team[seat];
    for (int o = 0; o < L->n; o++)
        if (!(tm >> o & 1) && !(L->hands[o] & under)) return 1;
    return 0;
}

/* SearchBottle._sure_trick: the coins of a trick `seat`'s side surely wins now, where its leader leads (one pack) */
static int64_t sure_trick(const Lines *L, int seat)
{
    int tm = L->team[seat], leader = L->leader;
    if (L->packs || !(tm >> leader & 1)) return 0;
    mask_t low_cards = below(max_price(L));
    int64_t best = 0;
    for (mask_t x = L->hands[leader] & ~low_cards; x; x &= x - 1) {
        int c = low_bit(x);
        if (L->live & L->suit[c] & ~below(c + 1)) continue; /* a higher card of its colour in play */
        int64_t got = L->coins[c];
        int o;
        for (o = 0; o < L->n; o++) {
            if (o == leader) continue;
            mask_t held = L->hands[o], legal = held & L->suit[c];
            if (!legal) legal = held;
            if (tm >> o & 1) {
                legal &= ~low_cards;
                if (!legal) break;
            } else if (legal & (low_cards | ~below(c))) {
                break;
            }
            int64_t fewest = -1;
            for (; legal; legal &= legal - 1) {
                int d = low_bit(legal);
                if (fewest < 0 || L->coins[d] < fewest) fewest = L->coins[d];
            }
            if (fewest > 0) got += fewest;
        }
        if (o == L->n && got > best) best = got;
    }
    return best;
}

/* SearchBottle.legal_of: the legal cards of `seat`, to move now: the led colour if he has it; with two packs, judged
 * in each pack he may play from (with an open pack, the one of his first card of the trick, then the other). */
static inline mask_t legal_of(const Lines *L, int seat)
{
    mask_t held = L->hands[seat];
    if (!L->packs) {
        if (L->ntrick) {
            mask_t same = held & L->suit[L->trick[0]];
            if (same) return same;
        }
        return held;
    }
    mask_t pools[2];
    int np = 0;
    if (L->packs == 2) {
        int k = L->ntrick < 2 ? L->first_pack[seat] : 1 - L->first_pack[seat];
        pools[np++] = held & L->pack[seat][k];
    } else {
        pools[np++] = held & L->pack[seat][0];
        pools[np++] = held & L->pack[seat][1];
    }
    mask_t out = 0;
    for (int i = 0; i < np; i++) {
        if (L->ntrick) {
            mask_t same = pools[i] & L->suit[L->trick[0]];
            out |= same ? same : pools[i];
        } else {
            out |= pools[i];
        }
    }
    return out;
}

/* _Lines._moves: one card of each run of `mover`'s legal cards (`SearchBottle._runs`' first cards), in the order he
 * tries them; how many. */
static int moves(const Lines *L, int mover, int chooser, int by_coins, int *out)
{
    mask_t legal = legal_of(L, mover);
    int price = max_price(L), beaten = 0, lower = -1;
    if (L->ntrick) {
        for (int i = 0; i < L->ntrick; i++)
            if (beaten < L->trick[i] && L->trick[i] < price) beaten = L->trick[i];
        /* the other bottle's price, where there are two: two cards on either side of it are not one run */
        if (L->nb > 1) lower = L->prices[0] < L->prices[1] ? L->prices[0] : L->prices[1];
    }
    int cards[MAX_CARDS], k = 0, a = -1;
    for (mask_t rest = legal; rest; rest &= rest - 1) {
        int b = low_bit(rest);
        if (a < 0) {
            cards[k++] = b;
        } else {
            mask_t between = L->live & below(b) & ~below(a + 1);
            int same = L->colour[a] == L->colour[b] && L->holder[a] == L->holder[b]
                       && (!by_coins || L->coins[a] == L->coins[b]);
            if (!((a > price || (b < beaten && !(a < lower && lower < b))) && !between && same)) cards[k++] = b;
        }
        a = b;
    }
    int m = 0;
    if (!chooser) { /* nearest_price */
        for (int i = k - 1; i >= 0; i--)
            if (cards[i] < price) out[m++] = cards[i];
        for (int i = 0; i < k; i++)
            if (cards[i] > price) out[m++] = cards[i];
    } else if (by_coins) {
        for (int i = k - 1; i >= 0; i--) out[m++] = cards[i];
    } else {
        for (int i = 0; i < k; i++) out[m++] = cards[i];
    }
    return m;
}

/* killer_first, in place */
static inline void killer_first(int *cards, int k, int killer)
{
    if (killer < 0 || killer == cards[0]) return;
    int at = -1;
    for (int i = 0; i < k; i++)
        if (cards[i] == killer) at = i;
    if (at < 0) return;
    for (int i = at; i > 0; i--) cards[i] = cards[i - 1];
    cards[0] = killer;
}

/* _Lines._lying */
static inline uint64_t lying_now(const Lines *L)
{
    uint64_t lying = 0;
    for (int i = 0; i < L->ntrick; i++) lying = (lying << 8) | (uint64_t)(popcount(L->live & below(L->trick[i])) + 1);
    return lying;
}

/* ------------------------------------------------------------------------------------------------- Escape */

static uint64_t esolve(Lines *L, ESolver *S, int seat, int gaining, int inner, uint64_t lying);

static ESolver *esolver_for(Lines *L, int seat, int gaining)
{
    ESolver *S = L->esolvers[seat][gaining];
    if (S == NULL) {
        S = calloc(1, sizeof(ESolver));
        if (S == NULL) {
            oom = 1;
            return NULL;
        }
        for (int i = 0; i < DEPTHS; i++) S->refuted[i] = -1;
        L->esolvers[seat][gaining] = S;
    }
    return S;
}

#define NOTHING ((uint64_t)NO_CARD << 1)

/* The partition solver's last trick, every card forced, played out (`gaining`: the question). */
static uint64_t elast_trick(const Lines *L, int tm, int gaining)
{
    int cards[MAX_TRICK], n = L->n, leader = L->leader;
    for (int i = 0; i < n; i++) cards[i] = bitlen(L->hands[round_seat(leader + i, n)]) - 1;
    int win, taken;
    judge_prices(cards, n, L->prices, L->nb, &win, &taken);
    int winner = round_seat(leader + win, n);
    if (gaining == AT_MOST_ONE) {
        int kept = taken >= 0 && (tm >> winner & 1);
        for (int i = 0; i < L->nb; i++)
            if (i != taken && L->owners[i] >= 0 && (tm >> L->owners[i] & 1)) kept++;
        return NOTHING | (kept <= 1);
    }
    for (int i = 0; i < L->nb; i++)
        if (i != taken && L->owners[i] >= 0 && (tm >> L->owners[i] & 1)) return NOTHING;
    if (taken < 0) {
        if (!gaining) return NOTHING | 1;
        return ((uint64_t)cards[win] << 1) | (uint64_t)(tm >> winner & 1);
    }
    if (tm >> winner & 1) return NOTHING;
    int before = L->owners[taken];
    return NOTHING | (!gaining || (before >= 0 && (tm >> before & 1)) ? 1 : 0);
}

/* Escape._partition_solver's `solve`: `inner` is `settled is not None`. */
/* The cards lying (`_Lines._lying`, places of 8 bits each) into a key at `at`: how many, then their places; the
 * bytes written. */
static inline int put_lying(unsigned char *at, uint64_t lying)
{
    int k = 0;
    for (; lying; lying >>= 8) at[1 + k++] = (unsigned char)(lying & 255);
    at[0] = (unsigned char)k;
    return k + 1;
}

/* A partition entry's key, after the rest (`rest_len` bytes, already at the head of `key`): `k`, the holders and
 * colours of the `k` highest cards of `above` (`x`: those `k` cards); the key's length. */
static inline int partition_key(const Lines *L, int rest_len, int k, mask_t x, unsigned char *key)
{
    int at = rest_len;
    key[at++] = (unsigned char)k;
    for (mask_t y = x; y; y &= y - 1) key[at++] = L->edigit[low_bit(y)];
    return at;
}

/* The `k` highest cards of `above` (`m` of them): the `k` from the top, or all but the `m - k` lowest, whichever is
 * fewer steps. */
static inline mask_t highest(mask_t above, int m, int k)
{
    if (2 * k < m) {
        mask_t out = 0;
        for (int j = 0; j < k; j++) {
            mask_t top = bit(bitlen(above) - 1);
            out |= top;
            above ^= top;
        }
        return out;
    }
    for (int j = 0; j < m - k; j++) above &= above - 1;
    return above;
}

/* Escape._partition_solver's `solve`: `inner` is `settled is not None`. */
static uint64_t esolve(Lines *L, ESolver *S, int seat, int gaining, int inner, uint64_t lying)
{
    L->escape_nodes++;
    if (stopped(L->escape_nodes)) return 0;
    mask_t live = L->live;
    int tm = L->team[seat];
    if (!live) return NOTHING | (gaining == GAINING || holds(L, seat) > (gaining == AT_MOST_ONE) ? 0 : 1);
    unsigned char rest[256], key[256];
    mask_t above = 0;
    int price = 0, m = 0, rest_len = 0;
    uint64_t rest_hash = 0, rest_state = 0; /* the rest's hash, and the state after its whole words (`head` bytes) */
    size_t head = 0;
    if (!inner) {
        int f = gaining == AT_MOST_ONE ? fate_one(L, seat) : fate(L, seat);
        if (f >= 0 && !(gaining == GAINING && f)) return NOTHING | (uint64_t)f;
        if (!L->ntrick && popcount(live) == L->played_out) return elast_trick(L, tm, gaining);
        price = max_price(L);
        above = live & ~below(price);
        m = popcount(above);
        /* the rest of the key: the cards below the price, the leader, the bottles, the counts (two a byte), the
         * cards lying */
        int at = 1;
        mask_t low = live & below(price);
        rest[0] = (unsigned char)popcount(low);
        for (; low; low &= low - 1) rest[at++] = L->edigit[low_bit(low)];
        rest[at++] = (unsigned char)L->leader;
        int order[MAX_BOTTLES];
        bottle_order(L, order);
        for (int i = 0; i < L->nb; i++) {
            int p = L->prices[order[i]], o = L->owners[order[i]];
            rest[at++] = (unsigned char)popcount(live & below(p));
            rest[at++] = (unsigned char)(o >= 0 && (tm >> o & 1));
        }
        for (int i = 0; i < L->nclasses; i += 2) {
            int two = popcount(live & L->classes[i]);
            if (i + 1 < L->nclasses) two |= popcount(live & L->classes[i + 1]) << 4;
            rest[at++] = (unsigned char)two;
        }
        at += put_lying(rest + at, lying);
        rest_len = at;
        head = (size_t)rest_len / 8 * 8;
        rest_state = hash_words(rest, head / 8);
        rest_hash = hash_finish(rest_state, rest, head, (size_t)rest_len);
        memcpy(key, rest, rest_len); /* every partition key's head */
        uint64_t ks = 0, got;
        if (table_get(&S->stored, rest, rest_len, rest_hash, &got)) ks |= got;
        if (table_get(&S->ostored, rest, rest_len, rest_hash, &got)) ks |= got;
        while (ks) {
            int k = __builtin_ctzll(ks);
            ks &= ks - 1;
            mask_t x = highest(above, m, k);
            int len = partition_key(L, rest_len, k, x, key);
            uint64_t h = hash_finish(rest_state, key, head, (size_t)len);
            uint64_t found;
            if (table_get(&S->table, key, len, h, &found) || table_get(&S->older, key, len, h, &found)) {
                if (k < m) L->shared++;
                return found | ((uint64_t)(k ? low_bit(x) : NO_CARD) << 1);
            }
        }
    }
    int lying_count = L->ntrick;
    int mover = round_seat(L->leader + lying_count, L->n);
    int chooser = tm >> mover & 1;
    int cards[MAX_CARDS];
    int k, lazy = 0;
    int depth = popcount(live) * 8 + lying_count;
    if (chooser) { /* his lowest card (`moves` lists it first for him) tried before the others are listed: they are
                    * listed only where it does not settle the question */
        mask_t legal = legal_of(L, mover);
        cards[0] = low_bit(legal);
        k = 1;
        lazy = (legal & (legal - 1)) != 0;
    } else {
        k = moves(L, mover, chooser, 0, cards);
        killer_first(cards, k, S->refuted[depth]);
    }
    int result = !chooser;
    uint64_t least = NO_CARD;
    int c = -1;
    ESolver *escaping = gaining == GAINING ? L->esolvers[seat][ESCAPE] : NULL;
    for (int i = 0; i < k; i++) {
        c = cards[i];
        uint64_t r;
        if (lying_count < L->last) {
            L->hands[mover] ^= bit(c);
            L->trick[L->ntrick++] = c;
            r = esolve(L, S, seat, gaining, 1, (lying << 8) | (uint64_t)(popcount(live & below(c)) + 1));
            L->ntrick--;
            L->hands[mover] |= bit(c);
        } else {
            Saved done;
            close_trick(L, c, &done);
            if (escaping != NULL
                && ((tm >> L->leader & 1) || (done.taken >= 0 && done.owner >= 0 && (tm >> done.owner & 1))))
                r = esolve(L, escaping, seat, 0, 0, 0);
            else
                r = esolve(L, S, seat, gaining, 0, 0);
            if (done.taken < 0) {
                int top = done.trick[0];
                for (int j = 1; j < done.ntrick; j++)
                    if (done.trick[j] > top) top = done.trick[j];
                if (((uint64_t)top << 1) < r) r = ((uint64_t)top << 1) | (r & 1);
            }
            reopen(L, &done);
        }
        if ((int)(r & 1) == chooser) {
            result = chooser;
            least = r >> 1;
            break;
        }
        if ((r >> 1) < least) least = r >> 1;
        if (lazy) { /* his lowest card did not settle it: the others after it */
            lazy = 0;
            k = moves(L, mover, chooser, 0, cards);
        }
    }
#ifdef TREE_COUNTS
    if (lazy) k = moves(L, mover, chooser, 0, cards); /* how many he had (his lowest card stays first) */
    if (k > 1) {
        int at = 5;
        if (result == chooser) {
            for (at = 0; at < k && cards[at] != c; at++);
            if (at > 4) at = 4;
        }
        TC_ESCAPE[gaining][chooser][at]++;
    }
#endif
    if (!chooser && !result) S->refuted[depth] = (int16_t)c;
    if (inner) return (least << 1) | (uint64_t)result;
    if (lying)
        for (int i = 0; i < L->ntrick; i++)
            if (price < L->trick[i] && (uint64_t)L->trick[i] < least) least = (uint64_t)L->trick[i];
    int kk = (int)least <= price ? popcount(above) : popcount(above >> least);
    int len = partition_key(L, rest_len, kk, highest(above, m, kk), key);
    uint64_t h = hash_finish(rest_state, key, head, (size_t)len);
    table_set(&S->table, key, len, h, (uint64_t)result);
    uint64_t ks = 0;
    table_get(&S->stored, rest, rest_len, rest_hash, &ks);
    table_set(&S->stored, rest, rest_len, rest_hash, ks | (1ULL << kk));
    if ((long long)S->table.count > L->escape_cap) {
        table_turn(&S->table, &S->older);
        table_turn(&S->stored, &S->ostored);
    }
    return (least << 1) | (uint64_t)result;
}

/* -------------------------------------------------------------------------------------------------- Gains */

/* hashing.py's hash2: two 64-bit words mixed into one */
static inline uint64_t hash2(uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9E3779B97F4A7C15ULL;
    h = (h ^ (h >> 29) ^ b) * 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 32);
}

/* order.py's killer_hash for `mover`'s hand in his place of the trick: the led colour, the side asked about (`tm`)
 * winning the trick so far or not, a bottle taken by it so far or not. */
static inline uint64_t killer_hash(const Lines *L, int mover, int tm)
{
    uint64_t place = 0;
    if (L->ntrick) {
        int win, taken;
        judge_prices(L->trick, L->ntrick, L->prices, L->nb, &win, &taken);
        place = (uint64_t)(L->colour[L->trick[0]] + 1) | (uint64_t)(tm >> round_seat(L->leader + win, L->n) & 1) << 8
                | (uint64_t)(taken >= 0) << 9;
    }
    mask_t held = L->hands[mover];
    return hash2(hash2((uint64_t)held, (uint64_t)(held >> 64)), place) | 1ULL << 63;
}

/* Gains._order: the start of a position's key (the cards lying follow it); its length. */
static int gkey(const Lines *L, int tm, unsigned char *key)
{
    mask_t live = L->live;
    int at = 1;
    key[0] = (unsigned char)popcount(live);
    for (mask_t x = live; x; x &= x - 1) key[at++] = L->gdigit[low_bit(x)];
    key[at++] = (unsigned char)L->leader;
    int order[MAX_BOTTLES];
    bottle_order(L, order);
    for (int i = 0; i < L->nb; i++) {
        int p = L->prices[order[i]], o = L->owners[order[i]];
        key[at++] = (unsigned char)popcount(live & below(p));
        key[at++] = (unsigned char)(o >= 0 && (tm >> o & 1) ? (L->coins[p] << 1 | 1) : 0);
    }
    return at;
}

static int64_t glast_trick(const Lines *L, int seat, int tm)
{
    int cards[MAX_TRICK], n = L->n, leader = L->leader;
    for (int i = 0; i < n; i++) cards[i] = bitlen(L->hands[round_seat(leader + i, n)]) - 1;
    int win, taken;
    judge_prices(cards, n, L->prices, L->nb, &win, &taken);
    int winner = round_seat(leader + win, n);
    int64_t got = (tm >> winner & 1) ? L->in_play : 0;
    if (taken < 0) return holds(L, seat) ? FAILED : got;
    if (tm >> winner & 1) return FAILED;
    int before = L->owners[taken];
    if (before >= 0 && (tm >> before & 1) && L->prices[taken] != START_PRICE) got += L->coins[L->prices[taken]];
    for (int i = 0; i < L->nb; i++)
        if (i != taken && L->owners[i] >= 0 && (tm >> L->owners[i] & 1)) return FAILED;
    return got;
}

/* Gains._solver's `solve`: `settled` is the key of the trick's start without the cards lying (NULL: work it
 * out). */
static int64_t gsolve(Lines *L, GSolver *S, int seat, int64_t alpha, int64_t beta, const unsigned char *settled,
                      int settled_len, uint64_t lying)
{
    if (beta <= 0) return esolve(L, L->esolvers[seat][0], seat, 0, 0, lying) & 1 ? 0 : FAILED;
    if (L->counts_tricks && alpha == 0 && beta == 1) return (int64_t)(esolve(L, L->esolvers[seat][1], seat, 1, 0, lying) & 1);
    L->gain_nodes++;
    if (stopped(L->gain_nodes)) return FAILED;
    mask_t live = L->live;
    int tm = L->team[seat];
    if (!live) return holds(L, seat) ? FAILED : 0;
    int64_t low = FAILED, high = HIGH;
    unsigned char base[256], key[256];
    int kept = settled == NULL; /* the table only where a trick starts or the question is asked (as Gains) */
    if (settled == NULL) {
        int f = fate(L, seat);
        if (f == 0) return FAILED;
        if (!L->ntrick) {
            int64_t mine = holds(L, seat) ? price_coins(L, seat) : 0;
            high = wins_nothing(L, seat) ? mine : mine + L->in_play;
            if (f == 1) low = mine + sure_trick(L, seat);
            if (low >= beta || low == high) return low;
            if (high <= alpha) return high;
            if (popcount(live) == L->played_out) return glast_trick(L, seat, tm);
        }
        settled_len = gkey(L, tm, base);
        settled = base;
    }
    int len = 0;
    uint64_t h = 0, entry = 0;
    if (kept) {
        memcpy(key, settled, settled_len);
        len = settled_len + put_lying(key + settled_len, lying);
        h = hash_key(key, len);
        if (!table_get(&S->table, key, len, h, &entry) || !entry)
            if (!table_get(&S->older, key, len, h, &entry)) entry = 0;
    }
    int64_t lo, hi;
    int best_place;
    if (entry) {
        lo = (int64_t)(entry >> 32) + FAILED;
        hi = (int64_t)((entry >> 16) & NO_BOUND);
        hi = hi == NO_BOUND ? HIGH : hi + FAILED;
        best_place = (int)(entry & NO_BOUND) - 1;
    } else {
        lo = FAILED, hi = HIGH, best_place = -1;
    }
    if (lo >= beta) return lo;
    if (hi <= alpha) return hi;
    if (lo == hi) return lo;
    if (lo < low) lo = low;
    if (hi > high) hi = high;
    int lying_count = L->ntrick;
    int mover = round_seat(L->leader + lying_count, L->n);
    int chooser = tm >> mover & 1;
    int cards[MAX_CARDS];
    int k = moves(L, mover, chooser, 1, cards);
    uint64_t slot = 0;
    if (k > 1) {
        if (chooser) { /* sorted by the history count, highest first, ties in their order */
            for (int i = 1; i < k; i++) {
                int c = cards[i], j = i;
                while (j > 0 && S->hist[cards[j - 1]] < S->hist[c]) cards[j] = cards[j - 1], j--;
                cards[j] = c;
            }
        }
        slot = killer_hash(L, mover, tm);
        uint64_t killer = S->killers[slot & (KILLER_SLOTS - 1)];
        if (killer && !((killer ^ slot) >> 7)) killer_first(cards, k, (int)(killer & 127));
        if (best_place >= 0) {
            for (int i = 0; i < k; i++) {
                if (popcount(live & below(cards[i])) == best_place) {
                    int c = cards[i];
                    for (int j = i; j > 0; j--) cards[j] = cards[j - 1];
                    cards[0] = c;
                    break;
                }
            }
        }
    }
    int64_t a = alpha, b = beta;
    int64_t best = chooser ? FAILED - 1 : HIGH;
    int move = -1;
    for (int i = 0; i < k; i++) {
        int c = cards[i];
        int64_t v;
        if (lying_count < L->last) {
            L->hands[mover] ^= bit(c);
            L->trick[L->ntrick++] = c;
            v = gsolve(L, S, seat, a, b, settled, settled_len, (lying << 8) | (uint64_t)(popcount(live & below(c)) + 1));
            L->ntrick--;
            L->hands[mover] |= bit(c);
        } else {
            Saved done;
            close_trick(L, c, &done);
            int64_t total = 0;
            for (int j = 0; j < done.ntrick; j++) total += L->coins[done.trick[j]];
            L->in_play -= total;
            int64_t got = 0;
            if (tm >> L->leader & 1) got = done.taken >= 0 ? total - L->coins[L->prices[done.taken]] : total;
            if (done.taken >= 0 && done.owner >= 0 && (tm >> done.owner & 1) && done.price != START_PRICE)
                got += L->coins[done.price];
            v = gsolve(L, S, seat, a > got ? a - got : FAILED, b > got ? b - got : 0, NULL, 0, 0);
            if (v != FAILED) v += got;
            reopen(L, &done);
            L->in_play += total;
        }
        if (chooser) {
            if (v > best) {
                best = v, move = c;
                if (v > a) {
                    a = v;
                    if (v >= b || v == high) break;
                }
            }
        } else if (v < best) {
            best = v, move = c;
            if (v < b) {
                b = v;
                if (v <= a || v == low) break;
            }
        }
    }
#ifdef TREE_COUNTS
    if (k > 1) {
        int at = 5;
        if (chooser ? best >= beta : best <= alpha) {
            for (at = 0; at < k && cards[at] != move; at++);
            if (at > 4) at = 4;
        }
        TC_GAINS[chooser][at]++;
    }
#endif
    if (chooser) {
        int64_t left = popcount(live) - lying_count;
        S->hist[move] += left * left + 1;
    }
    if (k > 1 && (chooser ? best >= beta : best <= alpha)) /* the card that cut off, remembered */
        S->killers[slot & (KILLER_SLOTS - 1)] = (slot & ~127ULL) | (uint64_t)move;
    if (!kept) return best;
    if (best <= alpha) {
        if (best < hi) hi = best;
    } else if (best >= beta) {
        if (best > lo) lo = best;
    } else {
        lo = hi = best;
    }
    int64_t top = hi - FAILED < NO_BOUND ? hi - FAILED : NO_BOUND;
    uint64_t value = ((uint64_t)(lo - FAILED) << 32) | ((uint64_t)top << 16) | (uint64_t)(popcount(live & below(move)) + 1);
    table_set(&S->table, key, len, h, value);
    if ((long long)S->table.count > L->gains_cap) table_turn(&S->table, &S->older);
    return best;
}

/* ----------------------------------------------------------------------------------------- the Python type */

static int mask_of(PyObject *obj, mask_t *out)
{
    unsigned long long lo = PyLong_AsUnsignedLongLongMask(obj);
    if (lo == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    PyObject *shift = PyLong_FromLong(64);
    if (shift == NULL) return -1;
    PyObject *high = PyNumber_Rshift(obj, shift);
    Py_DECREF(shift);
    if (high == NULL) return -1;
    unsigned long long hi = PyLong_AsUnsignedLongLong(high);
    Py_DECREF(high);
    if (hi == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = ((mask_t)hi << 64) | lo;
    return 0;
}

/* A list of `want` ints (want < 0: any length up to `most`) into `out`; how many, -1 on an error. */
static int ints_of(PyObject *seq, int *out, int most, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    if (k > most) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d", what, most);
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)k;
}

static void Lines_dealloc(Lines *self)
{
    for (int s = 0; s < MAX_SEATS; s++) {
        for (int g = 0; g < QUESTIONS; g++) {
            ESolver *S = self->esolvers[s][g];
            if (S != NULL) {
                table_free(&S->table);
                table_free(&S->older);
                table_free(&S->stored);
                table_free(&S->ostored);
                free(S);
            }
        }
        GSolver *G = self->gsolvers[s];
        if (G != NULL) {
            table_free(&G->table);
            table_free(&G->older);
            free(G);
        }
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Lines_init(Lines *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"n", "per_trick", "bottles", "coins", "colour", "holder", "dealt", "team",
                             "escape_cap", "gains_cap", "packs", "first_pack", NULL};
    PyObject *coins, *colour, *holder, *dealt, *team, *first = NULL;
    long long ecap = ESCAPE_CAP, gcap = GAINS_CAP;
    self->packs = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiiOOOOO|LLiO", kwlist, &self->n, &self->per_trick, &self->nb, &coins,
                                     &colour, &holder, &dealt, &team, &ecap, &gcap, &self->packs, &first))
        return -1;
    int holders = self->packs ? 2 * self->n : self->n; /* a seat's two packs are two holders */
    if (self->n < 2 || holders > MAX_SEATS || self->packs < 0 || self->packs > 2
        || self->per_trick != (self->packs ? 2 * self->n : self->n) || self->nb < 1 || self->nb > MAX_BOTTLES) {
        PyErr_SetString(PyExc_ValueError,
                        "Lines: 2 to 8 seats (4 with two packs), a card each a trick from each pack, 1 or 2 bottles");
        return -1;
    }
    memset(self->first_pack, 0, sizeof(self->first_pack));
    if (first != NULL && first != Py_None) {
        if (ints_of(first, self->first_pack, MAX_SEATS, "first_pack") != self->n) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Lines: a first pack for each seat");
            return -1;
        }
        for (int i = 0; i < self->n; i++) {
            if (self->first_pack[i] != 0 && self->first_pack[i] != 1) {
                PyErr_SetString(PyExc_ValueError, "Lines: a first pack is 0 or 1");
                return -1;
            }
        }
    }
    self->escape_cap = ecap;
    self->gains_cap = gcap;
    self->last = self->per_trick - 1;
    self->played_out = self->per_trick == self->n ? self->per_trick : -1;
    int top = ints_of(coins, self->coins, MAX_CARDS, "coins");
    if (top < 0 || ints_of(colour, self->colour, MAX_CARDS, "colour") != top
        || ints_of(holder, self->holder, MAX_CARDS, "holder") != top
        || ints_of(team, self->team, MAX_SEATS, "team") != self->n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Lines: a coin, colour and holder for each card");
        return -1;
    }
    self->top = top;
    PyObject *fast = PySequence_Fast(dealt, "dealt");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != self->n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "Lines: a dealt mask for each seat");
        return -1;
    }
    mask_t all = 0, held[MAX_SEATS];
    for (int i = 0; i < self->n; i++) {
        if (mask_of(PySequence_Fast_GET_ITEM(fast, i), &held[i]) < 0) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Lines: masks of cards");
            return -1;
        }
        all |= held[i];
    }
    Py_DECREF(fast);
    if (bitlen(all) > top || popcount(all) > 63) {
        PyErr_SetString(PyExc_ValueError, "Lines: at most 63 cards, each with its coins");
        return -1;
    }
    for (int c = 0; c < top; c++) {
        if (self->colour[c] < 0 || self->colour[c] > 7 || self->coins[c] < 0 || self->coins[c] > 7) {
            PyErr_SetString(PyExc_ValueError, "Lines: colours and coins below 8");
            return -1;
        }
    }
    for (int c = 0; c < top; c++) {
        self->suit[c] = 0;
        for (int d = 0; d < top; d++)
            if (all >> d & 1 && self->colour[d] == self->colour[c]) self->suit[c] |= bit(d);
    }
    /* Each card's digit (`_Lines._digits`: its holder and colour, and for `Gains` its coins) as one byte: for
     * `Gains` its place among the distinct digits of the dealt cards. */
    int gvals[MAX_CARDS], ng = 0;
    self->counts_tricks = 1;
    self->nclasses = 0;
    for (mask_t x = all; x; x &= x - 1) {
        int c = low_bit(x);
        if (self->holder[c] < 0 || self->holder[c] >= holders) {
            PyErr_SetString(PyExc_ValueError, "Lines: each card's holder is a seat (two packs: twice it, plus the pack)");
            return -1;
        }
        int e = (self->holder[c] << 3) | self->colour[c];
        int g = (e << 3) | self->coins[c];
        self->edigit[c] = (unsigned char)e;
        int known = 0;
        for (int i = 0; i < ng; i++) known |= gvals[i] == g;
        if (!known) gvals[ng++] = g;
        if (self->coins[c] <= 0) self->counts_tricks = 0;
    }
    for (mask_t x = all; x; x &= x - 1) {
        int c = low_bit(x), g = ((self->holder[c] << 3 | self->colour[c]) << 3) | self->coins[c];
        for (int i = 0; i < ng; i++)
            if (gvals[i] == g) self->gdigit[c] = (unsigned char)i;
        int found = -1;
        for (int i = 0; i < self->nclasses; i++)
            if (self->edigit[low_bit(self->classes[i])] == self->edigit[c]) found = i;
        if (found < 0) {
            found = self->nclasses++;
            self->classes[found] = 0;
        }
        self->classes[found] |= bit(c);
    }
    memset(self->pack, 0, sizeof(self->pack));
    for (mask_t x = self->packs ? all : 0; x; x &= x - 1) {
        int c = low_bit(x);
        self->pack[self->holder[c] >> 1][self->holder[c] & 1] |= bit(c);
    }
    for (int i = 0; i < self->n; i++) {
        if (self->packs && (held[i] & ~(self->pack[i][0] | self->pack[i][1]))) {
            PyErr_SetString(PyExc_ValueError, "Lines: a seat's cards are of its own packs");
            return -1;
        }
    }
    for (int i = 0; i < self->nclasses; i++) {
        if (popcount(self->classes[i]) > 15) {
            PyErr_SetString(PyExc_ValueError, "Lines: at most 15 cards of a holder and colour");
            return -1;
        }
    }
    return 0;
}

/* The position's dynamic state into the object; -1 on an error. */
static int load_state(Lines *L, PyObject *hands, PyObject *trick, int leader, PyObject *prices, PyObject *owners)
{
    PyObject *fast = PySequence_Fast(hands, "hands");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != L->n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "a hand for each seat");
        return -1;
    }
    L->live = 0;
    for (int i = 0; i < L->n; i++) {
        if (mask_of(PySequence_Fast_GET_ITEM(fast, i), &L->hands[i]) < 0) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "hands: masks of cards");
            return -1;
        }
        L->live |= L->hands[i];
    }
    Py_DECREF(fast);
    L->ntrick = ints_of(trick, L->trick, L->per_trick - 1, "trick");
    if (L->ntrick < 0) return -1;
    if (ints_of(prices, L->prices, MAX_BOTTLES, "prices") != L->nb
        || ints_of(owners, L->owners, MAX_BOTTLES, "owners") != L->nb) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a price and an owner for each bottle");
        return -1;
    }
    if (leader < 0 || leader >= L->n) {
        PyErr_SetString(PyExc_ValueError, "the leader is a seat");
        return -1;
    }
    L->leader = leader;
    for (int i = 0; i < L->ntrick; i++) {
        if (L->trick[i] < 0 || L->trick[i] >= L->top) {
            PyErr_SetString(PyExc_ValueError, "trick: cards");
            return -1;
        }
        L->live |= bit(L->trick[i]);
    }
    if (bitlen(L->live) > L->top) {
        PyErr_SetString(PyExc_ValueError, "hands: cards of the deck");
        return -1;
    }
    for (int i = 0; i < L->nb; i++) {
        if (L->prices[i] < 0 || L->prices[i] >= MAX_CARDS || L->owners[i] < -1 || L->owners[i] >= L->n
            || (L->prices[i] >= L->top && L->prices[i] != START_PRICE)) {
            PyErr_SetString(PyExc_ValueError, "prices and owners: cards and seats");
            return -1;
        }
    }
    L->in_play = 0;
    for (mask_t x = L->live; x; x &= x - 1) L->in_play += L->coins[low_bit(x)];
    return 0;
}

static PyObject *Lines_escapes(Lines *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"hands", "trick", "leader", "prices", "owners", "seat", "gaining", "most", NULL};
    PyObject *hands, *trick, *prices, *owners;
    int leader, seat, gaining = 0, most = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOiOOi|pi", kwlist, &hands, &trick, &leader, &prices, &owners, &seat,
                                     &gaining, &most))
        return NULL;
    if (most < 0 || most > 1 || (most && (gaining || self->nb != 2))) {
        PyErr_SetString(PyExc_ValueError, "most: 0, or 1 with two bottles and not gaining");
        return NULL;
    }
    if (load_state(self, hands, trick, leader, prices, owners) < 0) return NULL;
    if (seat < 0 || seat >= self->n) return PyErr_Format(PyExc_ValueError, "seat: 0 to %d", self->n - 1);
    oom = 0;
    int question = most ? AT_MOST_ONE : gaining ? GAINING : ESCAPE;
    ESolver *S = esolver_for(self, seat, ESCAPE);
    if (S != NULL && question != ESCAPE) S = esolver_for(self, seat, question);
    if (S == NULL) return PyErr_NoMemory();
    uint64_t r = esolve(self, S, seat, question, 0, lying_now(self));
    if (stop) return stop = 0, NULL; /* PyErr_CheckSignals set the exception */
    if (oom) return PyErr_NoMemory();
    return PyBool_FromLong((long)(r & 1));
}

static PyObject *Lines_gain(Lines *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"hands", "trick", "leader", "prices", "owners", "seat", "alpha", "beta", NULL};
    PyObject *hands, *trick, *prices, *owners;
    int leader, seat;
    long long alpha, beta;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOiOOiLL", kwlist, &hands, &trick, &leader, &prices, &owners, &seat,
                                     &alpha, &beta))
        return NULL;
    if (load_state(self, hands, trick, leader, prices, owners) < 0) return NULL;
    if (seat < 0 || seat >= self->n) return PyErr_Format(PyExc_ValueError, "seat: 0 to %d", self->n - 1);
    if (alpha < -(1LL << 40) || alpha > (1LL << 40) || beta < -(1LL << 40) || beta > (1LL << 40))
        return PyErr_Format(PyExc_ValueError, "alpha and beta: within 2**40");
    oom = 0;
    GSolver *G = self->gsolvers[seat];
    if (G == NULL) {
        G = calloc(1, sizeof(GSolver));
        if (G == NULL) return PyErr_NoMemory();
        self->gsolvers[seat] = G;
    }
    if (esolver_for(self, seat, 0) == NULL || (self->counts_tricks && esolver_for(self, seat, 1) == NULL))
        return PyErr_NoMemory();
    if (beta <= FAILED) return PyLong_FromLong(FAILED);
    int64_t v = gsolve(self, G, seat, alpha > FAILED ? alpha : FAILED, beta, NULL, 0, lying_now(self));
    if (stop) return stop = 0, NULL; /* PyErr_CheckSignals set the exception */
    if (oom) return PyErr_NoMemory();
    return PyLong_FromLongLong(v);
}

/* The entries of each table now and of its older generation, for the tests (`escape (seat, question)` and `gains
 * seat` -> (table, older)). */
static PyObject *Lines_sizes(Lines *self, PyObject *Py_UNUSED(args))
{
    PyObject *out = PyDict_New();
    if (out == NULL) return NULL;
    for (int s = 0; s < MAX_SEATS; s++) {
        for (int g = 0; g <= QUESTIONS; g++) {
            Table *t, *o;
            if (g < QUESTIONS) {
                ESolver *S = self->esolvers[s][g];
                if (S == NULL) continue;
                t = &S->table, o = &S->older;
            } else {
                GSolver *G = self->gsolvers[s];
                if (G == NULL) continue;
                t = &G->table, o = &G->older;
            }
            PyObject *k = g < QUESTIONS ? Py_BuildValue("(sii)", "escape", s, g) : Py_BuildValue("(si)", "gains", s);
            PyObject *v = Py_BuildValue("(nn)", (Py_ssize_t)t->count, (Py_ssize_t)o->count);
            if (k == NULL || v == NULL || PyDict_SetItem(out, k, v) < 0) {
                Py_XDECREF(k);
                Py_XDECREF(v);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(k);
            Py_DECREF(v);
        }
    }
    return out;
}

static PyObject *Lines_get_nodes(Lines *self, void *Py_UNUSED(closure))
{
    return PyLong_FromLongLong(self->escape_nodes + self->gain_nodes);
}

static PyObject *Lines_get_counts_tricks(Lines *self, void *Py_UNUSED(closure))
{
    return PyBool_FromLong(self->counts_tricks);
}

static PyGetSetDef Lines_getset[] = {
    {"nodes", (getter)Lines_get_nodes, NULL, "The positions both searches visited.", NULL},
    {"counts_tricks", (getter)Lines_get_counts_tricks, NULL, "Every card of the hand is worth a coin.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef Lines_members[] = {
    {"escape_nodes", T_LONGLONG, offsetof(Lines, escape_nodes), READONLY, "The positions `Escape` visited."},
    {"gain_nodes", T_LONGLONG, offsetof(Lines, gain_nodes), READONLY, "The positions `Gains` visited."},
    {"shared", T_LONGLONG, offsetof(Lines, shared), READONLY, "Answers read from a partition entry with a band."},
    {"escape_cap", T_LONGLONG, offsetof(Lines, escape_cap), READONLY, "`Escape`'s entries a generation."},
    {"gains_cap", T_LONGLONG, offsetof(Lines, gains_cap), READONLY, "`Gains`' entries a generation."},
    {NULL, 0, 0, 0, NULL},
};

static PyMethodDef Lines_methods[] = {
    {"escapes", (PyCFunction)(void (*)(void))Lines_escapes, METH_VARARGS | METH_KEYWORDS,
     "Escape.escapes on the position given: whether `seat` can end without a bottle (and gain a coin)."},
    {"gain", (PyCFunction)(void (*)(void))Lines_gain, METH_VARARGS | METH_KEYWORDS,
     "Gains.gain on the position given: the coins `seat` can gain and end without a bottle (FAILED: none)."},
    {"sizes", (PyCFunction)Lines_sizes, METH_NOARGS, "Each table's entries and its older generation's."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject LinesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "imptools.rules.bottle_imp.cescape.Lines",
    .tp_doc = PyDoc_STR("Lines(n, per_trick, bottles, coins, colour, holder, dealt, team, escape_cap, gains_cap, "
                        "packs, first_pack): escape.Escape (partition solver) and escape.Gains in C."),
    .tp_basicsize = sizeof(Lines),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Lines_init,
    .tp_dealloc = (destructor)Lines_dealloc,
    .tp_methods = Lines_methods,
    .tp_members = Lines_members,
    .tp_getset = Lines_getset,
};

#ifdef TREE_COUNTS
static PyObject *rows_of(const long long *counts, int rows)
{
    PyObject *out = PyList_New(rows);
    for (int r = 0; out != NULL && r < rows; r++) {
        PyObject *row = PyList_New(6);
        if (row == NULL) {
            Py_CLEAR(out);
            break;
        }
        for (int i = 0; i < 6; i++) PyList_SET_ITEM(row, i, PyLong_FromLongLong(counts[6 * r + i]));
        PyList_SET_ITEM(out, r, row);
    }
    return out;
}

/* The counts of a `-DTREE_COUNTS` build since the last call (see there): "escape", a list a question of two rows
 * (the other side moving, the side asked about), and "gains", the two rows; each row the positions cut off by the
 * first to the fourth card, a later one, none. The counts start again from nothing. */
static PyObject *module_tree_counts(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(unused))
{
    PyObject *escape = PyList_New(3), *gains = rows_of(&TC_GAINS[0][0], 2), *out = PyDict_New();
    int ok = escape != NULL && gains != NULL && out != NULL;
    for (int q = 0; ok && q < 3; q++) {
        PyObject *rows = rows_of(&TC_ESCAPE[q][0][0], 2);
        ok = rows != NULL;
        if (ok) PyList_SET_ITEM(escape, q, rows);
    }
    ok = ok && PyDict_SetItemString(out, "escape", escape) == 0 && PyDict_SetItemString(out, "gains", gains) == 0;
    Py_XDECREF(escape);
    Py_XDECREF(gains);
    if (!ok) {
        Py_XDECREF(out);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    memset(TC_ESCAPE, 0, sizeof(TC_ESCAPE));
    memset(TC_GAINS, 0, sizeof(TC_GAINS));
    return out;
}

static PyMethodDef module_methods[] = {
    {"tree_counts", module_tree_counts, METH_NOARGS, "The search trees' counts since the last call (-DTREE_COUNTS)."},
    {NULL, NULL, 0, NULL},
};
#else
#define module_methods NULL
#endif

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "imptools.rules.bottle_imp.cescape",
    "The Bottle Imp's Escape and Gains in C, visiting the very positions escape.py's classes visit.", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_cescape(void)
{
    if (PyType_Ready(&LinesType) < 0) return NULL;
    fill_bits();
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&LinesType);
    if (PyModule_AddObject(m, "Lines", (PyObject *)&LinesType) < 0
        || PyModule_AddObject(m, "ESCAPE_CAP", PyLong_FromLong(ESCAPE_CAP)) < 0
        || PyModule_AddObject(m, "GAINS_CAP", PyLong_FromLong(GAINS_CAP)) < 0
        || PyModule_AddObject(m, "NO_CARD", PyLong_FromLong(NO_CARD)) < 0
        || PyModule_AddObject(m, "START_PRICE", PyLong_FromLong(START_PRICE)) < 0
        || PyModule_AddObject(m, "POPCNT", PyBool_FromLong(POPCNT)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
