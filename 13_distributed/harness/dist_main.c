/* dist_main.c: stage 13's main, bench_main's counterpart for an MPI program (main.c calls it with
 * the stage's variant table): MPI started, rank 0 alone speaking, the command line with the
 * stage's options, the process grid, the sizes held to the node's memory, the GPUs set up where
 * a GPU variant is asked for; then --bench-comm (comm_bench.c), --edge or the runs (harness.c). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../05_simd/simd.h"
#include "bench.h"
#include "comm_bench.h"
#include "csv.h"
#include "harness.h"
#include "cpu_features.h"
#include "sysinfo.h"

/* A GPU variant where this run has no GPU per rank: listed, marked "not here", never run. */
static int not_here(void) { return 0; }

/* ------------------------------------------------------------ options */

static struct {
    int nprow, npcol; /* --grid, 0: chosen */
    int nb;           /* --nb */
    int bench_comm;   /* --bench-comm */
    int edge;         /* --edge */
    int pack;         /* --pack */
    int slices;       /* --slices, 0: not given */
    int first_split;  /* --first-split, 0: not given */
    int bcast_ctas;   /* --bcast-ctas, 0: not given */
    const char *timeline; /* --timeline FILE */
} opt = {0, 0, 256, 0, 0, 0, 0, 0, 0, NULL};

static int stage_option(bench_opts *o, const char *name, const char *val)
{
    (void)o;
    if (!strcmp(name, "--grid")) {
        int r, c, used = 0;
        if (!val || sscanf(val, "%dx%d%n", &r, &c, &used) != 2 || val[used] || r < 1 || c < 1)
            cli_die("--grid: expects PRxPC, e.g. 2x3 (process rows x process columns)");
        opt.nprow = r;
        opt.npcol = c;
        return 2;
    }
    if (!strcmp(name, "--nb")) {
        opt.nb = (int)cli_long("--nb", val, 1, 1 << 16);
        return 2;
    }
    if (!strcmp(name, "--bench-comm")) {
        opt.bench_comm = 1;
        return 1;
    }
    if (!strcmp(name, "--slices")) {
        opt.slices = (int)cli_long("--slices", val, 1, 1 << 16);
        return 2;
    }
    if (!strcmp(name, "--first-split")) {
        opt.first_split = (int)cli_long("--first-split", val, 1, 1 << 16);
        return 2;
    }
    if (!strcmp(name, "--bcast-ctas")) {
        opt.bcast_ctas = (int)cli_long("--bcast-ctas", val, 1, 64);
        return 2;
    }
    if (!strcmp(name, "--timeline")) {
        if (!val || !*val)
            cli_die("--timeline: expects a file name");
        opt.timeline = val;
        return 2;
    }
    if (!strcmp(name, "--samples")) {
        print_samples = 1;
        return 1;
    }
    if (!strcmp(name, "--pack")) {
        opt.pack = 1;
        return 1;
    }
    if (!strcmp(name, "--edge")) { /* (the common option's name, --edges, also runs it) */
        opt.edge = 1;
        return 1;
    }
    return 0;
}

