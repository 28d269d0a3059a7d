/* targets/lib/expr_domain.c — structured mutation of expression trees: the fg_domain of the
 * expression language (expr_lang.h).
 *
 * A value is a heap tree of EXPR_MAX_NODES capacity. An edit works on one node of the
 * reachable tree, chosen uniformly, and appends any new nodes at the end of the array (the
 * slots an edit cuts loose stay behind as garbage; the value lives for one case). It never
 * makes a node reachable twice, so the value stays a tree. Edits may build trees taller
 * than the parser accepts: their text is a "too deep" input, which is worth running too.
 * Every draw comes from the rng the engine lends, so the edits are deterministic.
 */
#include "expr_lang.h"

#include <stdlib.h>

enum edit {
    EDIT_NEW,      /* replace the subtree by a fresh random one */
    EDIT_SPLICE,   /* replace it by a copy of a subtree of the other value (or this one) */
    EDIT_WRAP,     /* make it the operand of a new unary or binary node */
    EDIT_HOIST,    /* replace an operator node by one of its operands (a deletion) */
    EDIT_SWAP,     /* swap the operands of a binary node */
    EDIT_NUMBER,   /* change a number */
    EDIT_OPERATOR, /* change an operator */
};

static expr_tree *tree_new(void)
{
    expr_tree *t = malloc(sizeof *t);
    expr_node *nodes = malloc(EXPR_MAX_NODES * sizeof *nodes);
    if (!t || !nodes) {
        free(t);
        free(nodes);
        return NULL;
    }
    *t = (expr_tree){.nodes = nodes, .cap = EXPR_MAX_NODES, .root = -1};
    return t;
}

static void tree_free(void *value)
{
    expr_tree *t = value;
    if (t)
        free(t->nodes);
    free(t);
}

static void *tree_read(const uint8_t *data, size_t size)
{
    expr_tree *t = tree_new();
    if (t && expr_parse(data, size, t, NULL) != EXPR_OK) {
        tree_free(t);
        t = NULL;
    }
    return t;
}

static size_t tree_write(const void *value, uint8_t *out, size_t cap)
{
    const expr_tree *t = value;
    return expr_print(t, t->root, out, cap);
}

/* Appends a node; -1 when the tree is full. */
static int32_t append(expr_tree *t, expr_node n)
{
    if (t->count >= t->cap)
        return -1;
    t->nodes[t->count] = n;
    return (int32_t)t->count++;
}

/* Boundary numbers of 64-bit arithmetic and a few small ones. */
static uint64_t random_number(fg_rng *rng, uint64_t old)
{
    static const uint64_t special[] = {0, 1, 2, 3, 7, 8, 10, 16, 100, 255, 256, 1000, 65535,
                                       65536, 2147483647, 2147483648u, 4294967295u,
                                       4294967296u, (uint64_t)1 << 62, INT64_MAX - 1,
                                       INT64_MAX};
    uint64_t v;
    switch (fg_rng_below(rng, 4)) {
    case 0: v = special[fg_rng_below(rng, sizeof special / sizeof special[0])]; break;
    case 1: v = old + (fg_rng_below(rng, 2) ? 1 : (uint64_t)-1); break;
    case 2: v = fg_rng_below(rng, 10); break;
    default: { /* two draws, in an order C fixes (operands of >> are unsequenced) */
        unsigned shift = 1 + (unsigned)fg_rng_below(rng, 63);
        v = fg_rng_u64(rng) >> shift;
        break;
    }
    }
    return v & (uint64_t)INT64_MAX; /* a number is never negative: `-` is an operator */
}

/* A random subtree at most `height` tall, appended; its index or -1 when the tree is full. */
static int32_t random_subtree(expr_tree *t, fg_rng *rng, unsigned height)
{
    unsigned pick = height > 1 ? (unsigned)fg_rng_below(rng, 4) : 0;
    if (pick == 0)
        return append(t, (expr_node){.kind = EXPR_NUM, .kid = {-1, -1},
                                     .num = random_number(rng, 0)});
    int32_t a = random_subtree(t, rng, height - 1);
    if (a < 0)
        return -1;
    if (pick == 1)
        return append(t, (expr_node){.kind = fg_rng_below(rng, 2) ? EXPR_NEG : EXPR_NOT,
                                     .kid = {a, -1}});
    int32_t b = random_subtree(t, rng, height - 1);
    if (b < 0)
        return -1;
    return append(t, (expr_node){.kind = EXPR_BIN, .op = (uint8_t)fg_rng_below(rng, EXPR_OP_COUNT),
                                 .kid = {a, b}});
}

static void *tree_create(fg_rng *rng)
{
    expr_tree *t = tree_new();
    if (t && (t->root = random_subtree(t, rng, 1 + (unsigned)fg_rng_below(rng, 4))) < 0) {
        tree_free(t);
        t = NULL;
    }
    return t;
}

/* Copies the subtree at idx of src (which may be dst itself: appending never moves or
 * changes a node that is already there) to the end of dst; -1 when dst is full. */
static int32_t copy_subtree(expr_tree *dst, const expr_tree *src, int32_t idx)
{
    expr_node n = src->nodes[idx];
    if (n.kind != EXPR_NUM && (n.kid[0] = copy_subtree(dst, src, n.kid[0])) < 0)
        return -1;
    if (n.kind == EXPR_BIN && (n.kid[1] = copy_subtree(dst, src, n.kid[1])) < 0)
        return -1;
    return append(dst, n);
}

