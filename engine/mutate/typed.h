/* engine/mutate/typed.h — read-aware mutation: edits an input by the read record of the
 * run that kept it (engine/feedback/reads.h), so an edit changes a value where the target
 * reads it and whole operations move, are copied or dropped with the rest kept aligned.
 */
#ifndef FG_TYPED_H
#define FG_TYPED_H

#include "engine/feedback/reads.h"
#include "engine/mutate/mutate.h"

/* Edits buf (size bytes, capacity max), whose bytes' read record is reads[0..n) (reads
 * past size are ignored), and returns the new size (<= max), or FGI_MUT_SKIP when no edit
 * applies (buf unchanged). One case's edit, drawn from m->rng:
 *   values (1/3; 1 to 4 reads, each once)  a pick becomes another valid choice; a range
 *            value goes to lo, hi, +-1, an operand a comparison saw (the base's own,
 *            m->local, or the pool's) that lies in its range, or anywhere in it; an
 *            integer also gets small arithmetic; a bool flips. The width never changes,
 *            so nothing after it moves.
 *   operations (2/3; 1 to 3 edits stacked over a list of operations each edit keeps
 *            true; an operation is the reads from a pick up to the next pick):
 *            duplicate (2/7) one, a run or all of them, once or 2^j - 1 more times (j in
 *            1..6), mostly right after themselves; delete one (1/7); put in, at a
 *            boundary or over one of ours, an operation of a chosen kind (3/7: copied
 *            from an operation of ours or of the crossover partner m->other, whose record
 *            is oreads[0..on), that made that choice, else the bare pick); or one of the
 *            partner's operations (1/7). Half the insertions go at the end.
 * m->step names the first edit applied ("read_value", "read_dup", "read_delete",
 * "read_op", "read_splice"), and m->napplied is 0. */
FGI_HIDDEN size_t fgi_typed_mutate(fgi_mut *m, const fgi_read *reads, size_t n,
                                   const fgi_read *oreads, size_t on, uint8_t *buf,
                                   size_t size, size_t max);

/* The operations of a record over size bytes: the start of each group (a pick's offset)
 * into starts[0..] (room for n + 1), the end of the last group's reads into *end. Returns
 * how many groups; 0 when no pick lies inside the bytes. Also the minimiser's view. */
FGI_HIDDEN size_t fgi_typed_groups(const fgi_read *reads, size_t n, size_t size,
                                   uint32_t *starts, uint32_t *end);

#endif
