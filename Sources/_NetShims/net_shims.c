// libcurl, opened with dlopen on the first request.
//
// Read through its own header (Debian's libcurl4-openssl-dev, for types and
// signatures only) but not linked: libcurl brings OpenSSL, nghttp2, libssh2,
// LDAP, Kerberos… whose start-up every run would pay, URL or not.

#include "net_shims.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The entry points are called through pointers: typecheck-gcc.h's macros
// would expand `curl_easy_setopt` in the declarations below.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

#define CURL_FUNCTIONS(X)                                                                            \
  X(curl_global_init)                                                                              \
  X(curl_easy_init)                                                                                \
  X(curl_easy_setopt)                                                                              \
  X(curl_easy_perform)                                                                             \
  X(curl_easy_getinfo)                                                                             \
  X(curl_easy_reset)                                                                               \
  X(curl_easy_cleanup)                                                                             \
  X(curl_easy_strerror)                                                                            \
  X(curl_slist_append)                                                                             \
  X(curl_slist_free_all)

#define DECLARE(name) static __typeof__(name) *p_##name;
CURL_FUNCTIONS(DECLARE)
#undef DECLARE

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_message[320];

static void load(void) {
  // libcurl.so.4 is libcurl's soname since 7.16; Debian's libcurl4 (OpenSSL)
  // holds it, libcurl3-gnutls the GnuTLS build, taken when it is the only one.
  static const char *names[] = {"libcurl.so.4", "libcurl-gnutls.so.4"};
  void *lib = NULL;
  for (size_t i = 0; i < sizeof names / sizeof names[0] && !lib; i++) lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    snprintf(load_message, sizeof load_message, "libcurl.so.4 could not be loaded (install Debian's libcurl4; make setup does): %s",
             why ? why : "unknown error");
    return;
  }
#define LOOK_UP(name)                                                                                \
  p_##name = (__typeof__(name) *)dlsym(lib, #name);                                                \
  if (!p_##name) {                                                                                 \
    snprintf(load_message, sizeof load_message, "libcurl has no %s (libcurl 7.55 or later is needed)", #name); \
    return;                                                                                        \
  }
  CURL_FUNCTIONS(LOOK_UP)
#undef LOOK_UP
  // Once per process, before any handle: libcurl's global state (TLS).
  CURLcode code = p_curl_global_init(CURL_GLOBAL_DEFAULT);
  if (code != CURLE_OK) {
    snprintf(load_message, sizeof load_message, "libcurl could not start: %s", p_curl_easy_strerror(code));
    return;
  }
  loaded = 1;
}

const char *mapsnap_http_unavailable(void) {
  pthread_once(&load_once, load);
  return loaded ? NULL : load_message;
}

void *mapsnap_http_handle_new(void) {
  if (mapsnap_http_unavailable()) return NULL;
  return p_curl_easy_init();
}

void mapsnap_http_handle_free(void *handle) {
  if (handle && loaded) p_curl_easy_cleanup(handle);
}

// What the callbacks write into, for one exchange.
typedef struct transfer {
  CURL *curl;
  mapsnap_http_response *response;
  size_t body_capacity;
  size_t headers_capacity;
  long long max_body_bytes;
} transfer;

// Appends `n` bytes to a growing buffer (doubling); 0 when out of memory.
static int append(unsigned char **buffer, size_t *length, size_t *capacity, const void *bytes, size_t n, size_t reserve) {
  if (*length + n + reserve > *capacity) {
    size_t wanted = *capacity ? *capacity : 16384;
    while (wanted < *length + n + reserve) wanted *= 2;
    unsigned char *grown = realloc(*buffer, wanted);
    if (!grown) return 0;
    *buffer = grown;
    *capacity = wanted;
  }
  memcpy(*buffer + *length, bytes, n);
  *length += n;
  return 1;
}

static size_t on_body(char *data, size_t size, size_t count, void *context) {
  transfer *t = context;
  size_t n = size * count;
  mapsnap_http_response *r = t->response;
  // Refused at the first byte past the limit: the rest is never read.
  if ((long long)(r->body_length + n) > t->max_body_bytes) {
    r->failure = MAPSNAP_HTTP_TOO_LARGE;
    return 0;
  }
  if (!append(&r->body, &r->body_length, &t->body_capacity, data, n, 0)) {
    snprintf(r->message, sizeof r->message, "out of memory for the body");
    r->failure = MAPSNAP_HTTP_OTHER;
    return 0;
  }
  return n;
}

// Content-Length (case-insensitive) in a header line, or -1.
static long long content_length(const char *line, size_t n) {
  static const char name[] = "content-length:";
  size_t k = sizeof name - 1;
  if (n <= k || strncasecmp(line, name, k) != 0) return -1;
  long long value = 0;
  size_t i = k;
  while (i < n && (line[i] == ' ' || line[i] == '\t')) i++;
  if (i == n || line[i] < '0' || line[i] > '9') return -1;
  for (; i < n && line[i] >= '0' && line[i] <= '9'; i++) {
    if (value > (1LL << 52)) return value;
    value = value * 10 + (line[i] - '0');
  }
  return value;
}

