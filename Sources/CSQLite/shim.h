// The system SQLite (Debian's libsqlite3-dev), as a Swift module.
#include <sqlite3.h>
