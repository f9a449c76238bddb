/* build/cpu-class: the CPU class of this machine (common/cpu_features.h), or the class the stages
 * act as under GEMM_HIDE_ISA, in one line ("AVX-512 with AMX", "AVX2+FMA", ...): how
 * tests/cpu-classes.sh tells which classes this machine can stand in for. */
#include <stdio.h>

#include "cpu_features.h"

int main(void)
{
    printf("%s\n", cpu_class());
    return 0;
}
