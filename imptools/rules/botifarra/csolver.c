/* Botifarra's double-dummy solver for three and four players, written in C: a line-by-line port of `Solver`
 * (imptools/rules/botifarra/solver.py) and of the helpers of masks.py it calls (`legal_coded`, `beats`,
 * `cannot_be_taken`, `settled_runs`, `trick_outcome`, `beat_mask`, `most_points`, `fewest_points`).
 *
 * It visits the very positions the Python class visits, in the same order, and gives the same values: the same
 * bounds (`sure`, `entry`, `ruffs`, `least_points`), the same move order (`order`: the same scores, the same
 * ties; the killer cards, `killers` by `killer_hash`, in the same slots), the same table behaviour (two
 * generations of `cap` entries a side, the newer looked up first, stored into, and made the older when it holds
 * more than `cap`) and the same `nodes`. The Python class stays the
 * reference and the fallback (`position.new_solver` chooses); tests/test_native_solver.py compares the two.
 * Partition search (`Solver(partition=True)`: `store`, `kvec_of`, `mark_top`, `top_mask`, `run_relevant` and the
 * relevant cards `rel` followed in `node`) is ported too, its tables as the Python class keeps them: a dict of
 * buckets by the coarse key (each the `BUCKET` newest entries, oldest first), two generations of `pcap` buckets.
 *
 * A card is bit `suit * 12 + strength - 1` of a 48-bit mask (masks.py). A trick start's key (`key_of`) is kept as
 * four 64-bit words, one a suit (each hand's twelve bits of it, the first seat highest, the cards without points
 * by their rank among those in play), the leader (with the bit 4 above it, as in Python) in bits 48-50 of the
 * first word; built with `PEXT`, without partition entries, one a hand instead (its point cards, then its cards
 * without points by their place among those in play, how many each suit has in play in the last word's bits 48-59):
 * the same positions share a key either way. A table's slot is those four words with the entry's 22 bits (lo, hi,
 * best card + 1) in the free high bits of the first two and its partition vector (`kvec_of`, 12 bits) in the
 * third's: 32 bytes, open addressing, linear probing, with a tag of two bytes a slot beside them (the hash's top
 * bits; 0: empty), which the probes read first, so that a key the table lacks is mostly told by the tags alone (a
 * sixteenth of the slots' memory). Built with `PEXT`, the trick starts with at most 36 cards in play (partition
 * entries off) go into a compact part of the generation instead, 16 bytes a slot (`compact_key`, `cget`, `cput`). A
 * partition generation is an index (open addressing) into an array of buckets in the order they were made; a bucket
 * holds the coarse key and up to `BUCKET` entries, each the masked key's four words with the entry's bits in their
 * free high bits (32 bytes).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
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
/* Whether it targets one that gathers a word's bits by a mask in one instruction (x86-64 with `-mbmi2`, which
 * hatch_build.py passes where the building processor does so quickly): the table's keys are made with it. */
#if defined(__BMI2__) && defined(__x86_64__)
#define PEXT 1
#include <immintrin.h>
#else
#define PEXT 0
#endif

typedef uint64_t u64;
typedef int64_t i64;

#define INF ((i64)1 << 40)
#define LOW_CARDS ((u64)0x7F)
#define LOW_ALL (LOW_CARDS | LOW_CARDS << 12 | LOW_CARDS << 24 | LOW_CARDS << 36)
#define SUIT(s) ((u64)0xFFF << (12 * (s)))
#define DEFAULT_CAP (3 * (1 << 20) - 1) /* solver.SOLVER_CAP: a generation fills 4M slots (128 MB, and 8 MB of tags) */
#define FIRST_SLOTS 1024
#define KEY48 (((u64)1 << 48) - 1)
#define KEY51 (((u64)1 << 51) - 1)
#define BUCKET 6
#define PARTITION_LEAST 8
#define LOOKAHEAD_TRICKS 5 /* solver.LOOKAHEAD_TRICKS */
#define KILLER_BITS 16      /* solver.KILLER_SLOTS == 1 << KILLER_BITS */
#define KILLER_TRICKS 4     /* solver.KILLER_TRICKS */

/* Built with `-DTREE_COUNTS` (bench/tree_shape.py), the search counts the shape of its tree, by tricks left (the
 * trick under way counted) and the place in the trick: the positions; how each trick start ended (settled by the
 * table, settled by the bounds, searched where the table had an entry, searched where it had none); and at each
 * position with more than one card to try, which card cut off (the first to the fourth, a later one) or that none
 * did. `tree_counts()` returns them and starts again from nothing. A plain build has none of it. */
#ifdef TREE_COUNTS
static long long TC_POSITIONS[13][4], TC_STARTS[13][4], TC_CUTS[13][4][6];
#define TC_TRICKS(self) ((popcount((self)->live) + (self)->n - 1) / (self)->n)
#define COUNT_POSITION(self, k) (TC_POSITIONS[TC_TRICKS(self)][k]++)
#define COUNT_START(self, how) (TC_STARTS[TC_TRICKS(self)][how]++)
#define COUNT_CUT(self, k, at) (TC_CUTS[TC_TRICKS(self)][k][at]++)
#else
#define COUNT_POSITION(self, k) ((void)0)
#define COUNT_START(self, how) ((void)0)
#endif

/* masks.POINTS_OF: the card points of each bit (a suit's seven low cards none, then 1 2 3 4 5). */
static const int POINTS_OF[48] = {
    0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5,
    0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5,
};
/* masks.POINT_MASK: the point cards of every suit. */
static const u64 POINT_MASK = (u64)0xF80F80F80F80;
/* solver.PACK, filled at import (`fill_pack`). */
static uint8_t PACK[1 << 14];

/* the bits set: the instruction where the build targets it (`POPCNT`), else by halves (portable:
 * no call into the compiler's library, which is slower than either) */
static inline int popcount(u64 x)
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
/* Python's int.bit_length (0 for 0). */
static inline int bitlen(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }
/* A card's suit (Python's floor division by 12, -1 for no card: the table is indexed by the card + 1) and its rank
 * within the suit, by table (a load where a division by 12 takes several instructions). */
static const int8_t SUIT1[49] = {-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
static const int8_t RANK12[48] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
static inline int suit_of(int b) { return SUIT1[b + 1]; }
static inline int rank_of(int b) { return RANK12[b]; }

static void fill_pack(void) {
    for (int i = 0; i < (1 << 14); i++) {
        int live = i >> 7, own = (i & 127) & (i >> 7), out = 0, k = 0;
        for (int j = 0; j < 7; j++) {
            if (live >> j & 1) {
                if (own >> j & 1) out |= 1 << k;
                k++;
            }
        }
        PACK[i] = (uint8_t)out;
    }
}

/* --------------------------------------------------------------------------------------- masks.py */

/* masks.beats */
static inline int beats(int card, int winning, int trump) {
    int s = suit_of(card), w = suit_of(winning);
    return (s == w && card > winning) || (s == trump && w != trump);
}

/* masks.lows */
static inline u64 lows(u64 held) {
    u64 out = 0;
    for (int s = 0; s < 4; s++) {
        u64 x = held & SUIT(s);
        if (x) out |= x & (~x + 1);
    }
    return out;
}

/* masks._allowed */
static inline u64 allowed(int cell, u64 pool, u64 low) { return cell == 1 ? low : pool & (POINT_MASK | low); }

/* masks.legal_coded */
static u64 legal_coded(int cells, int trump, int led, int winning, int partner_master, u64 held) {
    if (led < 0) return held;
    u64 follow = held & SUIT(led);
    if (partner_master) {
        u64 pool = follow ? follow : held;
        int cell = cells & 3;
        return cell == 0 ? pool : allowed(cell, pool, lows(pool));
    }
    u64 above = ~((((u64)2) << winning) - 1);
    if (follow) {
        u64 beaters = suit_of(winning) == led ? follow & above : 0;
        if (beaters) return beaters;
        int cell = cells >> 2 & 3;
        return cell == 0 ? follow : allowed(cell, follow, follow & (~follow + 1));
    }
    if (trump >= 0) {
        u64 trumps = held & SUIT(trump);
        if (suit_of(winning) == trump) trumps &= above;
        if (trumps) return trumps;
    }
    int cell = cells >> 4 & 3;
    return cell == 0 ? held : allowed(cell, held, lows(held));
}

/* masks.cannot_be_taken (the seats of the mask `skip` left out) */
static int cannot_be_taken(const u64 *hands, int n, int trump, int lead, int k, int win, int led, int skip) {
    u64 trump_mask = trump >= 0 ? SUIT(trump) : 0;
    u64 above = ~((((u64)2) << win) - 1);
    int wsuit = suit_of(win);
    for (int j = k + 1; j < n; j++) {
        int seat = (lead + j) % n;
        if (skip >> seat & 1) continue;
        u64 held = hands[seat];
        u64 follow = held & SUIT(led);
        if (follow) {
            if (wsuit == led && (follow & above)) return 0;
        } else if ((held & trump_mask) && (wsuit != trump || (held & trump_mask & above))) {
            return 0;
        }
    }
    return 1;
}

/* masks.asks_points: whether a cell of the play rule asks for a point card (LOW_OR_POINT, coded 2) */
static inline int asks_points(int cells) {
    return (cells & 3) == 2 || (cells >> 2 & 3) == 2 || (cells >> 4 & 3) == 2;
}

/* masks.settled_runs: the legal cards of the trick's `k`-th player less those no search needs, one card of each run
 * of them with nothing in play between where no later player of the other side can take the trick: the dearest
 * where it goes to the player's side, else the cheapest. */
static u64 settled_runs(u64 legal, u64 lv, const u64 *hands, int n, int cells, int trump, int side, int lead, int k,
                        int win, int wat, int led) {
    int seat = (lead + k) % n;
    int holder = (lead + wat) % n;
    int maxing = side >> seat & 1;
    u64 cand = asks_points(cells) ? legal & (POINT_MASK | lows(hands[seat])) : legal;
#if PEXT
    { /* no two of them side by side among the cards in play (in any suit): no run, nothing to leave out */
        u64 packed = _pext_u64(cand, lv);
        if (!(packed & packed >> 1)) return legal;
    }
#endif
    u64 out = legal & ~cand;
    u64 x = cand;
    while (x) {
        int c = __builtin_ctzll(x);
        int top = c;
        u64 run = (u64)1 << c;
        x &= x - 1;
        while (x) {
            int b = __builtin_ctzll(x);
            if (suit_of(b) != suit_of(c) || (lv & ((((u64)1) << b) - (((u64)2) << top)))) break;
            top = b;
            run |= (u64)1 << b;
            x &= x - 1;
        }
        if (top == c) {
            out |= run;
            continue;
        }
        int beat = k == 0 || beats(c, win, trump);
        int winner = beat ? seat : holder;
        int ours = side >> winner & 1; /* the side the trick goes to as it lies */
        int skip = ours ? side : ~side;
        if (k == n - 1 || cannot_be_taken(hands, n, trump, lead, k, beat ? c : win, k == 0 ? suit_of(c) : led, skip))
            out |= (u64)1 << (ours == maxing ? top : c);
        else
            out |= run;
    }
    return out;
}

/* solver.least_points */
static i64 least_points(u64 cards, int r) {
    if (popcount(cards & LOW_ALL) >= r) return 0;
    i64 got = 0;
    while (cards && r) {
        u64 low = cards & (~cards + 1);
        got += POINTS_OF[__builtin_ctzll(cards)];
        cards ^= low;
        r--;
    }
    return got;
}

/* --------------------------------------------------------------------------------------- the tables */

typedef struct {
#if PEXT
    u64 *cslots; /* the compact part (`cget`): two words a slot, the second 0 where the slot is empty */
    u64 cmask;   /* its slots - 1, 0 before its first store */
    u64 ccount;  /* its entries (`count` holds them too) */
#endif
    u64 *slots;     /* four words a slot, read only where its tag is set */
    uint16_t *tags; /* a slot's hash's top 16 bits (with the low bit set), 0 where the slot is empty */
    u64 mask;       /* slots - 1 (slots a power of two), 0 before the first store */
    u64 count; /* entries, both parts together: what the generation's turn is counted by */
} Gen;

typedef struct {
    Gen gen[2]; /* the newer, the older */
} Table;

static inline u64 hash_key(const u64 *k) {
    u64 h = k[0] * 0x9E3779B97F4A7C15ULL;
    h = (h ^ (h >> 29) ^ k[1]) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ (h >> 31) ^ k[2]) * 0x94D049BB133111EBULL;
    h = (h ^ (h >> 29) ^ k[3]) * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 32);
}

