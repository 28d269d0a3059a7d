/* targets/expr.c — the expression language of expr_lang.h: its canonical text round trips,
 * and its two evaluators agree; fuzzed through the language's structured domain. */
#include "lib/expr_lang.h"

#include <string.h>

/* The canonical text of a tree: at most 19 digits, 2 operator characters and a pair of
 * parentheses a node. */
#define TEXT_CAP (EXPR_MAX_NODES * 23)

/* Invariant 1: the canonical text is no longer than the input (it only drops spaces,
 * leading zeros and needless parentheses), parses back to the same tree, and prints to
 * itself. */
static void round_trip(const expr_tree *t, size_t size)
{
    static uint8_t text[TEXT_CAP], again[TEXT_CAP]; /* run thread only; big for a stack */
    static expr_node nodes[EXPR_MAX_NODES];
    size_t len = expr_print(t, t->root, text, sizeof text);
    FG_CHECK(len <= size, "the canonical text is %zu bytes, the input %zu", len, size);
    expr_tree u = {.nodes = nodes, .cap = EXPR_MAX_NODES};
    size_t at;
    expr_status st = expr_parse(text, len, &u, &at);
    FG_CHECK(st == EXPR_OK, "the canonical text does not parse: status %d at %zu", (int)st,
             at);
    FG_CHECK(expr_equal(t, t->root, &u, u.root), "the canonical text parses to another tree");
    size_t len2 = expr_print(&u, u.root, again, sizeof again);
    size_t same = 0; /* a loop, not memcmp: see at_word in expr_lang.c */
    while (same < len && same < len2 && text[same] == again[same])
        same++;
    FG_CHECK(len2 == len && same == len,
             "the canonical text of the canonical text differs (%zu bytes, then %zu)", len,
             len2);
}

/* Invariant 2: the tree walk and the stack machine agree on the value and on a division
 * by zero, and the machine needs exactly expr_stack_need slots. Returns the tree walk's
 * outcome. */
static expr_eval evaluate(const expr_tree *t, unsigned need)
{
    static expr_insn code[EXPR_MAX_NODES];
    static uint64_t stack[EXPR_MAX_NODES];
    size_t n = expr_compile(t, t->root, code, EXPR_MAX_NODES);
    FG_CHECK(n == t->count, "%zu instructions for %zu nodes", n, t->count);
    uint64_t vt = 0, vm = 0;
    expr_eval et = expr_eval_tree(t, t->root, &vt);
    expr_eval em = expr_run_code(code, n, stack, need, &vm);
    FG_CHECK(em != EXPR_EVAL_STACK, "the stack machine overflows %u slots", need);
    FG_CHECK(em == et, "the tree walk says %d, the stack machine %d", (int)et, (int)em);
    FG_CHECK(et != EXPR_EVAL_OK || vt == vm, "the tree walk gives %lld, the machine %lld",
             (long long)vt, (long long)vm);
    if (need > 1)
        FG_CHECK(expr_run_code(code, n, stack, need - 1, &vm) == EXPR_EVAL_STACK,
                 "the code runs in %u slots, one fewer than its need", need - 1);
    return et;
}

static uint64_t expr_run(const uint8_t *data, size_t size)
{
    static expr_node nodes[EXPR_MAX_NODES]; /* run thread only */
    expr_tree t = {.nodes = nodes, .cap = EXPR_MAX_NODES};
    size_t at;
    expr_status st = expr_parse(data, size, &t, &at);
    FG_CHECK(at <= size, "the parser reports offset %zu of %zu bytes", at, size);
    if (st != EXPR_OK)
        return fg_sig(100 + (unsigned)st, 0);
    FG_CHECK(t.count <= size, "%zu nodes from %zu bytes", t.count, size);
    unsigned height = expr_height(&t, t.root);
    FG_CHECK(height <= EXPR_MAX_HEIGHT, "the parser accepts a tree %u tall", height);
    round_trip(&t, size);
    unsigned need = expr_stack_need(&t, t.root);
    expr_eval e = evaluate(&t, need);
    const expr_node *root = &t.nodes[t.root];
    uint64_t sig = fg_sig(root->kind * 16u + root->op, fg_bucket(height, 7));
    sig = fg_fold(sig, (uint64_t)e);
    return fg_fold(sig, fg_bucket(need, 4));
}

/* Grammar seeds: each parses (test/e2e/test_domain.c checks), together they hold every
 * operator, both unary operators, nesting, white space and the arithmetic edges. */
static const char *const expr_seeds_text[] = {
    "1+2*3",         "-(4-5)%3",          "!(1<2)|8&12",           "7==7",
    "1-(2-3)",       "(1+2)*(3+4)",       "9223372036854775807+1", "0-9223372036854775807-1",
    "10/(5-5)",      "1<2==1",            "100%7-3*-2",            "!!0|--1",
    "2*(3*(4*5))",   " 1 +\t2\n* 3\r\n",  "007/(0002)",
};

static void expr_seed(fg_seeds *seeds)
{
    for (size_t i = 0; i < sizeof expr_seeds_text / sizeof expr_seeds_text[0]; i++)
        fg_seeds_add(seeds, expr_seeds_text[i], strlen(expr_seeds_text[i]));
}

FG_TARGET(expr,
          .what = "an expression language: canonical text round trip, tree walk vs stack "
                  "machine (structured domain)",
          .run = expr_run,
          .seed = expr_seed,
          .max_len = EXPR_MAX_LEN,
          .domain = &expr_domain);
