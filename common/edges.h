/* edges.h: --edges, the suite of edge cases every variant must pass (gemm.h's rules).
 *
 *   the BLAS rules   K = 0 (beta 0 with C NaN, 1, 1.3); alpha = 0 with A all NaN and B all
 *                    Inf; M = 0, N = 0 and negative M, N, K: C unchanged, bit for bit
 *   propagation      one NaN or Inf in A or B (corners, interior, the last row or column, in
 *                    an edge tile), beta 0 and 1.3: exactly the row (column) of C that uses
 *                    it is non-finite, the rest finite and within the harness's error bound
 *                    (fast_algorithm variants: only the first; what spreads is counted)
 *   overflow         A = B = 1e20, alpha = 1e-20, K = 4: C = 4e20, finite (not alpha_last
 *                    variants)
 *
 * Every call goes through the stage's backend (setup, put_c, run, get_c), so CPU and GPU
 * variants are held to the same cases, and the baseline to the BLAS rules. One row per
 * case, PASS or FAIL, then "N passed, N failed". The propagation cases run on the suite's
 * shapes, or on the shapes of -m/--sizes when they are not the stage's default sweep.
 *
 * --csv FILE: the same rows in a file of their own schema (EDGES_CSV_HEADER; a file with another
 * header, the GEMM rows' among them, is refused), one row a case, written whole as it is decided:
 * what a grader reads, since a kernel's own printing can garble the table but not the file. The
 * case and the reason are text with commas in them; the file has them as semicolons.
 */
#ifndef EDGES_H
#define EDGES_H

#include "bench.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EDGES_CSV_HEADER "stage,variant,case,shape,line_nonfinite,elsewhere_nonfinite,check,why"

/* --csv with --edges: cli_parse moves the path here (NULL: none), edges_main opens it. */
extern const char *edges_csv;

/* Run the suite on o's selected variants (and the baseline unless --no-baseline), with the
 * first of o's thread counts. Returns the exit status: 0 every case passed, 1 one failed, 2 the
 * CSV could not be written. */
int edges_main(const stage_info *st, const bench_opts *o);

#ifdef __cplusplus
}
#endif

#endif
