/* strassen.h: stage 06, Strassen and Winograd on top of stage 05's packed kernel.
 *
 *   strassen.c   one level of the seven products: strassen_level (18 additions, the textbook
 *                form) and winograd_level (15 additions); the cutoff. make grade STAGE=06
 *                has you write this file (exercise.c).
 *   driver.c     the recursion: cutoff, peeling of odd sizes, the one workspace, the matrix
 *                additions, and the gemm_fn variants strassen_1lvl, strassen_2lvl, winograd
 *   reloaded.c   the additions folded into the packing of A and B and into the micro-kernel's
 *                update of C ("Strassen reloaded", Huang, Smith, Henry, van de Geijn, SC16):
 *                reloaded_0lvl (the control), reloaded_1lvl, reloaded_2lvl
 *   main.c       the variant table (with the error constants), --breakdown as a run mode
 *   harness/     the options (--cutoff, --vs classic, --errors, --fold-c), --breakdown
 *
 * Every leaf product is stage 05's gemm_packed with its best micro-kernel (simd.h), and
 * reloaded_* run in 05's five loops (gemm_loops) with their own packing: linked from 05_simd
 * (stage.mk), never copied.
 */
#ifndef STRASSEN_H
#define STRASSEN_H

#include "gemm.h"

/* The variants (gemm_fn contract, gemm.h). classic is 05's gemm_simd under a short name. */
gemm_fn gemm_classic, gemm_strassen_1lvl, gemm_strassen_2lvl, gemm_winograd_1lvl, gemm_winograd;
gemm_fn gemm_reloaded_0lvl, gemm_reloaded_1lvl, gemm_reloaded_2lvl, gemm_hybrid_2lvl;

/* A level of fast multiplication is applied to a (sub)problem only when its smallest
 * dimension is at least the cutoff: below it the seven half-size products and the additions
 * cost more than the eight-products-in-one that classic does. strassen_default_cutoff is
 * the measured crossover (README.md, "Where it pays"); --cutoff sets strassen_cutoff. */
extern const int strassen_default_cutoff;
extern int strassen_cutoff;

/* How a (sub)problem of fast multiplication is done: which level, how many levels are left. */
typedef struct fast_plan fast_plan;
typedef void level_fn(const fast_plan *plan, int levels, int m, int n, int k, float alpha,
                      const float *A, int lda, const float *B, int ldb, float beta, float *C,
                      int ldc, float *work);
struct fast_plan {
    level_fn *level; /* strassen_level or winograd_level */
    gemm_fn *leaf;   /* the products below the last level: gemm_simd (05's classic), or
                        gemm_reloaded_1lvl (hybrid_2lvl) */
};

/* One level on an even-sized problem: A is 2m x 2k, B is 2k x 2n, C is 2m x 2n, split into
 * quadrants (A11 = A, A12 = A + k, A21 = A + m*lda, A22 = A + m*lda + k, and so on).
 * C = alpha*A*B + beta*C from seven products of quadrant-sized operands, each one done by
 * fast_gemm(plan, levels - 1, ...). work: the three temporaries of this level, then the
 * workspace of the levels below (level_temps carves it). */
level_fn strassen_level, winograd_level;

/* C = alpha*A*B + beta*C for any M, N, K >= 0 with up to `levels` levels of plan->level:
 * a level needs min(M, N, K) >= strassen_cutoff (else classic does the product); odd
 * dimensions are peeled off (the even part recurses, a row, a column and a rank-1 update
 * go to classic). work: at least fast_workspace_floats(levels, M, N, K) floats. */
void fast_gemm(const fast_plan *plan, int levels, int M, int N, int K, float alpha,
               const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc,
               float *work);
size_t fast_workspace_floats(int levels, int M, int N, int K);

/* The temporaries of one level: X is m x k (ld k), Y is k x n (ld n), Z is m x n (ld n),
 * each starting on a 64-byte boundary; *next is where the level below starts. */
void level_temps(int m, int n, int k, float *work, float **X, float **Y, float **Z,
                 float **next);

/* The additions, each one pass over memory (OpenMP over rows):
 *   mat_add:  D = X + s*Y                                              (s is +1 or -1)
 *   mat_acc:  C1 = s1*P + beta1*C1, and the same for C2 unless C2 is NULL (P read once);
 *             beta == 0 means C is written without being read. */
void mat_add(int rows, int cols, const float *X, int ldx, float s, const float *Y, int ldy,
             float *D, int ldd);
void mat_acc(int rows, int cols, const float *P, int ldp, float *C1, float s1, float beta1,
             float *C2, float s2, float beta2, int ldc);

/* How reloaded_* adds a product to the several quadrants of C that need it (--fold-c):
 *   FOLD_LAST   the default: the micro-kernel's tile adds up over the slices of K in a
 *               buffer Z, and after the last slice goes to every target while still in L1
 *   FOLD_EVERY  Huang et al.'s ABC form: every slice's tile goes to every target
 *   FOLD_NONE   their AB form: the product into Z, then one pass adds Z to the targets */
enum { FOLD_LAST, FOLD_EVERY, FOLD_NONE };
extern int reloaded_fold;

/* What the additions cost, summed over every call since the last reset (--breakdown):
 * seconds spent in mat_add and mat_acc, and the bytes they read and wrote; and, when
 * strassen_profile is set, the seconds thread 0 of reloaded's loops spends in its packing
 * hooks (A and B), where the folded additions happen. */
extern double strassen_add_seconds, strassen_add_bytes, reloaded_pack_seconds;
extern int strassen_profile;

#endif
