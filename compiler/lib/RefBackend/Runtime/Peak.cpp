//===- Peak.cpp - The machine's float32 multiply-add peak -----------------===//
//
// Part of the torch2mlir project.
//
// A yardstick for the benchmarks: how many float32 operations per second
// the cores that run compiled code can do at most. Each thread of the
// OpenMP team (Parallel.cpp) runs a loop of fused multiply-adds on 16
// independent vector accumulators (12 with AVX2: more than an FMA's latency
// times its issue rate, so the pipes never wait), with no memory traffic; the
// result counts 2 operations per lane of each FMA. Widest vectors the CPU has:
// AVX-512, else AVX2 with FMA, else scalar code.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <immintrin.h>

#define T2M_EXPORT extern "C" __attribute__((visibility("default")))

extern "C" int torch2mlir_runtime_max_threads();
extern "C" void torch2mlir_parallel_for(void (*body)(void *, int64_t, int64_t),
                                        void *ctx, int64_t n, int64_t grain);

namespace {

/// Accumulators of the AVX-512 and scalar loops: 16 of the 32 vector
/// registers.
constexpr int kAccumulators = 16;
/// Accumulators of the AVX2 loop: 12 of the 16 vector registers, since the
/// loop's two constants take two more (16 spilled to the stack, and the
/// loop read 52 GFLOP/s on an AVX2 Zen 4 core whose convolutions run at
/// 82); 12 still cover an FMA's latency (4 cycles) times its 2 pipes.
constexpr int kAccumulators256 = 12;

/// `iterations` rounds of one FMA per accumulator; returns a value that
/// depends on every accumulator, so none is optimized away. acc = acc * a
/// + b with a = 0.5 converges to 2b: no overflow, no subnormals.
__attribute__((target("avx512f"))) float fmaLoop512(int64_t iterations) {
  __m512 acc[kAccumulators];
  for (int j = 0; j < kAccumulators; ++j)
    acc[j] = _mm512_set1_ps(static_cast<float>(j));
  __m512 a = _mm512_set1_ps(0.5f), b = _mm512_set1_ps(1.0f);
  for (int64_t i = 0; i < iterations; ++i)
    for (int j = 0; j < kAccumulators; ++j)
      acc[j] = _mm512_fmadd_ps(acc[j], a, b);
  __m512 sum = acc[0];
  for (int j = 1; j < kAccumulators; ++j)
    sum = _mm512_add_ps(sum, acc[j]);
  return _mm512_reduce_add_ps(sum);
}

__attribute__((target("avx2,fma"))) float fmaLoop256(int64_t iterations) {
  __m256 acc[kAccumulators256];
  for (int j = 0; j < kAccumulators256; ++j)
    acc[j] = _mm256_set1_ps(static_cast<float>(j));
  __m256 a = _mm256_set1_ps(0.5f), b = _mm256_set1_ps(1.0f);
  for (int64_t i = 0; i < iterations; ++i)
    for (int j = 0; j < kAccumulators256; ++j)
      acc[j] = _mm256_fmadd_ps(acc[j], a, b);
  float lanes[8];
  __m256 sum = acc[0];
  for (int j = 1; j < kAccumulators256; ++j)
    sum = _mm256_add_ps(sum, acc[j]);
  _mm256_storeu_ps(lanes, sum);
  float total = 0;
  for (float lane : lanes)
    total += lane;
  return total;
}

float fmaLoopScalar(int64_t iterations) {
  float acc[kAccumulators];
  for (int j = 0; j < kAccumulators; ++j)
    acc[j] = static_cast<float>(j);
  for (int64_t i = 0; i < iterations; ++i)
    for (float &x : acc)
      x = x * 0.5f + 1.0f;
  float total = 0;
  for (float x : acc)
    total += x;
  return total;
}

struct Job {
  int lanes;
  int64_t iterations;
  float sink[256];
};

void runThreads(void *ctx, int64_t lo, int64_t hi) {
  auto &job = *static_cast<Job *>(ctx);
  for (int64_t t = lo; t < hi; ++t) {
    float r = job.lanes == 16  ? fmaLoop512(job.iterations)
              : job.lanes == 8 ? fmaLoop256(job.iterations)
                               : fmaLoopScalar(job.iterations);
    job.sink[t % 256] = r;
  }
}

} // namespace

/// The float32 operations per second (an FMA counts 2 per lane) of all
/// threads a parallel loop may use now (torch2mlir_runtime_max_threads),
/// at most: the best of `trials` runs of about `seconds` each. Writes the
/// vector lanes used (16: AVX-512, 8: AVX2, 1: scalar) to `lanes`.
T2M_EXPORT double torch2mlir_runtime_fp32_peak(double seconds, int trials,
                                               int *lanes) {
  Job job{};
  job.lanes =
      __builtin_cpu_supports("avx512f")                                   ? 16
      : (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) ? 8
                                                                          : 1;
  if (lanes)
    *lanes = job.lanes;
  // FMAs per lane in one iteration of the loop that runs.
  int fmasPerLane = job.lanes == 8 ? kAccumulators256 : kAccumulators;
  int64_t threads = std::max(1, torch2mlir_runtime_max_threads());
  using Clock = std::chrono::steady_clock;
  auto run = [&](int64_t iterations) {
    job.iterations = iterations;
    auto start = Clock::now();
    torch2mlir_parallel_for(runThreads, &job, threads, 1);
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  // Calibrate the iterations to about `seconds` on one thread's share.
  int64_t iterations = 1 << 16;
  double elapsed = run(iterations);
  while (elapsed < seconds / 4 && iterations < (int64_t(1) << 40)) {
    iterations *= 2;
    elapsed = run(iterations);
  }
  if (elapsed > 0)
    iterations = std::max<int64_t>(
        1, static_cast<int64_t>(iterations * (seconds / elapsed)));
  double best = 0;
  for (int i = 0; i < std::max(trials, 1); ++i) {
    double t = run(iterations);
    if (t > 0)
      best = std::max(best, 2.0 * fmasPerLane * job.lanes *
                                static_cast<double>(iterations) * threads / t);
  }
  return best;
}