static inline int same_key(const u64 *slot, const u64 *k) {
    return (slot[0] & KEY51) == k[0] && (slot[1] & KEY48) == k[1] && (slot[2] & KEY48) == k[2] && slot[3] == k[3];
}

static inline uint16_t tag_of(u64 h) { return (uint16_t)((h >> 48) | 1); }

/* The entries of the compact part (none without `PEXT`). */
static inline u64 g_ccount(const Gen *g) {
#if PEXT
    return g->ccount;
#else
    (void)g;
    return 0;
#endif
}

/* The entry of `k` in `g`, or -1. */
static inline i64 gen_get(const Gen *g, const u64 *k) {
    if (!g->mask) return -1;
    u64 h = hash_key(k);
    uint16_t tag = tag_of(h);
    u64 i = h & g->mask;
    for (;;) {
        uint16_t t = g->tags[i];
        if (!t) return -1;
        if (t == tag) {
            const u64 *slot = g->slots + 4 * i;
            if (same_key(slot, k)) return (i64)((slot[0] >> 51) | (slot[1] >> 48) << 13 | (slot[2] >> 48) << 22);
        }
        i = (i + 1) & g->mask;
    }
}

static int gen_grow(Gen *g) {
    u64 size = g->mask ? 2 * (g->mask + 1) : FIRST_SLOTS;
    u64 *slots = calloc(4 * size, sizeof(u64));
    uint16_t *tags = calloc(size, sizeof(uint16_t));
    if (!slots || !tags) {
        free(slots);
        free(tags);
        return -1;
    }
    if (g->mask) {
        for (u64 j = 0; j <= g->mask; j++) {
            if (!g->tags[j]) continue;
            u64 *old = g->slots + 4 * j;
            u64 k[4] = {old[0] & KEY51, old[1] & KEY48, old[2] & KEY48, old[3]};
            u64 i = hash_key(k) & (size - 1);
            while (tags[i]) i = (i + 1) & (size - 1);
            memcpy(slots + 4 * i, old, 4 * sizeof(u64));
            tags[i] = g->tags[j];
        }
        free(g->slots);
        free(g->tags);
    }
    g->slots = slots;
    g->tags = tags;
    g->mask = size - 1;
    return 0;
}

/* `table[key] = value` of a dict: the entry's 34 low bits kept (all that is read of it). */
static int gen_put(Gen *g, const u64 *k, i64 value) {
    if (!g->mask || 4 * (g->count - g_ccount(g) + 1) > 3 * (g->mask + 1)) { /* at most three quarters full */
        if (gen_grow(g) < 0) return -1;
    }
    u64 v = (u64)value & 0x3FFFFFFFFULL;
    u64 h = hash_key(k);
    uint16_t tag = tag_of(h);
    u64 i = h & g->mask;
    for (;;) {
        uint16_t t = g->tags[i];
        if (!t) {
            g->count++;
            g->tags[i] = tag;
            break;
        }
        if (t == tag && same_key(g->slots + 4 * i, k)) break;
        i = (i + 1) & g->mask;
    }
    u64 *slot = g->slots + 4 * i;
    slot[0] = k[0] | (v & 0x1FFF) << 51;
    slot[1] = k[1] | ((v >> 13) & 0x1FF) << 48;
    slot[2] = k[2] | (v >> 22) << 48;
    slot[3] = k[3];
    return 0;
}

static void gen_free(Gen *g) {
#if PEXT
    free(g->cslots);
    g->cslots = NULL;
    g->cmask = 0;
    g->ccount = 0;
#endif
    free(g->slots);
    free(g->tags);
    g->tags = NULL;
    g->slots = NULL;
    g->mask = 0;
    g->count = 0;
}

/* Two words mixed into one (the tables' slots: solver.hash2 the same bits). */
static inline u64 hash2(u64 a, u64 b) {
    u64 h = a * 0x9E3779B97F4A7C15ULL;
    h = (h ^ (h >> 29) ^ b) * 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 32);
}

/* solver.killer_hash: a hand to play to a suit led (-1 at a trick's start), its partner winning the trick or not,
 * a card of it taking the trick or not, as a slot of `killers` by its low bits, which keeps it with its top bit set (a
 * slot of 0 is empty) and its six low bits left for the card. */
static inline u64 killer_hash(u64 held, int led, int partner_wins, int can_take) {
    return hash2(held, (u64)(led + 1) | (u64)partner_wins << 3 | (u64)can_take << 4) | (u64)1 << 63;
}

#if PEXT
/* The compact part of a generation: the trick starts with at most 36 cards in play (nine tricks left at four
 * players, every one at three), keyed in two words by `compact_key` with the entry in the second's top 21 bits,
 * 16 bytes a slot against the wide part's 32 and its tag, so that a probe reads one cache line, not a tag's and a
 * slot's. The same keys tell the same positions apart as `key_of`'s: an exact table, as a dict. */
#define CKEY (((u64)1 << 43) - 1)

/* The compact key of a trick start (`hands`, `n` of them, the cards in play `lv`) led by `lead`: the first two words' low bits each of a card in play's holder
 * in turn (`_pext_u64` by the cards in play of two bit planes of the holder's seat), then its point cards in play,
 * how many cards without points each suit has in play and the leader (with the bit 4: never 0). Given the point
 * cards in play and the counts, the n-th card in play is the same card of both positions, so two trick starts
 * share the key exactly where every hand holds the same point cards and its cards without points at the same
 * places among those in play, as `key_of`'s words. */
static inline void compact_key(const u64 *hands, int n, u64 lv, int lead, u64 *w0, u64 *w1) {
    u64 p0, p1;
    if (n == 4) {
        p0 = hands[1] | hands[3];
        p1 = hands[2] | hands[3];
    } else {
        p0 = hands[1];
        p1 = hands[2];
    }
    u64 a = _pext_u64(p0, lv), b = _pext_u64(p1, lv);
    u64 low_live = lv & LOW_ALL, counts = 0;
    for (int s = 0; s < 4; s++) counts |= (u64)popcount(low_live & SUIT(s)) << (3 * s);
    u64 c = _pext_u64(lv, POINT_MASK) | counts << 20 | (u64)(lead | 4) << 32;
    *w0 = a | b << 36;
    *w1 = b >> 28 | c << 8;
}

/* The entry of (w0, w1) in `g`'s compact part, or -1 (as `gen_get`'s: lo, hi, best card + 1). */
static inline i64 cget(const Gen *g, u64 w0, u64 w1) {
    if (!g->cmask) return -1;
    u64 i = hash2(w0, w1) & g->cmask;
    for (;;) {
        const u64 *slot = g->cslots + 2 * i;
        u64 s1 = slot[1];
        if (!s1) return -1;
        if (slot[0] == w0 && (s1 & CKEY) == w1) {
            u64 v = s1 >> 43;
            return (i64)((v & 127) | (v >> 7 & 127) << 8 | (v >> 14) << 16);
        }
        i = (i + 1) & g->cmask;
    }
}

static int cgrow(Gen *g) {
    u64 size = g->cmask ? 2 * (g->cmask + 1) : FIRST_SLOTS;
    u64 *slots = calloc(2 * size, sizeof(u64));
    if (!slots) return -1;
    if (g->cmask) {
        for (u64 j = 0; j <= g->cmask; j++) {
            const u64 *old = g->cslots + 2 * j;
            if (!old[1]) continue;
            u64 i = hash2(old[0], old[1] & CKEY) & (size - 1);
            while (slots[2 * i + 1]) i = (i + 1) & (size - 1);
            slots[2 * i] = old[0];
            slots[2 * i + 1] = old[1];
        }
        free(g->cslots);
    }
    g->cslots = slots;
    g->cmask = size - 1;
    return 0;
}