#define HELP                                                                                     \
    "  --grid PRxPC          the process grid (default: the squarest for the rank count);\n"    \
    "                        PR x PC must equal the number of ranks\n"                          \
    "  --nb NB               block size of the block-cyclic layout and SUMMA's panel width\n"   \
    "                        (default 256)\n"                                                   \
    "  --threads T|LIST      OpenMP threads per rank (default: the node's cores / its ranks)\n" \
    "  --device D            summa_nccl: the first GPU of each node (rank i of a node takes\n"   \
    "                        D + i)\n"                                                          \
    "  --bench-comm          no GEMM: time ping-pong and broadcasts (MPI; NCCL where each\n"    \
    "                        rank has a GPU) from 8 B to 32 MiB (NCCL to 512 MiB), for the\n"  \
    "                        model's alpha and beta\n" \
    "  --edge                the same as --edges here: each variant at K = 0, M = 0, N = 0\n"      \
    "  --pack                summa_nccl: pack and broadcast every panel even where no other\n" \
    "                        rank needs it (on one GPU: the path several GPUs take)\n"        \
    "  --slices S            summa_overlap: at most S slices of a panel's product while the\n"  \
    "                        next panel travels (default 8; 1: one call, no MPI call inside)\n" \
    "  --first-split S       summa_nccl: the first block of K in S panels, so that the first\n"  \
    "                        broadcast, which nothing hides, is 1/S of a block (default 1)\n"   \
    "  --bcast-ctas N        summa_nccl: NCCL's broadcasts use at most N blocks (SMs) each,\n" \
    "                        taken from the products beside them (default: NCCL's choice)\n" \
    "  --timeline FILE       summa_nccl: after the timed runs, one more run traced: when each\n" \
    "                        rank's broadcasts and products start and end (CSV rows)\n" \
    "  --samples             print every timed run of a row, in the order they ran\n"

/* ------------------------------------------------------------ MPI and the ranks */


static void finalize(void)
{
    int done = 0, up = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&done);
    if (up && !done)
        MPI_Finalize();
}

/* While the command line is read, only rank 0 may complain: every rank reads it and reaches
 * the same verdict, and rank 0 alone says it (one line), then all exit with the same status. */
static int saved_stderr = -1;
static void quiet_others(int quiet)
{
    if (me == 0)
        return;
    if (quiet) {
        fflush(stderr);
        saved_stderr = dup(2);
        if (!freopen("/dev/null", "w", stderr))
            return;
    } else if (saved_stderr >= 0) {
        fflush(stderr);
        dup2(saved_stderr, 2);
        close(saved_stderr);
        saved_stderr = -1;
    }
}

/* Ranks on this node: the default thread count and summa_nccl's GPU choice need it. */
static int ranks_on_node(void)
{
    MPI_Comm node;
    int n;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &n);
    MPI_Comm_free(&node);
    return n;
}

/* The squarest PR x PC = P with PR <= PC. */
static void default_grid(int P, int *pr, int *pc)
{
    int r = 1;
    for (int d = 1; (long)d * d <= P; d++)
        if (P % d == 0)
            r = d;
    *pr = r;
    *pc = P / r;
}

static dist_grid make_grid(int nprow, int npcol, int nb)
{
    dist_grid g = {nprow, npcol, me / npcol, me % npcol, nb, MPI_COMM_WORLD, 0, 0};
    MPI_Comm_split(MPI_COMM_WORLD, g.myrow, g.mycol, &g.row);
    MPI_Comm_split(MPI_COMM_WORLD, g.mycol, g.myrow, &g.col);
    return g;
}

/* ------------------------------------------------------------ sizes and memory */

/* Rank (0, 0) holds the largest blocks: its bytes decide. Refuse what would overflow an MPI
 * count (an int) or not fit in the node's memory with every rank of the node holding as much. */
