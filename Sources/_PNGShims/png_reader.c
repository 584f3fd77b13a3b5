/*
 * png_reader.c — a PNG file decoded row by row (png_shim_reader_*).
 *
 * The reader keeps libpng's structures and the FILE between calls. Every
 * entry point sets its own setjmp on the reader's png struct before calling
 * libpng, so a libpng error longjmps back into the same C frame, never across
 * Swift. All state that survives a longjmp lives in the heap-allocated
 * reader, not in locals. After a libpng error the png struct is unusable: it
 * is destroyed at once, the message is kept and every later read repeats it.
 *
 * Interlaced (Adam7) images are decoded whole at open time (see png_shims.h).
 */
#include "png_shims.h"
#include "png_shim_io.h"
#include "png_shim_decode.h"

#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { READER_MESSAGE_CAPACITY = 256 };

struct PNGShimReader {
  png_structp png;  /* NULL once finished or failed */
  png_infop info;
  FILE *file;       /* NULL once finished or failed */
  /* libpng's error pointer: always writes into `message` below. */
  shim_error error;
  char message[READER_MESSAGE_CAPACITY];
  PNGShimImageInfo image;
  uint32_t rows_read;
  /* Interlaced images only: the whole image, width * height * 4 bytes. */
  uint8_t *pixels;
  /* PNG_SHIM_OK, or the status every later read returns (with `message`). */
  int failure;
};

/* libpng's read callback: the FILE, with short reads reported as errors. */
static void reader_read(png_structp png, png_bytep bytes, size_t length) {
  FILE *file = (FILE *)png_get_io_ptr(png);
  if (length == 0) return;
  if (fread(bytes, 1, length, file) != length) {
    if (ferror(file)) {
      char text[128];
      snprintf(text, sizeof text, "read failed: %s", strerror(errno));
      png_error(png, text); /* shim_on_error copies it before the longjmp */
    }
    png_error(png, "unexpected end of file (the PNG is truncated)");
  }
}

/* Destroys libpng's structures and closes the file; keeps the pixels. */
static void reader_release_png(PNGShimReader *reader) {
  if (reader->png != NULL)
    png_destroy_read_struct(&reader->png, &reader->info, NULL);
  reader->png = NULL;
  reader->info = NULL;
  if (reader->file != NULL) fclose(reader->file);
  reader->file = NULL;
}

void png_shim_reader_close(PNGShimReader *reader) {
  if (reader == NULL) return;
  reader_release_png(reader);
  free(reader->pixels);
  free(reader);
}

uint32_t png_shim_reader_rows_read(const PNGShimReader *reader) {
  return reader != NULL ? reader->rows_read : 0;
}

/* Opens `path` for reading if it is a regular file, without ever blocking on
 * a FIFO or device. Returns NULL with the status and message on failure. */
static FILE *reader_open_regular_file(const char *path, int *status,
                                      shim_error *error) {
  struct stat st;
  FILE *file;
  int flags;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    int code = errno;
    *status = code == ENOENT ? PNG_SHIM_FILE_NOT_FOUND : PNG_SHIM_FILE_READ_FAILED;
    shim_set_message(error, NULL, code == EISDIR ? "is a directory" : strerror(code));
    return NULL;
  }
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const char *reason = "not a regular file";
    if (fstat(fd, &st) != 0)
      reason = strerror(errno);
    else if (S_ISDIR(st.st_mode))
      reason = "is a directory";
    close(fd);
    *status = PNG_SHIM_FILE_READ_FAILED;
    shim_set_message(error, NULL, reason);
    return NULL;
  }
  /* A regular file never blocks; clear the flag so stdio sees a plain fd. */
  flags = fcntl(fd, F_GETFL);
  if (flags != -1) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  file = fdopen(fd, "rb");
  if (file == NULL) {
    int code = errno;
    close(fd);
    *status = code == ENOMEM ? PNG_SHIM_OUT_OF_MEMORY : PNG_SHIM_FILE_READ_FAILED;
    shim_set_message(error, NULL, strerror(code));
    return NULL;
  }
  return file;
}

/* Reads and checks the 8-byte signature. Returns PNG_SHIM_OK or the failure. */
static int reader_check_signature(FILE *file, shim_error *error) {
  png_byte signature[8];
  size_t got = fread(signature, 1, sizeof signature, file);
  if (got != sizeof signature && ferror(file)) {
    shim_set_message(error, NULL, strerror(errno));
    return PNG_SHIM_FILE_READ_FAILED;
  }
  if (got != sizeof signature || png_sig_cmp(signature, 0, 8) != 0) {
    shim_set_message(error, NULL,
                     got != sizeof signature
                         ? "data is shorter than the 8-byte PNG signature"
                         : "data does not start with the PNG signature");
    return PNG_SHIM_NOT_A_PNG;
  }
  return PNG_SHIM_OK;
}

