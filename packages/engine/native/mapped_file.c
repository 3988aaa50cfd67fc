/*
 * Shared, writable memory mappings of a file, for the execution log of the SQLite store.
 *
 * A store written through a MAP_SHARED mapping lands in the kernel's page cache without a
 * system call, and the kernel writes it back to the file even when the process is killed the
 * next instant: the same promise as a write(2) without fsync, at the cost of a memory copy.
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static void unmap_finalizer(napi_env env, void* data, void* hint) {
  (void)env;
  munmap(data, (size_t)(uintptr_t)hint);
}

static napi_value throw_errno(napi_env env, const char* call) {
  char message[160];
  snprintf(message, sizeof message, "%s failed: %s", call, strerror(errno));
  napi_throw_error(env, "EMMAP", message);
  return NULL;
}

/* map(fd, length) -> ArrayBuffer over the file's first `length` bytes; unmapped when collected. */
static napi_value map_file(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t fd;
  int64_t length;
  napi_value buffer;
  void* data;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 ||
      napi_get_value_int32(env, argv[0], &fd) != napi_ok || napi_get_value_int64(env, argv[1], &length) != napi_ok ||
      fd < 0 || length <= 0) {
    napi_throw_type_error(env, "EINVAL", "map(fd, length) takes an open file descriptor and a positive length");
    return NULL;
  }
  data = mmap(NULL, (size_t)length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) return throw_errno(env, "mmap");
  if (napi_create_external_arraybuffer(env, data, (size_t)length, unmap_finalizer, (void*)(uintptr_t)length, &buffer) != napi_ok) {
    munmap(data, (size_t)length);
    napi_throw_error(env, "EMMAP", "could not wrap the mapping in an ArrayBuffer");
    return NULL;
  }
  return buffer;
}

/* sync(arrayBuffer): writes the mapping's dirty pages to disk and waits (msync MS_SYNC). */
static napi_value sync_mapping(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void* data;
  size_t length;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_arraybuffer_info(env, argv[0], &data, &length) != napi_ok) {
    napi_throw_type_error(env, "EINVAL", "sync(buffer) takes an ArrayBuffer that map() answered");
    return NULL;
  }
  if (msync(data, length, MS_SYNC) != 0) return throw_errno(env, "msync");
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
    {"map", NULL, map_file, NULL, NULL, NULL, napi_enumerable, NULL},
    {"sync", NULL, sync_mapping, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