static void check_sizes(const bench_opts *o, int nprow, int npcol, int nb, int node_ranks)
{
    const double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGE_SIZE);
    for (int s = 0; s < o->nshapes; s++) {
        const gemm_shape *sh = &o->shapes[s];
        const double m = local_count(sh->m, nb, 0, nprow), n = local_count(sh->n, nb, 0, npcol);
        const double ka = local_count(sh->k, nb, 0, npcol), kb = local_count(sh->k, nb, 0, nprow);
        if (m * nb > INT_MAX || n * nb > INT_MAX || m + o->pad > INT_MAX || n + o->pad > INT_MAX ||
            ka + o->pad > INT_MAX)
            cli_die("size %dx%dx%d: a rank's panel (%.0f x %d) is too large for an MPI count; "
                    "use more ranks or a smaller --nb", sh->m, sh->n, sh->k, fmax(m, n), nb);
        double bytes = 4.0 * (m * (ka + o->pad) + kb * (n + o->pad) + 3 * m * (n + o->pad) +
                              4.0 * nb * (m + n));
        if (me == 0) /* rank 0 also gathers B and the sampled rows for the check */
            bytes += 8.0 * sh->k * (double)sh->n;
        if (phys > 0 && bytes * node_ranks > 0.9 * phys)
            cli_die("size %dx%dx%d needs %.1f GiB per rank, %.1f GiB on this node of %d ranks; "
                    "it has %.1f GiB", sh->m, sh->n, sh->k, bytes / 1073741824.0,
                    bytes * node_ranks / 1073741824.0, node_ranks, phys / 1073741824.0);
        /* asked for now and given back untouched: a limit (ulimit -v, -d) refuses before the
         * CSV is opened, not after, leaving its header alone in it */
        void *room = malloc((size_t)bytes + 65536);
        if (!room)
            cli_die("size %dx%dx%d: cannot allocate %.1f GiB of host memory for a rank's blocks",
                    sh->m, sh->n, sh->k, bytes / 1073741824.0);
        free(room);
    }
}
/* ------------------------------------------------------------ main */

static const char *title;