/* `gen_put` into the compact part: the entry's lo and hi (0-84, 7 bits each) and best card + 1 (6 bits). */
static int cput(Gen *g, u64 w0, u64 w1, i64 value) {
    if (!g->cmask || 4 * (g->ccount + 1) > 3 * (g->cmask + 1)) { /* at most three quarters full */
        if (cgrow(g) < 0) return -1;
    }
    u64 v = (u64)(value & 127) | (u64)(value >> 8 & 127) << 7 | (u64)(value >> 16 & 63) << 14;
    u64 i = hash2(w0, w1) & g->cmask;
    for (;;) {
        const u64 *slot = g->cslots + 2 * i;
        if (!slot[1]) {
            g->ccount++;
            g->count++;
            break;
        }
        if (slot[0] == w0 && (slot[1] & CKEY) == w1) break;
        i = (i + 1) & g->cmask;
    }
    u64 *slot = g->cslots + 2 * i;
    slot[0] = w0;
    slot[1] = w1 | v << 43;
    return 0;
}
#endif

/* `gens[1], gens[0] = gens[0], {}`: the older dropped (its memory kept, emptied, for the newer). */
static void table_turn(Table *t) {
    Gen old = t->gen[1];
    t->gen[1] = t->gen[0];
    t->gen[0] = old;
    if (old.mask) memset(old.tags, 0, (old.mask + 1) * sizeof(uint16_t)); /* its slots are written before read */
    t->gen[0].count = 0;
#if PEXT
    if (old.cmask) memset(old.cslots, 0, (old.cmask + 1) * 2 * sizeof(u64));
    t->gen[0].ccount = 0;
#endif
}

/* The partition tables (`Solver.ptables`): by the coarse key, a bucket of the `BUCKET` newest entries. */

typedef struct {
    u64 pat[4]; /* the key masked by the entry's `top_mask` (48 bits a word), with the entry's bits above: lo, hi
                   and best card + 1 (22 bits) in the first two words' high bits, `kv` (12 bits) in the third's */
} PEntry;

typedef struct {
    u64 coarse[2]; /* the coarse key's suits, two a word */
    uint32_t lead; /* its leader (with the bit 4) */
    uint32_t len;  /* entries, the oldest first */
    PEntry e[BUCKET];
} Bucket;

typedef struct {
    u64 *index;      /* 1 + a bucket's place in `buckets` (0 empty), its key's hash's high half above; open
                        addressing (the hash told apart before the bucket is read: one cache miss the less) */
    u64 mask;        /* index slots - 1, 0 before the first bucket */
    Bucket *buckets; /* in the order made */
    u64 count;
    u64 room;
} PGen;

typedef struct {
    PGen gen[2]; /* the newer, the older */
} PTable;

static inline u64 pentry_value(const PEntry *p) {
    return (p->pat[0] >> 48) | (p->pat[1] >> 48) << 16 | (p->pat[2] >> 48) << 22;
}

static inline u64 hash_coarse(const u64 *c, uint32_t lead) {
    u64 h = (c[0] ^ lead) * 0x9E3779B97F4A7C15ULL;
    h = (h ^ (h >> 29) ^ c[1]) * 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 32);
}

/* The bucket of a coarse key in `g`, or NULL. */
static Bucket *pgen_get(const PGen *g, const u64 *c, uint32_t lead) {
    if (!g->mask) return NULL;
    u64 h = hash_coarse(c, lead);
    u64 tag = h >> 32 << 32;
    u64 i = h & g->mask;
    for (;;) {
        u64 at = g->index[i];
        if (!at) return NULL;
        if ((at & ~(u64)0xFFFFFFFF) == tag) {
            Bucket *b = g->buckets + ((at & 0xFFFFFFFF) - 1);
            if (b->coarse[0] == c[0] && b->coarse[1] == c[1] && b->lead == lead) return b;
        }
        i = (i + 1) & g->mask;
    }
}

static int pgen_grow_index(PGen *g) {
    u64 size = g->mask ? 2 * (g->mask + 1) : FIRST_SLOTS;
    u64 *index = calloc(size, sizeof(u64));
    if (!index) return -1;
    for (u64 j = 0; j < g->count; j++) {
        Bucket *b = g->buckets + j;
        u64 h = hash_coarse(b->coarse, b->lead);
        u64 i = h & (size - 1);
        while (index[i]) i = (i + 1) & (size - 1);
        index[i] = h >> 32 << 32 | (j + 1);
    }
    free(g->index);
    g->index = index;
    g->mask = size - 1;
    return 0;
}

/* A new empty bucket of a coarse key (not in `g`), or NULL where memory ran out. */
static Bucket *pgen_add(PGen *g, const u64 *c, uint32_t lead) {
    if (!g->mask || 4 * (g->count + 1) > 3 * (g->mask + 1)) {
        if (pgen_grow_index(g) < 0) return NULL;
    }
    if (g->count == g->room) {
        u64 room = g->room ? 2 * g->room : FIRST_SLOTS;
        Bucket *more = realloc(g->buckets, room * sizeof(Bucket));
        if (!more) return NULL;
        g->buckets = more;
        g->room = room;
    }
    Bucket *b = g->buckets + g->count;
    b->coarse[0] = c[0];
    b->coarse[1] = c[1];
    b->lead = lead;
    b->len = 0;
    g->count++;
    u64 h = hash_coarse(c, lead);
    u64 i = h & g->mask;
    while (g->index[i]) i = (i + 1) & g->mask;
    g->index[i] = h >> 32 << 32 | g->count;
    return b;
}

static void pgen_free(PGen *g) {
    free(g->index);
    free(g->buckets);
    memset(g, 0, sizeof(PGen));
}

/* `pgens[1], pgens[0] = pgens[0], {}`: the older dropped (its memory kept, emptied, for the newer). */
static void ptable_turn(PTable *t) {
    PGen old = t->gen[1];
    t->gen[1] = t->gen[0];
    t->gen[0] = old;
    if (old.mask) memset(old.index, 0, (old.mask + 1) * sizeof(u64));
    t->gen[0].count = 0;
}

/* --------------------------------------------------------------------------------------- the solver */

typedef struct {
    PyObject_HEAD
    int n;
    int cells;
    int trump;
    u64 trump_mask;
    int partner[4];
    long long cap;
    long long nodes;
    long long turns; /* times a table's newer generation became the older, all sides together */
    Table *tables[16]; /* by the side kept (a mask of seats), made on first use */
    /* the search's state, set by `gain` */
    u64 hands[4];
    int side;
    int flip;
    u64 live;
    i64 live_points;
    Table *gens;
    /* partition search (`partition`) */
    int partition;
    long long pcap;  /* buckets a partition generation holds before it becomes the older */
    long long phits; /* partition entries that narrowed a window */
    PTable *ptables[16];
    PTable *pgens;
    u64 rel;          /* the relevant cards without points of the search below */
    u64 srel;         /* those the static bounds hang on */
    u64 coarse[2];    /* the partition key of the last trick start `key_of` keyed (its leader: `coarse_lead`) */
    uint32_t coarse_lead;
    u64 tops[4][8]; /* `Solver.tops` a suit's word at a time: suit s's cards without points from rank j up */
    u64 *killers;   /* `Solver.killers`: KILLER_SLOTS slots, each a hand and its place's hash (`killer_hash`), a card */
    int failed; /* 1: memory ran out (`gain` raises MemoryError), 2: a signal's handler raised: the search unwinds */
} Solver;

static void key_of(Solver *self, int lead, u64 *key) {
    u64 lv = self->live;
    const u64 *hands = self->hands;
    int n = self->n;
    int part_on = self->partition;
#if PEXT
    if (!part_on) {
        /* the table's key only, a hand a word: its point cards, then its cards without points by their places among
         * those in play, the suits one after another; the last word also holds how many cards without points each
         * suit has in play. Two trick starts share this key exactly where they share the suits' words below (every
         * card in play is in a hand there), a word a hand in a few instructions where those take a table's look-up
         * a suit a hand. */
        u64 low_live = lv & LOW_ALL;
        u64 counts = 0;
        for (int s = 0; s < 4; s++) counts |= (u64)popcount(low_live & SUIT(s)) << (3 * s);
        for (int i = 0; i < 4; i++)
            key[i] = i < n ? _pext_u64(hands[i], POINT_MASK) | _pext_u64(hands[i], low_live) << 20 : 0;
        key[0] |= (u64)(lead | 4) << 48;
        key[3] |= counts << 48;
        return;
    }
#endif
    /* the suits' words: a suit a word, each hand's point cards and its cards without points by their places among
     * the suit's in play (`PACK`); with partition entries, the partition key beside them */
    u64 cpart[4];
    for (int s = 0; s < 4; s++) {
        int sh = 12 * s;
        u64 base = ((lv >> sh) & LOW_CARDS) << 7;
        u64 part = 0, cp = 0;
        for (int i = 0; i < n; i++) {
            u64 x = (hands[i] >> sh) & 0xFFF;
            u64 low = x & LOW_CARDS;
            part = (part << 12) | (x & 0xF80) | PACK[base | low];
            if (part_on) cp = (cp << 8) | (x & 0xF80) >> 4 | (u64)popcount(low);
        }
        key[s] = part;
        cpart[s] = cp;
    }
    key[0] |= (u64)(lead | 4) << 48;
    if (part_on) { /* each hand's point cards and how many cards without points it holds, a suit at a time */
        self->coarse[0] = cpart[0] << 32 | cpart[1];
        self->coarse[1] = cpart[2] << 32 | cpart[3];
        self->coarse_lead = (uint32_t)(lead | 4);
    }
}

/* solver.kvec_of */
static int kvec_of(const Solver *self, u64 rel) {
    u64 lv = self->live;
    int kv = 0;
    for (int s = 0; s < 4; s++) {
        u64 r = rel >> (12 * s) & LOW_CARDS;
        if (r) {
            u64 low = r & (~r + 1);
            kv |= popcount((lv >> (12 * s)) & LOW_CARDS & ~(low - 1)) << (3 * s);
        }
    }
    return kv;
}

