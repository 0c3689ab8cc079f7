#ifndef QUIRE_CSQLITE_SHIM_H
#define QUIRE_CSQLITE_SHIM_H
#include <sqlite3.h>
// SQLITE_TRANSIENT is a cast Swift cannot import: the same value as a function.
static inline sqlite3_destructor_type quire_sqlite_transient(void) { return SQLITE_TRANSIENT; }
// sqlite3_db_config is variadic, which Swift cannot call: defensive mode (no writes to the schema
// tables, no damage through PRAGMA writable_schema) and no triggers or views at all.
static inline int quire_sqlite_harden(sqlite3 *db) {
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
    if (rc == SQLITE_OK) rc = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)0);
    if (rc == SQLITE_OK) rc = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, (int *)0);
    return rc;
}
#endif
