/* main.c - gtapcc's command line: translate each CUDA source with `#pragma gtap`, then
 * compile with nvcc (GPU) or g++ (host target). Accepts nvcc options and the clang-style
 * options of the paper's Makefiles.
 */
#include "diag.h"
#include "driver.h"
#include "strbuf.h"
#include "translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GTAPCC_VERSION
#define GTAPCC_VERSION "0.1.0"
#endif

static void usage(FILE *fp)
{
    fputs("usage: gtapcc [options] file.cu... [-o output]\n"
          "Translates CUDA sources with #pragma gtap directives and compiles them with nvcc.\n\n"
          "gtapcc options:\n"
          "  --target=gpu|host       compile for the GPU (nvcc, default) or run on the CPU reference\n"
          "                          executor (g++)\n"
          "  --translate-only        write the translated source (-o FILE, default stdout) and stop\n"
          "  --keep-translated       keep the translated source next to the output (OUTPUT.gtap.cu)\n"
          "  --emit-translated=PATH  also write the translated source to PATH\n"
          "  -fgtap-no-taskwait      the program never waits (defines GTAP_ASSUME_NO_TASKWAIT)\n"
          "  --cuda-path=DIR         CUDA toolkit used for parsing (default $CUDA_HOME or /usr/local/cuda)\n"
          "  --nvcc=PATH, --host-cxx=PATH   compilers to run (default nvcc, g++)\n"
          "  -w / -Werror-gtap       silence gtapcc warnings / make them errors\n"
          "  -v                      print the commands gtapcc runs\n"
          "Every other option goes to nvcc: -O, -arch, -gencode, -D, -U, -I, -c, -o, -g, -G, -lineinfo,\n"
          "-Xptxas, -Xcompiler, -L, -l, -std, --use_fast_math, ... Clang-style options are mapped:\n"
          "-x cuda (ignored), --cuda-gpu-arch=sm_XX (-arch=sm_XX), -Xcuda-ptxas X (-Xptxas X),\n"
          "-Wall/-Wextra/-fopenmp (-Xcompiler ...), -Wl,A,B (-Xlinker A,B: to the host linker).\n"
          "The runtime's headers come before every -I path, so that a -I path holding another\n"
          "GTaP runtime (the paper's Makefiles pass -I$(GT_INC)) does not replace them.\n"
          "Environment: GTAP_HOME (runtime location), NVCC, CUDA_HOME.\n",
          fp);
}

typedef struct cli {
    int host_target, translate_only, keep, verbose, no_taskwait, compile_only;
    const char *output, *emit_path, *cuda_path, *nvcc, *hostcxx;
    argv_list parse_args;   /* -D/-U/-I/-include for libclang */
    argv_list tool_args;    /* options for nvcc (host target filters them) */
    argv_list host_args;    /* options that also make sense for g++ */
    argv_list cu_inputs, other_inputs;
} cli;

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static int is_cuda_source(const char *s)
{
    return ends_with(s, ".cu") || ends_with(s, ".cuh");
}

/* Options taking a separate value in nvcc (`-o x`, `-Xptxas x`, ...). */
static int takes_value(const char *a)
{
    static const char *k[] = {"-o", "-Xptxas", "-Xcompiler", "-Xlinker", "-Xnvlink", "-gencode", "-arch",
                              "-code", "-maxrregcount", "-ccbin", "-I", "-D", "-U", "-L", "-l", "-include",
                              "-isystem", "-x", "--output-file", "-t", "--threads", "-rdc", "-MF", "-MT",
                              "-Xarchive", "-odir", NULL};
    for (int i = 0; k[i]; i++)
        if (!strcmp(a, k[i]))
            return 1;
    return 0;
}

