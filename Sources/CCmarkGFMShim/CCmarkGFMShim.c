/* The two implementations of CCmarkGFMShim.h.

   The fast path reads cmark-gfm's internal structs (node.h, parser.h, which Debian installs with
   the library), so it is right for exactly the version it was written against. It is compiled
   only when
   - the installed cmark-gfm.h reports that version (CMARK_GFM_VERSION, whose string form is
     CMARK_GFM_VERSION_STRING, "0.29.0.gfm.6"),
   - the internal headers are installed, and
   - QUIRE_CMARK_PUBLIC_API is not defined.
   Otherwise every function below is written with cmark-gfm's public API. The version of the
   library that runs is the one of the headers: Debian's libcmark-gfm carries its whole version in
   its soname (libcmark-gfm.so.0.29.0.gfm.6), so a binary never loads another one.

   QUIRE_CMARK_PUBLIC_API forces the public-API path, to test it where the fast path would be
   chosen (Package.swift defines it when the environment variable of that name is set). */

#include "CCmarkGFMShim.h"

#include <string.h>

/* The version the fast path was written against: cmark-gfm 0.29.0.gfm.6. */
#define QUIRE_CMARK_FAST_PATH_VERSION ((0 << 24) | (29 << 16) | (0 << 8) | 6)

#if defined(QUIRE_CMARK_PUBLIC_API)
#define QUIRE_CMARK_FAST 0
#elif defined(CMARK_GFM_VERSION) && CMARK_GFM_VERSION == QUIRE_CMARK_FAST_PATH_VERSION \
    && defined(__has_include)
#if __has_include(<cmark-gfm/node.h>) && __has_include(<cmark-gfm/parser.h>)
#define QUIRE_CMARK_FAST 1
#else
#define QUIRE_CMARK_FAST 0
#endif
#else
#define QUIRE_CMARK_FAST 0
#endif

/* The GFM extension node types: exported by libcmark-gfm-extensions, declared by no installed
   header. */
extern cmark_node_type CMARK_NODE_TABLE;
extern cmark_node_type CMARK_NODE_TABLE_ROW;
extern cmark_node_type CMARK_NODE_TABLE_CELL;
extern cmark_node_type CMARK_NODE_STRIKETHROUGH;

uint32_t quire_node_type_table(void) { return (uint32_t)CMARK_NODE_TABLE; }
uint32_t quire_node_type_table_row(void) { return (uint32_t)CMARK_NODE_TABLE_ROW; }
uint32_t quire_node_type_table_cell(void) { return (uint32_t)CMARK_NODE_TABLE_CELL; }
uint32_t quire_node_type_strikethrough(void) { return (uint32_t)CMARK_NODE_STRIKETHROUGH; }

int quire_cmark_fast_path(void) { return QUIRE_CMARK_FAST; }

#if QUIRE_CMARK_FAST

/* ==== Fast path ============================================================================== */

#include <cmark-gfm/node.h>
#include <cmark-gfm/parser.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* ---- Per-thread arena allocator --------------------------------------------------------------
   A parse allocates thousands of small blocks (nodes, chunks, delimiters) and freeing the tree
   walks them all again. With this allocator a parse bumps a pointer through thread-local blocks;
   `free` only gives back the most recent allocation, and quire_parser_dispose releases the whole
   parse at once (cmark_node_free and cmark_parser_free are not called). cmark_mem callbacks carry
   no context, hence the thread-local state. One block of at most QUIRE_ARENA_KEEP_LIMIT bytes
   stays allocated per thread for its next parse. */
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

static void *quire_arena_alloc(size_t size) {
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

static void *quire_arena_calloc(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / 2 / size) abort();
  void *pointer = quire_arena_alloc(count * size);
  memset(pointer, 0, count * size);
  return pointer;
}

