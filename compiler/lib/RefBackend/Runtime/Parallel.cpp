//===- Parallel.cpp - Parallel loops of the RefBackend's generated code ---===//
//
// Part of the torch2mlir project.
//
// `refbackend-parallelize-loops` outlines the body of each top-level
// `scf.parallel` into a function `body(ctx, lo, hi)` that runs iterations
// [lo, hi) of one of its dimensions, and replaces the loop by
//
//   torch2mlir_parallel_for(body, ctx, n, grain)
//
// This file implements that call on the OpenMP runtime that PyTorch itself
// uses (the Python runtime passes its path to
// torch2mlir_runtime_init_openmp), through the GNU OpenMP ABI
// (`GOMP_parallel`, also provided by LLVM's and Intel's runtimes). Sharing
// PyTorch's thread team means one pool of workers in the process, sized by
// `torch.set_num_threads` (the OpenMP `nthreads-var` of the calling thread).
// Without an OpenMP runtime, or for small loops, the body runs in the
// calling thread.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <dlfcn.h>

#define T2M_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using BodyFn = void (*)(void *ctx, int64_t lo, int64_t hi);
using GompParallelFn = void (*)(void (*)(void *), void *, unsigned, unsigned);
using OmpIntFn = int (*)();

GompParallelFn gompParallel = nullptr;
OmpIntFn ompGetMaxThreads = nullptr;
OmpIntFn ompGetThreadNum = nullptr;
OmpIntFn ompGetNumThreads = nullptr;
OmpIntFn ompInParallel = nullptr;

/// Loops that ran on more than one thread, for tests and benchmarks.
std::atomic<int64_t> parallelRegions{0};

struct Job {
  BodyFn body;
  void *ctx;
  int64_t n;
};

/// The team's function: thread t of T runs the t-th of T contiguous,
/// near-equal chunks of [0, n).
void runChunk(void *data) {
  const Job &job = *static_cast<const Job *>(data);
  int64_t threads = ompGetNumThreads(), thread = ompGetThreadNum();
  int64_t base = job.n / threads, extra = job.n % threads;
  int64_t lo = thread * base + std::min(thread, extra);
  int64_t hi = lo + base + (thread < extra ? 1 : 0);
  if (lo < hi)
    job.body(job.ctx, lo, hi);
}

} // namespace

/// Binds the OpenMP runtime at `path` (already loaded by PyTorch: dlopen
/// returns the same instance). Returns 1 on success, 0 when the library or
/// one of its entry points is missing (loops then run in the caller).
T2M_EXPORT int torch2mlir_runtime_init_openmp(const char *path) {
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return 0;
  auto parallel =
      reinterpret_cast<GompParallelFn>(dlsym(handle, "GOMP_parallel"));
  auto maxThreads =
      reinterpret_cast<OmpIntFn>(dlsym(handle, "omp_get_max_threads"));
  auto threadNum =
      reinterpret_cast<OmpIntFn>(dlsym(handle, "omp_get_thread_num"));
  auto numThreads =
      reinterpret_cast<OmpIntFn>(dlsym(handle, "omp_get_num_threads"));
  auto inParallel =
      reinterpret_cast<OmpIntFn>(dlsym(handle, "omp_in_parallel"));
  if (!parallel || !maxThreads || !threadNum || !numThreads || !inParallel)
    return 0;
  ompGetMaxThreads = maxThreads;
  ompGetThreadNum = threadNum;
  ompGetNumThreads = numThreads;
  ompInParallel = inParallel;
  gompParallel = parallel;
  return 1;
}

/// The number of threads a parallel loop may use now (1 without OpenMP).
T2M_EXPORT int torch2mlir_runtime_max_threads() {
  return gompParallel ? ompGetMaxThreads() : 1;
}

/// Whether an OpenMP runtime is bound (torch2mlir_runtime_init_openmp).
T2M_EXPORT int torch2mlir_runtime_has_openmp() {
  return gompParallel != nullptr;
}

/// Whether the calling thread runs inside a parallel region (0 without
/// OpenMP).
T2M_EXPORT int torch2mlir_runtime_in_parallel() {
  return gompParallel ? ompInParallel() : 0;
}

/// Runs body(ctx, lo, hi) over chunks covering [0, n) exactly once, on at
/// most n / grain threads (each chunk has at least `grain` iterations, so
/// a small loop is not split into tasks that cost more than they save).
T2M_EXPORT void torch2mlir_parallel_for(BodyFn body, void *ctx, int64_t n,
                                        int64_t grain) {
  if (n <= 0)
    return;
  int64_t tasks = n / std::max<int64_t>(grain, 1);
  if (gompParallel && tasks > 1 && !ompInParallel()) {
    int64_t threads = std::min<int64_t>(tasks, ompGetMaxThreads());
    if (threads > 1) {
      Job job{body, ctx, n};
      parallelRegions.fetch_add(1, std::memory_order_relaxed);
      gompParallel(runChunk, &job, static_cast<unsigned>(threads), 0);
      return;
    }
  }
  body(ctx, 0, n);
}

/// How many loops have run on more than one thread in this process.
T2M_EXPORT int64_t torch2mlir_runtime_parallel_regions() {
  return parallelRegions.load(std::memory_order_relaxed);
}