/* solver.mark_top */
static void mark_top(Solver *self, int kv) {
    if (!kv) return;
    u64 lv = self->live;
    for (int s = 0; s < 4; s++) {
        int k = kv >> (3 * s) & 7;
        if (k) {
            u64 x = (lv >> (12 * s)) & LOW_CARDS;
            for (int j = 0; j < k - 1; j++) x ^= (u64)1 << (bitlen(x) - 1);
            if (x) self->rel |= (u64)1 << (bitlen(x) - 1 + 12 * s);
        }
    }
}

/* solver.top_mask, a suit's word at a time. */
static void top_mask(const Solver *self, int kv, u64 *m) {
    u64 lv = self->live;
    for (int s = 0; s < 4; s++) {
        int k = kv >> (3 * s) & 7;
        int j = popcount((lv >> (12 * s)) & LOW_CARDS) - k;
        m[s] = k && j >= 0 ? self->tops[s][j] : 0;
    }
}

/* solver.run_relevant */
static u64 run_relevant(const Solver *self, int b, u64 legal, u64 rel) {
    u64 lv = self->live;
    int c = b;
    for (;;) {
        u64 above = lv & SUIT(suit_of(b)) & ~((((u64)2) << c) - 1);
        if (!above) return 0;
        u64 nxt = above & (~above + 1);
        if (!(legal & nxt) || (nxt & ~LOW_ALL)) return 0;
        if (rel & nxt) return (u64)1 << b;
        c = __builtin_ctzll(nxt);
    }
}

/* solver.store: 0, or -1 where memory ran out. */
static int store(Solver *self, const u64 *coarse, uint32_t coarse_lead, const u64 *pat, int kv, i64 lo, i64 hi,
                 int move) {
    PTable *pg = self->pgens;
    Bucket *bucket = pgen_get(&pg->gen[0], coarse, coarse_lead);
    if (!bucket) {
        bucket = pgen_add(&pg->gen[0], coarse, coarse_lead);
        if (!bucket) return -1;
        if ((long long)pg->gen[0].count > self->pcap) ptable_turn(pg); /* the bucket lies in the older now */
    }
    for (uint32_t i = 0; i < bucket->len; i++) {
        PEntry *pe = bucket->e + i;
        if ((pe->pat[0] & KEY48) == pat[0] && (pe->pat[1] & KEY48) == pat[1] && (pe->pat[2] & KEY48) == pat[2] &&
            pe->pat[3] == pat[3] && (int)(pe->pat[2] >> 48) == kv) {
            u64 v = pentry_value(pe);
            i64 elo = (i64)(v & 0xFF), ehi = (i64)(v >> 8 & 0xFF);
            u64 nv = (u64)(lo > elo ? lo : elo) | (u64)(hi < ehi ? hi : ehi) << 8 | (u64)(move + 1) << 16;
            pe->pat[0] = pat[0] | (nv & 0xFFFF) << 48;
            pe->pat[1] = pat[1] | (nv >> 16 & 0x3F) << 48;
            return 0;
        }
    }
    if (bucket->len == BUCKET) { /* `bucket.pop(0)` after the append: the oldest goes */
        memmove(bucket->e, bucket->e + 1, (BUCKET - 1) * sizeof(PEntry));
        bucket->len--;
    }
    PEntry *pe = bucket->e + bucket->len++;
    u64 nv = (u64)lo | (u64)hi << 8 | (u64)(move + 1) << 16;
    pe->pat[0] = pat[0] | (nv & 0xFFFF) << 48;
    pe->pat[1] = pat[1] | (nv >> 16 & 0x3F) << 48;
    pe->pat[2] = pat[2] | (u64)kv << 48;
    pe->pat[3] = pat[3];
    return 0;
}

typedef struct {
    int s;
    u64 t;
    int rounds;
    int cashed;
} After;

static i64 entry(Solver *self, int lead, const After *after, int count, int spare) {
    const u64 *hands = self->hands;
    u64 own = hands[lead];
    int mate = self->partner[lead];
    u64 held = hands[mate];
    int ruffer = (own & self->trump_mask) != 0;
    i64 best = 0;
    for (int a = 0; a < count; a++) {
        int s = after[a].s, rounds = after[a].rounds, cashed = after[a].cashed;
        u64 t = after[a].t;
        u64 m = SUIT(s);
        u64 mine = own & t;
        int limit = rounds < spare ? rounds : spare;
        if (ruffer && popcount(mine) < limit) limit = popcount(mine);
        int c = popcount(held & m) - cashed;
        if (c < limit) limit = c;
        i64 gain = 0;
        int e = 0;
        u64 last = 0;
        while (t && e < limit) {
            int tb = bitlen(t) - 1;
            u64 top = (u64)1 << tb;
            last = top;
            if (!(held & top)) break;
            gain += 1 + POINTS_OF[tb];
            t ^= top;
            e++;
        }
        if (!e) continue;
        gain += least_points(mine, e);
        for (int i = 0; i < self->n; i++) {
            if (i != lead && i != mate) {
                u64 opp = hands[i] & m;
                gain += least_points(opp, cashed + e) - least_points(opp, cashed);
            }
        }
        self->srel |= last & LOW_ALL;
        if (gain > best) best = gain;
    }
    return best;
}

static i64 sure(Solver *self, int lead) {
    u64 lv = self->live;
    const u64 *hands = self->hands;
    int trump = self->trump;
    u64 trump_mask = self->trump_mask;
    u64 own = hands[lead];
    int mate = self->partner[lead];
    int n = self->n;
    i64 got = 0;
    int runs = 0;
    if (trump >= 0) {
        u64 t = lv & trump_mask;
        int cashed = 0;
        u64 last = 0; /* the lowest card looked at: the cards without points down to it are relevant */
        while (t) {
            int tb = bitlen(t) - 1;
            u64 top = (u64)1 << tb;
            last = top;
            if (!(own & top)) break;
            got += 1 + POINTS_OF[tb];
            t ^= top;
            cashed++;
        }
        runs = cashed;
        self->srel |= last & LOW_ALL;
        u64 theirs = 0;
        for (int i = 0; i < n; i++) {
            if (i != lead && i != mate) {
                theirs |= hands[i];
                if (cashed) got += least_points(hands[i] & trump_mask, cashed);
            }
        }
        int b = bitlen(theirs & trump_mask);
        u64 masters = ((own | (mate >= 0 ? hands[mate] : 0)) & t) >> b;
        while (masters) {
            if (masters & 1) got += POINTS_OF[b];
            masters >>= 1;
            b++;
        }
    }
    int mate_ruffs = mate >= 0 && (hands[mate] & trump_mask);
    After after[4];
    int count = 0;
    for (int s = 0; s < 4; s++) {
        if (s == trump) continue;
        u64 m = SUIT(s);
        int rounds = 12;
        for (int i = 0; i < n; i++) {
            if (i != lead && i != mate && (hands[i] & trump_mask)) {
                int c = popcount(hands[i] & m);
                if (c < rounds) rounds = c;
            }
        }
        if (mate_ruffs) {
            int c = popcount(hands[mate] & m);
            if (c < rounds) rounds = c;
        }
        u64 t = lv & m;
        int cashed = 0;
        u64 last = 0;
        while (t && rounds) {
            int tb = bitlen(t) - 1;
            u64 top = (u64)1 << tb;
            last = top;
            if (!(own & top)) break;
            got += 1 + POINTS_OF[tb];
            t ^= top;
            rounds--;
            cashed++;
        }
        self->srel |= last & LOW_ALL;
        runs += cashed;
        if (cashed) {
            for (int i = 0; i < n; i++) {
                if (i != lead) got += least_points(hands[i] & m, cashed);
            }
        }
        if (mate >= 0 && rounds && t && (own & t) && (hands[mate] & t)) {
            after[count].s = s;
            after[count].t = t;
            after[count].rounds = rounds;
            after[count].cashed = cashed;
            count++;
        }
    }
    if (count) got += entry(self, lead, after, count, popcount(own) - runs);
    return got;
}

/* solver.ruffs: the searching side's sure trump points, the other side's. */
static void ruffs(Solver *self, i64 *mine_out, i64 *theirs_out) {
    int side = self->side;
    u64 trump_mask = self->trump_mask;
    u64 ours = 0, theirs = 0;
    for (int i = 0; i < self->n; i++) {
        if (side >> i & 1)
            ours |= self->hands[i] & trump_mask;
        else
            theirs |= self->hands[i] & trump_mask;
    }
    if (self->partition) self->srel |= (ours | theirs) & LOW_ALL;
    i64 got[2] = {0, 0};
    int most[2] = {0, 0};
    for (int i = 0; i < self->n; i++) {
        u64 t = self->hands[i] & trump_mask;
        if (!t) continue;
        int mine = side >> i & 1;
        u64 other = mine ? theirs : ours;
        int held = popcount(t);
        int count = 0;
        i64 best = 0;
        int j = 0;
        u64 x = t;
        while (x) {
            int top = bitlen(x) - 1;
            x ^= (u64)1 << top;
            j++;
            int above = popcount(other >> top);
            if (above >= held) break;
            int u = j - above;
            if (u > 0) {
                if (u > count) count = u;
                i64 p = least_points(t >> top << top, u);
                if (p > best) best = p;
            }
        }
        got[mine] += best;
        if (count > most[mine]) most[mine] = count;
    }
    *mine_out = got[1] + most[1];
    *theirs_out = got[0] + most[0];
}

/* The cards that beat `win` (masks.beats over a mask). */
static inline u64 beat_mask(int win, int trump) {
    int s = suit_of(win);
    u64 m = SUIT(s) & ~((((u64)2) << win) - 1);
    if (trump >= 0 && s != trump) m |= SUIT(trump);
    return m;
}

/* The most and the fewest points of a card of `m` (not empty): a card's points are its rank's, bits 7-11 of a
 * suit worth 1-5. */
