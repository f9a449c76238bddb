/* comm_bench.h: --bench-comm, the measurements behind the cost model's alpha and beta. */
#ifndef COMM_BENCH_H
#define COMM_BENCH_H

#include "csv.h"
#include "../distributed.h"

extern const char *comm_csv_header;

/* Collective: ping-pong between ranks 0 and 1, MPI_Bcast over all ranks, over each process
 * row and over each process column (every row or column at once, as SUMMA does), and with
 * gpu set the same broadcasts by NCCL between the GPUs; 8 B to 32 MiB (NCCL's to 512 MiB). A
 * table on stdout, rows in csv (rank 0's open file; NULL: none); without gpu, no_gpu (if not NULL) says why on a line of the table.
 * reps > 0: that many of each (else more for small messages). */
void comm_bench(const dist_grid *g, csv_file *csv, int gpu, const char *no_gpu, int reps);

#endif
