#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// sqlite3_db_config is variadic, which Swift cannot call: turns the main schema's triggers on
/// or off for `db` (TEMP triggers always fire) and returns the setting SQLite then reports.
static inline int csqlite_enable_triggers(sqlite3 *db, int enabled) {
    int now = -1;
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, enabled, &now);
    return now;
}
#endif
