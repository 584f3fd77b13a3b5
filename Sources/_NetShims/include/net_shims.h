#ifndef MAPSNAP_NET_SHIMS_H
#define MAPSNAP_NET_SHIMS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One HTTP(S) exchange through libcurl, opened with dlopen on the first
 * request (libcurl.so.4, Debian's libcurl4): a run that fetches no URL maps
 * no TLS library. Redirects are not followed here: the caller follows them
 * (to detect loops and bound the count), reading `redirect_url`. */

/* What went wrong, when something did (`mapsnap_http_response.failure`). */
enum {
  MAPSNAP_HTTP_OK = 0,
  /* The connect or whole-request time limit passed. */
  MAPSNAP_HTTP_TIMEOUT = 1,
  /* The body (as delivered, after content decoding) passed `max_body_bytes`;
   * the transfer was stopped there. */
  MAPSNAP_HTTP_TOO_LARGE = 2,
  /* Name resolution, connection, TLS, or the exchange itself failed. */
  MAPSNAP_HTTP_CONNECTION = 3,
  /* A scheme other than http and https. */
  MAPSNAP_HTTP_UNSUPPORTED = 4,
  /* libcurl could not be loaded. */
  MAPSNAP_HTTP_UNAVAILABLE = 5,
  /* Any other libcurl failure (its message says which). */
  MAPSNAP_HTTP_OTHER = 6,
};

typedef struct mapsnap_http_request {
  const char *url;
  const char *user_agent;
  /* Extra request header lines ("Range: bytes=0-99", "If-None-Match: …"). */
  const char *const *headers;
  int header_count;
  /* 1: offer every encoding libcurl decodes (gzip, deflate…) and deliver
   * the decoded body; 0: ask for the identity encoding (range requests,
   * whose byte positions are those of the stored representation). */
  int decode_content;
  long connect_timeout_ms;
  long timeout_ms;
  long long max_body_bytes;
} mapsnap_http_request;

typedef struct mapsnap_http_response {
  int failure;       /* MAPSNAP_HTTP_* */
  long status;       /* the HTTP status, 0 when none arrived */
  int connected;     /* 1 once a connection was made (a timeout after it is the request's) */
  unsigned char *body; /* malloc'd (mapsnap_http_response_free) */
  size_t body_length;
  char *headers;     /* the final response's header lines, "\r\n"-separated, NUL-terminated */
  size_t headers_length;
  char redirect_url[2048]; /* the absolute Location of a 3xx, else "" */
  char message[512]; /* why, when failure != OK */
} mapsnap_http_response;

/* NULL once libcurl is loaded; else why it could not be (tries to load it). */
const char *mapsnap_http_unavailable(void);

/* A connection cache (one libcurl easy handle): kept between requests so
 * that keep-alive connections are reused. NULL when libcurl is missing.
 * Used by one thread at a time. */
void *mapsnap_http_handle_new(void);
void mapsnap_http_handle_free(void *handle);

/* Performs `request` on `handle`; fills `response` (always: free it with
 * mapsnap_http_response_free). Returns response->failure. */
int mapsnap_http_perform(void *handle, const mapsnap_http_request *request, mapsnap_http_response *response);
void mapsnap_http_response_free(mapsnap_http_response *response);

#ifdef __cplusplus
}
#endif

#endif
