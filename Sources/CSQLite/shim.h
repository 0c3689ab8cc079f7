#ifndef QUIRE_CSQLITE_SHIM_H
#define QUIRE_CSQLITE_SHIM_H
#include <sqlite3.h>
// SQLITE_TRANSIENT is a cast Swift cannot import: the same value as a function.
static inline sqlite3_destructor_type quire_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
