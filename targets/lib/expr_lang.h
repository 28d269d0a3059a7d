/* targets/lib/expr_lang.h — a small integer expression language: its syntax trees, parser,
 * printer and two evaluators (a tree walk and a stack machine), and its fg_domain.
 *
 * The language, by example: `1+2*3`, `-(4-5)%3`, `!(1<2)|8&12`, `7==7`, `1-(2-3)`.
 *
 *   expr    := or
 *   or      := and ('|' and)*
 *   and     := cmp ('&' cmp)*
 *   cmp     := sum (('==' | '<') sum)*
 *   sum     := product (('+' | '-') product)*
 *   product := unary (('*' | '/' | '%') unary)*
 *   unary   := ('-' | '!') unary | atom
 *   atom    := digits | '(' expr ')'
 *
 * Spaces, tabs, CR and LF between tokens are skipped. Every binary operator is
 * left-associative. A number is decimal, 0 to 2^63-1 (leading zeros allowed). Values are
 * 64-bit two's complement with wrapping arithmetic; x/0 and x%0 are the one error, and an
 * error anywhere makes the whole expression an error (nothing short-circuits);
 * INT64_MIN/-1 wraps to INT64_MIN and INT64_MIN%-1 is 0. `<` and `==` give 0 or 1 (signed
 * comparison), `&` and `|` are bitwise, `!x` is 1 when x is 0 and 0 otherwise.
 *
 * The printer writes the canonical text of a tree: no spaces, no leading zeros, and
 * parentheses exactly where precedence and associativity need them. Parsing that text
 * gives the same tree back; that round trip is the invariant of the `expr` target.
 * Built-in target code, linked into fuzzgate's own binaries only (not installed).
 */
#ifndef FG_TARGETS_EXPR_LANG_H
#define FG_TARGETS_EXPR_LANG_H

#include "fuzzgate.h"

#include <stddef.h>
#include <stdint.h>

#define EXPR_MAX_LEN 512   /* the target's max_len; arbitrary, a few hundred tokens */
#define EXPR_MAX_NODES 512 /* a node takes at least one byte, so max_len bytes fit */
#define EXPR_MAX_NEST 64   /* parentheses and unary operators nested in the parser */
#define EXPR_MAX_HEIGHT 64 /* the tallest tree the parser accepts (bounds all recursion) */

enum expr_kind { EXPR_NUM, EXPR_NEG, EXPR_NOT, EXPR_BIN };

/* Binary operators, lowest precedence first. */
enum expr_op { EXPR_OR, EXPR_AND, EXPR_EQ, EXPR_LT, EXPR_ADD, EXPR_SUB, EXPR_MUL, EXPR_DIV,
               EXPR_MOD, EXPR_OP_COUNT };

typedef struct expr_node {
    uint8_t kind;   /* enum expr_kind */
    uint8_t op;     /* enum expr_op, for EXPR_BIN */
    int32_t kid[2]; /* operands: EXPR_BIN both, EXPR_NEG/EXPR_NOT kid[0] only */
    uint64_t num;   /* EXPR_NUM: 0..INT64_MAX */
} expr_node;

/* A tree in a node array the caller provides. Invariant: every node reachable from root
 * is reached once (a tree, not a graph); unreachable slots are garbage an edit left. */
typedef struct expr_tree {
    expr_node *nodes; /* capacity cap */
    size_t count, cap;
    int32_t root; /* -1 before a successful parse */
} expr_tree;

typedef enum expr_status {
    EXPR_OK,
    EXPR_E_EMPTY,    /* nothing but white space */
    EXPR_E_CHAR,     /* a byte that is no token of the language */
    EXPR_E_OPERAND,  /* a token of the language where an operand must be */
    EXPR_E_UNCLOSED, /* '(' without its ')' */
    EXPR_E_TRAILING, /* a whole expression, then more */
    EXPR_E_NUMBER,   /* a number above 2^63-1 */
    EXPR_E_DEEP,     /* nesting past EXPR_MAX_NEST or a tree past EXPR_MAX_HEIGHT */
    EXPR_E_NODES,    /* more nodes than the tree's capacity */
    EXPR_STATUS_COUNT
} expr_status;

/* Parses data[0..size) into t (t->nodes and t->cap set by the caller; the rest is reset).
 * On an error, *at (when not NULL) is the offset where it was found (<= size). */
expr_status expr_parse(const uint8_t *data, size_t size, expr_tree *t, size_t *at);

/* Writes the canonical text of the subtree at idx into out[0..cap) and returns the length
 * it needs (a return above cap: truncated). Recursion is bounded by the tree's height. */
size_t expr_print(const expr_tree *t, int32_t idx, uint8_t *out, size_t cap);

/* 1 when the two subtrees have the same shape, operators and numbers. */
int expr_equal(const expr_tree *a, int32_t ia, const expr_tree *b, int32_t ib);

unsigned expr_height(const expr_tree *t, int32_t idx); /* a number is 1 */

typedef enum expr_eval { EXPR_EVAL_OK, EXPR_EVAL_DIV0, EXPR_EVAL_STACK } expr_eval;

/* Evaluates by walking the tree. */
expr_eval expr_eval_tree(const expr_tree *t, int32_t idx, uint64_t *value);

/* One stack-machine instruction: push a number, apply a unary or a binary operator. */
typedef struct expr_insn {
    uint8_t kind; /* enum expr_kind */
    uint8_t op;
    uint64_t num;
} expr_insn;

/* Compiles the subtree at idx to postfix code in code[0..cap); returns the instructions it
 * needs (one per node; above cap: truncated). */
size_t expr_compile(const expr_tree *t, int32_t idx, expr_insn *code, size_t cap);

/* The stack slots the compiled code of the subtree at idx needs. */
unsigned expr_stack_need(const expr_tree *t, int32_t idx);

/* Runs code[0..n) on a stack of `slots` values: EXPR_EVAL_STACK when it would need more. */
expr_eval expr_run_code(const expr_insn *code, size_t n, uint64_t *stack, size_t slots,
                        uint64_t *value);

/* The structured domain of the language: a value is a tree of EXPR_MAX_NODES capacity;
 * an edit replaces, wraps, hoists or swaps a subtree, splices one from the other value,
 * or changes a number or an operator (targets/expr_domain.c). */
extern const fg_domain expr_domain;

#endif
