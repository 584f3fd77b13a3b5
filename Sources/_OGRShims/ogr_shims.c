// GDAL/OGR, opened with dlopen on first use.
//
// Read through its own headers (Debian's libgdal-dev, for types and
// signatures only) but not linked: libgdal loads some 150 shared libraries,
// whose start-up every run would pay, `ogr` source or not. The entry points
// used are looked up once; the rest of mapsnap sees only this file's API.

#include "ogr_shims.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gdal/cpl_conv.h>
#include <gdal/cpl_error.h>
#include <gdal/gdal.h>
#include <gdal/ogr_api.h>
#include <gdal/ogr_srs_api.h>

#define OGR_FUNCTIONS(X)                                                                             \
  X(GDALAllRegister)                                                                               \
  X(GDALVersionInfo)                                                                               \
  X(GDALOpenEx)                                                                                    \
  X(GDALClose)                                                                                     \
  X(GDALGetDatasetDriver)                                                                          \
  X(GDALGetDriverShortName)                                                                        \
  X(GDALDatasetGetLayerCount)                                                                      \
  X(GDALDatasetGetLayer)                                                                           \
  X(GDALDatasetGetLayerByName)                                                                     \
  X(GDALDatasetStartTransaction)                                                                   \
  X(CPLGetLastErrorMsg)                                                                            \
  X(CPLErrorReset)                                                                                 \
  X(CPLSetErrorHandler)                                                                            \
  X(CPLQuietErrorHandler)                                                                          \
  X(VSIFree)                                                                                       \
  X(OGR_L_GetName)                                                                                 \
  X(OGR_L_GetSpatialRef)                                                                           \
  X(OGR_L_GetFeatureCount)                                                                         \
  X(OGR_L_TestCapability)                                                                          \
  X(OGR_L_SetSpatialFilterRect)                                                                    \
  X(OGR_L_SetSpatialFilter)                                                                        \
  X(OGR_L_ResetReading)                                                                            \
  X(OGR_L_GetNextFeature)                                                                          \
  X(OGR_F_Destroy)                                                                                 \
  X(OGR_F_GetFID)                                                                                  \
  X(OGR_F_GetFieldCount)                                                                           \
  X(OGR_F_GetFieldDefnRef)                                                                         \
  X(OGR_F_IsFieldSetAndNotNull)                                                                    \
  X(OGR_F_GetFieldAsInteger64)                                                                     \
  X(OGR_F_GetFieldAsDouble)                                                                        \
  X(OGR_F_GetFieldAsString)                                                                        \
  X(OGR_F_GetFieldAsDateTimeEx)                                                                    \
  X(OGR_F_GetGeometryRef)                                                                          \
  X(OGR_Fld_GetNameRef)                                                                            \
  X(OGR_Fld_GetType)                                                                               \
  X(OGR_Fld_GetSubType)                                                                            \
  X(OGR_G_WkbSize)                                                                                 \
  X(OGR_G_ExportToIsoWkb)                                                                          \
  X(OSRExportToWkt)                                                                                \
  X(OSRGetAuthorityName)                                                                           \
  X(OSRGetAuthorityCode)

#define DECLARE(name) static __typeof__(name) *p_##name;
OGR_FUNCTIONS(DECLARE)
#undef DECLARE

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_message[256];

static void load(void) {
  // Debian 12 ships libgdal.so.32 (GDAL 3.6); later 3.x releases bump it.
  static const char *names[] = {"libgdal.so.32", "libgdal.so.33", "libgdal.so.34", "libgdal.so.35",
                                "libgdal.so.36", "libgdal.so.31", "libgdal.so.30", "libgdal.so"};
  void *lib = NULL;
  for (size_t i = 0; i < sizeof names / sizeof names[0] && !lib; i++) lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(load_message, sizeof load_message, "GDAL (libgdal.so.32) could not be loaded (install Debian's libgdal32; make setup does)");
    return;
  }
#define LOOK_UP(name)                                                                                \
  p_##name = (__typeof__(name) *)dlsym(lib, #name);                                                \
  if (!p_##name) {                                                                                 \
    snprintf(load_message, sizeof load_message, "libgdal has no %s (GDAL 3.1 or later is needed)", #name); \
    return;                                                                                        \
  }
  OGR_FUNCTIONS(LOOK_UP)
#undef LOOK_UP
  // GDAL's messages would go to standard error; mapsnap reports them.
  p_CPLSetErrorHandler(p_CPLQuietErrorHandler);
  p_GDALAllRegister();
  loaded = 1;
}

