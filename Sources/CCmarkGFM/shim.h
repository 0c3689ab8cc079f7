#ifndef QUIRE_CCMARKGFM_SHIM_H
#define QUIRE_CCMARKGFM_SHIM_H

#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>

/* The GFM extension node types are exported by libcmark-gfm-extensions but no
   installed header declares them. Swift 6 refuses to read mutable C globals,
   so expose them through inline accessors. */
extern cmark_node_type CMARK_NODE_TABLE;
extern cmark_node_type CMARK_NODE_TABLE_ROW;
extern cmark_node_type CMARK_NODE_TABLE_CELL;
extern cmark_node_type CMARK_NODE_STRIKETHROUGH;

static inline cmark_node_type quire_node_type_table(void) { return CMARK_NODE_TABLE; }
static inline cmark_node_type quire_node_type_table_row(void) { return CMARK_NODE_TABLE_ROW; }
static inline cmark_node_type quire_node_type_table_cell(void) { return CMARK_NODE_TABLE_CELL; }
static inline cmark_node_type quire_node_type_strikethrough(void) { return CMARK_NODE_STRIKETHROUGH; }

#endif
