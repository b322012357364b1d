/*
 * private_image.h: loading one private copy of the running program per rank, so that every
 * rank has its own globals and statics (docs/design.md "Private images").
 */
#ifndef MMPI_RUNTIME_PRIVATE_IMAGE_H
#define MMPI_RUNTIME_PRIVATE_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

typedef int (*mmpi_main_fn)(int, char **, char **);

/* Loads n private images of /proc/self/exe and stores each one's main in mains[0..n-1].
 * On failure prints one line saying why and returns false. */
bool mmpi_private_images_load(int n, mmpi_main_fn *mains);
/* The same for the program file `path` (an executable linked by mpicc). Messages name ranks
 * label..label+n-1. handles (may be NULL) receives each image's dlopen handle (NULL where none
 * was loaded), for dlclose when the images are not used after all. */
bool mmpi_private_images_load_file(const char *path, int n, int label, mmpi_main_fn *mains,
                                   void **handles);

#endif
