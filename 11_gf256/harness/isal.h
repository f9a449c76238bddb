/* isal.h: Intel ISA-L, chapter 11's baseline, loaded as the program starts its runs (dlopen),
 * as common/baseline_blas.c loads MKL and BLIS: the stage builds and runs without it, and says
 * so. ISAL_HOME names the folder to take it from (its lib/, or itself); an empty folder hides
 * an installed one (the tests' "absent" path). */
#ifndef GF_ISAL_H
#define GF_ISAL_H

/* 0 once ISA-L is loaded (again: 0 at once); else -1 and why, one line, in *why. */
int isal_load(const char **why);
/* What was loaded: "libisal.so.2.0.30 (/usr/lib/...)". */
const char *isal_name(void);
/* ISA-L's ec_init_tables and ec_encode_data (erasure_code.h), once isal_load said 0. */
void isal_init_tables(int k, int rows, unsigned char *a, unsigned char *tables);
void isal_encode_data(int len, int k, int rows, unsigned char *tables, unsigned char **data,
                      unsigned char **coding);

#endif
