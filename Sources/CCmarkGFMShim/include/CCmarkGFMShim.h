#ifndef QUIRE_CCMARKGFMSHIM_H
#define QUIRE_CCMARKGFMSHIM_H

/* What QuireMarkdown needs from cmark-gfm beyond its public API, in two implementations chosen when
   CCmarkGFMShim.c is compiled (its opening comment says how):

   - the fast path, for the one cmark-gfm version it was written against: node fields read straight
     from cmark's structs, paragraphs whose inlines cmark is told not to parse, and a per-thread
     arena allocator for parses up to QUIRE_CMARK_ARENA_LIMIT bytes;
   - the public-API path, for any other version: cmark's exported getters, every inline parsed,
     cmark's default allocator.

   Both give QuireMarkdown the same tree. This header names only public cmark-gfm types; only the
   .c file includes cmark's internal headers, and only on the fast path. */

#include <stddef.h>
#include <stdint.h>
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>

/* 1 when the fast path was compiled, 0 for the public-API path. */
int quire_cmark_fast_path(void);

/* ---- Parsers ------------------------------------------------------------------------------- */

/* Inputs up to this many bytes are parsed in the per-thread arena (fast path only). */
#define QUIRE_CMARK_ARENA_LIMIT 1048576

/* A new parser with cmark options `options` for an input of `length` bytes. On the fast path an
   input of up to QUIRE_CMARK_ARENA_LIMIT bytes is parsed in the calling thread's arena: one such
   parse at a time per thread, ended by quire_parser_dispose on the same thread. */
cmark_parser *quire_parser_new(int options, size_t length);

/* Frees a parser made by quire_parser_new and the document it finished (`document` may be NULL).
   No node of the parse may be used afterwards. */
void quire_parser_dispose(cmark_parser *parser, cmark_node *document);

/* ---- GFM extension node types --------------------------------------------------------------
   libcmark-gfm-extensions exports these as mutable globals that no installed header declares (and
   Swift 6 will not read mutable C globals): their values, known once the extensions are registered. */
uint32_t quire_node_type_table(void);
uint32_t quire_node_type_table_row(void);
uint32_t quire_node_type_table_cell(void);
uint32_t quire_node_type_strikethrough(void);

/* ---- Node fields ------------------------------------------------------------------------- */

/* The fields every visited node needs, read in one call: Swift cannot inline a call into this C
   target, and a call per field would multiply the calls of the hottest loop (docs/BENCHMARKS.md). */
typedef struct quire_node_fields {
  cmark_node *first_child;
  /* The node's cmark_node_type value. */
  uint32_t type;
  /* 1 while the block is open (on the fast path, before cmark_parser_finish), else 0. */
  int open;
  int start_line;
  int start_column;
  int end_line;
  int end_column;
} quire_node_fields;

void quire_node_read(cmark_node *node, quire_node_fields *fields);
/* The node after `node`'s subtree in a pre-order walk of `root`'s tree, its fields read into
   `fields`; NULL at the end of the walk. `*closed` is set to the number of ancestors (`root`
   included) whose subtrees end with `node`'s. */
cmark_node *quire_node_after(cmark_node *node, cmark_node *root, quire_node_fields *fields, int *closed);
cmark_syntax_extension *quire_node_extension(cmark_node *node);
int quire_node_heading_level(cmark_node *node);
/* 1 for an ordered list, 0 otherwise. */
int quire_node_list_is_ordered(cmark_node *node);
int quire_node_list_start(cmark_node *node);
/* 1 for a tight list, 0 otherwise. */
int quire_node_list_tight(cmark_node *node);

/* The byte strings below are not NUL-terminated and live as long as the node; `*length` may be 0.
   The input holds no NUL byte (QuireMarkdown replaces them) and cmark decodes `&#0;` to U+FFFD,
   so a string is the same text on both paths (cmark's own getters stop at the first NUL). */

/* The literal of a text, code span, inline or block HTML, footnote reference or code block (the
   kinds cmark_node_get_literal answers for); NULL with length 0 for other kinds. */
const unsigned char *quire_node_literal(cmark_node *node, size_t *length);
/* A code block's info string. */
const unsigned char *quire_node_fence_info(cmark_node *node, size_t *length);
/* A link's or image's destination and title. */
const unsigned char *quire_node_url(cmark_node *node, size_t *length);
const unsigned char *quire_node_title(cmark_node *node, size_t *length);

/* ---- Paragraphs left without inline parsing (fast path) ------------------------------------
   Between cmark_parser_feed and cmark_parser_finish a caller may mark paragraphs of the block tree
   whose inlines cmark shall not parse (the indexer reads such paragraphs from the source). On the
   public-API path there is no block tree to reach: quire_parser_block_root gives NULL and every
   paragraph is parsed. */

/* The root of the parser's block tree before cmark_parser_finish; NULL on the public-API path.
   quire_node_fields.open tells which of its blocks are still open (the parse may add lines to
   them when finishing). */
cmark_node *quire_parser_block_root(cmark_parser *parser);
/* Makes cmark leave the inlines of a paragraph of the block tree unparsed; returns 1 when done,
   0 when it cannot (public-API path). Safe from any thread. */
int quire_node_leave_inlines_unparsed(cmark_node *paragraph);

#endif