static size_t on_header(char *data, size_t size, size_t count, void *context) {
  transfer *t = context;
  size_t n = size * count;
  mapsnap_http_response *r = t->response;
  // A status line starts a response: keep only the last one's headers
  // (an interim 1xx comes before it).
  if (n >= 5 && strncmp(data, "HTTP/", 5) == 0) r->headers_length = 0;
  // A declared length past the limit is refused before any body byte (a
  // 304 may declare the length of the body it does not send).
  if (content_length(data, n) > t->max_body_bytes) {
    long status = 0;
    p_curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &status);
    if (status != 304) {
      r->failure = MAPSNAP_HTTP_TOO_LARGE;
      return 0;
    }
  }
  if (!append((unsigned char **)&r->headers, &r->headers_length, &t->headers_capacity, data, n, 1)) return 0;
  r->headers[r->headers_length] = 0;
  return n;
}

static int failure_of(CURLcode code) {
  switch (code) {
  case CURLE_OK: return MAPSNAP_HTTP_OK;
  case CURLE_OPERATION_TIMEDOUT: return MAPSNAP_HTTP_TIMEOUT;
  case CURLE_FILESIZE_EXCEEDED: return MAPSNAP_HTTP_TOO_LARGE;
  case CURLE_UNSUPPORTED_PROTOCOL: return MAPSNAP_HTTP_UNSUPPORTED;
  case CURLE_COULDNT_RESOLVE_PROXY:
  case CURLE_COULDNT_RESOLVE_HOST:
  case CURLE_COULDNT_CONNECT:
  case CURLE_SSL_CONNECT_ERROR:
  case CURLE_PEER_FAILED_VERIFICATION:
  case CURLE_GOT_NOTHING:
  case CURLE_SEND_ERROR:
  case CURLE_RECV_ERROR:
  case CURLE_PARTIAL_FILE:
  case CURLE_HTTP2:
  case CURLE_HTTP2_STREAM:
  case CURLE_WEIRD_SERVER_REPLY:
  case CURLE_BAD_CONTENT_ENCODING:
  case CURLE_SSL_CACERT_BADFILE:
  case CURLE_SSL_CERTPROBLEM:
  case CURLE_SSL_CIPHER: return MAPSNAP_HTTP_CONNECTION;
  default: return MAPSNAP_HTTP_OTHER;
  }
}

int mapsnap_http_perform(void *handle, const mapsnap_http_request *request, mapsnap_http_response *response) {
  memset(response, 0, sizeof *response);
  const char *unavailable = mapsnap_http_unavailable();
  if (unavailable || !handle) {
    snprintf(response->message, sizeof response->message, "%s", unavailable ? unavailable : "no libcurl handle");
    return response->failure = MAPSNAP_HTTP_UNAVAILABLE;
  }
  CURL *curl = handle;
  // reset keeps the handle's connection and DNS caches (keep-alive).
  p_curl_easy_reset(curl);
  transfer t = {curl, response, 0, 0, request->max_body_bytes};
  char error[CURL_ERROR_SIZE] = {0};
  struct curl_slist *headers = NULL;
  for (int i = 0; i < request->header_count; i++) {
    struct curl_slist *more = p_curl_slist_append(headers, request->headers[i]);
    if (!more) {
      p_curl_slist_free_all(headers);
      snprintf(response->message, sizeof response->message, "out of memory for the request headers");
      return response->failure = MAPSNAP_HTTP_OTHER;
    }
    headers = more;
  }
  p_curl_easy_setopt(curl, CURLOPT_URL, request->url);
  // Only http and https, on this request and (were they followed) redirects.
  if (p_curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK) {
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    p_curl_easy_setopt(curl, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
  }
  p_curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  p_curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 1L);
  p_curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  p_curl_easy_setopt(curl, CURLOPT_USERAGENT, request->user_agent);
  p_curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  p_curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
  p_curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, request->timeout_ms);
  p_curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)request->max_body_bytes);
  // "" offers every encoding this libcurl decodes; NULL sends no
  // Accept-Encoding (the identity encoding).
  p_curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, request->decode_content ? "" : NULL);
  p_curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  p_curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  p_curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
  p_curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  p_curl_easy_setopt(curl, CURLOPT_HEADERDATA, &t);

  CURLcode code = p_curl_easy_perform(curl);
  long status = 0;
  p_curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  response->status = status;
  double connect_time = 0;
  p_curl_easy_getinfo(curl, CURLINFO_CONNECT_TIME, &connect_time);
  response->connected = connect_time > 0 || status != 0;
  char *location = NULL;
  if (p_curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &location) == CURLE_OK && location)
    snprintf(response->redirect_url, sizeof response->redirect_url, "%s", location);
  // The handle must not keep pointers into this stack frame.
  p_curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, NULL);
  p_curl_easy_setopt(curl, CURLOPT_HTTPHEADER, NULL);
  p_curl_slist_free_all(headers);

  if (code != CURLE_OK && response->failure == MAPSNAP_HTTP_OK) response->failure = failure_of(code);
  if (response->failure != MAPSNAP_HTTP_OK && !response->message[0])
    snprintf(response->message, sizeof response->message, "%s", error[0] ? error : p_curl_easy_strerror(code));
  // A trailing newline from libcurl's buffer is not part of the message.
  size_t m = strlen(response->message);
  while (m && (response->message[m - 1] == '\n' || response->message[m - 1] == '\r')) response->message[--m] = 0;
  return response->failure;
}

void mapsnap_http_response_free(mapsnap_http_response *response) {
  free(response->body);
  free(response->headers);
  response->body = NULL;
  response->headers = NULL;
  response->body_length = 0;
  response->headers_length = 0;
}
