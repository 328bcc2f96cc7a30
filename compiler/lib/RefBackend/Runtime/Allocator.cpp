//===- Allocator.cpp - Buffers of the RefBackend's generated code ---------===//
//
// Part of the torch2mlir project.
//
// The RefBackend lowers `memref.alloc`/`memref.dealloc` with
// `finalize-memref-to-llvm{use-generic-functions}`, so the generated code
// calls _mlir_memref_to_llvm_alloc / _aligned_alloc / _free, defined here.
// The runtime kernels take their scratch buffers (im2col columns, dense
// copies) from the same functions.
//
// A program allocates and frees the same large buffers on every call. With
// plain malloc, glibc maps blocks this large with mmap (or trims them off the
// heap top) and gives them back at free, so every call pays the page faults
// of zero-filled pages again, in the thread that first touches them; the
// other threads wait. Here, blocks of at least kCachedMinBytes are kept when
// freed and handed out again to a later request of the same size or up to a
// quarter smaller (best fit), so a steady state of calls maps nothing. The
// cache holds at most kCacheMaxBytes of idle blocks; past that, the largest
// idle blocks are released first. Smaller blocks go straight to malloc.
//
// Every block carries a header with its size, so free needs no lookup; the
// Python runtime frees results that the code allocated with
// torch2mlir_runtime_free.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>

#define T2M_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

/// Header in front of every block; its size keeps the payload aligned to 64
/// bytes (a cache line, the widest vector).
constexpr size_t kHeaderBytes = 64;
constexpr size_t kCachedMinBytes = size_t(64) << 10;
constexpr size_t kCacheMaxBytes = size_t(1) << 30;
constexpr size_t kPageBytes = 4096;

struct Header {
  size_t payloadBytes;
  /// What to pass to std::free: the header itself, but for a block aligned
  /// wider than the header.
  void *base;
};

struct Cache {
  std::mutex mutex;
  /// Idle blocks by payload size.
  std::multimap<size_t, Header *> idle;
  size_t idleBytes = 0;
};

Cache &cache() {
  // Never destroyed: buffers may be freed during interpreter shutdown.
  static Cache *instance = new Cache;
  return *instance;
}

void *payload(Header *header) {
  return reinterpret_cast<char *>(header) + kHeaderBytes;
}

Header *headerOf(void *ptr) {
  return reinterpret_cast<Header *>(static_cast<char *>(ptr) - kHeaderBytes);
}

Header *newBlock(size_t payloadBytes) {
  void *memory = std::aligned_alloc(kHeaderBytes, kHeaderBytes + payloadBytes);
  if (!memory)
    return nullptr;
  auto *header = static_cast<Header *>(memory);
  header->payloadBytes = payloadBytes;
  header->base = memory;
  return header;
}

void *allocate(size_t bytes) {
  if (bytes < kCachedMinBytes) {
    // aligned_alloc wants a multiple of the alignment.
    size_t rounded = (bytes + kHeaderBytes - 1) / kHeaderBytes * kHeaderBytes;
    Header *header = newBlock(rounded);
    return header ? payload(header) : nullptr;
  }
  size_t rounded = (bytes + kPageBytes - 1) / kPageBytes * kPageBytes;
  {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.idle.lower_bound(rounded);
    if (it != c.idle.end() && it->first - rounded <= rounded / 4) {
      Header *header = it->second;
      c.idleBytes -= it->first;
      c.idle.erase(it);
      return payload(header);
    }
  }
  Header *header = newBlock(rounded);
  return header ? payload(header) : nullptr;
}

void release(void *ptr) {
  if (!ptr)
    return;
  Header *header = headerOf(ptr);
  size_t bytes = header->payloadBytes;
  if (bytes < kCachedMinBytes || bytes > kCacheMaxBytes ||
      header->base != header) {
    std::free(header->base);
    return;
  }
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.idle.emplace(bytes, header);
  c.idleBytes += bytes;
  while (c.idleBytes > kCacheMaxBytes) {
    auto largest = std::prev(c.idle.end());
    c.idleBytes -= largest->first;
    std::free(largest->second);
    c.idle.erase(largest);
  }
}

} // namespace

T2M_EXPORT void *_mlir_memref_to_llvm_alloc(size_t bytes) {
  return allocate(bytes);
}

T2M_EXPORT void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment,
                                                    size_t bytes) {
  // Payloads are 64-byte aligned. A wider alignment (a power of two, as
  // aligned_alloc requires) gets a block of its own, never cached.
  if (alignment <= kHeaderBytes)
    return allocate(bytes);
  size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  void *memory = std::aligned_alloc(alignment, alignment + rounded);
  if (!memory)
    return nullptr;
  void *ptr = static_cast<char *>(memory) + alignment;
  Header *header = headerOf(ptr);
  header->payloadBytes = rounded;
  header->base = memory;
  return ptr;
}

T2M_EXPORT void _mlir_memref_to_llvm_free(void *ptr) { release(ptr); }

/// Frees a buffer that the generated code allocated (a result it returned).
T2M_EXPORT void torch2mlir_runtime_free(void *ptr) { release(ptr); }

/// Bytes of idle cached blocks, for tests and benchmarks.
T2M_EXPORT int64_t torch2mlir_runtime_cached_bytes() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return static_cast<int64_t>(c.idleBytes);
}

/// Releases every idle cached block to the system.
T2M_EXPORT void torch2mlir_runtime_release_cached() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  for (auto &entry : c.idle)
    std::free(entry.second);
  c.idle.clear();
  c.idleBytes = 0;
}
