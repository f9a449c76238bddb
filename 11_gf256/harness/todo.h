/* todo.h: --todo, the exercise's functions checked one at a time (todo.c).
 *
 * The encode and decode checks of run.c see the functions of gf256.c (or exercise.c) only
 * together: until the field's tables are right, every variant fails, and a student who has
 * done TODOs 1 to 3 sees nothing pass. --todo checks each function alone against the harness's
 * own arithmetic (reference.c), with the harness's tables in place of gf256_init's for every
 * TODO but the first:
 *
 *   TODO 1  gf256_init           the 255 powers of 2 in gf256_exp (twice) and their logs
 *   TODO 2  gf256_mul            every product a*b, one check per a
 *   TODO 3  gf256_inv            every inverse
 *   TODO 4  gf256_invert_matrix  invertible matrices of 1x1 to 16x16 (one needing a row swap),
 *                                and singular ones (-1)
 *   TODO 5  gf256_split_tables   both tables of every coefficient
 *   TODO 6  gf256_affine_matrix  every coefficient's matrix, applied to every byte
 *   TODO 7  encode_table         small codes at awkward lengths and offsets, inside guards
 *
 * A function that calls another (gf256_invert_matrix calls gf256_mul and gf256_inv) needs that
 * one right too; a failing row says so. One row per TODO, PASS or FAIL with the first failure,
 * then "N passed, N failed"; with --csv, the same rows in a file of their own schema.
 */
#ifndef GF_TODO_H
#define GF_TODO_H

#include "options.h"

#define TODO_COUNT 7
#define TODO_CSV_HEADER "stage,todo,function,variants,checks,passed,check,why"

/* Check the TODOs in o->todo (bit t-1 for TODO t). Returns 0 all passed, 1 one failed, 2 the CSV
 * could not be written. */
int todo_main(const options *o);

#endif