static inline int most_points(u64 m) {
    u64 r = (m | m >> 12 | m >> 24 | m >> 36) & 0xFFF;
    return r & 0xF80 ? bitlen(r & 0xF80) - 7 : 0;
}
static inline int fewest_points(u64 m) {
    u64 r = (m | m >> 12 | m >> 24 | m >> 36) & 0xFFF;
    return r & LOW_CARDS ? 0 : __builtin_ctzll(r) - 6;
}

/* masks.runs: one card of each run of equivalent `cards` (same suit and points, nothing of `lv` between), the
 * lowest, into `out`; returns how many. */
static inline int runs(u64 cards, u64 lv, int *out) {
    int count = 0, prev = -1;
    for (u64 x = cards; x; x &= x - 1) {
        int c = __builtin_ctzll(x);
        if (prev >= 0 && suit_of(prev) == suit_of(c) && POINTS_OF[prev] == POINTS_OF[c] &&
            !(lv & ((((u64)1) << c) - (((u64)2) << prev)))) {
            prev = c;
            continue;
        }
        prev = c;
        out[count++] = c;
    }
    return count;
}

/* masks.trick_outcome: the points of the trick for the side of `mine`, who plays `b` as its k-th card (negative
 * where the other side takes them), every later player of the trick answering with the card best for his own side
 * in it (alpha-beta over the rest of the trick). A card that does not beat the winning one changes nothing of the
 * trick but its points (the winner and what the later players may play stay): of those only the dearest and the
 * cheapest count; of those that beat it, one of each run of equivalent cards. The trick's last player's answer is
 * worked out at once. */
static int trick_outcome(Solver *self, int lead, int k, int win, int wat, int led, int pts, int mine, int b,
                         int alpha, int beta) {
    int n = self->n;
    int trump = self->trump;
    if (k == 0) {
        win = b;
        wat = 0;
        led = suit_of(b);
    } else if (beats(b, win, trump)) {
        win = b;
        wat = k;
    }
    pts += POINTS_OF[b];
    int winner = (lead + wat) % n;
    int ours = winner == mine || winner == self->partner[mine]; /* the trick is mine's side's as it lies */
    if (k == n - 1) return ours ? pts + 1 : -pts - 1;
    int next = (lead + k + 1) % n; /* only the later players' hands are read: the seat's stays as it is */
    u64 legal = legal_coded(self->cells, trump, led, win, self->partner[next] == winner, self->hands[next]);
    int maxing = next == mine || next == self->partner[mine];
    u64 beaters = legal & beat_mask(win, trump), rest = legal & ~beaters;
    if (k + 1 == n - 1) { /* the last player: the best of his cards for his side, at once */
        int best = maxing ? -1000 : 1000;
        if (beaters) { /* his side takes the trick, with his dearest such card */
            int v = pts + most_points(beaters) + 1;
            best = maxing ? v : -v;
        }
        if (rest) { /* the trick stays as it lies: his dearest card onto his side's, his cheapest else */
            int p = ours == maxing ? most_points(rest) : fewest_points(rest);
            int v = ours ? pts + p + 1 : -pts - p - 1;
            if (maxing ? v > best : v < best) best = v;
        }
        return best;
    }
    int tries[50];
    int count = runs(beaters, self->live, tries);
    if (rest) {
        int dear = -1, cheap = -1;
        for (u64 x = rest; x; x &= x - 1) {
            int c = __builtin_ctzll(x);
            if (dear < 0 || POINTS_OF[c] > POINTS_OF[dear]) dear = c;
            if (cheap < 0 || POINTS_OF[c] < POINTS_OF[cheap]) cheap = c;
        }
        tries[count++] = dear;
        if (POINTS_OF[cheap] != POINTS_OF[dear]) tries[count++] = cheap;
    }
    int best = maxing ? -1000 : 1000;
    for (int i = 0; i < count; i++) {
        int v = trick_outcome(self, lead, k + 1, win, wat, led, pts, mine, tries[i], alpha, beta);
        if (maxing) {
            if (v > best) {
                best = v;
                if (v > alpha) {
                    alpha = v;
                    if (v >= beta) break;
                }
            }
        } else if (v < best) {
            best = v;
            if (v < beta) {
                beta = v;
                if (v <= alpha) break;
            }
        }
    }
    return best;
}

/* solver.order: the `count` cards `reps` (one of each run of equivalent legal cards, `runs`) in the order to try them
 * (with `look`, by the trick's outcome first, `trick_outcome`) into `moves`; returns how many. */
static int order(Solver *self, int seat, const int *reps, int count, int k, int win, int wat, int lead, int led, int pts,
                 int look, int *moves) {
    u64 lv = self->live;
    int n = self->n;
    if (count == 1) {
        moves[0] = reps[0];
        return 1;
    }
    i64 out[48];
    if (k == 0) {
        int mate = self->partner[seat];
        u64 partner = mate >= 0 ? self->hands[mate] : 0;
        u64 trumps = self->trump_mask;
        int ruffed = 0, mate_ruffs = 0; /* the side suits an opponent can ruff (void, trumps in hand); the partner */
        if (self->trump >= 0) {
            for (int s = 0; s < 4; s++) {
                u64 m = SUIT(s);
                if (s == self->trump) continue;
                for (int i = 0; i < n; i++) {
                    u64 h = self->hands[i];
                    if (i != seat && i != mate && !(h & m) && (h & trumps)) ruffed |= 1 << s;
                }
                if (mate >= 0 && !(partner & m) && (partner & trumps)) mate_ruffs |= 1 << s;
            }
        }
        for (int r = 0; r < count; r++) {
            int b = reps[r];
            int s = suit_of(b);
            u64 m = SUIT(s);
            int top = !(lv & m & ~((((u64)2) << b) - 1));
            i64 score;
            if (top) /* a master, the opponents' ruffs' last */
                score = -1000 - POINTS_OF[b] + (ruffed >> s & 1 ? 2000 : 0);
            else if ((partner & m) && bitlen(lv & m) == bitlen(partner & m))
                score = -500 + POINTS_OF[b] * 16 + rank_of(b);
            else /* low, for the partner to ruff first */
                score = POINTS_OF[b] * 16 + rank_of(b) - ((mate_ruffs & ~ruffed) >> s & 1 ? 300 : 0);
            out[r] = score * 64 + b;
        }
    } else {
        int mine = self->partner[seat] == (lead + wat) % n;
        int safe = mine && cannot_be_taken(self->hands, n, self->trump, lead, k, win, led, 0);
        for (int r = 0; r < count; r++) {
            int b = reps[r];
            int p = POINTS_OF[b];
            i64 score;
            if (mine && safe)
                score = -64 - p;
            else if (mine && suit_of(b) == led && !(lv & SUIT(led) & ~((((u64)2) << b) - 1)))
                score = -32 - p; /* the led suit's master */
            else if (mine)
                score = p * 16 + rank_of(b);
            else if (beats(b, win, self->trump))
                score = k == n - 1 ? -64 - p : -64 + (suit_of(b) == self->trump) * 16 + rank_of(b);
            else
                score = p * 16 + rank_of(b);
            out[r] = score * 64 + b;
        }
    }
    if (look) { /* the trick's outcome first, the scores above after it */
        for (int r = 0; r < count; r++)
            out[r] -= (i64)trick_outcome(self, lead, k, win, wat, led, pts, seat, reps[r], -1000, 1000) * ((i64)1 << 26);
    }
    for (int i = 1; i < count; i++) { /* the scores are distinct (each holds its card): any sort is Python's */
        i64 v = out[i];
        int j = i - 1;
        while (j >= 0 && out[j] > v) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = v;
    }
    for (int r = 0; r < count; r++) moves[r] = (int)(out[r] & 63);
    return count;
}

static i64 node_body(Solver *self, int k, int lead, int win, int wat, int led, i64 pts, u64 tmask, i64 alpha,
                     i64 beta);

/* One more position counted; 0, or -1 where a signal's handler raised (Ctrl-C: the search unwinds, nothing more
 * kept). */
static inline int visit(Solver *self) {
    self->nodes++;
    if (!(self->nodes & 0xFFFFF) && PyErr_CheckSignals() < 0) {
        self->failed = 2;
        return -1;
    }
    return 0;
}

/* A trick played out (its cards `tm`, worth `pts` points, the winning card played at `wat`): the searching side's
 * points from here on, the trick's (its points and one) where its side takes it and the next trick's start's. */
static inline i64 after_trick(Solver *self, int lead, int wat, i64 pts, u64 tm, i64 alpha, i64 beta) {
    int winner = (lead + wat) % self->n;
    i64 add = self->side >> winner & 1 ? pts + 1 : 0;
    self->live ^= tm;
    self->live_points -= pts;
    i64 v = add + node_body(self, 0, winner, -1, 0, -1, 0, 0, alpha - add, beta - add);
    self->live ^= tm;
    self->live_points += pts;
    return v;
}

/* A position inside a trick: the cards its players must play (one legal card each) played here, each counted as a
 * position as `node_body` counts it, up to the first player with a choice or the trick's end; without partition
 * entries (whose relevant cards each position adds to). */
static inline i64 node(Solver *self, int k, int lead, int win, int wat, int led, i64 pts, u64 tmask, i64 alpha,
                       i64 beta) {
    if (k == 0 || self->partition) return node_body(self, k, lead, win, wat, led, pts, tmask, alpha, beta);
    int n = self->n;
    u64 *hands = self->hands;
    int trump = self->trump;
    int seats[4];
    u64 helds[4];
    int played = 0;
    i64 v;
    for (;;) {
        int seat = (lead + k) % n;
        u64 held = hands[seat];
        u64 legal = legal_coded(self->cells, trump, led, win, self->partner[seat] == (lead + wat) % n, held);
        if (legal & (legal - 1)) {
            v = node_body(self, k, lead, win, wat, led, pts, tmask, alpha, beta);
            break;
        }
        COUNT_POSITION(self, k);
        if (visit(self) < 0) {
            v = 0;
            break;
        }
        int b = bitlen(legal) - 1;
        u64 bb = (u64)1 << b;
        seats[played] = seat;
        helds[played++] = held;
        hands[seat] = held ^ bb;
        if (beats(b, win, trump)) {
            win = b;
            wat = k;
        }
        pts += POINTS_OF[b];
        tmask |= bb;
        if (k == n - 1) { /* the trick's last card */
            v = after_trick(self, lead, wat, pts, tmask, alpha, beta);
            break;
        }
        k++;
    }
    while (played) {
        played--;
        hands[seats[played]] = helds[played];
    }
    return v;
}