static void copy_message(char *message, int capacity, const char *text) {
  if (message && capacity > 0) snprintf(message, (size_t)capacity, "%s", text && *text ? text : "unknown error");
}

int mapsnap_ogr_load(char *message, int capacity) {
  pthread_once(&load_once, load);
  if (!loaded) copy_message(message, capacity, load_message);
  return loaded;
}

const char *mapsnap_ogr_version(void) { return loaded ? p_GDALVersionInfo("RELEASE_NAME") : ""; }

void *mapsnap_ogr_open(const char *name, char *message, int capacity) {
  if (!loaded) {
    copy_message(message, capacity, load_message);
    return NULL;
  }
  p_CPLErrorReset();
  GDALDatasetH ds = p_GDALOpenEx(name, GDAL_OF_VECTOR | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR, NULL, NULL, NULL);
  if (!ds) copy_message(message, capacity, p_CPLGetLastErrorMsg());
  return ds;
}

int mapsnap_ogr_begin(void *dataset) {
  return p_GDALDatasetStartTransaction((GDALDatasetH)dataset, FALSE) == OGRERR_NONE ? 1 : 0;
}

void mapsnap_ogr_close(void *dataset) {
  if (dataset) p_GDALClose((GDALDatasetH)dataset);
}

const char *mapsnap_ogr_driver(void *dataset) {
  GDALDriverH d = p_GDALGetDatasetDriver((GDALDatasetH)dataset);
  return d ? p_GDALGetDriverShortName(d) : "";
}

int mapsnap_ogr_layer_count(void *dataset) { return p_GDALDatasetGetLayerCount((GDALDatasetH)dataset); }

const char *mapsnap_ogr_layer_name(void *dataset, int index) {
  OGRLayerH l = p_GDALDatasetGetLayer((GDALDatasetH)dataset, index);
  return l ? p_OGR_L_GetName(l) : "";
}

void *mapsnap_ogr_layer(void *dataset, const char *name) {
  return p_GDALDatasetGetLayerByName((GDALDatasetH)dataset, name);
}

char *mapsnap_ogr_layer_wkt(void *layer) {
  OGRSpatialReferenceH srs = p_OGR_L_GetSpatialRef((OGRLayerH)layer);
  if (!srs) return NULL;
  char *gdal_wkt = NULL;
  if (p_OSRExportToWkt(srs, &gdal_wkt) != OGRERR_NONE || !gdal_wkt) return NULL;
  char *copy = strdup(gdal_wkt);
  p_VSIFree(gdal_wkt);
  return copy;
}

int mapsnap_ogr_layer_authority(void *layer, char *authority, int authority_capacity, char *code, int code_capacity) {
  OGRSpatialReferenceH srs = p_OGR_L_GetSpatialRef((OGRLayerH)layer);
  if (!srs) return 0;
  const char *a = p_OSRGetAuthorityName(srs, NULL);
  const char *c = p_OSRGetAuthorityCode(srs, NULL);
  if (!a || !c) return 0;
  snprintf(authority, (size_t)authority_capacity, "%s", a);
  snprintf(code, (size_t)code_capacity, "%s", c);
  return 1;
}

void mapsnap_ogr_free(void *p) { free(p); }

int64_t mapsnap_ogr_feature_count(void *layer) { return p_OGR_L_GetFeatureCount((OGRLayerH)layer, FALSE); }

int mapsnap_ogr_has_spatial_index(void *layer) {
  return p_OGR_L_TestCapability((OGRLayerH)layer, OLCFastSpatialFilter) ? 1 : 0;
}

void mapsnap_ogr_start(void *layer, int filtered, double min_x, double min_y, double max_x, double max_y) {
  OGRLayerH l = (OGRLayerH)layer;
  if (filtered) {
    p_OGR_L_SetSpatialFilterRect(l, min_x, min_y, max_x, max_y);
  } else {
    p_OGR_L_SetSpatialFilter(l, NULL);
  }
  p_OGR_L_ResetReading(l);
}

typedef struct {
  OGRFeatureH feature;
  unsigned char *wkb;
  int wkb_capacity;
  char text[64];
} reader_t;

void *mapsnap_ogr_reader_create(void) { return calloc(1, sizeof(reader_t)); }

void mapsnap_ogr_reader_destroy(void *reader) {
  reader_t *r = reader;
  if (!r) return;
  if (r->feature) p_OGR_F_Destroy(r->feature);
  free(r->wkb);
  free(r);
}