/* The reachable nodes of t in preorder, into out (capacity EXPR_MAX_NODES); their count. */
static size_t reachable(const expr_tree *t, int32_t *out)
{
    size_t n = 0, top = 0;
    int32_t stack[EXPR_MAX_NODES];
    stack[top++] = t->root;
    while (top) {
        int32_t i = stack[--top];
        out[n++] = i;
        const expr_node *nd = &t->nodes[i];
        if (nd->kind == EXPR_BIN)
            stack[top++] = nd->kid[1];
        if (nd->kind != EXPR_NUM)
            stack[top++] = nd->kid[0];
    }
    return n;
}

/* Replaces the node at slot i by the node at slot j (j's slot becomes garbage). */
static void move_into(expr_tree *t, int32_t i, int32_t j)
{
    if (j >= 0)
        t->nodes[i] = t->nodes[j];
}

/* Field by field: the padding of a node holds whatever it held, and must not decide. */
static int same_node(const expr_node *a, const expr_node *b)
{
    return a->kind == b->kind && a->op == b->op && a->kid[0] == b->kid[0] &&
           a->kid[1] == b->kid[1] && a->num == b->num;
}

/* One edit of the node at slot i; returns 1 when the tree changed. */
static int edit_node(expr_tree *t, int32_t i, const expr_tree *other, fg_rng *rng)
{
    static const enum edit for_num[] = {EDIT_NEW, EDIT_SPLICE, EDIT_WRAP, EDIT_NUMBER};
    static const enum edit for_unary[] = {EDIT_NEW, EDIT_SPLICE, EDIT_WRAP, EDIT_HOIST,
                                          EDIT_OPERATOR};
    static const enum edit for_bin[] = {EDIT_NEW,  EDIT_SPLICE, EDIT_WRAP,
                                        EDIT_HOIST, EDIT_SWAP,   EDIT_OPERATOR};
    expr_node *n = &t->nodes[i];
    const enum edit *edits = n->kind == EXPR_NUM ? for_num
                             : n->kind == EXPR_BIN ? for_bin
                                                   : for_unary;
    size_t nedits = n->kind == EXPR_NUM   ? sizeof for_num / sizeof for_num[0]
                    : n->kind == EXPR_BIN ? sizeof for_bin / sizeof for_bin[0]
                                          : sizeof for_unary / sizeof for_unary[0];
    expr_node old = *n;
    switch (edits[fg_rng_below(rng, nedits)]) {
    case EDIT_NEW:
        move_into(t, i, random_subtree(t, rng, 1 + (unsigned)fg_rng_below(rng, 3)));
        break;
    case EDIT_SPLICE: {
        const expr_tree *src = other ? other : t;
        int32_t nodes[EXPR_MAX_NODES];
        size_t count = reachable(src, nodes);
        move_into(t, i, copy_subtree(t, src, nodes[fg_rng_below(rng, count)]));
        break;
    }
    case EDIT_WRAP: {
        int32_t moved = append(t, old);
        if (moved < 0)
            return 0;
        if (fg_rng_below(rng, 3) == 0) {
            t->nodes[i] = (expr_node){.kind = fg_rng_below(rng, 2) ? EXPR_NEG : EXPR_NOT,
                                      .kid = {moved, -1}};
            break;
        }
        int32_t leaf = random_subtree(t, rng, 1);
        if (leaf < 0)
            return 0;
        int right = (int)fg_rng_below(rng, 2); /* the old subtree as the right operand */
        t->nodes[i] = (expr_node){.kind = EXPR_BIN,
                                  .op = (uint8_t)fg_rng_below(rng, EXPR_OP_COUNT),
                                  .kid = {right ? leaf : moved, right ? moved : leaf}};
        break;
    }
    case EDIT_HOIST:
        move_into(t, i, old.kid[old.kind == EXPR_BIN ? fg_rng_below(rng, 2) : 0]);
        break;
    case EDIT_SWAP:
        n->kid[0] = old.kid[1];
        n->kid[1] = old.kid[0];
        return !expr_equal(t, old.kid[0], t, old.kid[1]);
    case EDIT_NUMBER:
        n->num = random_number(rng, old.num);
        break;
    case EDIT_OPERATOR:
        if (old.kind == EXPR_BIN)
            n->op = (uint8_t)((old.op + 1 + fg_rng_below(rng, EXPR_OP_COUNT - 1)) %
                              EXPR_OP_COUNT);
        else
            n->kind = old.kind == EXPR_NEG ? EXPR_NOT : EXPR_NEG;
        break;
    }
    return !same_node(&t->nodes[i], &old);
}

static int tree_mutate(void *value, const void *other, fg_rng *rng)
{
    expr_tree *t = value;
    int32_t nodes[EXPR_MAX_NODES];
    size_t count = reachable(t, nodes);
    return edit_node(t, nodes[fg_rng_below(rng, count)], other, rng);
}

const fg_domain expr_domain = {
    .name = "expr",
    .max_len = EXPR_MAX_LEN,
    .read = tree_read,
    .write = tree_write,
    .mutate = tree_mutate,
    .create = tree_create,
    .free = tree_free,
};