static i64 node_body(Solver *self, int k, int lead, int win, int wat, int led, i64 pts, u64 tmask, i64 alpha,
                     i64 beta) {
    COUNT_POSITION(self, k);
    if (visit(self) < 0) return 0;
    int n = self->n;
    u64 *hands = self->hands;
    int side = self->side;
    int trump = self->trump;
    Table *gens = self->gens;
    int part = self->partition; /* the relevant cards are followed only for the partition entries */
    i64 lo = 0, hi = 0;
    int first = -1;
    int keyed = 0;
    u64 key[4];
    int compact = 0; /* keyed in the tables' compact part (`compact_key`: w0, w1) */
    u64 w0 = 0, w1 = 0;
    u64 coarse[2] = {0, 0};
    uint32_t coarse_lead = 0;
    long long visited = 0;
    i64 slo = 0, shi = INF;
    u64 srel = 0;
    if (k == 0) {
        u64 lv = self->live;
        if (!lv) return 0;
        int left = popcount(lv);
        if (left == n) { /* the last trick: one card each */
            int w = -1, wk = 0;
            i64 got = 1;
            for (int i = 0; i < n; i++) {
                int b = bitlen(hands[(lead + i) % n]) - 1;
                got += b >= 0 ? POINTS_OF[b] : 0;
                if (i == 0) {
                    w = b;
                    continue;
                }
                if (part && b >= 0 && w >= 0 && suit_of(b) == suit_of(w) && !POINTS_OF[b] && !POINTS_OF[w])
                    self->rel |= (u64)1 << (b > w ? b : w);
                if (beats(b, w, trump)) {
                    w = b;
                    wk = i;
                }
            }
            return side >> ((lead + wk) % n) & 1 ? got : 0;
        }
        hi = self->live_points + left / n;
#if PEXT
        compact = !part && left <= 36;
#endif
        if (compact) {
#if PEXT
            compact_key(hands, n, lv, lead, &w0, &w1);
#endif
        } else
            key_of(self, lead, key);
        (void)w0;
        (void)w1;
        keyed = 1;
        if (part) {
            coarse[0] = self->coarse[0];
            coarse[1] = self->coarse[1];
            coarse_lead = self->coarse_lead;
        }
        visited = self->nodes;
        i64 e;
#if PEXT
        if (compact) {
            e = cget(&gens->gen[0], w0, w1);
            if (e < 0) e = cget(&gens->gen[1], w0, w1);
        } else
#endif
        {
            e = gen_get(&gens->gen[0], key);
            if (e < 0) e = gen_get(&gens->gen[1], key);
        }
        if (e >= 0) {
            i64 elo = e & 0xFF, ehi = e >> 8 & 0xFF;
            first = (int)(e >> 16 & 63) - 1;
            if (self->flip) {
                i64 t = elo;
                elo = hi - ehi;
                ehi = hi - t;
            }
            if (elo > lo) lo = elo;
            if (ehi < hi) hi = ehi;
            mark_top(self, (int)(e >> 22));
        } else {
            self->srel = 0;
            i64 q = sure(self, lead);
            i64 mine_t = 0, theirs_t = 0;
            if (trump >= 0) ruffs(self, &mine_t, &theirs_t);
            srel = self->srel;
            if (side >> lead & 1) {
                slo = q > mine_t ? q : mine_t;
                shi = hi - theirs_t;
            } else {
                slo = mine_t;
                shi = hi - (q > theirs_t ? q : theirs_t);
            }
        }
        if (part && lo < beta && lo < hi && hi > alpha && slo < beta && shi > alpha) {
            Bucket *bucket = pgen_get(&self->pgens->gen[0], coarse, coarse_lead);
            if (!bucket) bucket = pgen_get(&self->pgens->gen[1], coarse, coarse_lead);
            if (bucket) {
                i64 total = self->live_points + left / n;
                for (uint32_t i = 0; i < bucket->len; i++) {
                    const PEntry *pe = bucket->e + i;
                    u64 v = pentry_value(pe);
                    if (first < 0) first = (int)(v >> 16 & 63) - 1;
                    int kv = (int)(v >> 22 & 0xFFF);
                    u64 m[4];
                    top_mask(self, kv, m);
                    if ((pe->pat[0] & KEY48) != (key[0] & m[0]) || (pe->pat[1] & KEY48) != (key[1] & m[1]) ||
                        (pe->pat[2] & KEY48) != (key[2] & m[2]) || pe->pat[3] != (key[3] & m[3]))
                        continue;
                    i64 elo = (i64)(v & 0xFF), ehi = (i64)(v >> 8 & 0xFF);
                    if (self->flip) {
                        i64 t = elo;
                        elo = total - ehi;
                        ehi = total - t;
                    }
                    if (elo > lo || ehi < hi) {
                        self->phits++;
                        mark_top(self, kv);
                        if (elo > lo) lo = elo;
                        if (ehi < hi) hi = ehi;
                        if (lo >= beta || hi <= alpha || lo == hi) break;
                    }
                }
            }
        }
        if (slo > lo || shi < hi) {
            i64 nlo = slo > lo ? slo : lo;
            i64 nhi = shi < hi ? shi : hi;
            if (nlo >= beta || nlo == nhi || nhi <= alpha) {
                if (part) self->rel |= srel;
                lo = nlo;
                hi = nhi;
            }
        }
        COUNT_START(self, lo >= beta || lo == hi || hi <= alpha ? (e >= 0 ? 0 : 1) : e >= 0 ? 2 : 3);
        if (lo >= beta || lo == hi) return lo;
        if (hi <= alpha) return hi;
    }
    int seat = (lead + k) % n;
    u64 held = hands[seat];
    u64 legal;
    int mine_win = k > 0 && self->partner[seat] == (lead + wat) % n; /* his partner wins the trick so far */
    if (k == 0) {
        legal = held;
    } else {
        legal = legal_coded(self->cells, trump, led, win, mine_win, held);
        if (part && !mine_win && !POINTS_OF[win]) { /* whether a card beats a winning card without points */
            u64 follow = held & SUIT(led);
            u64 cmp;
            if (follow)
                cmp = suit_of(win) == led ? follow & LOW_ALL : 0;
            else
                cmp = suit_of(win) == trump ? held & self->trump_mask & LOW_ALL : 0;
            if (cmp) {
                u64 h0 = cmp & (~cmp + 1);
                u64 wb = (u64)1 << win;
                self->rel |= h0 > wb ? h0 : wb;
            }
        }
    }
    u64 killer = 0; /* KILLER_TRICKS tricks left or more, inside a trick or at a lead the table has no card for: the
                     * card that cut off last with this hand in this place of a trick (to lead) first */
    if ((k > 0 || first < 0) && popcount(self->live) >= KILLER_TRICKS * n) {
        killer = killer_hash(held, led, mine_win, k > 0 && (legal & beat_mask(win, trump)) != 0);
        u64 slot = self->killers[killer & ((1 << KILLER_BITS) - 1)];
        if (!((slot ^ killer) >> 6)) first = (int)(slot & 63);
    }
    if (!part && (legal & (legal - 1))) /* a run's one card where the trick's taker is settled */
        legal = settled_runs(legal, self->live, hands, n, self->cells, trump, side, lead, k, win, wat, led);
    int moves[48], reps[48];
    int count;
    int look = 0;
    int lazy = 0; /* the card to try first (the table's card or the killer card) tried before the others are ordered:
                   * ordering them, the trick's outcome above all, is work lost wherever it cuts off */
    if (legal & (legal - 1)) {
        /* the trick's outcome ranks the cards inside a trick and a lead the table has no card for, while
         * LOOKAHEAD_TRICKS tricks or more are left */
        look = k < n - 1 && (k > 0 || first < 0) && popcount(self->live) >= LOOKAHEAD_TRICKS * n;
        count = runs(legal, self->live, reps);
        for (int i = 0; count > 1 && first >= 0 && i < count; i++)
            if (reps[i] == first) lazy = 1;
        if (lazy)
            moves[0] = first;
        else
            count = order(self, seat, reps, count, k, win, wat, lead, led, (int)pts, look, moves);
    } else {
        moves[0] = bitlen(legal) - 1;
        count = 1;
    }
    int maxing = side >> seat & 1;
    i64 a = alpha, bt = beta;
    i64 best = maxing ? -INF : INF;
    int move = -1;
    int last = k == n - 1;
    for (int i = 0; i < count; i++) {
        int b = moves[i];
        u64 bb = (u64)1 << b;
        hands[seat] = held ^ bb;
        int nw, nwat, nled;
        u64 cm = 0;
        if (k == 0) {
            nw = b;
            nwat = 0;
            nled = suit_of(b);
        } else {
            if (part && suit_of(b) == suit_of(win) && !POINTS_OF[b] && !POINTS_OF[win])
                cm = (u64)1 << (b > win ? b : win);
            if (beats(b, win, trump)) {
                nw = b;
                nwat = k;
                nled = led;
            } else {
                nw = win;
                nwat = wat;
                nled = led;
            }
        }
        u64 r0 = 0;
        if (part) {
            r0 = self->rel;
            self->rel = cm;
        }
        i64 v;
        if (last) {
            v = after_trick(self, lead, nwat, pts + POINTS_OF[b], tmask | bb, a, bt);
        } else {
            v = node(self, k + 1, lead, nw, nwat, nled, pts + POINTS_OF[b], tmask | bb, a, bt);
        }
        hands[seat] = held;
        if (self->failed) return 0;
        if (part) {
            u64 re = self->rel;
            if (re && !POINTS_OF[b] && (legal & ~bb) && (re & SUIT(suit_of(b)) & ~((((u64)2) << b) - 1)))
                re |= run_relevant(self, b, legal, re);
            self->rel = r0 | re;
        }
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
        if (lazy) { /* the first card did not cut off: the others after it, in their order */
            lazy = 0;
            int ordered[48];
            order(self, seat, reps, count, k, win, wat, lead, led, (int)pts, look, ordered);
            for (int r = 0, at = 1; r < count; r++)
                if (ordered[r] != first) moves[at++] = ordered[r];
        }
    }
#ifdef TREE_COUNTS
    if (count > 1) {
        int at = 5;
        if (maxing ? best >= beta : best <= alpha) {
            for (at = 0; at < count && moves[at] != move; at++);
            if (at > 4) at = 4;
        }
        COUNT_CUT(self, k, at);
    }
#endif
    if (killer && count > 1 && (maxing ? best >= beta : best <= alpha)) /* the card that cut off, remembered */
        self->killers[killer & ((1 << KILLER_BITS) - 1)] = (killer & ~(u64)63) | (u64)move;
    if (keyed) {
        if (best <= alpha) {
            if (best < hi) hi = best;
        } else if (best >= beta) {
            if (best > lo) lo = best;
        } else {
            lo = hi = best;
        }
        if (slo > lo || shi < hi) {
            if (part) self->rel |= srel;
            if (slo > lo) lo = slo;
            if (shi < hi) hi = shi;
        }
        int kv = part ? kvec_of(self, self->rel) : 0;
        if (self->flip) {
            i64 total = self->live_points + popcount(self->live) / n;
            i64 t = lo;
            lo = total - hi;
            hi = total - t;
        }
        Gen *newer = &gens->gen[0];
        i64 packed = lo | hi << 8 | (i64)(move + 1) << 16 | (i64)kv << 22;
#if PEXT
        int put = compact ? cput(newer, w0, w1, packed) : gen_put(newer, key, packed);
#else
        int put = gen_put(newer, key, packed);
#endif
        if (put < 0) {
            self->failed = 1;
            return 0;
        }
        if ((long long)newer->count > self->cap) {
            table_turn(gens);
            self->turns++;
        }
        /* a partition entry where the search was not small and not every card without points is relevant */
        if (part && self->nodes - visited >= PARTITION_LEAST && kv != kvec_of(self, self->live)) {
            u64 m[4], pat[4];
            top_mask(self, kv, m);
            for (int s = 0; s < 4; s++) pat[s] = key[s] & m[s];
            if (store(self, coarse, coarse_lead, pat, kv, lo, hi, move) < 0) {
                self->failed = 1;
                return 0;
            }
        }
    }
    return best;
}

