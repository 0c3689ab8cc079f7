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

/* ---- Direct field access --------------------------------------------------------------------
   The wrapper reads node fields straight from `struct cmark_node` (Debian installs cmark-gfm's
   internal headers) instead of calling one exported getter per field; node.h is the header of the
   installed library, so the layout matches. */
#include <cmark-gfm/node.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline uint16_t quire_node_raw_type(const cmark_node *node) { return node->type; }
static inline int quire_node_start_line(const cmark_node *node) { return node->start_line; }
static inline int quire_node_start_column(const cmark_node *node) { return node->start_column; }
static inline int quire_node_end_line(const cmark_node *node) { return node->end_line; }
static inline int quire_node_end_column(const cmark_node *node) { return node->end_column; }
static inline cmark_node *quire_node_first_child(const cmark_node *node) { return node->first_child; }
static inline cmark_node *quire_node_next(const cmark_node *node) { return node->next; }
static inline cmark_node *quire_node_parent(const cmark_node *node) { return node->parent; }
static inline cmark_syntax_extension *quire_node_extension(const cmark_node *node) { return node->extension; }
static inline int quire_node_heading_level(const cmark_node *node) { return node->as.heading.level; }
static inline int quire_node_list_is_ordered(const cmark_node *node) {
  return node->as.list.list_type == CMARK_ORDERED_LIST;
}
static inline int quire_node_list_start(const cmark_node *node) { return node->as.list.start; }
static inline int quire_node_list_tight(const cmark_node *node) { return node->as.list.tight ? 1 : 0; }

/* The bytes of a chunk (not NUL-terminated; `len` may be 0). */
static inline const unsigned char *quire_node_literal_data(const cmark_node *node) { return node->as.literal.data; }
static inline int quire_node_literal_length(const cmark_node *node) { return node->as.literal.len; }
static inline const unsigned char *quire_node_code_data(const cmark_node *node) { return node->as.code.literal.data; }
static inline int quire_node_code_length(const cmark_node *node) { return node->as.code.literal.len; }
static inline const unsigned char *quire_node_info_data(const cmark_node *node) { return node->as.code.info.data; }
static inline int quire_node_info_length(const cmark_node *node) { return node->as.code.info.len; }
static inline const unsigned char *quire_node_url_data(const cmark_node *node) { return node->as.link.url.data; }
static inline int quire_node_url_length(const cmark_node *node) { return node->as.link.url.len; }
static inline const unsigned char *quire_node_title_data(const cmark_node *node) { return node->as.link.title.data; }
static inline int quire_node_title_length(const cmark_node *node) { return node->as.link.title.len; }

/* ---- Paragraphs left without inline parsing ------------------------------------------------
   cmark parses a block's inlines when `contains_inlines` says so, and it asks a node's syntax
   extension first. A paragraph given this extension (which parses nothing and is attached to no
   parser) after the block parse and before `cmark_parser_finish` keeps its text unparsed: the
   indexer reads such paragraphs from the source. Only the block tree between feed and finish is
   touched, through the parser's root (parser.h is the installed library's own header). */
#include <cmark-gfm/parser.h>

static inline cmark_node *quire_parser_root(const cmark_parser *parser) { return parser->root; }
static inline int quire_node_is_open(const cmark_node *node) { return (node->flags & CMARK_NODE__OPEN) != 0; }
static inline void quire_node_set_extension(cmark_node *node, cmark_syntax_extension *extension) {
  node->extension = extension;
}
static inline int quire_contains_no_inlines(cmark_syntax_extension *extension, cmark_node *node) {
  (void)extension;
  (void)node;
  return 0;
}
/* A new extension whose nodes hold no inlines; made once by the caller and never freed. */
static inline cmark_syntax_extension *quire_make_no_inlines_extension(void) {
  cmark_syntax_extension *extension = cmark_syntax_extension_new("quire-no-inlines");
  cmark_syntax_extension_set_contains_inlines_func(extension, quire_contains_no_inlines);
  return extension;
}

/* ---- Per-thread arena allocator --------------------------------------------------------------
   A parse allocates thousands of small blocks (nodes, chunks, delimiters) and freeing the tree
   walks them all again. With this allocator a parse bumps a pointer through thread-local blocks;
   `free` only gives back the most recent allocation, and `quire_arena_end` releases the whole
   parse at once (cmark_node_free and cmark_parser_free are not called). cmark_mem callbacks carry
   no context, hence the thread-local state. One parse at a time per thread; one block of at most
   QUIRE_ARENA_KEEP_LIMIT bytes stays allocated per thread for its next parse. `static` state in a
   header is one copy per object file: use these functions from one source file only. */
