/* cpu.c: what this CPU has, the permission Linux asks for, and the tile configuration.
 * (GEMM_HIDE_ISA="amx avx512_bf16" hides the features from __builtin_cpu_supports itself before
 * main: common/cpu_features.h.)
 *
 * AMX's eight tile registers hold 8 KiB of state. Linux does not save that much for every
 * process on every context switch: a process asks once for the right to use it,
 * arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA), and until then the first tile
 * instruction kills it with SIGILL. The answer is for the whole process, its threads included.
 *
 * The tile configuration (LDTILECFG) is per thread: 64 bytes saying how many rows and bytes
 * per row each of the eight tiles has. Every tile here is 16 rows x 64 bytes, the largest.
 */
#include "amx.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef AMX_X86
#include <sys/syscall.h>

#define ARCH_REQ_XCOMP_PERM 0x1023 /* <asm/prctl.h>, Linux 5.16 on */
#define XFEATURE_XTILEDATA 18

int cpu_has_avx512_bf16(void)
{
    /* __builtin_cpu_supports also checks that the OS saves the zmm registers (XCR0) */
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512bf16");
}

static int amx_permitted;

static void ask_linux(void)
{
    amx_permitted = syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) == 0;
}

int cpu_has_amx(void)
{
    if (!__builtin_cpu_supports("amx-tile") || !__builtin_cpu_supports("amx-bf16") ||
        !__builtin_cpu_supports("avx512f"))
        return 0;
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, ask_linux);
    return amx_permitted;
}

/* The 64-byte configuration LDTILECFG reads: palette 1, then bytes per row and rows per tile. */
typedef struct tile_config {
    uint8_t palette, start_row;
    uint8_t reserved[14];
    uint16_t colsb[16]; /* bytes per row of tile t */
    uint8_t rows[16];   /* rows of tile t */
} tile_config;

void amx_tile_config(void)
{
    tile_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.palette = 1;
    for (int t = 0; t < 8; t++) {
        cfg.colsb[t] = 64;
        cfg.rows[t] = 16;
    }
    __asm__ volatile("ldtilecfg %0" : : "m"(cfg));
}

void amx_tile_release(void) { __asm__ volatile("tilerelease" ::: "memory"); }

#else
int cpu_has_avx512_bf16(void) { return 0; }
int cpu_has_amx(void) { return 0; }
void amx_tile_config(void) {}
void amx_tile_release(void) {}
#endif