int mapsnap_ogr_next(void *reader, void *layer, mapsnap_ogr_feature *out, char *message, int capacity) {
  reader_t *r = reader;
  if (r->feature) {
    p_OGR_F_Destroy(r->feature);
    r->feature = NULL;
  }
  p_CPLErrorReset();
  r->feature = p_OGR_L_GetNextFeature((OGRLayerH)layer);
  if (!r->feature) {
    const char *e = p_CPLGetLastErrorMsg();
    if (e && *e) {
      copy_message(message, capacity, e);
      return -1;
    }
    return 0;
  }
  out->fid = p_OGR_F_GetFID(r->feature);
  out->field_count = p_OGR_F_GetFieldCount(r->feature);
  out->wkb = NULL;
  out->wkb_size = 0;
  OGRGeometryH g = p_OGR_F_GetGeometryRef(r->feature);
  if (g) {
    int size = p_OGR_G_WkbSize(g);
    if (size > 0) {
      if (size > r->wkb_capacity) {
        unsigned char *grown = realloc(r->wkb, (size_t)size);
        if (!grown) {
          copy_message(message, capacity, "out of memory for a geometry");
          return -1;
        }
        r->wkb = grown;
        r->wkb_capacity = size;
      }
      if (p_OGR_G_ExportToIsoWkb(g, wkbNDR, r->wkb) == OGRERR_NONE) {
        out->wkb = r->wkb;
        out->wkb_size = size;
      }
    }
  }
  return 1;
}

const char *mapsnap_ogr_field_name(void *reader, int i) {
  reader_t *r = reader;
  OGRFieldDefnH d = p_OGR_F_GetFieldDefnRef(r->feature, i);
  return d ? p_OGR_Fld_GetNameRef(d) : "";
}

int mapsnap_ogr_field_kind(void *reader, int i) {
  reader_t *r = reader;
  if (!p_OGR_F_IsFieldSetAndNotNull(r->feature, i)) return MAPSNAP_OGR_NULL;
  OGRFieldDefnH d = p_OGR_F_GetFieldDefnRef(r->feature, i);
  switch (p_OGR_Fld_GetType(d)) {
  case OFTInteger:
  case OFTInteger64: return p_OGR_Fld_GetSubType(d) == OFSTBoolean ? MAPSNAP_OGR_BOOLEAN : MAPSNAP_OGR_INTEGER;
  case OFTReal: return MAPSNAP_OGR_REAL;
  default: return MAPSNAP_OGR_STRING;
  }
}

int64_t mapsnap_ogr_field_integer(void *reader, int i) {
  return p_OGR_F_GetFieldAsInteger64(((reader_t *)reader)->feature, i);
}

double mapsnap_ogr_field_real(void *reader, int i) { return p_OGR_F_GetFieldAsDouble(((reader_t *)reader)->feature, i); }

const char *mapsnap_ogr_field_text(void *reader, int i) {
  reader_t *r = reader;
  OGRFieldDefnH d = p_OGR_F_GetFieldDefnRef(r->feature, i);
  OGRFieldType t = p_OGR_Fld_GetType(d);
  if (t == OFTDate || t == OFTDateTime || t == OFTTime) {
    int y, mo, da, h, mi, tz;
    float s;
    if (p_OGR_F_GetFieldAsDateTimeEx(r->feature, i, &y, &mo, &da, &h, &mi, &s, &tz)) {
      int whole = (int)s;
      int millis = (int)((s - (float)whole) * 1000.0f + 0.5f);
      if (t == OFTDate) {
        snprintf(r->text, sizeof r->text, "%04d-%02d-%02d", y, mo, da);
      } else if (t == OFTTime) {
        snprintf(r->text, sizeof r->text, "%02d:%02d:%02d", h, mi, whole);
      } else {
        int n = snprintf(r->text, sizeof r->text, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, da, h, mi, whole);
        if (millis > 0 && n > 0) n += snprintf(r->text + n, sizeof r->text - (size_t)n, ".%03d", millis);
        // GDAL's time zone flag: 100 is UTC, each unit off it 15 minutes.
        if (tz == 100) {
          snprintf(r->text + n, sizeof r->text - (size_t)n, "Z");
        } else if (tz > 1) {
          int off = (tz - 100) * 15;
          char sign = off < 0 ? '-' : '+';
          if (off < 0) off = -off;
          snprintf(r->text + n, sizeof r->text - (size_t)n, "%c%02d:%02d", sign, off / 60, off % 60);
        }
      }
      return r->text;
    }
  }
  return p_OGR_F_GetFieldAsString(r->feature, i);
}
