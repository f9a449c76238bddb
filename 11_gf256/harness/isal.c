/* isal.c: ISA-L at run time (isal.h). Its two functions, as erasure_code.h declares them. */
#include "isal.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*init_tables)(int k, int rows, unsigned char *a, unsigned char *tables);
static void (*encode_data)(int len, int k, int rows, unsigned char *tables, unsigned char **data,
                           unsigned char **coding);
static char name[PATH_MAX + 64];

static void *open_from(const char *dir)
{
    static const char *const names[] = {"libisal.so.2", "libisal.so", NULL};
    for (const char *const *n = names; *n; n++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s%s%s", dir, *dir ? "/" : "", *n);
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h)
            return h;
    }
    return NULL;
}

int isal_load(const char **why)
{
    if (init_tables && encode_data)
        return 0;
    const char *home = getenv("ISAL_HOME");
    void *h = NULL;
    if (home && *home) {
        char lib[PATH_MAX];
        snprintf(lib, sizeof lib, "%.*s/lib", PATH_MAX - 8, home);
        if (!(h = open_from(lib)) && !(h = open_from(home))) {
            *why = "ISA-L: no libisal.so.2 in $ISAL_HOME/lib or $ISAL_HOME";
            return -1;
        }
    } else if (!(h = open_from(""))) {
        *why = "ISA-L not found (make deps-isal installs it: Debian's libisal2; or set ISAL_HOME)";
        return -1;
    }
    init_tables = (__typeof__(init_tables))dlsym(h, "ec_init_tables");
    encode_data = (__typeof__(encode_data))dlsym(h, "ec_encode_data");
    if (!init_tables || !encode_data) {
        *why = "this libisal lacks ec_init_tables or ec_encode_data";
        init_tables = NULL, encode_data = NULL;
        return -1;
    }
    struct link_map *map = NULL;
    char real[PATH_MAX] = "";
    if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && realpath(map->l_name, real)) {
        const char *base = strrchr(real, '/');
        snprintf(name, sizeof name, "%.40s (%s)", base ? base + 1 : real, real);
    } else {
        snprintf(name, sizeof name, "libisal");
    }
    return 0;
}

const char *isal_name(void) { return name; }

void isal_init_tables(int k, int rows, unsigned char *a, unsigned char *tables)
{
    init_tables(k, rows, a, tables);
}

void isal_encode_data(int len, int k, int rows, unsigned char *tables, unsigned char **data,
                      unsigned char **coding)
{
    encode_data(len, k, rows, tables, data, coding);
}
