/* fault_cost.c: what a page fault on fresh memory costs here, against touching memory that is
 * kept (chapter 03, Pitfalls: "Buffers freed at the end of every call"). A side program, not
 * part of the stage's build or of make test:
 *
 *   cc -O2 -o build/fault_cost lab/03_tiling/fault_cost.c && build/fault_cost [ROUNDS]
 *
 * Each round maps 768 KiB (three 256 KiB block buffers), writes one byte in each 4 KiB page and
 * unmaps it: every touch is a fault. Then the same touches on a buffer kept from round to round.
 * Prints CSV: what,pages,rounds,us_per_page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define BYTES (768u * 1024u)
#define PAGE 4096u

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    char *end = NULL;
    long rounds = argc > 1 ? strtol(argv[1], &end, 10) : 200;
    if (argc > 2 || (argc > 1 && (*end || rounds < 1 || rounds > 1000000))) {
        fprintf(stderr, "usage: fault_cost [ROUNDS, 1..1000000]\n");
        return 2;
    }
    const unsigned pages = BYTES / PAGE;
    double t0 = now();
    for (long r = 0; r < rounds; r++) {
        volatile char *p = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == (void *)MAP_FAILED) {
            perror("fault_cost: mmap");
            return 1;
        }
        for (unsigned i = 0; i < pages; i++)
            p[(size_t)i * PAGE] = 1;
        munmap((void *)p, BYTES);
    }
    double fresh = now() - t0;
    volatile char *k = malloc(BYTES);
    if (!k) {
        fprintf(stderr, "fault_cost: out of memory\n");
        return 1;
    }
    memset((char *)k, 0, BYTES);
    t0 = now();
    for (long r = 0; r < rounds; r++)
        for (unsigned i = 0; i < pages; i++)
            k[(size_t)i * PAGE] += 1;
    double kept = now() - t0;
    printf("what,pages,rounds,us_per_page\n");
    printf("fresh,%u,%ld,%.3f\n", pages, rounds, fresh / (double)rounds / pages * 1e6);
    printf("kept,%u,%ld,%.3f\n", pages, rounds, kept / (double)rounds / pages * 1e6);
    free((void *)k);
    return 0;
}