/* --------------------------------------------------------------------------------------- Python */

static int as_int(PyObject *o, const char *what, long *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", what);
        return -1;
    }
    *out = v;
    return 0;
}

static void free_tables(Solver *self) {
    for (int i = 0; i < 16; i++) {
        if (self->tables[i]) {
            gen_free(&self->tables[i]->gen[0]);
            gen_free(&self->tables[i]->gen[1]);
            free(self->tables[i]);
            self->tables[i] = NULL;
        }
        if (self->ptables[i]) {
            pgen_free(&self->ptables[i]->gen[0]);
            pgen_free(&self->ptables[i]->gen[1]);
            free(self->ptables[i]);
            self->ptables[i] = NULL;
        }
    }
}

static int Solver_init(Solver *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"rules", "trump", "partner", "cap", "partition", NULL};
    PyObject *rules, *partner;
    int trump;
    long long cap = -1;
    int partition = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "UiO|Lp", names, &rules, &trump, &partner, &cap, &partition))
        return -1;
    if (trump < -1 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "trump must be a suit (0-3) or -1");
        return -1;
    }
    PyObject *seq = PySequence_Fast(partner, "partner must be a list of seats");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 2 || n > 4) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "the solver takes two to four seats");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long p;
        if (as_int(PySequence_Fast_GET_ITEM(seq, i), "a partner", &p) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        if (p < -1 || p >= n) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a partner must be a seat or -1");
            return -1;
        }
        self->partner[i] = (int)p;
    }
    Py_DECREF(seq);
    /* the obligation table from the rules' own data (masks.coded), the default capacity the Python class's */
    PyObject *masks = PyImport_ImportModule("imptools.rules.botifarra.masks");
    if (!masks) return -1;
    PyObject *cells = PyObject_CallMethod(masks, "coded", "O", rules);
    Py_DECREF(masks);
    if (!cells) return -1;
    self->cells = (int)PyLong_AsLong(cells);
    Py_DECREF(cells);
    if (PyErr_Occurred()) return -1;
    if (cap < 0) cap = DEFAULT_CAP;
    self->n = (int)n;
    self->trump = trump;
    self->trump_mask = trump >= 0 ? SUIT(trump) : 0;
    self->cap = self->partner[0] >= 0 ? cap : (cap / n > 1 ? cap / n : 1);
    self->nodes = 0;
    self->turns = 0;
    self->partition = partition;
    self->pcap = self->cap / 4;
    self->phits = 0;
    self->rel = self->srel = 0;
    for (int s = 0; s < 4; s++) {
        for (int j = 0; j < 8; j++) {
            u64 m = 0;
            for (int i = 0; i < n; i++) m |= ((LOW_CARDS >> j) << j) << (12 * (n - 1 - i));
            self->tops[s][j] = m;
        }
    }
    free_tables(self);
    if (!self->killers) self->killers = malloc(sizeof(u64) << KILLER_BITS);
    if (!self->killers) {
        PyErr_NoMemory();
        return -1;
    }
    memset(self->killers, 0, sizeof(u64) << KILLER_BITS);
    return 0;
}

static void Solver_dealloc(Solver *self) {
    free_tables(self);
    free(self->killers);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int card_list(PyObject *o, const char *what, u64 *out, int most, int *count) {
    PyObject *seq = PySequence_Fast(o, what);
    if (!seq) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > most) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: too many", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        u64 v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == (u64)-1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(seq);
    *count = (int)len;
    return 0;
}

/* A window's edge, held within what the search's arithmetic takes (any value beyond compares alike). */
static int window(PyObject *o, i64 *out) {
    int over;
    long long v = PyLong_AsLongLongAndOverflow(o, &over);
    if (v == -1 && PyErr_Occurred()) return -1;
    const i64 edge = (i64)1 << 60;
    if (over > 0 || v > edge) v = edge;
    if (over < 0 || v < -edge) v = -edge;
    *out = v;
    return 0;
}

static PyObject *Solver_gain(Solver *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"hands", "live", "live_points", "leader", "trick", "winning", "wins_at", "seat",
                            "alpha", "beta", NULL};
    PyObject *hands_o, *trick_o, *alpha_o, *beta_o;
    unsigned long long live;
    long long live_points;
    int leader, winning, wins_at, seat;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OKLiOiiiOO", names, &hands_o, &live, &live_points, &leader,
                                     &trick_o, &winning, &wins_at, &seat, &alpha_o, &beta_o))
        return NULL;
    int n = self->n;
    if (n < 2) {
        PyErr_SetString(PyExc_ValueError, "the solver was not set up");
        return NULL;
    }
    u64 hands[4] = {0, 0, 0, 0};
    u64 trick[4];
    int nh, nt;
    if (card_list(hands_o, "hands", hands, 4, &nh) < 0 || card_list(trick_o, "trick", trick, n - 1, &nt) < 0)
        return NULL;
    i64 alpha, beta;
    if (window(alpha_o, &alpha) < 0 || window(beta_o, &beta) < 0) return NULL;
    if (nh != n || leader < 0 || leader >= n || seat < 0 || seat >= n || (live >> 48) || wins_at < 0 ||
        wins_at >= n || winning < -1 || winning >= 48) {
        PyErr_SetString(PyExc_ValueError, "not a position of this solver's table");
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (hands[i] >> 48) {
            PyErr_SetString(PyExc_ValueError, "a hand holds a card beyond the pack");
            return NULL;
        }
    }
    i64 pts = 0;
    u64 tmask = 0;
    for (int i = 0; i < nt; i++) {
        if (trick[i] >= 48) {
            PyErr_SetString(PyExc_ValueError, "a trick holds a card beyond the pack");
            return NULL;
        }
        pts += POINTS_OF[trick[i]];
        tmask |= (u64)1 << trick[i];
    }
    if (nt && winning < 0) {
        PyErr_SetString(PyExc_ValueError, "a trick under way needs its winning card");
        return NULL;
    }
    int mate = self->partner[seat];
    int side = 1 << seat | (mate >= 0 ? 1 << mate : 0);
    int flip = mate >= 0 && !(side & 1);
    int kept = flip ? side ^ ((1 << n) - 1) : side;
    if (!self->tables[kept]) {
        self->tables[kept] = calloc(1, sizeof(Table));
        if (!self->tables[kept]) return PyErr_NoMemory();
    }
    if (self->partition && !self->ptables[kept]) {
        self->ptables[kept] = calloc(1, sizeof(PTable));
        if (!self->ptables[kept]) return PyErr_NoMemory();
    }
    self->pgens = self->ptables[kept];
    self->rel = 0;
    self->side = side;
    self->flip = flip;
    self->gens = self->tables[kept];
    memcpy(self->hands, hands, sizeof(hands));
    self->live = live;
    self->live_points = live_points;
    self->failed = 0;
    int led = nt ? (int)(trick[0] / 12) : -1;
    i64 got = node(self, nt, leader, winning, wins_at, led, pts, tmask, alpha, beta);
    if (self->failed == 2) return NULL; /* the signal handler's exception (KeyboardInterrupt) is set */
    if (self->failed) return PyErr_NoMemory();
    return PyLong_FromLongLong(got);
}

static PyObject *Solver_get_nodes(Solver *self, void *closure) { return PyLong_FromLongLong(self->nodes); }

static int Solver_set_nodes(Solver *self, PyObject *value, void *closure) {
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "nodes cannot be deleted");
        return -1;
    }
    long long v = PyLong_AsLongLong(value);
    if (v == -1 && PyErr_Occurred()) return -1;
    self->nodes = v;
    return 0;
}