int png_shim_reader_open_file(const char *path, uint64_t max_pixels,
                              PNGShimReader **out, PNGShimImageInfo *info_out,
                              char *error_message, size_t error_capacity) {
  shim_error error = {error_message, error_capacity, 0};
  PNGShimReader *reader; /* not modified after setjmp */
  FILE *file;
  int status = PNG_SHIM_OK;
  uint32_t pass, passes, y;
  size_t stride;

  if (error_message != NULL && error_capacity != 0) error_message[0] = '\0';
  if (out == NULL || path == NULL || info_out == NULL) {
    shim_set_message(&error, "png_shim_reader_open_file: ", "null pointer argument");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  *out = NULL;
  memset(info_out, 0, sizeof *info_out);

  file = reader_open_regular_file(path, &status, &error);
  if (file == NULL) return status;
  status = reader_check_signature(file, &error);
  if (status != PNG_SHIM_OK) {
    fclose(file);
    return status;
  }

  reader = (PNGShimReader *)calloc(1, sizeof *reader);
  if (reader == NULL) {
    fclose(file);
    shim_set_message(&error, NULL, "out of memory creating the PNG reader");
    return PNG_SHIM_OUT_OF_MEMORY;
  }
  reader->file = file;
  reader->error.message = reader->message;
  reader->error.capacity = sizeof reader->message;
  reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader->error,
                                       shim_on_error, shim_on_warning);
  if (reader->png != NULL) reader->info = png_create_info_struct(reader->png);
  if (reader->png == NULL || reader->info == NULL) {
    png_shim_reader_close(reader);
    shim_set_message(&error, NULL, "out of memory creating the libpng reader");
    return PNG_SHIM_OUT_OF_MEMORY;
  }

  if (setjmp(png_jmpbuf(reader->png))) {
    status = reader->error.out_of_memory ? PNG_SHIM_OUT_OF_MEMORY
                                         : PNG_SHIM_DECODE_FAILED;
    shim_set_message(&error, NULL, reader->message);
    png_shim_reader_close(reader);
    return status;
  }

  png_set_read_fn(reader->png, file, reader_read);
  png_set_sig_bytes(reader->png, 8);
  shim_set_read_limits(reader->png);
  png_read_info(reader->png, reader->info);
  shim_fill_info(reader->png, reader->info, &reader->image);
  *info_out = reader->image;
  if (shim_too_large(&reader->image, max_pixels, &error)) {
    png_shim_reader_close(reader);
    return PNG_SHIM_TOO_LARGE;
  }
  passes = (uint32_t)shim_set_rgba8_transforms(reader->png, reader->info,
                                               &reader->image);

  if (reader->image.interlaced) {
    /* Adam7: decode the whole image now (at most max_pixels * 4 bytes). */
    stride = (size_t)reader->image.width * 4;
    reader->pixels = (uint8_t *)malloc(stride * reader->image.height);
    if (reader->pixels == NULL) {
      png_shim_reader_close(reader);
      shim_set_message(&error, NULL, "out of memory allocating the interlaced image");
      return PNG_SHIM_OUT_OF_MEMORY;
    }
    for (pass = 0; pass < passes; pass++)
      for (y = 0; y < reader->image.height; y++)
        png_read_row(reader->png, reader->pixels + (size_t)y * stride, NULL);
    png_read_end(reader->png, NULL);
    reader_release_png(reader);
  }

  *out = reader;
  return PNG_SHIM_OK;
}

int png_shim_reader_read_rows(PNGShimReader *reader, void *rows, uint32_t count,
                              char *error_message, size_t error_capacity) {
  shim_error error = {error_message, error_capacity, 0};
  uint8_t *destination = (uint8_t *)rows;
  size_t stride;
  uint32_t i;

  if (error_message != NULL && error_capacity != 0) error_message[0] = '\0';
  if (reader == NULL || (rows == NULL && count != 0)) {
    shim_set_message(&error, "png_shim_reader_read_rows: ", "null pointer argument");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  if (reader->failure != PNG_SHIM_OK) {
    shim_set_message(&error, NULL, reader->message);
    return reader->failure;
  }
  if (count > reader->image.height - reader->rows_read) {
    shim_set_message(&error, "png_shim_reader_read_rows: ",
                     "more rows requested than are left in the image");
    return PNG_SHIM_INVALID_ARGUMENT;
  }
  if (count == 0) return PNG_SHIM_OK;
  stride = (size_t)reader->image.width * 4;

  if (reader->pixels != NULL) { /* interlaced: decoded at open time */
    memcpy(destination, reader->pixels + (size_t)reader->rows_read * stride,
           (size_t)count * stride);
    reader->rows_read += count;
    return PNG_SHIM_OK;
  }

  reader->message[0] = '\0';
  if (setjmp(png_jmpbuf(reader->png))) {
    reader->failure = reader->error.out_of_memory ? PNG_SHIM_OUT_OF_MEMORY
                                                  : PNG_SHIM_DECODE_FAILED;
    if (reader->message[0] == '\0')
      shim_set_message(&reader->error, NULL, "libpng failed without a message");
    reader_release_png(reader);
    shim_set_message(&error, NULL, reader->message);
    return reader->failure;
  }
  for (i = 0; i < count; i++) {
    png_read_row(reader->png, destination + (size_t)i * stride, NULL);
    reader->rows_read++;
  }
  if (reader->rows_read == reader->image.height) {
    /* The rest of the file up to IEND, checked as the whole-image decoder does. */
    png_read_end(reader->png, NULL);
    reader_release_png(reader);
  }
  return PNG_SHIM_OK;
}