typedef struct quire_arena_block {
  struct quire_arena_block *previous;
  size_t capacity; /* data bytes after this header */
  size_t used;
  size_t last; /* offset of the newest allocation's header, or SIZE_MAX */
} quire_arena_block;

#define QUIRE_ARENA_HEADER ((size_t)16)
#define QUIRE_ARENA_FIRST_BLOCK ((size_t)64 * 1024)
#define QUIRE_ARENA_KEEP_LIMIT ((size_t)1024 * 1024)

static _Thread_local quire_arena_block *quire_arena_current = NULL;

static inline void *quire_arena_alloc(size_t size) {
  if (size > SIZE_MAX / 2) abort();
  size_t need = ((size + 15) & ~(size_t)15) + QUIRE_ARENA_HEADER;
  quire_arena_block *block = quire_arena_current;
  if (block == NULL || block->capacity - block->used < need) {
    size_t capacity = block == NULL ? QUIRE_ARENA_FIRST_BLOCK : block->capacity * 2;
    if (capacity < need) capacity = need;
    quire_arena_block *fresh = (quire_arena_block *)malloc(sizeof(quire_arena_block) + capacity);
    if (fresh == NULL) abort();
    fresh->previous = block;
    fresh->capacity = capacity;
    fresh->used = 0;
    fresh->last = SIZE_MAX;
    quire_arena_current = fresh;
    block = fresh;
  }
  unsigned char *base = (unsigned char *)(block + 1) + block->used;
  *(size_t *)base = size;
  block->last = block->used;
  block->used += need;
  return base + QUIRE_ARENA_HEADER;
}

static inline void *quire_arena_calloc(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / 2 / size) abort();
  void *pointer = quire_arena_alloc(count * size);
  memset(pointer, 0, count * size);
  return pointer;
}

static inline void *quire_arena_realloc(void *pointer, size_t size) {
  if (pointer == NULL) return quire_arena_alloc(size);
  unsigned char *header = (unsigned char *)pointer - QUIRE_ARENA_HEADER;
  size_t old = *(size_t *)header;
  quire_arena_block *block = quire_arena_current;
  if (block != NULL && block->last != SIZE_MAX && header == (unsigned char *)(block + 1) + block->last
      && size <= SIZE_MAX / 2) {
    size_t need = ((size + 15) & ~(size_t)15) + QUIRE_ARENA_HEADER;
    if (block->capacity - block->last >= need) {
      /* The newest allocation grows (or shrinks) in place. */
      *(size_t *)header = size;
      block->used = block->last + need;
      return pointer;
    }
  }
  void *fresh = quire_arena_alloc(size);
  memcpy(fresh, pointer, old < size ? old : size);
  return fresh;
}

static inline void quire_arena_free(void *pointer) {
  if (pointer == NULL) return;
  quire_arena_block *block = quire_arena_current;
  unsigned char *header = (unsigned char *)pointer - QUIRE_ARENA_HEADER;
  if (block != NULL && block->last != SIZE_MAX && header == (unsigned char *)(block + 1) + block->last) {
    block->used = block->last;
    block->last = SIZE_MAX;
  }
}

/* The allocator to pass to cmark_parser_new_with_mem between quire_arena_begin and quire_arena_end. */
static inline cmark_mem quire_arena_mem(void) {
  cmark_mem mem = { quire_arena_calloc, quire_arena_realloc, quire_arena_free };
  return mem;
}

/* Empties the thread's arena. The newest (largest) block is kept for the next parse unless it is
   larger than QUIRE_ARENA_KEEP_LIMIT; all older blocks are freed. */
static inline void quire_arena_reset(void) {
  quire_arena_block *keep = quire_arena_current;
  if (keep == NULL) return;
  quire_arena_block *block = keep->previous;
  while (block != NULL) {
    quire_arena_block *previous = block->previous;
    free(block);
    block = previous;
  }
  if (keep->capacity > QUIRE_ARENA_KEEP_LIMIT) {
    free(keep);
    keep = NULL;
  } else {
    keep->previous = NULL;
    keep->used = 0;
    keep->last = SIZE_MAX;
  }
  quire_arena_current = keep;
}

/* Starts a parse: the thread's arena is empty afterwards. */
static inline void quire_arena_begin(void) { quire_arena_reset(); }

/* Ends a parse: everything allocated since quire_arena_begin is released at once. */
static inline void quire_arena_end(void) { quire_arena_reset(); }

#endif
