/* cpu_features.c: GEMM_HIDE_ISA, applied before main, and the CPU classes (cpu_features.h). */
#include "cpu_features.h"

#include <errno.h> /* program_invocation_short_name */
#include <stdlib.h>
#include <string.h>

static char hidden_words[128];
static const char *real_class = "", *seen_class = "";

static void die(const char *msg, const char *what)
{
    fflush(stdout);
    fprintf(stderr, "%s: GEMM_HIDE_ISA: %s%s\n", program_invocation_short_name, msg, what);
    exit(2);
}

#if defined(__x86_64__) || defined(__i386__)

/* One function a feature, that asks __builtin_cpu_supports for it (the builtin takes only a
 * string literal). noipa: each call reads libgcc's bits afresh, after hide() has changed them
 * (GCC does not know that the builtin reads the variable hide() writes). */
#define ASK(id, name) \
    __attribute__((noipa)) static int ask_##id(void) { return __builtin_cpu_supports(name); }
ASK(avx, "avx")
ASK(avx2, "avx2")
ASK(fma, "fma")
ASK(avxvnni, "avxvnni")
ASK(gfni, "gfni")
ASK(f, "avx512f")
ASK(cd, "avx512cd")
ASK(bw, "avx512bw")
ASK(dq, "avx512dq")
ASK(vl, "avx512vl")
ASK(ifma, "avx512ifma")
ASK(vbmi, "avx512vbmi")
ASK(vbmi2, "avx512vbmi2")
ASK(vnni, "avx512vnni")
ASK(bitalg, "avx512bitalg")
ASK(popcnt, "avx512vpopcntdq")
ASK(bf16, "avx512bf16")
ASK(er, "avx512er")
ASK(pf, "avx512pf")
ASK(amx_tile, "amx-tile")
ASK(amx_bf16, "amx-bf16")
ASK(amx_int8, "amx-int8")

/* The words, each with what it hides and the word it implies (a CPU without AVX2 has no
 * AVX-512; one without AVX-512 has no AMX here: the AMX kernels need both). */
#define END NULL
static int (*const amx[])(void) = {ask_amx_tile, ask_amx_bf16, ask_amx_int8, END};
static int (*const avx512_bf16[])(void) = {ask_bf16, END};
static int (*const gfni[])(void) = {ask_gfni, END};
static int (*const avx512[])(void) = {ask_f, ask_cd, ask_bw, ask_dq, ask_vl, ask_ifma, ask_vbmi,
                                      ask_vbmi2, ask_vnni, ask_bitalg, ask_popcnt, ask_bf16,
                                      ask_er, ask_pf, END};
static int (*const avx2[])(void) = {ask_avx2, ask_fma, ask_avxvnni, END};
static int (*const avx[])(void) = {ask_avx, END};
static const struct word {
    const char *name;
    int (*const *hides)(void);
    const char *implies; /* also hidden, or NULL */
} words[] = {
    {"amx", amx, NULL},        {"avx512_bf16", avx512_bf16, NULL}, {"gfni", gfni, NULL},
    {"avx512", avx512, "amx"}, {"avx2", avx2, "avx512"},           {"avx", avx, "avx2"},
};
enum { NWORDS = sizeof words / sizeof words[0] };

/* libgcc's answers: the first 32 features in __cpu_model, the next ones in __cpu_features2 (at
 * least two words of it with every GCC that knows "amx-tile", which this file asks for) */
extern struct {
    unsigned int vendor, type, subtype, features[1];
} __cpu_model;
extern unsigned int __cpu_features2[];


/* Clear the bit that answers ask(): where it is is libgcc's business, so find it by clearing
 * each set bit in turn and asking again. */
static void hide(int (*ask)(void), const char *word)
{
    unsigned int *sets[3] = {&__cpu_model.features[0], &__cpu_features2[0], &__cpu_features2[1]};
    for (int s = 0; s < 3 && ask(); s++)
        for (int b = 0; b < 32 && ask(); b++) {
            const unsigned int bit = 1u << b, was = *sets[s];
            if (!(was & bit))
                continue;
            *sets[s] = was & ~bit;
            if (ask())
                *sets[s] = was;
        }
    if (ask())
        die("cannot hide a feature of this word (this compiler keeps them elsewhere): ", word);
}

static void hide_word(const struct word *w)
{
    for (int i = 0; w->hides[i]; i++)
        hide(w->hides[i], w->name);
    for (int i = 0; w->implies && i < NWORDS; i++)
        if (strcmp(words[i].name, w->implies) == 0)
            hide_word(&words[i]);
}

static const char *class_now(void)
{
    if (ask_f() && ask_bw() && ask_dq() && ask_vl())
        return ask_amx_tile() && ask_amx_bf16() ? "AVX-512 with AMX"
               : ask_bf16()                     ? "AVX-512 with AVX512-BF16"
                                                : "AVX-512";
    return ask_avx2() && ask_fma() ? "AVX2+FMA" : "no SIMD extension";
}
#else
enum { NWORDS = 6 };
static const struct word {
    const char *name;
} words[] = {{"amx"}, {"avx512_bf16"}, {"gfni"}, {"avx512"}, {"avx2"}, {"avx"}};
static void hide_word(const struct word *w) { (void)w; } /* none of them on this architecture */
static const char *class_now(void)
{
#ifdef __aarch64__
    return "ARM";
#else
    return "no SIMD extension";
#endif
}
#endif

/* Before main (and after libgcc's own start-up code, which fills in the answers): read
 * GEMM_HIDE_ISA, refuse a word it does not know, hide what the words name. Priority 101: before
 * the constructors of default priority (baseline_blas.c's choice of OpenBLAS's core asks the
 * class this makes). */
__attribute__((constructor(101))) static void apply_hide_isa(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
#endif
    real_class = seen_class = class_now();
    const char *env = getenv("GEMM_HIDE_ISA");
    if (!env || !*env)
        return;
    char copy[256], *save = NULL;
    snprintf(copy, sizeof copy, "%s", env);
    for (char *w = strtok_r(copy, " ,", &save); w; w = strtok_r(NULL, " ,", &save)) {
        int i = 0;
        while (i < NWORDS && strcmp(words[i].name, w) != 0)
            i++;
        if (i == NWORDS)
            die(w, ": not one of its words (amx, avx512_bf16, gfni, avx512, avx2, avx)");
        hide_word(&words[i]);
        snprintf(hidden_words + strlen(hidden_words), sizeof hidden_words - strlen(hidden_words),
                 "%s%s", *hidden_words ? " " : "", w);
    }
    seen_class = class_now();
}

const char *cpu_class(void) { return seen_class; }

const char *cpu_hidden_words(void) { return *hidden_words ? hidden_words : NULL; }

void cpu_print_hidden(FILE *f)
{
    if (*hidden_words)
        fprintf(f, "%-10s GEMM_HIDE_ISA=\"%s\": class \"%s\" for the dispatch (this CPU: \"%s\")\n",
                "hidden", hidden_words, seen_class, real_class);
}
