#ifndef QUIRE_CCMARKGFM_SHIM_H
#define QUIRE_CCMARKGFM_SHIM_H

/* cmark-gfm's public headers, nothing else. What the wrapper needs beyond them (the GFM extension
   node types no installed header declares, readers of node fields, the fast path that reads
   cmark's internal structs) is the C target CCmarkGFMShim. */
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>

#endif
