/* reference.c: shift-and-XOR multiplication, the reference encoder, the Cauchy matrix. */
#include "reference.h"

#include "../gf256.h"

static uint8_t product[256][256];

/* Polynomial multiplication with reduction as we go: for each bit of b, add (XOR) a,
 * then multiply a by x (shift left) and reduce modulo the field polynomial. */
static uint8_t slow_mul(uint8_t a, uint8_t b)
{
    unsigned x = a, r = 0;
    for (; b; b >>= 1) {
        if (b & 1)
            r ^= x;
        x <<= 1;
        if (x & 0x100)
            x ^= GF_POLY;
    }
    return (uint8_t)r;
}

void ref_init(void)
{
    for (int a = 0; a < 256; a++)
        for (int b = 0; b < 256; b++)
            product[a][b] = slow_mul((uint8_t)a, (uint8_t)b);
}

uint8_t ref_mul(uint8_t a, uint8_t b) { return product[a][b]; }

uint8_t ref_inv(uint8_t a)
{
    for (int x = 1; x < 256; x++)
        if (product[a][x] == 1)
            return (uint8_t)x;
    return 0;
}

void ref_encode(int k, int rows, const uint8_t *coef, const uint8_t *const *in,
                uint8_t *const *out, size_t len)
{
    for (int i = 0; i < rows; i++)
        for (size_t b = 0; b < len; b++) {
            uint8_t s = 0;
            for (int j = 0; j < k; j++)
                s ^= product[coef[i * k + j]][in[j][b]];
            out[i][b] = s;
        }
}

/* Every square submatrix of a Cauchy matrix is invertible, so every k rows of
 * [identity; Cauchy] are: any m lost chunks can be rebuilt. x_i + y_j = (k+i) ^ j is
 * never zero because k+i > j. */
void cauchy_matrix(int k, int m, uint8_t *c)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < k; j++)
            c[i * k + j] = ref_inv((uint8_t)((k + i) ^ j));
}
