/*
 * getopt.c: GNU getopt as a function of an explicit state (util/getopt.h). The behaviour,
 * messages and corner cases follow glibc's posix/getopt.c call for call, so that a program
 * sees exactly what it sees in a process of its own: the same return values, optind, optarg,
 * optopt, *longind, the same permutation of argv, and the same lines on stderr (translated
 * through the "libc" message catalogue, as glibc does). tests/unit/test_getopt.c checks it
 * against glibc's own getopt on a table of command lines.
 *
 * Theory of operation (glibc's): argv is scanned left to right. In PERMUTE order, non-options
 * are skipped and remembered as the range [first_nonopt, last_nonopt); when options follow
 * them, exchange() rotates the options in front, so that at the end all non-options sit at
 * the tail and optind points at the first of them. "--" ends the options. A cluster "-abc" is
 * walked with nextchar; optind moves past an element when its last character is consumed.
 */
#include "util/getopt.h"

#include <libintl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REQUIRE_ORDER, PERMUTE, RETURN_IN_ORDER };

#define MSG(s) dgettext("libc", s)

/* Rotates the block of skipped non-options [first_nonopt, last_nonopt) and the block of
 * options just processed [last_nonopt, optind) so that the options come first. */
static void exchange(char **argv, struct mmpi_getopt_state *d)
{
    int bottom = d->first_nonopt, middle = d->last_nonopt, top = d->optind;
    char *tem;

    while (top > middle && middle > bottom) {
        if (top - middle > middle - bottom) {
            int len = middle - bottom; /* the bottom segment is the short one */
            for (int i = 0; i < len; i++) {
                tem = argv[bottom + i];
                argv[bottom + i] = argv[top - (middle - bottom) + i];
                argv[top - (middle - bottom) + i] = tem;
            }
            top -= len;
        } else {
            int len = top - middle; /* the top segment is the short one */
            for (int i = 0; i < len; i++) {
                tem = argv[bottom + i];
                argv[bottom + i] = argv[middle + i];
                argv[middle + i] = tem;
            }
            bottom += len;
        }
    }
    d->first_nonopt += d->optind - d->last_nonopt;
    d->last_nonopt = d->optind;
}

/* d->nextchar points at a long option's name (after "--", "-" or "-W "). */
static int process_long_option(int argc, char **argv, const char *optstring,
                               const struct option *longopts, int *longind, int long_only,
                               struct mmpi_getopt_state *d, int print_errors, const char *prefix)
{
    char *nameend;
    size_t namelen;
    const struct option *p, *pfound = NULL;
    int n_options, option_index = 0;

    for (nameend = d->nextchar; *nameend && *nameend != '='; nameend++)
        ;
    namelen = (size_t)(nameend - d->nextchar);

    /* An exact match first, counting the options as a side effect. */
    for (p = longopts, n_options = 0; p->name; p++, n_options++)
        if (!strncmp(p->name, d->nextchar, namelen) && namelen == strlen(p->name)) {
            pfound = p;
            option_index = n_options;
            break;
        }

    if (pfound == NULL) {
        /* Abbreviations: ambiguous when two prefixes differ in what they do. */
        unsigned char *ambig_set = NULL;
        int ambig_fallback = 0, indfound = -1;

        for (p = longopts, option_index = 0; p->name; p++, option_index++)
            if (!strncmp(p->name, d->nextchar, namelen)) {
                if (pfound == NULL) {
                    pfound = p;
                    indfound = option_index;
                } else if (long_only || pfound->has_arg != p->has_arg ||
                           pfound->flag != p->flag || pfound->val != p->val) {
                    if (!ambig_fallback) {
                        if (!print_errors)
                            ambig_fallback = 1; /* the set is only printed */
                        else if (!ambig_set) {
                            ambig_set = calloc((size_t)n_options, 1);
                            if (!ambig_set)
                                ambig_fallback = 1;
                            else
                                ambig_set[indfound] = 1;
                        }
                        if (ambig_set)
                            ambig_set[option_index] = 1;
                    }
                }
            }

        if (ambig_set || ambig_fallback) {
            if (print_errors) {
                if (ambig_fallback) {
                    fprintf(stderr, MSG("%s: option '%s%s' is ambiguous\n"), argv[0], prefix,
                            d->nextchar);
                } else {
                    flockfile(stderr);
                    fprintf(stderr, MSG("%s: option '%s%s' is ambiguous; possibilities:"),
                            argv[0], prefix, d->nextchar);
                    for (option_index = 0; option_index < n_options; option_index++)
                        if (ambig_set[option_index])
                            fprintf(stderr, " '%s%s'", prefix, longopts[option_index].name);
                    fprintf(stderr, "\n");
                    funlockfile(stderr);
                }
            }
            free(ambig_set);
            d->nextchar += strlen(d->nextchar);
            d->optind++;
            d->optopt = 0;
            return '?';
        }
        option_index = indfound;
    }

