#ifndef QUIRE_CMALLOC_SHIM_H
#define QUIRE_CMALLOC_SHIM_H
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/* Sets glibc's heap growth padding and trim threshold, in bytes; does nothing with another C
   library. */
static inline void quire_tune_allocator(int top_pad, int trim_threshold) {
#if defined(__GLIBC__)
    mallopt(M_TOP_PAD, top_pad);
    mallopt(M_TRIM_THRESHOLD, trim_threshold);
#else
    (void)top_pad;
    (void)trim_threshold;
#endif
}
#endif