static PyObject *Solver_get_cap(Solver *self, void *closure) { return PyLong_FromLongLong(self->cap); }

static PyObject *Solver_get_turns(Solver *self, void *closure) { return PyLong_FromLongLong(self->turns); }

static PyObject *Solver_get_phits(Solver *self, void *closure) { return PyLong_FromLongLong(self->phits); }

static PyObject *Solver_get_partition(Solver *self, void *closure) { return PyBool_FromLong(self->partition); }

/* Each side's table (`partition` 0) or partition table (1): (entries or buckets in the newer generation, in the
 * older), by the side kept. */
static PyObject *counts(Solver *self, int partition) {
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    for (int i = 0; i < 16; i++) {
        if (partition ? !self->ptables[i] : !self->tables[i]) continue;
        PyObject *key = PyLong_FromLong(i);
        PyObject *value =
            partition ? Py_BuildValue("(KK)", (unsigned long long)self->ptables[i]->gen[0].count,
                                      (unsigned long long)self->ptables[i]->gen[1].count)
                      : Py_BuildValue("(KK)", (unsigned long long)self->tables[i]->gen[0].count,
                                      (unsigned long long)self->tables[i]->gen[1].count);
        if (!key || !value || PyDict_SetItem(out, key, value) < 0) {
            Py_XDECREF(key);
            Py_XDECREF(value);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(key);
        Py_DECREF(value);
    }
    return out;
}

static PyObject *Solver_sizes(Solver *self, PyObject *unused) { return counts(self, 0); }

static PyObject *Solver_psizes(Solver *self, PyObject *unused) { return counts(self, 1); }

static PyMethodDef Solver_methods[] = {
    {"gain", (PyCFunction)(void (*)(void))Solver_gain, METH_VARARGS | METH_KEYWORDS,
     "The points `seat`'s side wins from here on: exact inside (alpha, beta), else a bound on the side that fails."},
    {"sizes", (PyCFunction)Solver_sizes, METH_NOARGS,
     "Each side's table: (entries in the newer generation, in the older), by the side kept (a mask of seats)."},
    {"psizes", (PyCFunction)Solver_psizes, METH_NOARGS,
     "Each side's partition table: (buckets in the newer generation, in the older), by the side kept."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Solver_getset[] = {
    {"nodes", (getter)Solver_get_nodes, (setter)Solver_set_nodes, "The positions visited.", NULL},
    {"cap", (getter)Solver_get_cap, NULL, "Entries a table's generation holds before it becomes the older.", NULL},
    {"turns", (getter)Solver_get_turns, NULL, "Times a table's newer generation became the older.", NULL},
    {"phits", (getter)Solver_get_phits, NULL, "Partition entries that narrowed a window.", NULL},
    {"partition", (getter)Solver_get_partition, NULL, "Whether partition entries are kept.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "imptools.rules.botifarra.csolver.Solver",
    .tp_basicsize = sizeof(Solver),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Botifarra's double-dummy solver for three and four players, in C (a port of solver.Solver).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
    .tp_getset = Solver_getset,
};

/* The tables the port is written with, for the tests to compare with the Python ones. */
static PyObject *module_tables(PyObject *module, PyObject *unused) {
    PyObject *points = PyTuple_New(48);
    PyObject *pack = PyTuple_New(1 << 14);
    if (!points || !pack) goto fail;
    for (int i = 0; i < 48; i++) PyTuple_SET_ITEM(points, i, PyLong_FromLong(POINTS_OF[i]));
    for (int i = 0; i < (1 << 14); i++) PyTuple_SET_ITEM(pack, i, PyLong_FromLong(PACK[i]));
    PyObject *suits = Py_BuildValue("(KKKK)", (unsigned long long)SUIT(0), (unsigned long long)SUIT(1),
                                    (unsigned long long)SUIT(2), (unsigned long long)SUIT(3));
    if (!suits) goto fail;
    return Py_BuildValue("{sNsNsNsKsKsLsisisisi}", "POINTS_OF", points, "PACK", pack, "SUIT_MASK", suits,
                         "POINT_MASK", (unsigned long long)POINT_MASK, "LOW_ALL", (unsigned long long)LOW_ALL, "INF",
                         (long long)INF, "SOLVER_CAP", DEFAULT_CAP, "LOOKAHEAD_TRICKS", LOOKAHEAD_TRICKS,
                         "KILLER_SLOTS", 1 << KILLER_BITS, "KILLER_TRICKS", KILLER_TRICKS);
fail:
    Py_XDECREF(points);
    Py_XDECREF(pack);
    return NULL;
}

/* masks.legal_coded, beats and cannot_be_taken as the port has them, for the tests. */
static PyObject *module_legal_coded(PyObject *module, PyObject *args) {
    int cells, trump, led, winning, partner_master;
    unsigned long long held;
    if (!PyArg_ParseTuple(args, "iiiipK", &cells, &trump, &led, &winning, &partner_master, &held)) return NULL;
    if (led >= 4 || trump >= 4 || (led >= 0 && (winning < 0 || winning >= 48))) {
        PyErr_SetString(PyExc_ValueError, "not a trick");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(legal_coded(cells, trump, led, winning, partner_master, held));
}

static PyObject *module_beats(PyObject *module, PyObject *args) {
    int card, winning, trump;
    if (!PyArg_ParseTuple(args, "iii", &card, &winning, &trump)) return NULL;
    return PyBool_FromLong(beats(card, winning, trump));
}

static PyObject *module_cannot_be_taken(PyObject *module, PyObject *args) {
    PyObject *hands_o;
    int n, trump, lead, k, win, led, count;
    u64 hands[4];
    if (!PyArg_ParseTuple(args, "Oiiiiii", &hands_o, &n, &trump, &lead, &k, &win, &led)) return NULL;
    if (card_list(hands_o, "hands", hands, 4, &count) < 0) return NULL;
    if (count != n || win < 0 || win >= 48 || led < 0 || led >= 4 || lead < 0 || lead >= n) {
        PyErr_SetString(PyExc_ValueError, "not a trick");
        return NULL;
    }
    return PyBool_FromLong(cannot_be_taken(hands, n, trump, lead, k, win, led, 0));
}

static PyObject *module_least_points(PyObject *module, PyObject *args) {
    unsigned long long cards;
    int r;
    if (!PyArg_ParseTuple(args, "Ki", &cards, &r)) return NULL;
    return PyLong_FromLongLong(least_points(cards & (((u64)1 << 48) - 1), r));
}

#ifdef TREE_COUNTS
/* The counts of a `-DTREE_COUNTS` build since the last call (see there), as lists by tricks left (0-12), then the
 * place in the trick or how a trick start ended, then for `cuts` the card that cut off (the first to the fourth, a
 * later one, none); the counts start again from nothing. */
static PyObject *module_tree_counts(PyObject *module, PyObject *unused) {
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    PyObject *positions = PyList_New(13), *starts = PyList_New(13), *cuts = PyList_New(13);
    int ok = positions && starts && cuts;
    for (int t = 0; ok && t < 13; t++) {
        PyObject *p = PyList_New(4), *st = PyList_New(4), *c = PyList_New(4);
        ok = p && st && c;
        for (int k = 0; ok && k < 4; k++) {
            PyObject *row = PyList_New(6);
            ok = row != NULL;
            for (int i = 0; ok && i < 6; i++) PyList_SET_ITEM(row, i, PyLong_FromLongLong(TC_CUTS[t][k][i]));
            if (ok) {
                PyList_SET_ITEM(p, k, PyLong_FromLongLong(TC_POSITIONS[t][k]));
                PyList_SET_ITEM(st, k, PyLong_FromLongLong(TC_STARTS[t][k]));
                PyList_SET_ITEM(c, k, row);
            }
        }
        if (ok) {
            PyList_SET_ITEM(positions, t, p);
            PyList_SET_ITEM(starts, t, st);
            PyList_SET_ITEM(cuts, t, c);
        } else {
            Py_XDECREF(p);
            Py_XDECREF(st);
            Py_XDECREF(c);
        }
    }
    if (ok)
        ok = PyDict_SetItemString(out, "positions", positions) == 0 && PyDict_SetItemString(out, "starts", starts) == 0
             && PyDict_SetItemString(out, "cuts", cuts) == 0;
    Py_XDECREF(positions);
    Py_XDECREF(starts);
    Py_XDECREF(cuts);
    if (!ok) {
        Py_DECREF(out);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    memset(TC_POSITIONS, 0, sizeof(TC_POSITIONS));
    memset(TC_STARTS, 0, sizeof(TC_STARTS));
    memset(TC_CUTS, 0, sizeof(TC_CUTS));
    return out;
}
#endif

static PyMethodDef module_methods[] = {
#ifdef TREE_COUNTS
    {"tree_counts", module_tree_counts, METH_NOARGS, "The search tree's counts since the last call (-DTREE_COUNTS)."},
#endif
    {"tables", module_tables, METH_NOARGS, "The tables the port is written with (POINTS_OF, PACK, ...)."},
    {"legal_coded", module_legal_coded, METH_VARARGS, "masks.legal_coded, as the port has it."},
    {"beats", module_beats, METH_VARARGS, "masks.beats, as the port has it."},
    {"cannot_be_taken", module_cannot_be_taken, METH_VARARGS, "masks.cannot_be_taken, as the port has it."},
    {"least_points", module_least_points, METH_VARARGS, "solver.least_points, as the port has it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef csolver_module = {
    PyModuleDef_HEAD_INIT, "imptools.rules.botifarra.csolver",
    "Botifarra's double-dummy solver for three and four players, written in C (solver.Solver's port).", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit_csolver(void) {
    fill_pack();
    if (PyType_Ready(&SolverType) < 0) return NULL;
    PyObject *m = PyModule_Create(&csolver_module);
    if (!m) return NULL;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddObject(m, "POPCNT", PyBool_FromLong(POPCNT)) < 0 ||
        PyModule_AddObject(m, "PEXT", PyBool_FromLong(PEXT)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