int dist_main(const dist_stage *st, int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    atexit(finalize);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (me != 0 && !freopen("/dev/null", "w", stdout)) /* rank 0 prints the table */
        MPI_Abort(MPI_COMM_WORLD, 1);
    const int node_ranks = ranks_on_node();
    cli_prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];

    /* The variant table: every variant; the GPU ones run where the GPU part is built in and
     * every rank of a node can have a GPU of its own (--variant all runs those; --list marks the
     * others "not here", as cli.c does for a CPU feature). Naming one that cannot run exits 77,
     * "skipped", as a CUDA stage does on a machine without a GPU, or 2 with too few GPUs. */
    const int have_gpu = gpu_missing() == NULL;
    int ndev = have_gpu ? gpu_devices() : 0, fewest;
    int per_rank = ndev >= node_ranks, all_per_rank;
    MPI_Allreduce(&ndev, &fewest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&per_rank, &all_per_rank, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    ndev = fewest;
    gemm_variant table[st->nvariants];
    variant vars[st->nvariants];
    int nvars = 0;
    static char gpu_needs[240];
    snprintf(gpu_needs, sizeof gpu_needs, "a CUDA GPU for each rank (%s)",
             !have_gpu ? gpu_missing() : ndev > 0 ? "fewer GPUs than ranks on a node"
                                                  : "no CUDA device");
    for (int v = 0; v < st->nvariants; v++) {
        const int here = !st->variants[v].gpu || (ndev > 0 && all_per_rank);
        vars[nvars] = st->variants[v];
        table[nvars++] = (gemm_variant){st->variants[v].name, st->variants[v].desc, NULL,
                                        .runnable = here ? NULL : not_here,
                                        .needs = here ? NULL : gpu_needs};
    }
    for (int a = 1; a + 1 < argc && !(ndev > 0 && all_per_rank); a++)
        if (!strcmp(argv[a], "--variant"))
            for (int v = 0; v < st->nvariants; v++)
                if (st->variants[v].gpu && strstr(argv[a + 1], st->variants[v].name)) {
                    const int rc = ndev > 0 ? 2 : 77;
                    if (me == 0 && rc == 77)
                        fprintf(stderr, "%s: --variant %s: %s: skipped\n", cli_prog,
                                st->variants[v].name, have_gpu ? "no CUDA device" : gpu_missing());
                    else if (me == 0)
                        fprintf(stderr, "%s: --variant %s takes one GPU per rank: %d ranks on a "
                                "node with %d GPU%s\n", cli_prog, st->variants[v].name, node_ranks,
                                ndev, ndev == 1 ? "" : "s");
                    exit(rc);
                }

    title = ndev > 0 ? st->gpu_title : st->title;
    stage_info stage = {
        .stage = st->stage,
        .title = title,
        .default_sizes = st->default_sizes,
        .default_threads = 0,
        .variants = table,
        .nvariants = nvars,
        .extra_option = stage_option,
        .extra_help = HELP,
    };
    const int cores = sysinfo_cores();
    stage.default_threads = cores / node_ranks > 0 ? cores / node_ranks : 1;

    bench_opts o;
    quiet_others(1);
    cli_parse(&stage, argc, argv, &o);
    opt.edge |= o.edges; /* --edges, every stage's name for the edge cases, is this suite here */
    if (!opt.nprow)
        default_grid(nranks, &opt.nprow, &opt.npcol);
    else if (opt.nprow * opt.npcol != nranks)
        cli_die("--grid %dx%d is %d ranks, but %d were started (mpirun -np %d)", opt.nprow,
                opt.npcol, opt.nprow * opt.npcol, nranks, opt.nprow * opt.npcol);
    if (opt.bench_comm && opt.bcast_ctas) /* (its rows would say nccl, not nccl capped) */
        cli_die("--bcast-ctas: for the GEMM runs; --bench-comm times NCCL as it comes");
    if (!opt.bench_comm)
        check_sizes(&o, opt.nprow, opt.npcol, opt.nb, node_ranks);
    const char *csv_bad = NULL;
    if (me == 0 && o.csv)
        csv_bad = csv_begin(o.csv, opt.bench_comm ? comm_csv_header : csv_header);
    if (me == 0 && !csv_bad && opt.timeline && !opt.bench_comm) {
        static char err[300];
        timeline_csv = csv_open(opt.timeline, timeline_header, err, sizeof err);
        if (!timeline_csv)
            csv_bad = err;
    }
    int bad = csv_bad != NULL;
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (bad)
        cli_die("%s", me == 0 ? csv_bad : "");
    quiet_others(0);
    char renamed[st->nvariants][48];
    for (int v = 0; v < nvars; v++) { /* the CSV tells the ways of running a variant apart */
        const int summa_gpu = vars[v].gpu == GPU_SUMMA_WARPTILE || vars[v].gpu == GPU_SUMMA_CUBLAS;
        char suffix[32] = "";
        if (opt.pack && summa_gpu)
            strcat(suffix, "+pack");
        if (opt.first_split > 1 && (summa_gpu || vars[v].gpu == GPU_LOCAL_ONLY))
            snprintf(suffix + strlen(suffix), sizeof suffix - strlen(suffix), "+split%d",
                     opt.first_split);
        if (opt.bcast_ctas && summa_gpu)
            snprintf(suffix + strlen(suffix), sizeof suffix - strlen(suffix), "+ctas%d",
                     opt.bcast_ctas);
        if (opt.slices && vars[v].fn == summa_overlap)
            snprintf(suffix, sizeof suffix, "+slices%d", opt.slices);
        if (!*suffix)
            continue;
        snprintf(renamed[v], sizeof renamed[v], "%s%s", vars[v].name, suffix);
        vars[v].name = renamed[v];
    }
    if (opt.slices)
        summa_slices = opt.slices;
    if (opt.first_split)
        gpu_first_split = opt.first_split;
    gpu_bcast_ctas = opt.bcast_ctas;
    timeline_wanted = opt.timeline != NULL && !opt.bench_comm;
    snprintf(grid_name, sizeof grid_name, "%dx%d", opt.nprow, opt.npcol);
    grid = make_grid(opt.nprow, opt.npcol, opt.nb);

    int want_gpu = 0;
    const char *no_nccl = NULL;
    static char why_no_nccl[160];
    if (opt.bench_comm) { /* MPI's timings on any ranks; NCCL's where each rank has a GPU */
        int fits = ndev > 0 && o.device + node_ranks <= gpu_devices(), all_fit;
        MPI_Allreduce(&fits, &all_fit, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        want_gpu = all_fit;
        if (ndev == 0)
            no_nccl = have_gpu ? "no CUDA device" : gpu_missing();
        else if (!all_fit) {
            snprintf(why_no_nccl, sizeof why_no_nccl, "NCCL takes one GPU per rank: %d ranks on "
                     "this node from --device %d, and %d GPU%s", node_ranks, o.device,
                     gpu_devices(), gpu_devices() == 1 ? "" : "s");
            no_nccl = why_no_nccl;
        }
    } else
        for (int v = 0; v < nvars; v++)
            want_gpu |= o.selected[v] && vars[v].gpu;
    if (want_gpu) {
        const char *why = NULL;
        int rc = gpu_init(&grid, o.device, opt.pack, &why), worst, teller;
        MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (worst != 0) { /* one line, from the first rank that has the worst news */
            int mine = rc == worst ? me : nranks;
            MPI_Allreduce(&mine, &teller, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            if (me == teller)
                fprintf(stderr, "%s: %s%s\n", cli_prog, why, worst == 77 ? ": skipped" : "");
            exit(worst);
        }
    }

    if (opt.bench_comm) {
        set_threads(o.threads[0]);
        comm_bench(&grid, rows_csv, want_gpu, no_nccl, o.reps);
        return me == 0 ? csv_end() : 0;
    }

    if (me == 0) {
        char mpi[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(mpi, &len);
        mpi[strcspn(mpi, ",\n")] = '\0';
        printf("== %s: %s ==\n", st->stage, title);
        printf("%-10s %d ranks (%d on this node), grid %s (process rows x columns), nb %d\n",
               "ranks", nranks, node_ranks, grid_name, opt.nb);
        printf("%-10s %s, %d cores online; local product: 05's gemm_simd (%s)\n", "cpu",
               sysinfo_cpu_model(), cores, microkernel_best()->name);
        cpu_print_hidden(stdout);
        if (want_gpu)
            printf("%-10s %s (%s)\n", "gpu", gpu_device_name(), gpu_library_names());
        printf("%-10s %s\n", "mpi", mpi);
        printf("%-10s %s\n", "baseline", o.baseline ? psgemm_blas_name() : "none (--no-baseline)");
        printf("%-10s %s (git %s)\n", "compiler", sysinfo_compiler(), sysinfo_git_rev());
        if (o.check)
            printf("%-10s double precision on rank 0, sampled rows gathered from the ranks; "
                   "|err| <= c(K+2)u(|alpha||A||B| + |beta||C|); C poisoned on every rank\n",
                   "check");
        printf("%-10s the slowest rank's, from a common start; GF/s/core = GFLOP/s / (ranks x "
               "threads)\n\n", "time");
        if (!opt.edge)
            printf("%-18s %6s %6s %6s %5s %3s %10s %10s %9s %10s %8s  %s\n", "variant", "M", "N",
                   "K", "grid", "thr", "ms", "GFLOP/s", "GF/s/core", "vs psgemm", "rel.err",
                   "check");
        fflush(stdout);
    }

    if (opt.edge) {
        set_threads(o.threads[0]);
        const int failed = edge_checks(vars, o.selected, nvars, &o);
        if (me == 0)
            printf("\n%s\n", failed ? "some edge cases FAILED" : "every edge case passed");
        return failed ? 1 : 0;
    }

    const int nfail = run_sizes(&o, vars, nvars);
    const int csv_rc = me == 0 ? csv_end() : 0;
    if (timeline_csv) {
        char err[300];
        if (csv_close(timeline_csv, err, sizeof err) != 0)
            fprintf(stderr, "%s: %s\n", cli_prog, err);
    }
    free(o.shapes);
    free(o.selected);
    return csv_rc ? csv_rc : nfail ? 1 : 0;
}