static void *quire_arena_realloc(void *pointer, size_t size) {
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

static void quire_arena_free(void *pointer) {
  if (pointer == NULL) return;
  quire_arena_block *block = quire_arena_current;
  unsigned char *header = (unsigned char *)pointer - QUIRE_ARENA_HEADER;
  if (block != NULL && block->last != SIZE_MAX && header == (unsigned char *)(block + 1) + block->last) {
    block->used = block->last;
    block->last = SIZE_MAX;
  }
}

/* The allocator of arena parses; its address tells quire_parser_dispose how a parser was made. */
static cmark_mem quire_arena_mem = { quire_arena_calloc, quire_arena_realloc, quire_arena_free };

/* Empties the thread's arena. The newest (largest) block is kept for the next parse unless it is
   larger than QUIRE_ARENA_KEEP_LIMIT; all older blocks are freed. */
static void quire_arena_reset(void) {
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

cmark_parser *quire_parser_new(int options, size_t length) {
  if (length > QUIRE_CMARK_ARENA_LIMIT) return cmark_parser_new(options);
  quire_arena_reset();
  return cmark_parser_new_with_mem(options, &quire_arena_mem);
}

void quire_parser_dispose(cmark_parser *parser, cmark_node *document) {
  if (parser != NULL && parser->mem == &quire_arena_mem) {
    quire_arena_reset();
    return;
  }
  if (document != NULL) cmark_node_free(document);
  if (parser != NULL) cmark_parser_free(parser);
}

/* ---- Node fields, read from struct cmark_node ------------------------------------------------ */

static inline cmark_node *quire_next(cmark_node *node) { return node->next; }
static inline cmark_node *quire_parent(cmark_node *node) { return node->parent; }

void quire_node_read(cmark_node *node, quire_node_fields *fields) {
  fields->first_child = node->first_child;
  fields->type = node->type;
  fields->open = (node->flags & CMARK_NODE__OPEN) != 0;
  fields->start_line = node->start_line;
  fields->start_column = node->start_column;
  fields->end_line = node->end_line;
  fields->end_column = node->end_column;
}

cmark_syntax_extension *quire_node_extension(cmark_node *node) { return node->extension; }
int quire_node_heading_level(cmark_node *node) { return node->as.heading.level; }
int quire_node_list_is_ordered(cmark_node *node) { return node->as.list.list_type == CMARK_ORDERED_LIST; }
int quire_node_list_start(cmark_node *node) { return node->as.list.start; }
int quire_node_list_tight(cmark_node *node) { return node->as.list.tight ? 1 : 0; }

static const unsigned char *quire_chunk(const cmark_chunk *chunk, size_t *length) {
  *length = chunk->len > 0 ? (size_t)chunk->len : 0;
  return chunk->data;
}

const unsigned char *quire_node_literal(cmark_node *node, size_t *length) {
  switch (node->type) {
  case CMARK_NODE_HTML_BLOCK:
  case CMARK_NODE_TEXT:
  case CMARK_NODE_HTML_INLINE:
  case CMARK_NODE_CODE:
  case CMARK_NODE_FOOTNOTE_REFERENCE:
    return quire_chunk(&node->as.literal, length);
  case CMARK_NODE_CODE_BLOCK:
    return quire_chunk(&node->as.code.literal, length);
  default:
    *length = 0;
    return NULL;
  }
}

const unsigned char *quire_node_fence_info(cmark_node *node, size_t *length) {
  return quire_chunk(&node->as.code.info, length);
}

const unsigned char *quire_node_url(cmark_node *node, size_t *length) {
  return quire_chunk(&node->as.link.url, length);
}

const unsigned char *quire_node_title(cmark_node *node, size_t *length) {
  return quire_chunk(&node->as.link.title, length);
}

/* ---- Paragraphs left without inline parsing --------------------------------------------------
   cmark parses a block's inlines when `contains_inlines` says so, and it asks a node's syntax
   extension first. A paragraph given this extension (which parses nothing and is attached to no
   parser) after the block parse and before cmark_parser_finish keeps its text unparsed. Only the
   block tree between feed and finish is touched, through the parser's root. */

static int quire_contains_no_inlines(cmark_syntax_extension *extension, cmark_node *node) {
  (void)extension;
  (void)node;
  return 0;
}

/* Made once, never freed, never attached to a parser and never changed after it is made. The
   atomic pointer spares the common case (made already) a pthread_once call per paragraph. */
static _Atomic(cmark_syntax_extension *) quire_no_inlines = NULL;
static pthread_once_t quire_no_inlines_once = PTHREAD_ONCE_INIT;

static void quire_make_no_inlines(void) {
  cmark_syntax_extension *extension = cmark_syntax_extension_new("quire-no-inlines");
  if (extension != NULL) cmark_syntax_extension_set_contains_inlines_func(extension, quire_contains_no_inlines);
  atomic_store_explicit(&quire_no_inlines, extension, memory_order_release);
}

cmark_node *quire_parser_block_root(cmark_parser *parser) { return parser->root; }

int quire_node_leave_inlines_unparsed(cmark_node *paragraph) {
  cmark_syntax_extension *extension = atomic_load_explicit(&quire_no_inlines, memory_order_acquire);
  if (extension == NULL) {
    pthread_once(&quire_no_inlines_once, quire_make_no_inlines);
    extension = atomic_load_explicit(&quire_no_inlines, memory_order_acquire);
    if (extension == NULL) return 0;
  }
  paragraph->extension = extension;
  return 1;
}

#else

/* ==== Public-API path ======================================================================== */

cmark_parser *quire_parser_new(int options, size_t length) {
  (void)length;
  return cmark_parser_new(options);
}

void quire_parser_dispose(cmark_parser *parser, cmark_node *document) {
  if (document != NULL) cmark_node_free(document);
  if (parser != NULL) cmark_parser_free(parser);
}

static inline cmark_node *quire_next(cmark_node *node) { return cmark_node_next(node); }
static inline cmark_node *quire_parent(cmark_node *node) { return cmark_node_parent(node); }

void quire_node_read(cmark_node *node, quire_node_fields *fields) {
  fields->first_child = cmark_node_first_child(node);
  fields->type = (uint32_t)cmark_node_get_type(node);
  fields->open = 0;
  fields->start_line = cmark_node_get_start_line(node);
  fields->start_column = cmark_node_get_start_column(node);
  fields->end_line = cmark_node_get_end_line(node);
  fields->end_column = cmark_node_get_end_column(node);
}

cmark_syntax_extension *quire_node_extension(cmark_node *node) { return cmark_node_get_syntax_extension(node); }
int quire_node_heading_level(cmark_node *node) { return cmark_node_get_heading_level(node); }
int quire_node_list_is_ordered(cmark_node *node) { return cmark_node_get_list_type(node) == CMARK_ORDERED_LIST; }
int quire_node_list_start(cmark_node *node) { return cmark_node_get_list_start(node); }
int quire_node_list_tight(cmark_node *node) { return cmark_node_get_list_tight(node) ? 1 : 0; }

/* cmark's getters give a NUL-terminated copy (made once, freed with the node). */
static const unsigned char *quire_string(const char *string, size_t *length) {
  *length = string != NULL ? strlen(string) : 0;
  return (const unsigned char *)string;
}

const unsigned char *quire_node_literal(cmark_node *node, size_t *length) {
  return quire_string(cmark_node_get_literal(node), length);
}

const unsigned char *quire_node_fence_info(cmark_node *node, size_t *length) {
  return quire_string(cmark_node_get_fence_info(node), length);
}

const unsigned char *quire_node_url(cmark_node *node, size_t *length) {
  return quire_string(cmark_node_get_url(node), length);
}

const unsigned char *quire_node_title(cmark_node *node, size_t *length) {
  return quire_string(cmark_node_get_title(node), length);
}

cmark_node *quire_parser_block_root(cmark_parser *parser) {
  (void)parser;
  return NULL;
}

int quire_node_leave_inlines_unparsed(cmark_node *paragraph) {
  (void)paragraph;
  return 0;
}

#endif

/* ==== Both paths ============================================================================= */

cmark_node *quire_node_after(cmark_node *node, cmark_node *root, quire_node_fields *fields, int *closed) {
  int count = 0;
  cmark_node *after = NULL;
  while (node != root) {
    after = quire_next(node);
    if (after != NULL) break;
    node = quire_parent(node);
    if (node == NULL) break;
    count++;
  }
  *closed = count;
  if (after != NULL) quire_node_read(after, fields);
  return after;
}