    if (pfound == NULL) {
        /* Not a long option: an error, unless getopt_long_only may read it as short ones. */
        if (!long_only || argv[d->optind][1] == '-' || strchr(optstring, *d->nextchar) == NULL) {
            if (print_errors)
                fprintf(stderr, MSG("%s: unrecognized option '%s%s'\n"), argv[0], prefix,
                        d->nextchar);
            d->nextchar = NULL;
            d->optind++;
            d->optopt = 0;
            return '?';
        }
        return -1;
    }

    d->optind++;
    d->nextchar = NULL;
    if (*nameend) {
        if (pfound->has_arg) {
            d->optarg = nameend + 1;
        } else {
            if (print_errors)
                fprintf(stderr, MSG("%s: option '%s%s' doesn't allow an argument\n"), argv[0],
                        prefix, pfound->name);
            d->optopt = pfound->val;
            return '?';
        }
    } else if (pfound->has_arg == 1) {
        if (d->optind < argc) {
            d->optarg = argv[d->optind++];
        } else {
            if (print_errors)
                fprintf(stderr, MSG("%s: option '%s%s' requires an argument\n"), argv[0],
                        prefix, pfound->name);
            d->optopt = pfound->val;
            return optstring[0] == ':' ? ':' : '?';
        }
    }
    if (longind != NULL)
        *longind = option_index;
    if (pfound->flag) {
        *(pfound->flag) = pfound->val;
        return 0;
    }
    return pfound->val;
}

static const char *initialize(const char *optstring, struct mmpi_getopt_state *d,
                              int posixly_correct)
{
    if (d->optind == 0)
        d->optind = 1; /* argv[0] is the program's name */
    d->first_nonopt = d->last_nonopt = d->optind;
    d->nextchar = NULL;
    if (optstring[0] == '-') {
        d->ordering = RETURN_IN_ORDER;
        ++optstring;
    } else if (optstring[0] == '+') {
        d->ordering = REQUIRE_ORDER;
        ++optstring;
    } else if (posixly_correct || getenv("POSIXLY_CORRECT")) {
        d->ordering = REQUIRE_ORDER;
    } else {
        d->ordering = PERMUTE;
    }
    d->initialized = 1;
    return optstring;
}

