#ifndef MAPSNAP_OGR_SHIMS_H
#define MAPSNAP_OGR_SHIMS_H

#include <stdint.h>

/// Loads GDAL (libgdal.so.32, or another 3.x soname) with dlopen, once per
/// process, and registers its drivers. Returns 1 when usable; else 0 with
/// the reason in `message` (NUL-terminated, at most `capacity` bytes).
int mapsnap_ogr_load(char *message, int capacity);

/// GDAL's version ("3.6.2") after a successful load; else "".
const char *mapsnap_ogr_version(void);

/// Opens `name` (a file, a folder, or "PG:…") read-only as a vector
/// dataset; NULL with GDAL's message on failure. Not thread-safe: one
/// dataset is used by one thread at a time.
void *mapsnap_ogr_open(const char *name, char *message, int capacity);
void mapsnap_ogr_close(void *dataset);
/// Starts a transaction that stays open while the dataset is (GDAL's
/// StartTransaction, not forced): a PostGIS dataset then reads each layer
/// inside it, without a BEGIN and a COMMIT of its own. 1 on success.
int mapsnap_ogr_begin(void *dataset);
/// The driver's short name ("GPKG", "ESRI Shapefile", "FlatGeobuf",
/// "OpenFileGDB", "PostgreSQL").
const char *mapsnap_ogr_driver(void *dataset);
int mapsnap_ogr_layer_count(void *dataset);
/// Layer `index`'s name.
const char *mapsnap_ogr_layer_name(void *dataset, int index);
/// The layer named `name`, or NULL.
void *mapsnap_ogr_layer(void *dataset, const char *name);

/// The layer's spatial reference as WKT (free with mapsnap_ogr_free), or
/// NULL when it has none.
char *mapsnap_ogr_layer_wkt(void *layer);
/// Its authority and code ("EPSG", "3067") when it has them; 0 otherwise.
int mapsnap_ogr_layer_authority(void *layer, char *authority, int authority_capacity, char *code, int code_capacity);
void mapsnap_ogr_free(void *p);

/// The layer's feature count when the driver knows it cheaply, else -1.
int64_t mapsnap_ogr_feature_count(void *layer);
/// 1 when the driver filters by rectangle through a spatial index.
int mapsnap_ogr_has_spatial_index(void *layer);

/// Starts reading the layer again, only the features whose envelopes meet
/// the rectangle (`filtered`), or all of them.
void mapsnap_ogr_start(void *layer, int filtered, double min_x, double min_y, double max_x, double max_y);

/// One feature read: its FID, attributes and geometry (ISO WKB, little
/// endian). Pointers stay valid until the next call on the same reader.
typedef struct {
  int64_t fid;
  int field_count;
  const uint8_t *wkb;
  int wkb_size;
} mapsnap_ogr_feature;

/// Kinds of attribute values.
enum {
  MAPSNAP_OGR_NULL = 0,
  MAPSNAP_OGR_INTEGER = 1,
  MAPSNAP_OGR_REAL = 2,
  MAPSNAP_OGR_STRING = 3,
  MAPSNAP_OGR_BOOLEAN = 4,
};

/// A reader over one layer: the next feature (1), the end (0), or an error
/// (-1, with GDAL's message in `message`).
void *mapsnap_ogr_reader_create(void);
void mapsnap_ogr_reader_destroy(void *reader);
int mapsnap_ogr_next(void *reader, void *layer, mapsnap_ogr_feature *out, char *message, int capacity);
/// The current feature's field `i`: its name, its kind, and its value as an
/// integer, a real or text (dates and times as ISO 8601 text; lists and
/// binary as GDAL's text form).
const char *mapsnap_ogr_field_name(void *reader, int i);
int mapsnap_ogr_field_kind(void *reader, int i);
int64_t mapsnap_ogr_field_integer(void *reader, int i);
double mapsnap_ogr_field_real(void *reader, int i);
const char *mapsnap_ogr_field_text(void *reader, int i);

#endif
