/* targets/lib/expr_lang.c — the expression language of expr_lang.h: parser, printer and two
 * evaluators. */
#include "expr_lang.h"

#include <string.h>

/* Binding strength: binary levels 1 (|) to 5 (* / %), then unary, then numbers. */
#define PREC_UNARY 6
#define PREC_ATOM 7

static const char *const op_text[EXPR_OP_COUNT] = {"|", "&", "==", "<", "+",
                                                   "-", "*", "/",  "%"};
static const unsigned op_prec[EXPR_OP_COUNT] = {1, 2, 3, 3, 4, 4, 5, 5, 5};

typedef struct parser {
    const uint8_t *s;
    size_t n, pos;
    expr_tree *t;
    unsigned nest;   /* parentheses and unary operators open right now */
    expr_status err; /* the first error */
    size_t err_at;
} parser;

static int is_space(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_digit(uint8_t c)
{
    return c >= '0' && c <= '9';
}

/* A byte that starts some token of the language. */
static int is_token(uint8_t c)
{
    return is_digit(c) || (c && strchr("|&=<+-*/%!()", c) != NULL);
}

static void skip_space(parser *p)
{
    while (p->pos < p->n && is_space(p->s[p->pos]))
        p->pos++;
}

static int32_t fail(parser *p, expr_status e)
{
    if (p->err == EXPR_OK) {
        p->err = e;
        p->err_at = p->pos;
    }
    return -1;
}

/* Appends a node whose subtree is `height` tall. */
static int32_t add_node(parser *p, expr_node nd, unsigned height)
{
    if (height > EXPR_MAX_HEIGHT)
        return fail(p, EXPR_E_DEEP);
    if (p->t->count >= p->t->cap)
        return fail(p, EXPR_E_NODES);
    p->t->nodes[p->t->count] = nd;
    return (int32_t)p->t->count++;
}

/* 1 when the text at the cursor starts with word. Byte by byte, not memcmp: the compiler
 * may or may not turn a short memcmp into inline code, and an interposed memcmp feeds the
 * comparison tables, so memcmp here would make gcc and clang runs of one seed differ. */
static int at_word(const parser *p, const char *word)
{
    size_t i = 0;
    for (; word[i]; i++)
        if (p->pos + i >= p->n || p->s[p->pos + i] != (uint8_t)word[i])
            return 0;
    return 1;
}

/* The binary operator of precedence `level` at the cursor, consumed; -1 when none. */
static int match_op(parser *p, unsigned level)
{
    skip_space(p);
    for (int op = 0; op < EXPR_OP_COUNT; op++) {
        if (op_prec[op] == level && at_word(p, op_text[op])) {
            p->pos += strlen(op_text[op]);
            return op;
        }
    }
    return -1;
}

static int32_t parse_level(parser *p, unsigned level, unsigned *height);

static int32_t parse_number(parser *p, unsigned *height)
{
    uint64_t v = 0;
    while (p->pos < p->n && is_digit(p->s[p->pos])) {
        uint64_t d = (uint64_t)(p->s[p->pos] - '0');
        if (v > ((uint64_t)INT64_MAX - d) / 10)
            return fail(p, EXPR_E_NUMBER);
        v = v * 10 + d;
        p->pos++;
    }
    *height = 1;
    return add_node(p, (expr_node){.kind = EXPR_NUM, .kid = {-1, -1}, .num = v}, 1);
}

/* unary := ('-' | '!') unary | atom. Nesting is counted before recursing, so the C stack
 * depth is bounded by EXPR_MAX_NEST whatever the input. */
static int32_t parse_unary(parser *p, unsigned *height)
{
    skip_space(p);
    if (p->pos >= p->n)
        return fail(p, EXPR_E_OPERAND);
    uint8_t c = p->s[p->pos];
    if (is_digit(c))
        return parse_number(p, height);
    if (c != '-' && c != '!' && c != '(')
        return fail(p, is_token(c) ? EXPR_E_OPERAND : EXPR_E_CHAR);
    if (p->nest >= EXPR_MAX_NEST)
        return fail(p, EXPR_E_DEEP);
    p->nest++;
    p->pos++;
    int32_t k;
    if (c == '(') {
        k = parse_level(p, 1, height);
        skip_space(p);
        if (k >= 0 && (p->pos >= p->n || p->s[p->pos] != ')'))
            k = fail(p, EXPR_E_UNCLOSED);
        else if (k >= 0)
            p->pos++;
    } else {
        unsigned h;
        k = parse_unary(p, &h);
        if (k >= 0) {
            *height = h + 1;
            k = add_node(p, (expr_node){.kind = c == '-' ? EXPR_NEG : EXPR_NOT, .kid = {k, -1}},
                         *height);
        }
    }
    p->nest--;
    return k;
}

/* level := next (op_of_level next)*, left-associative; levels past 5 are unary. */
static int32_t parse_level(parser *p, unsigned level, unsigned *height)
{
    if (level >= PREC_UNARY)
        return parse_unary(p, height);
    unsigned hl, hr;
    int32_t left = parse_level(p, level + 1, &hl);
    int op;
    while (left >= 0 && (op = match_op(p, level)) >= 0) {
        int32_t right = parse_level(p, level + 1, &hr);
        if (right < 0)
            return -1;
        hl = 1 + (hl > hr ? hl : hr);
        left = add_node(p, (expr_node){.kind = EXPR_BIN, .op = (uint8_t)op, .kid = {left, right}},
                        hl);
    }
    *height = hl;
    return left;
}

expr_status expr_parse(const uint8_t *data, size_t size, expr_tree *t, size_t *at)
{
    parser p = {.s = data, .n = size, .t = t};
    t->count = 0;
    t->root = -1;
    skip_space(&p);
    if (p.pos == p.n) {
        fail(&p, EXPR_E_EMPTY);
    } else {
        unsigned height;
        int32_t root = parse_level(&p, 1, &height);
        skip_space(&p);
        if (root >= 0 && p.pos < p.n)
            fail(&p, EXPR_E_TRAILING);
        else if (root >= 0)
            t->root = root;
    }
    if (at)
        *at = p.err == EXPR_OK ? size : p.err_at;
    return p.err;
}

/* Text into out[0..cap); len counts on past cap so the caller learns what was needed. */
typedef struct writer {
    uint8_t *out;
    size_t cap, len;
} writer;

static void put(writer *w, const char *s)
{
    for (; *s; s++, w->len++)
        if (w->len < w->cap)
            w->out[w->len] = (uint8_t)*s;
}

static unsigned prec(const expr_tree *t, int32_t idx)
{
    const expr_node *n = &t->nodes[idx];
    if (n->kind == EXPR_BIN)
        return op_prec[n->op];
    return n->kind == EXPR_NUM ? PREC_ATOM : PREC_UNARY;
}

static void print_node(const expr_tree *t, int32_t idx, writer *w);

static void print_operand(const expr_tree *t, int32_t idx, int parens, writer *w)
{
    if (parens)
        put(w, "(");
    print_node(t, idx, w);
    if (parens)
        put(w, ")");
}

/* Parentheses exactly where they are needed: around an operand that binds less tightly
 * than its operator, and around a right operand of the same precedence (every operator is
 * left-associative, so `a-(b-c)` keeps them and `(a-b)-c` prints as `a-b-c`). */
static void print_node(const expr_tree *t, int32_t idx, writer *w)
{
    const expr_node *n = &t->nodes[idx];
    char digits[24];
    switch (n->kind) {
    case EXPR_NUM: {
        char *q = digits + sizeof digits - 1;
        uint64_t v = n->num;
        *q = '\0';
        do {
            *--q = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        put(w, q);
        break;
    }
    case EXPR_NEG:
    case EXPR_NOT:
        put(w, n->kind == EXPR_NEG ? "-" : "!");
        print_operand(t, n->kid[0], prec(t, n->kid[0]) < PREC_UNARY, w);
        break;
    default: {
        unsigned p = op_prec[n->op];
        print_operand(t, n->kid[0], prec(t, n->kid[0]) < p, w);
        put(w, op_text[n->op]);
        print_operand(t, n->kid[1], prec(t, n->kid[1]) <= p, w);
        break;
    }
    }
}

size_t expr_print(const expr_tree *t, int32_t idx, uint8_t *out, size_t cap)
{
    writer w = {.out = out, .cap = cap};
    print_node(t, idx, &w);
    return w.len;
}

int expr_equal(const expr_tree *a, int32_t ia, const expr_tree *b, int32_t ib)
{
    const expr_node *x = &a->nodes[ia], *y = &b->nodes[ib];
    if (x->kind != y->kind)
        return 0;
    switch (x->kind) {
    case EXPR_NUM: return x->num == y->num;
    case EXPR_NEG:
    case EXPR_NOT: return expr_equal(a, x->kid[0], b, y->kid[0]);
    default:
        return x->op == y->op && expr_equal(a, x->kid[0], b, y->kid[0]) &&
               expr_equal(a, x->kid[1], b, y->kid[1]);
    }
}

unsigned expr_height(const expr_tree *t, int32_t idx)
{
    const expr_node *n = &t->nodes[idx];
    if (n->kind == EXPR_NUM)
        return 1;
    unsigned h = expr_height(t, n->kid[0]);
    if (n->kind == EXPR_BIN) {
        unsigned r = expr_height(t, n->kid[1]);
        h = h > r ? h : r;
    }
    return 1 + h;
}

/* One operator over wrapping 64-bit values; EXPR_EVAL_DIV0 for a zero divisor. Shared by
 * both evaluators: they differ in order and bookkeeping, not in arithmetic. */
static expr_eval apply(const expr_insn *in, uint64_t a, uint64_t b, uint64_t *out)
{
    const uint64_t min = (uint64_t)1 << 63;
    if (in->kind == EXPR_NEG) {
        *out = 0 - a;
        return EXPR_EVAL_OK;
    }
    if (in->kind == EXPR_NOT) {
        *out = a == 0;
        return EXPR_EVAL_OK;
    }
    switch (in->op) {
    case EXPR_OR: *out = a | b; break;
    case EXPR_AND: *out = a & b; break;
    case EXPR_EQ: *out = a == b; break;
    case EXPR_LT: *out = (int64_t)a < (int64_t)b; break;
    case EXPR_ADD: *out = a + b; break;
    case EXPR_SUB: *out = a - b; break;
    case EXPR_MUL: *out = a * b; break;
    default:
        if (b == 0)
            return EXPR_EVAL_DIV0;
        if (a == min && b == UINT64_MAX) /* INT64_MIN by -1: the one quotient that overflows */
            *out = in->op == EXPR_DIV ? min : 0;
        else if (in->op == EXPR_DIV)
            *out = (uint64_t)((int64_t)a / (int64_t)b);
        else
            *out = (uint64_t)((int64_t)a % (int64_t)b);
        break;
    }
    return EXPR_EVAL_OK;
}

static expr_insn insn_of(const expr_node *n)
{
    return (expr_insn){.kind = n->kind, .op = n->op, .num = n->num};
}

expr_eval expr_eval_tree(const expr_tree *t, int32_t idx, uint64_t *value)
{
    const expr_node *n = &t->nodes[idx];
    if (n->kind == EXPR_NUM) {
        *value = n->num;
        return EXPR_EVAL_OK;
    }
    uint64_t a, b = 0;
    expr_eval ea = expr_eval_tree(t, n->kid[0], &a);
    expr_eval eb = n->kind == EXPR_BIN ? expr_eval_tree(t, n->kid[1], &b) : EXPR_EVAL_OK;
    if (ea != EXPR_EVAL_OK || eb != EXPR_EVAL_OK)
        return EXPR_EVAL_DIV0;
    expr_insn in = insn_of(n);
    return apply(&in, a, b, value);
}

static void compile_node(const expr_tree *t, int32_t idx, expr_insn *code, size_t cap,
                         size_t *n)
{
    const expr_node *nd = &t->nodes[idx];
    if (nd->kind != EXPR_NUM)
        compile_node(t, nd->kid[0], code, cap, n);
    if (nd->kind == EXPR_BIN)
        compile_node(t, nd->kid[1], code, cap, n);
    if (*n < cap)
        code[*n] = insn_of(nd);
    (*n)++;
}

size_t expr_compile(const expr_tree *t, int32_t idx, expr_insn *code, size_t cap)
{
    size_t n = 0;
    compile_node(t, idx, code, cap, &n);
    return n;
}

/* Postfix code pushes the left operand's value, then evaluates the right operand on top of
 * it: a binary node needs max(left, 1 + right) slots. */
unsigned expr_stack_need(const expr_tree *t, int32_t idx)
{
    const expr_node *n = &t->nodes[idx];
    if (n->kind == EXPR_NUM)
        return 1;
    unsigned l = expr_stack_need(t, n->kid[0]);
    if (n->kind != EXPR_BIN)
        return l;
    unsigned r = 1 + expr_stack_need(t, n->kid[1]);
    return l > r ? l : r;
}

expr_eval expr_run_code(const expr_insn *code, size_t n, uint64_t *stack, size_t slots,
                        uint64_t *value)
{
    size_t sp = 0;
    expr_eval status = EXPR_EVAL_OK;
    for (size_t i = 0; i < n; i++) {
        const expr_insn *in = &code[i];
        if (in->kind == EXPR_NUM) {
            if (sp >= slots)
                return EXPR_EVAL_STACK;
            stack[sp++] = in->num;
            continue;
        }
        size_t args = in->kind == EXPR_BIN ? 2 : 1;
        if (sp < args) /* not the output of expr_compile */
            return EXPR_EVAL_STACK;
        uint64_t r;
        /* An error does not stop the machine: the tree walk evaluates every operand too,
         * and a stack overflow later in the code must still be seen. */
        if (apply(in, stack[sp - args], stack[sp - 1], &r) != EXPR_EVAL_OK) {
            status = EXPR_EVAL_DIV0;
            r = 0;
        }
        sp -= args;
        stack[sp++] = r;
    }
    if (sp != 1)
        return EXPR_EVAL_STACK;
    *value = stack[0];
    return status;
}
