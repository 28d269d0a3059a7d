/* test/support/case.h — running a function as the body of one real case, for tests of what the
 * engine records only while a case runs (comparison tables, coverage). */
#ifndef FG_TEST_CASE_H
#define FG_TEST_CASE_H

/* Empties the comparison tables, then runs body as one case's body through the harness.
 * Returns 1 when the case ran and ended normally (failures are CHECKed too). */
int fgt_in_case(void (*body)(void));

#endif