static int parse_cli(cli *c, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--version")) {
            printf("gtapcc %s (libclang, generated-code interface 1)\n", GTAPCC_VERSION);
            exit(0);
        } else if (!strncmp(a, "--target=", 9)) {
            if (!strcmp(a + 9, "host"))
                c->host_target = 1;
            else if (!strcmp(a + 9, "gpu") || !strcmp(a + 9, "cuda"))
                c->host_target = 0;
            else {
                diag_at(DIAG_ERROR, NULL, 0, "unknown target '%s' (use gpu or host)", a + 9);
                return -1;
            }
        } else if (!strcmp(a, "--translate-only")) {
            c->translate_only = 1;
        } else if (!strcmp(a, "--keep-translated")) {
            c->keep = 1;
        } else if (!strncmp(a, "--emit-translated=", 18)) {
            c->emit_path = a + 18;
        } else if (!strcmp(a, "-fgtap-no-taskwait")) {
            c->no_taskwait = 1;
        } else if (!strncmp(a, "--cuda-path=", 12)) {
            c->cuda_path = a + 12;
        } else if (!strncmp(a, "--nvcc=", 7)) {
            c->nvcc = a + 7;
        } else if (!strncmp(a, "--host-cxx=", 11)) {
            c->hostcxx = a + 11;
        } else if (!strcmp(a, "-v")) {
            c->verbose = 1;
        } else if (!strcmp(a, "-w")) {
            diag_set_warnings(0, 0);
        } else if (!strcmp(a, "-Werror-gtap")) {
            diag_set_warnings(1, 1);
        } else if (!strcmp(a, "-x")) {
            i++; /* `-x cuda`: the sources are CUDA anyway */
        } else if (!strncmp(a, "--cuda-gpu-arch=", 16)) {
            strbuf sb = {0};
            sb_printf(&sb, "-arch=%s", a + 16);
            argv_push(&c->tool_args, sb.data);
            sb_free(&sb);
        } else if (!strcmp(a, "-Xcuda-ptxas") && next) {
            argv_push(&c->tool_args, "-Xptxas");
            argv_push(&c->tool_args, next);
            i++;
        } else if (!strcmp(a, "-Wall") || !strcmp(a, "-Wextra") || !strcmp(a, "-fopenmp") ||
                   !strcmp(a, "-pthread")) {
            argv_push(&c->tool_args, "-Xcompiler");
            argv_push(&c->tool_args, a);
            argv_push(&c->host_args, a);
        } else if (!strncmp(a, "-Wl,", 4)) {
            /* the host linker's options: nvcc takes them as -Xlinker (a comma list), g++ as is */
            argv_push(&c->tool_args, "-Xlinker");
            argv_push(&c->tool_args, a + 4);
            argv_push(&c->host_args, a);
        } else if (!strcmp(a, "-o") && next) {
            c->output = next;
            i++;
        } else if (!strcmp(a, "-c")) {
            c->compile_only = 1;
        } else if ((!strncmp(a, "-D", 2) || !strncmp(a, "-U", 2) || !strncmp(a, "-I", 2) ||
                    !strcmp(a, "-include") || !strcmp(a, "-isystem"))) {
            int sep = !strcmp(a, "-D") || !strcmp(a, "-U") || !strcmp(a, "-I") || !strcmp(a, "-include") ||
                      !strcmp(a, "-isystem");
            if (sep && !next) {
                diag_at(DIAG_ERROR, NULL, 0, "missing argument to '%s'", a);
                return -1;
            }
            argv_push(&c->parse_args, a);
            argv_push(&c->tool_args, a);
            argv_push(&c->host_args, a);
            if (sep) {
                argv_push(&c->parse_args, next);
                argv_push(&c->tool_args, next);
                argv_push(&c->host_args, next);
                i++;
            }
        } else if (!strncmp(a, "-O", 2) || !strcmp(a, "-g") || !strncmp(a, "-std=", 5)) {
            if (strncmp(a, "-std=", 5) != 0) { /* gtapcc always compiles C++20 */
                argv_push(&c->tool_args, a);
                argv_push(&c->host_args, a);
            }
        } else if (a[0] == '-' && a[1]) {
            if (!strncmp(a, "-L", 2) || !strncmp(a, "-l", 2)) {
                /* -lcudart has no host-target meaning; other libraries may */
                if (strcmp(a, "-lcudart") != 0 && strncmp(a, "-L", 2) != 0)
                    argv_push(&c->host_args, a);
                else if (!strncmp(a, "-L", 2))
                    argv_push(&c->host_args, a);
            }
            argv_push(&c->tool_args, a);
            if (takes_value(a) && next) {
                argv_push(&c->tool_args, next);
                if (!strcmp(a, "-l") || !strcmp(a, "-L"))
                    argv_push(&c->host_args, a), argv_push(&c->host_args, next);
                i++;
            }
        } else if (is_cuda_source(a)) {
            argv_push(&c->cu_inputs, a);
        } else {
            argv_push(&c->other_inputs, a);
        }
    }
    if (!c->cu_inputs.n && !c->other_inputs.n) {
        diag_at(DIAG_ERROR, NULL, 0, "no input files (try --help)");
        return -1;
    }
    return 0;
}

