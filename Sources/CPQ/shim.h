/* libpq's header (Debian's libpq-dev), through its folder's name: its own
 * includes (postgres_ext.h) are found beside it. */
#include <postgresql/libpq-fe.h>