int mmpi_getopt_r(struct mmpi_getopt_state *d, int argc, char *const *argv_const,
                  const char *optstring, const struct option *longopts, int *longind,
                  int long_only, int posixly_correct)
{
    /* GNU getopt permutes argv in place despite the prototype's const. */
    char **argv = (char **)argv_const;
    int print_errors = d->opterr;

    if (argc < 1)
        return -1;
    d->optarg = NULL;
    if (d->optind == 0 || !d->initialized)
        optstring = initialize(optstring, d, posixly_correct);
    else if (optstring[0] == '-' || optstring[0] == '+')
        optstring++;
    if (optstring[0] == ':')
        print_errors = 0;

#define NONOPTION_P (argv[d->optind][0] != '-' || argv[d->optind][1] == '\0')

    if (d->nextchar == NULL || *d->nextchar == '\0') {
        /* Advance to the next element. The program may have moved optind back. */
        if (d->last_nonopt > d->optind)
            d->last_nonopt = d->optind;
        if (d->first_nonopt > d->optind)
            d->first_nonopt = d->optind;

        if (d->ordering == PERMUTE) {
            if (d->first_nonopt != d->last_nonopt && d->last_nonopt != d->optind)
                exchange(argv, d);
            else if (d->last_nonopt != d->optind)
                d->first_nonopt = d->optind;
            while (d->optind < argc && NONOPTION_P)
                d->optind++;
            d->last_nonopt = d->optind;
        }

        /* "--" ends the options: skip it, then treat everything after as non-options. */
        if (d->optind != argc && !strcmp(argv[d->optind], "--")) {
            d->optind++;
            if (d->first_nonopt != d->last_nonopt && d->last_nonopt != d->optind)
                exchange(argv, d);
            else if (d->first_nonopt == d->last_nonopt)
                d->first_nonopt = d->optind;
            d->last_nonopt = argc;
            d->optind = argc;
        }

        if (d->optind == argc) {
            /* Done: point at the non-options skipped and permuted to the tail. */
            if (d->first_nonopt != d->last_nonopt)
                d->optind = d->first_nonopt;
            return -1;
        }

        if (NONOPTION_P) {
            if (d->ordering == REQUIRE_ORDER)
                return -1;
            d->optarg = argv[d->optind++];
            return 1;
        }

        if (longopts) {
            if (argv[d->optind][1] == '-') {
                d->nextchar = argv[d->optind] + 2;
                return process_long_option(argc, argv, optstring, longopts, longind, long_only,
                                           d, print_errors, "--");
            }
            /* With long_only, "-f" where f is a short option stays the short option; "-fu"
             * may abbreviate a long one. */
            if (long_only && (argv[d->optind][2] || !strchr(optstring, argv[d->optind][1]))) {
                d->nextchar = argv[d->optind] + 1;
                int code = process_long_option(argc, argv, optstring, longopts, longind,
                                               long_only, d, print_errors, "-");
                if (code != -1)
                    return code;
            }
        }
        d->nextchar = argv[d->optind] + 1;
    }

    /* The next short option of the current element. */
    char c = *d->nextchar++;
    const char *temp = strchr(optstring, c);

    if (*d->nextchar == '\0')
        ++d->optind; /* its last character: move past the element */

    if (temp == NULL || c == ':' || c == ';') {
        if (print_errors)
            fprintf(stderr, MSG("%s: invalid option -- '%c'\n"), argv[0], c);
        d->optopt = c;
        return '?';
    }

    /* "W;" in optstring: "-W foo" means "--foo". */
    if (temp[0] == 'W' && temp[1] == ';' && longopts != NULL) {
        /* nextchar is the name when attached ("-Wfoo"), else the next element is; either
         * way the long option's processing moves optind past the element holding it. */
        if (*d->nextchar == '\0') {
            if (d->optind == argc) {
                if (print_errors)
                    fprintf(stderr, MSG("%s: option requires an argument -- '%c'\n"), argv[0],
                            c);
                d->optopt = c;
                return optstring[0] == ':' ? ':' : '?';
            }
            d->nextchar = argv[d->optind];
        }
        return process_long_option(argc, argv, optstring, longopts, longind, 0, d,
                                   print_errors, "-W ");
    }

    if (temp[1] == ':') {
        if (temp[2] == ':') {
            /* An optional argument: only attached ("-ofoo"). */
            if (*d->nextchar != '\0') {
                d->optarg = d->nextchar;
                d->optind++;
            } else {
                d->optarg = NULL;
            }
            d->nextchar = NULL;
        } else {
            if (*d->nextchar != '\0') {
                d->optarg = d->nextchar;
                d->optind++;
            } else if (d->optind == argc) {
                if (print_errors)
                    fprintf(stderr, MSG("%s: option requires an argument -- '%c'\n"), argv[0],
                            c);
                d->optopt = c;
                c = optstring[0] == ':' ? ':' : '?';
            } else {
                d->optarg = argv[d->optind++];
            }
            d->nextchar = NULL;
        }
    }
    return c;
#undef NONOPTION_P
}