static char *dirname_of(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? xstrndup(p, (size_t)(s - p) ? (size_t)(s - p) : 1) : xstrdup(".");
}

/* -I<directory of each .cu input>, so that the translated copies find the inputs' headers. */
static void push_input_dirs(argv_list *cmd, const argv_list *inputs)
{
    for (unsigned i = 0; i < inputs->n; i++) {
        char *d = dirname_of(inputs->v[i]);
        argv_pushf(cmd, "-I%s", d);
        free(d);
    }
}


static char *basename_noext(const char *p)
{
    const char *s = strrchr(p, '/');
    s = s ? s + 1 : p;
    const char *dot = strrchr(s, '.');
    return dot ? xstrndup(s, (size_t)(dot - s)) : xstrdup(s);
}

static int file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

int main(int argc, char **argv)
{
    cli c;
    memset(&c, 0, sizeof c);
    if (parse_cli(&c, argc, argv) != 0)
        return 1;
    gtap_paths paths;
    paths_resolve(&paths);
    /* The CUDA used for parsing: --cuda-path, $CUDA_HOME, /usr/local/cuda, the first that has
     * headers (paper Makefiles pass --cuda-path of the machine they were written on). */
    const char *cands[3] = {c.cuda_path, getenv("CUDA_HOME"), "/usr/local/cuda"};
    const char *cuda = "/usr/local/cuda";
    for (int i = 0; i < 3; i++) {
        if (!cands[i] || !*cands[i])
            continue;
        strbuf h = {0};
        sb_printf(&h, "%s/include/cuda_runtime.h", cands[i]);
        int ok = file_exists(h.data);
        sb_free(&h);
        if (ok) {
            cuda = cands[i];
            break;
        }
    }
    translate_opts to;
    memset(&to, 0, sizeof to);
    to.host_target = c.host_target;
    to.parse.user_args = (const char **)c.parse_args.v;
    to.parse.num_user_args = c.parse_args.n;
    to.parse.cuda_path = cuda;
    to.parse.runtime_include = paths.runtime_include;
    to.parse.no_taskwait = c.no_taskwait;
    to.parse.verbose = c.verbose;

    int rc = 1;
    char *tmpdir = NULL;
    argv_list translated = {0};
    if (c.translate_only) {
        if (c.cu_inputs.n != 1) {
            diag_at(DIAG_ERROR, NULL, 0, "--translate-only takes exactly one .cu input");
            goto out;
        }
        char *text = NULL;
        if (translate_file(c.cu_inputs.v[0], &to, &text, NULL) != 0)
            goto out;
        if (c.output && strcmp(c.output, "-") != 0) {
            rc = write_file_atomic(c.output, text) == 0 ? 0 : 1;
        } else {
            fputs(text, stdout);
            rc = fflush(stdout) == 0 ? 0 : 1;
        }
        if (rc == 0 && c.emit_path)
            rc = write_file_atomic(c.emit_path, text) == 0 ? 0 : 1;
        free(text);
        goto out;
    }
    if (c.compile_only && c.output && c.cu_inputs.n + c.other_inputs.n > 1) {
        diag_at(DIAG_ERROR, NULL, 0, "-c with -o takes one input file");
        goto out;
    }
    tmpdir = make_temp_dir();
    if (!tmpdir)
        goto out;
    /* 1. translate every CUDA source */
    for (unsigned i = 0; i < c.cu_inputs.n; i++) {
        char *text = NULL;
        translate_info info;
        if (translate_file(c.cu_inputs.v[i], &to, &text, &info) != 0)
            goto out;
        char *base = basename_noext(c.cu_inputs.v[i]);
        strbuf p = {0};
        sb_printf(&p, "%s/%s.gtap.%s", tmpdir, base, c.host_target ? "cpp" : "cu");
        free(base);
        int w = write_file_atomic(p.data, text);
        if (w == 0 && c.emit_path && c.cu_inputs.n == 1)
            w = write_file_atomic(c.emit_path, text);
        if (w == 0 && c.keep) {
            strbuf k = {0};
            char *b2 = basename_noext(c.cu_inputs.v[i]);
            sb_printf(&k, "%s.gtap.cu", c.output && c.cu_inputs.n == 1 ? c.output : b2);
            free(b2);
            w = write_file_atomic(k.data, text);
            if (w == 0)
                fprintf(stderr, "gtapcc: kept the translated source in %s\n", k.data);
            sb_free(&k);
        }
        free(text);
        if (w != 0) {
            sb_free(&p);
            goto out;
        }
        argv_push(&translated, p.data);
        sb_free(&p);
    }
    /* 2. compile */
    argv_list cmd = {0};
    if (c.host_target) {
        const char *cxx = c.hostcxx ? c.hostcxx : "g++";
        argv_push(&cmd, cxx);
        argv_push(&cmd, "-std=c++20");
        argv_push(&cmd, "-DGTAP_TARGET_HOST=1");
        if (c.no_taskwait)
            argv_push(&cmd, "-DGTAP_ASSUME_NO_TASKWAIT=1");
        /* the runtime's headers first (see usage: another runtime on a -I path must not win) */
        argv_pushf(&cmd, "-I%s", paths.host_target);
        argv_pushf(&cmd, "-I%s", paths.runtime_include);
        push_input_dirs(&cmd, &c.cu_inputs);
        for (unsigned i = 0; i < c.host_args.n; i++)
            argv_push(&cmd, c.host_args.v[i]);
        argv_push(&cmd, "-x");
        argv_push(&cmd, "c++");
        for (unsigned i = 0; i < translated.n; i++)
            argv_push(&cmd, translated.v[i]);
        argv_push(&cmd, "-x");
        argv_push(&cmd, "none");
    } else {
        const char *nvcc = c.nvcc ? c.nvcc : getenv("NVCC");
        strbuf nv = {0};
        if (!nvcc || !*nvcc) {
            sb_printf(&nv, "%s/bin/nvcc", cuda);
            nvcc = file_exists(nv.data) ? nv.data : "nvcc";
        }
        argv_push(&cmd, nvcc);
        sb_free(&nv);
        argv_push(&cmd, "-std=c++20");
        int has_arch = 0;
        for (unsigned i = 0; i < c.tool_args.n; i++)
            if (!strncmp(c.tool_args.v[i], "-arch", 5) || !strncmp(c.tool_args.v[i], "-gencode", 8) ||
                !strncmp(c.tool_args.v[i], "--gpu-architecture", 18) ||
                !strncmp(c.tool_args.v[i], "--generate-code", 15))
                has_arch = 1;
        if (!has_arch)
            argv_push(&cmd, "-arch=sm_90");
        if (c.no_taskwait)
            argv_push(&cmd, "-DGTAP_ASSUME_NO_TASKWAIT=1");
        argv_pushf(&cmd, "-I%s", paths.runtime_include); /* first, as above */
        push_input_dirs(&cmd, &c.cu_inputs);
        for (unsigned i = 0; i < c.tool_args.n; i++)
            argv_push(&cmd, c.tool_args.v[i]);
        for (unsigned i = 0; i < translated.n; i++)
            argv_push(&cmd, translated.v[i]);
    }
    for (unsigned i = 0; i < c.other_inputs.n; i++)
        argv_push(&cmd, c.other_inputs.v[i]);
    if (c.compile_only)
        argv_push(&cmd, "-c");
    argv_push(&cmd, "-o");
    if (c.output) {
        argv_push(&cmd, c.output);
    } else if (c.compile_only) {
        char *b = basename_noext(c.cu_inputs.n ? c.cu_inputs.v[0] : c.other_inputs.v[0]);
        strbuf o = {0};
        sb_printf(&o, "%s.o", b);
        argv_push(&cmd, o.data);
        sb_free(&o);
        free(b);
    } else {
        argv_push(&cmd, "a.out");
    }
    if (!c.compile_only && !c.host_target) {
        strbuf lib = {0};
        sb_printf(&lib, "%s/libgtap_host.a", paths.lib_dir);
        if (file_exists(lib.data)) {
            sb_free(&lib);
            sb_printf(&lib, "-L%s", paths.lib_dir);
            argv_push(&cmd, lib.data);
            argv_push(&cmd, "-lgtap_host");
        } else if (c.verbose) {
            fprintf(stderr, "gtapcc: note: %s not found; linking without it\n", lib.data);
        }
        sb_free(&lib);
    }
    rc = run_command(&cmd, c.verbose) == 0 ? 0 : 1;
    argv_free(&cmd);
out:
    if (tmpdir) {
        remove_temp_dir(tmpdir);
        free(tmpdir);
    }
    argv_free(&translated);
    argv_free(&c.parse_args);
    argv_free(&c.tool_args);
    argv_free(&c.host_args);
    argv_free(&c.cu_inputs);
    argv_free(&c.other_inputs);
    paths_free(&paths);
    return rc;
}
