/* libpq's entry points as used by mapsnap (PostGIS sources read without
 * GDAL, PostGISReader.swift), opened on first use (lazy_libraries.h). Each
 * forwarder has the header's exact signature. */
#include "lazy_libraries.h"
#include "lazy_open.h"

#include <pthread.h>

#pragma GCC visibility push(hidden)
#include <postgresql/libpq-fe.h>

#define PQ_ENTRY_POINTS(X)                                                                                           \
  X(PQconnectdbParams) X(PQstatus) X(PQerrorMessage) X(PQfinish) X(PQconninfoParse) X(PQconninfoFree)               \
  X(PQexecParams) X(PQprepare) X(PQexecPrepared) X(PQresultStatus) X(PQresultErrorMessage) X(PQclear)               \
  X(PQntuples) X(PQnfields) X(PQftype) X(PQgetvalue) X(PQgetlength) X(PQgetisnull)

LAZY_LIBRARY("libpq.so.5", "libpq5", PQ_ENTRY_POINTS)

#pragma GCC visibility pop

const char *mapsnap_pq_unavailable(void) { return ready() ? NULL : library.message; }

#pragma GCC visibility push(hidden)

PGconn *PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname) {
  return ready() ? REAL(PQconnectdbParams)(keywords, values, expand_dbname) : NULL;
}
ConnStatusType PQstatus(const PGconn *conn) { return ready() ? REAL(PQstatus)(conn) : CONNECTION_BAD; }
char *PQerrorMessage(const PGconn *conn) { return ready() ? REAL(PQerrorMessage)(conn) : library.message; }
void PQfinish(PGconn *conn) {
  if (ready()) REAL(PQfinish)(conn);
}
PQconninfoOption *PQconninfoParse(const char *conninfo, char **errmsg) {
  if (!ready()) {
    if (errmsg != NULL) *errmsg = NULL;
    return NULL;
  }
  return REAL(PQconninfoParse)(conninfo, errmsg);
}
void PQconninfoFree(PQconninfoOption *options) {
  if (ready()) REAL(PQconninfoFree)(options);
}
PGresult *PQexecParams(PGconn *conn, const char *command, int n, const Oid *types, const char *const *values,
                       const int *lengths, const int *formats, int resultFormat) {
  return ready() ? REAL(PQexecParams)(conn, command, n, types, values, lengths, formats, resultFormat) : NULL;
}
PGresult *PQprepare(PGconn *conn, const char *name, const char *query, int n, const Oid *types) {
  return ready() ? REAL(PQprepare)(conn, name, query, n, types) : NULL;
}
PGresult *PQexecPrepared(PGconn *conn, const char *name, int n, const char *const *values, const int *lengths,
                         const int *formats, int resultFormat) {
  return ready() ? REAL(PQexecPrepared)(conn, name, n, values, lengths, formats, resultFormat) : NULL;
}
ExecStatusType PQresultStatus(const PGresult *res) { return ready() ? REAL(PQresultStatus)(res) : PGRES_FATAL_ERROR; }
char *PQresultErrorMessage(const PGresult *res) { return ready() ? REAL(PQresultErrorMessage)(res) : library.message; }
void PQclear(PGresult *res) {
  if (ready()) REAL(PQclear)(res);
}
int PQntuples(const PGresult *res) { return ready() ? REAL(PQntuples)(res) : 0; }
int PQnfields(const PGresult *res) { return ready() ? REAL(PQnfields)(res) : 0; }
Oid PQftype(const PGresult *res, int column) { return ready() ? REAL(PQftype)(res, column) : 0; }
char *PQgetvalue(const PGresult *res, int row, int column) {
  return ready() ? REAL(PQgetvalue)(res, row, column) : NULL;
}
int PQgetlength(const PGresult *res, int row, int column) { return ready() ? REAL(PQgetlength)(res, row, column) : 0; }
int PQgetisnull(const PGresult *res, int row, int column) { return ready() ? REAL(PQgetisnull)(res, row, column) : 1; }

#pragma GCC visibility pop
