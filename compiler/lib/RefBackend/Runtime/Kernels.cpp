//===- Kernels.cpp - BLAS-backed kernels for the RefBackend ---------------===//
//
// Part of the torch2mlir project.
//
// `refbackend-runtime-kernels` replaces f32/f64 matmuls and convolutions on
// buffers by calls to these functions (C interface of MLIR memrefs). They
// run the contraction as one GEMM of a BLAS that the Python runtime loads
// with torch2mlir_runtime_init (MKL from the mkl wheel when installed, else
// OpenBLAS from the scipy-openblas32 wheel):
//
//   matmul:       C += A @ B               (row- or column-major A and B;
//                 float32 with B transposed and at most 8 rows of C, on
//                 AVX2: tiles of dot products reading B in place,
//                 smallGemmAvx2, where the BLAS would pack all of B)
//   matmul_frozen: the same, B a frozen weight (compile(freeze=True)):
//                 with MKL, B is packed once per (B, shape) by
//                 cblas_?gemm_pack and each call runs cblas_?gemm_compute
//                 on the packed copy, until the Python module that owns B
//                 releases it (torch2mlir_runtime_release_packed)
//   batch_matmul: C[b] += A[b] @ B[b]   (one batched GEMM call with MKL)
//   conv2d/3d:    out[n] (F x O) += W (F x C*K) @ im2col(in[n])
//                 (an im2col over 512 KiB in blocks of output columns,
//                 each multiplied while it is in the L2 cache; with at
//                 most 16 output channels per group, f32, AVX-512, no
//                 im2col: tiles of 8 channels x 32 columns of an output
//                 row in registers, convDirectTiledAvx512; f32, stride
//                 1, planes of 512 outputs and more: wide tiles of 8
//                 channels x 48 positions across row ends, convDirectWide,
//                 on AVX-512, or on AVX2 for reductions under 512;
//                 f32, AVX2 without AVX-512, stride 1, rows of 24 outputs
//                 and more, reductions up to 1152: an implicit GEMM of 16
//                 channels x 6 positions in registers, the input
//                 broadcast where the window reads it, convImplicitAvx2)
//                 (the float kernels' last argument, `accumulate` = 0,
//                 makes each of these = instead of +=: C is not read)
//                 (O, K: the products of the output and window sizes)
//   sort_ranks:   ranks[p] += the position of x[p] in its slice's stable
//                 sort (a radix sort of the values as ordered integers),
//                 any rank (unranked memrefs)
//   sort_order:   order[r] += the position whose rank is r
//   sort_positions: both in one: order[r] += the position of rank r
//
// Any layout the fast path does not handle falls back to plain loops, so
// every call computes the right result. The loops accumulate with fused
// multiply-adds (std::fma: one rounding per step, as the BLAS and PyTorch's
// oneDNN kernels), compiled for AVX2+FMA and picked at run time on CPUs
// that have them; a product that overflows alone then does not turn an
// infinite sum into NaN (inf - inf). The BLAS runs single-threaded; the
// kernels split batches, groups, and rows or columns of each GEMM across
// the OpenMP team of Parallel.cpp (PyTorch's threads).
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <initializer_list>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#define T2M_EXPORT extern "C" __attribute__((visibility("default")))

// Parallel.cpp.
extern "C" void torch2mlir_parallel_for(void (*body)(void *, int64_t, int64_t),
                                        void *ctx, int64_t n, int64_t grain);
extern "C" int torch2mlir_runtime_max_threads();
extern "C" int torch2mlir_runtime_in_parallel();
extern "C" int torch2mlir_runtime_has_openmp();
// Allocator.cpp.
extern "C" void *_mlir_memref_to_llvm_alloc(size_t bytes);
extern "C" void _mlir_memref_to_llvm_free(void *ptr);

namespace {

/// A scratch buffer of a kernel from the runtime's caching allocator: not
/// zero-filled, and its pages stay mapped from one call to the next.
template <typename T> class Scratch {
public:
  Scratch() = default;
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  ~Scratch() { _mlir_memref_to_llvm_free(buffer); }

  /// Room for at least `n` elements (the old contents are lost).
  void resize(size_t n) {
    if (n <= capacity)
      return;
    _mlir_memref_to_llvm_free(buffer);
    buffer = static_cast<T *>(_mlir_memref_to_llvm_alloc(n * sizeof(T)));
    if (!buffer)
      throw std::bad_alloc();
    capacity = n;
  }
  T *data() const { return buffer; }

private:
  T *buffer = nullptr;
  size_t capacity = 0;
};

/// The widest vector instructions the kernels may use, a cap on what the
/// CPU has (torch2mlir_runtime_set_cpu_capability): 2 AVX-512, 1 AVX2 with
/// FMA, 0 neither.
int gCpuCapability = 2;

/// T2M_FMA_CLONES(name, params, args) defines `name` (a function template
/// on T whose body is the always-inline `name##Body`) to run a copy of the
/// body compiled for AVX2+FMA on CPUs that have them, where std::fma is a
/// vfmadd instruction, and the generic copy (std::fma a libm call: correct,
/// slower) elsewhere.
#if defined(__x86_64__) && defined(__GNUC__)
bool haveFastFma() {
  static const bool fast =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return fast && gCpuCapability >= 1;
}
#define T2M_FMA_CLONES(name, params, args)                                     \
  template <typename T>                                                        \
  __attribute__((target("avx2,fma"))) void name##Fma params {                  \
    name##Body<T> args;                                                        \
  }                                                                            \
  template <typename T> void name##Generic params { name##Body<T> args; }      \
  template <typename T> void name params {                                     \
    if (haveFastFma())                                                         \
      name##Fma<T> args;                                                       \
    else                                                                       \
      name##Generic<T> args;                                                   \
  }
#else
#define T2M_FMA_CLONES(name, params, args)                                     \
  template <typename T> void name params { name##Body<T> args; }
#endif

template <typename T, int Rank> struct StridedMemRef {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[Rank];
  int64_t strides[Rank];

  T *data() const { return aligned + offset; }
};

// CBLAS enums (cblas.h).
constexpr int kRowMajor = 101;
constexpr int kNoTrans = 111;
constexpr int kTrans = 112;

using SgemmFn = void (*)(int, int, int, int, int, int, float, const float *,
                         int, const float *, int, float, float *, int);
using DgemmFn = void (*)(int, int, int, int, int, int, double, const double *,
                         int, const double *, int, double, double *, int);

using SgemmBatchFn = void (*)(int, int, int, int, int, int, float,
                              const float *, int, int, const float *, int, int,
                              float, float *, int, int, int);
using DgemmBatchFn = void (*)(int, int, int, int, int, int, double,
                              const double *, int, int, const double *, int,
                              int, double, double *, int, int, int);

SgemmFn sgemm = nullptr;
DgemmFn dgemm = nullptr;
/// A second BLAS for the GEMMs of at least kLargeGemmMinDim in each of m, n
/// and k (torch2mlir_runtime_init_large_gemm; null: the first one runs
/// every GEMM). Single-threaded: gemm splits its GEMMs across the team.
/// 32, not 64: the 49 positions of ResNet's last stage also run faster
/// there (ResNet-50 0.96x, ResNet-18 0.94x at one thread on a Zen 4 core,
/// same-round A/B); the GEMMs of 1 to 8 rows (an MLP, a decoding step) are
/// the ones OpenBLAS runs slower.
SgemmFn sgemmLarge = nullptr;
DgemmFn dgemmLarge = nullptr;
constexpr int kLargeGemmMinDim = 32;
/// cblas_?gemm_batch_strided (MKL; null when the BLAS has none): a batch of
/// GEMMs of one shape whose operands are evenly spaced in memory.
SgemmBatchFn sgemmBatch = nullptr;
DgemmBatchFn dgemmBatch = nullptr;
/// MKL's packed-matrix GEMM (null when the BLAS has none):
/// cblas_?gemm_pack_get_size(identifier, m, n, k) -> bytes,
/// cblas_?gemm_pack(layout, identifier, trans, m, n, k, alpha, src, ld,
/// dest), cblas_?gemm_compute(layout, transa, transb, m, n, k, a, lda, b,
/// ldb, beta, c, ldc) with transb = packed.
using GemmPackSizeFn = size_t (*)(int, int, int, int);
template <typename T>
using GemmPackFn = void (*)(int, int, int, int, int, int, T, const T *, int,
                            T *);
template <typename T>
using GemmComputeFn = void (*)(int, int, int, int, int, int, const T *, int,
                               const T *, int, T, T *, int);
template <typename T> struct PackedGemmApi {
  GemmPackSizeFn size = nullptr;
  GemmPackFn<T> pack = nullptr;
  GemmComputeFn<T> compute = nullptr;
};
PackedGemmApi<float> sgemmPacked;
PackedGemmApi<double> dgemmPacked;
template <typename T> PackedGemmApi<T> &packedGemmApi();
template <> PackedGemmApi<float> &packedGemmApi<float>() { return sgemmPacked; }
template <> PackedGemmApi<double> &packedGemmApi<double>() {
  return dgemmPacked;
}
/// MKL_Set_Num_Threads_Local when MKL runs its GNU OpenMP threading layer
/// on PyTorch's team (null otherwise: the BLAS is sequential).
int (*mklSetThreadsLocal)(int) = nullptr;

/// Runs f(lo, hi) over chunks of [0, n) of at least `grain` iterations on
/// the OpenMP team (Parallel.cpp), or inline inside a parallel region.
template <typename F> void parallelFor(int64_t n, int64_t grain, F &&f) {
  auto chunk = [](void *ctx, int64_t lo, int64_t hi) {
    (*static_cast<std::remove_reference_t<F> *>(ctx))(lo, hi);
  };
  torch2mlir_parallel_for(chunk, &f, n, grain);
}

/// Multiply-adds worth one task of a GEMM split (a few tens of
/// microseconds on one core).
constexpr int64_t kGemmTaskWork = int64_t(1) << 18;
/// Fewer rows or columns than this per task and the BLAS loses its
/// blocking efficiency.
constexpr int64_t kGemmMinSplit = 16;

/// GEMMs of at most this many rows of C are split by columns across the
/// team when B has at least kSkinnyMinElements elements, in tasks of at
/// least kSkinnyTaskElements elements of B (64 KiB of float32: a few
/// microseconds of reading, more than a parallel region costs). On the
/// bench's LLaMA decode step (2 threads; per-round medians of 300 calls,
/// 4 alternating rounds), 0.755 -> 0.515 ms; its MLP (batch 8), 0.150 ->
/// 0.110 ms.
constexpr int64_t kSkinnyRows = 8;
constexpr int64_t kSkinnyMinElements = int64_t(1) << 15;
constexpr int64_t kSkinnyTaskElements = int64_t(1) << 14;

/// Whether a GEMM of m x n x k goes to the large-GEMM BLAS (sgemmLarge).
template <typename T> bool largeGemm(int m, int n, int k) {
  bool loaded;
  if constexpr (std::is_same_v<T, float>)
    loaded = sgemmLarge != nullptr;
  else
    loaded = dgemmLarge != nullptr;
  return loaded && std::min({m, n, k}) >= kLargeGemmMinDim;
}

/// One single-threaded (or, outside a parallel region, MKL-threaded) GEMM
/// call of the BLAS, or of the large-GEMM one when `large`.
void gemmCall(bool large, int transA, int transB, int m, int n, int k,
              const float *a, int lda, const float *b, int ldb, float beta,
              float *c, int ldc) {
  (large ? sgemmLarge : sgemm)(kRowMajor, transA, transB, m, n, k, 1.0f, a, lda,
                               b, ldb, beta, c, ldc);
}
void gemmCall(bool large, int transA, int transB, int m, int n, int k,
              const double *a, int lda, const double *b, int ldb, double beta,
              double *c, int ldc) {
  (large ? dgemmLarge : dgemm)(kRowMajor, transA, transB, m, n, k, 1.0, a, lda,
                               b, ldb, beta, c, ldc);
}

#if defined(__x86_64__) && defined(__GNUC__)
/// GEMMs of at most kSmallGemmMaxRows rows of C whose B is transposed (a
/// Linear layer on a small batch, a decoding step) run in smallGemmAvx2 on
/// AVX2 CPUs: each row of the weight is read where it lies, where the BLAS
/// copies all of B into its packed panels on every call for a handful of
/// products per element. MKL's sgemm on the bench's MLP (784-512-256-10,
/// batch 8, one Zen 4 core) spent as long in that copy
/// (mkl_blas_def_sgemm_scopy_right16_bdz, 30% of the samples) as in its
/// kernel (34%); with smallGemmAvx2 the MLP took 0.163 ms against 0.292
/// (medians of 4-second loops, one thread), a Linear(768, 3072) on 8 rows
/// 1.9 ms against 2.8-3.2 (MKL), on 32 rows 3.5-3.9 against 5.1
/// (OpenBLAS), on a memory-bound host. One row (a GEMV, which the BLAS
/// does not pack either) gains too: the bench's LLaMA decode step, 2.98
/// against 3.49 ms at one thread, 2.00 against 2.61 at two (medians of 3
/// alternating rounds). A row-major B stays with the BLAS: a tile that
/// walks down 24 of its columns reads one cache line or two of each 4 KiB
/// page (a Linear(768, 3072) as x @ W on 8 rows, 7.0 ms against 4.3).
constexpr int64_t kSmallGemmMaxRows = 8;
/// Rows and columns of C per tile of smallGemmAvx2: 12 accumulators, 3
/// vectors of B and one of A fill the 16 AVX2 registers.
constexpr int kSmallTileRows = 4;
constexpr int kSmallTileCols = 3;

/// The maskload/maskstore mask of the first min(max(n, 0), 8) lanes of an
/// 8-float vector.
__attribute__((target("avx2"))) inline __m256i firstLanes8(int64_t n) {
  return _mm256_cmpgt_epi32(
      _mm256_set1_epi32(static_cast<int>(std::clamp<int64_t>(n, 0, 8))),
      _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

__attribute__((target("avx2,fma"))) inline float horizontalSum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

/// C[i][j] (= or += with `accumulate`) the dot product of row i of A (k
/// floats at a + i * lda) and column j of B (k floats at b + j * ldb: B
/// transposed, a Linear layer's weight), for Rows x Cols of them: 8 lanes
/// of partial sums per product, one FMA per step, added up at the end.
template <int Rows, int Cols>
__attribute__((target("avx2,fma"))) void
smallDotTile(const float *a, int64_t lda, const float *b, int64_t ldb,
             int64_t k, float *c, int64_t ldc, bool accumulate) {
  __m256 acc[Rows][Cols];
#pragma GCC unroll 4
  for (int i = 0; i < Rows; ++i)
#pragma GCC unroll 3
    for (int j = 0; j < Cols; ++j)
      acc[i][j] = _mm256_setzero_ps();
  int64_t p = 0;
  for (; p + 8 <= k; p += 8) {
    __m256 bv[Cols];
#pragma GCC unroll 3
    for (int j = 0; j < Cols; ++j)
      bv[j] = _mm256_loadu_ps(b + j * ldb + p);
#pragma GCC unroll 4
    for (int i = 0; i < Rows; ++i) {
      __m256 av = _mm256_loadu_ps(a + i * lda + p);
#pragma GCC unroll 3
      for (int j = 0; j < Cols; ++j)
        acc[i][j] = _mm256_fmadd_ps(av, bv[j], acc[i][j]);
    }
  }
  if (p < k) {
    // The last k % 8 steps: masked loads (lanes off read no memory, as 0).
    __m256i mask = firstLanes8(k - p);
    __m256 bv[Cols];
#pragma GCC unroll 3
    for (int j = 0; j < Cols; ++j)
      bv[j] = _mm256_maskload_ps(b + j * ldb + p, mask);
#pragma GCC unroll 4
    for (int i = 0; i < Rows; ++i) {
      __m256 av = _mm256_maskload_ps(a + i * lda + p, mask);
#pragma GCC unroll 3
      for (int j = 0; j < Cols; ++j)
        acc[i][j] = _mm256_fmadd_ps(av, bv[j], acc[i][j]);
    }
  }
  for (int i = 0; i < Rows; ++i)
    for (int j = 0; j < Cols; ++j) {
      float sum = horizontalSum(acc[i][j]);
      float &out = c[i * ldc + j];
      out = accumulate ? out + sum : sum;
    }
}

using SmallTileFn = void (*)(const float *, int64_t, const float *, int64_t,
                             int64_t, float *, int64_t, bool);
/// smallDotTile<R, C> at [R - 1][C - 1].
constexpr SmallTileFn kSmallDotTiles[kSmallTileRows][kSmallTileCols] = {
    {smallDotTile<1, 1>, smallDotTile<1, 2>, smallDotTile<1, 3>},
    {smallDotTile<2, 1>, smallDotTile<2, 2>, smallDotTile<2, 3>},
    {smallDotTile<3, 1>, smallDotTile<3, 2>, smallDotTile<3, 3>},
    {smallDotTile<4, 1>, smallDotTile<4, 2>, smallDotTile<4, 3>}};
/// Whether smallGemmAvx2 runs a float32 C (m x n) = A (m x k) @ B (k x n):
/// on a CPU with AVX2 and FMA, A row-major, B column-major (B transposed:
/// a Linear layer's weight), at most kSmallGemmMaxRows rows.
bool smallGemmApplies(int transA, int transB, int64_t m) {
  return haveFastFma() && transA == kNoTrans && transB == kTrans &&
         m <= kSmallGemmMaxRows;
}

/// Columns [n0, n1) of C (m x n, row-major, ldc) = or += A (m x k,
/// row-major, lda) @ B (B transposed: row j of n x k at b + j * ldb),
/// without copying B: per block of 3 columns, tiles of up to 4 rows
/// (smallDotTile) while those 3 rows of the weight are in the L1 cache.
void smallGemmAvx2(int64_t m, int64_t n0, int64_t n1, int64_t k, const float *a,
                   int64_t lda, const float *b, int64_t ldb, float *c,
                   int64_t ldc, bool accumulate) {
  for (int64_t j0 = n0; j0 < n1; j0 += kSmallTileCols) {
    int cols = static_cast<int>(std::min<int64_t>(kSmallTileCols, n1 - j0));
    for (int64_t i0 = 0; i0 < m; i0 += kSmallTileRows) {
      int rows = static_cast<int>(std::min<int64_t>(kSmallTileRows, m - i0));
      kSmallDotTiles[rows - 1][cols - 1](a + i0 * lda, lda, b + j0 * ldb, ldb,
                                         k, c + i0 * ldc + j0, ldc, accumulate);
    }
  }
}
#endif

/// C (m x n, row-major) += op(A) @ op(B), or = without `accumulate`, on the
/// OpenMP team: the BLAS runs single-threaded in each task, on a band of
/// rows of C (or of columns when C is wider than tall, or has at most
/// kSkinnyRows rows); small GEMMs of a transposed B (smallGemmApplies) run
/// in smallGemmAvx2 instead, split by columns.
template <typename T>
void gemm(int transA, int transB, int m, int n, int k, const T *a, int lda,
          const T *b, int ldb, T *c, int ldc, bool accumulate) {
  T beta = accumulate ? T(1) : T(0);
  bool large = largeGemm<T>(m, n, k);
  // A skinny GEMM (a decoder's one token, a small batch) reads all of B
  // for few products: its time is B's bytes. MKL keeps these on one thread
  // (a 1 x 256 @ 256 x 688 ran in mkl_blas_def_xsgemv_kernel_t while the
  // other thread waited), so the team splits B's columns below instead,
  // each task reading its own part of B.
  bool inParallel = torch2mlir_runtime_in_parallel();
  int64_t skinnyGrain = std::max<int64_t>(
      kGemmMinSplit, kSkinnyTaskElements / std::max<int64_t>(k, 1));
#if defined(__x86_64__) && defined(__GNUC__)
  if constexpr (std::is_same_v<T, float>)
    if (smallGemmApplies(transA, transB, m)) {
      // Columns split across the team as the skinny GEMMs' below.
      int64_t grain = int64_t(n) * k >= kSkinnyMinElements ? skinnyGrain : n;
      parallelFor(n, grain, [&](int64_t lo, int64_t hi) {
        smallGemmAvx2(m, lo, hi, k, a, lda, b, ldb, c, ldc, accumulate);
      });
      return;
    }
#endif
  bool skinny = m <= kSkinnyRows && !inParallel &&
                torch2mlir_runtime_max_threads() > 1 && n / skinnyGrain >= 2 &&
                int64_t(n) * k >= kSkinnyMinElements;
  // Outside a parallel region, a threaded MKL splits the GEMM itself and
  // packs each panel of B once for the whole team; inside one (a task of a
  // convolution or batched matmul), it runs on the calling thread.
  if (!skinny && !large && mklSetThreadsLocal && !inParallel) {
    int previous = mklSetThreadsLocal(torch2mlir_runtime_max_threads());
    gemmCall(false, transA, transB, m, n, k, a, lda, b, ldb, beta, c, ldc);
    mklSetThreadsLocal(previous);
    return;
  }
  bool byRows = !skinny && m >= n;
  int64_t split = byRows ? m : n, other = byRows ? n : m;
  int64_t grain =
      skinny
          ? skinnyGrain
          : std::max<int64_t>(kGemmMinSplit,
                              kGemmTaskWork / std::max<int64_t>(other * k, 1));
  parallelFor(split, grain, [&](int64_t lo, int64_t hi) {
    int count = static_cast<int>(hi - lo);
    if (byRows)
      gemmCall(large, transA, transB, count, n, k,
               a + lo * (transA == kNoTrans ? lda : 1), lda, b, ldb, beta,
               c + lo * ldc, ldc);
    else
      gemmCall(large, transA, transB, m, count, k, a, lda,
               b + lo * (transB == kNoTrans ? 1 : ldb), ldb, beta, c + lo, ldc);
  });
}
template <typename T> bool haveGemm();
template <> bool haveGemm<float>() { return sgemm != nullptr; }
template <> bool haveGemm<double>() { return dgemm != nullptr; }

template <typename T> bool haveGemmBatch();
template <> bool haveGemmBatch<float>() { return sgemmBatch != nullptr; }
template <> bool haveGemmBatch<double>() { return dgemmBatch != nullptr; }
void gemmBatchCall(int transA, int transB, int m, int n, int k, const float *a,
                   int lda, int strideA, const float *b, int ldb, int strideB,
                   float beta, float *c, int ldc, int strideC, int count) {
  sgemmBatch(kRowMajor, transA, transB, m, n, k, 1.0f, a, lda, strideA, b, ldb,
             strideB, beta, c, ldc, strideC, count);
}
void gemmBatchCall(int transA, int transB, int m, int n, int k, const double *a,
                   int lda, int strideA, const double *b, int ldb, int strideB,
                   double beta, double *c, int ldc, int strideC, int count) {
  dgemmBatch(kRowMajor, transA, transB, m, n, k, 1.0, a, lda, strideA, b, ldb,
             strideB, beta, c, ldc, strideC, count);
}

/// How a 2-D operand with these strides is passed to GEMM: (trans, ld), or
/// trans = 0 when neither dim is unit-stride.
void gemmLayout(const int64_t *sizes, const int64_t *strides, int &trans,
                int64_t &ld) {
  if (strides[1] == 1 && strides[0] >= std::max<int64_t>(sizes[1], 1)) {
    trans = kNoTrans;
    ld = strides[0];
  } else if (strides[0] == 1 && strides[1] >= std::max<int64_t>(sizes[0], 1)) {
    trans = kTrans;
    ld = strides[1];
  } else {
    trans = 0;
  }
}

/// How C (m x n, strides `cs`) = A (m x k, `as`) @ B (k x n, `bs`) is one
/// GEMM call: the operands' transposes and leading dims.
struct GemmOperands {
  int transA, transB;
  int64_t lda, ldb;
};

/// Whether that product is one GEMM call (each operand row- or
/// column-major, C row-major, every size and leading dim within an int);
/// fills `ops` if so.
bool getGemmOperands(int64_t m, int64_t n, int64_t k, const int64_t *as,
                     const int64_t *bs, const int64_t *cs, GemmOperands &ops) {
  int64_t aSizes[2] = {m, k}, bSizes[2] = {k, n};
  ops = GemmOperands{};
  gemmLayout(aSizes, as, ops.transA, ops.lda);
  gemmLayout(bSizes, bs, ops.transB, ops.ldb);
  for (int64_t value : {m, n, k, ops.lda, ops.ldb, cs[0]})
    if (value >= INT32_MAX)
      return false;
  return ops.transA && ops.transB && cs[1] == 1 &&
         cs[0] >= std::max<int64_t>(n, 1);
}

/// C (m x n) += A (m x k) @ B (k x n) with arbitrary strides.
template <typename T>
__attribute__((always_inline)) inline void
matmulLoopsBody(int64_t m, int64_t n, int64_t k, const T *a, int64_t as0,
                int64_t as1, const T *b, int64_t bs0, int64_t bs1, T *c,
                int64_t cs0, int64_t cs1) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      T aip = a[i * as0 + p * as1];
      for (int64_t j = 0; j < n; ++j)
        c[i * cs0 + j * cs1] =
            std::fma(aip, b[p * bs0 + j * bs1], c[i * cs0 + j * cs1]);
    }
}
T2M_FMA_CLONES(matmulLoops,
               (int64_t m, int64_t n, int64_t k, const T *a, int64_t as0,
                int64_t as1, const T *b, int64_t bs0, int64_t bs1, T *c,
                int64_t cs0, int64_t cs1),
               (m, n, k, a, as0, as1, b, bs0, bs1, c, cs0, cs1))

/// Calls f(offset) for each element of a strided buffer of `rank` <= 5, in
/// row-major order; `offset` is the element's offset in elements.
template <typename F>
void forEachStrided(const int64_t *sizes, const int64_t *strides, int rank,
                    F &&f) {
  int64_t s[5] = {1, 1, 1, 1, 1}, st[5] = {0, 0, 0, 0, 0};
  for (int i = 0; i < rank; ++i) {
    s[5 - rank + i] = sizes[i];
    st[5 - rank + i] = strides[i];
  }
  for (int64_t i0 = 0; i0 < s[0]; ++i0)
    for (int64_t i1 = 0; i1 < s[1]; ++i1)
      for (int64_t i2 = 0; i2 < s[2]; ++i2)
        for (int64_t i3 = 0; i3 < s[3]; ++i3)
          for (int64_t i4 = 0; i4 < s[4]; ++i4)
            f(i0 * st[0] + i1 * st[1] + i2 * st[2] + i3 * st[3] + i4 * st[4]);
}

/// Sets the elements of a strided buffer of `rank` <= 5 to zero.
template <typename T>
void zeroStrided(const int64_t *sizes, const int64_t *strides, int rank, T *a) {
  forEachStrided(sizes, strides, rank,
                 [&](int64_t offset) { a[offset] = T(0); });
}

/// C (m x n) += A @ B, or C = A @ B without `accumulate` (C's old contents
/// are then never read: the compiled code dropped its zero fill).
template <typename T>
void matmul2d(int64_t m, int64_t n, int64_t k, const T *a, const int64_t *as,
              const T *b, const int64_t *bs, T *c, const int64_t *cs,
              bool accumulate) {
  if (m == 0 || n == 0)
    return;
  int64_t cSizes[2] = {m, n};
  if (k == 0) {
    if (!accumulate)
      zeroStrided(cSizes, cs, 2, c);
    return;
  }
  GemmOperands ops;
  if (haveGemm<T>() && getGemmOperands(m, n, k, as, bs, cs, ops)) {
    gemm(ops.transA, ops.transB, m, n, k, a, ops.lda, b, ops.ldb, c, cs[0],
         accumulate);
    return;
  }
  if (!accumulate)
    zeroStrided(cSizes, cs, 2, c);
  matmulLoops(m, n, k, a, as[0], as[1], b, bs[0], bs[1], c, cs[0], cs[1]);
}

template <typename T>
void matmul(StridedMemRef<T, 2> *a, StridedMemRef<T, 2> *b,
            StridedMemRef<T, 2> *c, bool accumulate) {
  matmul2d(c->sizes[0], c->sizes[1], a->sizes[1], a->data(), a->strides,
           b->data(), b->strides, c->data(), c->strides, accumulate);
}

// CBLAS_IDENTIFIER and CBLAS_STORAGE (mkl_cblas.h).
constexpr int kPackB = 162;
constexpr int kPacked = 151;
/// Fewer rows of A than this and a packed B gains nothing.
constexpr int64_t kPackMinRows = 4;
/// A B of fewer elements is not packed: MKL's packed buffer has a fixed
/// part of about 8 MB (cblas_sgemm_pack_get_size of a 64 x 128 B: 7.9 MB
/// for its 32 KB), which small layers would pay for little.
constexpr int64_t kPackMinElements = int64_t(1) << 16;
/// Packed copies of one B kept for different row counts of A (a dynamic
/// batch); past this, further row counts run the plain GEMM.
constexpr size_t kPackedShapesPerMatrix = 4;

/// A packed B: its data pointer, then (m, n, k, trans, ldb) of the GEMM it
/// was packed for, and the element size.
using PackKey =
    std::tuple<const void *, int64_t, int64_t, int64_t, int, int64_t, size_t>;
struct PackedMatrix {
  void *data;
  size_t bytes;
};
std::mutex packedMutex;
std::map<PackKey, PackedMatrix> packedMatrices;
size_t packedBytes = 0;

/// The packed copy of B for this GEMM, packed now if it is not yet; null
/// when MKL cannot pack it (no memory, or B already has
/// kPackedShapesPerMatrix packed shapes).
template <typename T>
const T *getPackedB(const T *b, int64_t m, int64_t n, int64_t k,
                    const GemmOperands &ops) {
  PackedGemmApi<T> &api = packedGemmApi<T>();
  PackKey key{b, m, n, k, ops.transB, ops.ldb, sizeof(T)};
  std::lock_guard<std::mutex> lock(packedMutex);
  auto found = packedMatrices.find(key);
  if (found != packedMatrices.end())
    return static_cast<const T *>(found->second.data);
  size_t shapes = 0;
  for (auto it = packedMatrices.lower_bound(
           PackKey{b, INT64_MIN, INT64_MIN, INT64_MIN, INT_MIN, INT64_MIN, 0});
       it != packedMatrices.end() && std::get<0>(it->first) == b; ++it)
    ++shapes;
  if (shapes >= kPackedShapesPerMatrix)
    return nullptr;
  size_t bytes = api.size(kPackB, static_cast<int>(m), static_cast<int>(n),
                          static_cast<int>(k));
  void *data = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (!data)
    return nullptr;
  api.pack(kRowMajor, kPackB, ops.transB, static_cast<int>(m),
           static_cast<int>(n), static_cast<int>(k), T(1), b,
           static_cast<int>(ops.ldb), static_cast<T *>(data));
  packedMatrices.emplace(key, PackedMatrix{data, bytes});
  packedBytes += bytes;
  return static_cast<const T *>(data);
}

/// matmul, where B never changes while the compiled module that passes it
/// lives (a weight frozen by compile(freeze=True)): with MKL's packed GEMM
/// on this thread count, C = A @ packed(B) (+ C with `accumulate`), B
/// packed at its first use; else the plain matmul.
template <typename T>
void matmulFrozen(StridedMemRef<T, 2> *a, StridedMemRef<T, 2> *b,
                  StridedMemRef<T, 2> *c, bool accumulate) {
  int64_t m = c->sizes[0], n = c->sizes[1], k = a->sizes[1];
  GemmOperands ops;
  // A packed B is for one m: the row bands of a GEMM split over the team
  // (a sequential MKL, several threads) would each need their own.
  bool oneCall = mklSetThreadsLocal || torch2mlir_runtime_in_parallel() ||
                 torch2mlir_runtime_max_threads() == 1;
  if (packedGemmApi<T>().compute && oneCall && m >= kPackMinRows &&
      n * k >= kPackMinElements &&
      getGemmOperands(m, n, k, a->strides, b->strides, c->strides, ops)) {
    // Packing and computing on the same thread count (MKL's advice for
    // speed; the packed format itself is valid for any count).
    bool setThreads = mklSetThreadsLocal && !torch2mlir_runtime_in_parallel();
    int previous =
        setThreads ? mklSetThreadsLocal(torch2mlir_runtime_max_threads()) : 0;
    if (const T *packed = getPackedB(b->data(), m, n, k, ops)) {
      packedGemmApi<T>().compute(
          kRowMajor, ops.transA, kPacked, static_cast<int>(m),
          static_cast<int>(n), static_cast<int>(k), a->data(),
          static_cast<int>(ops.lda), packed, static_cast<int>(ops.ldb),
          accumulate ? T(1) : T(0), c->data(), static_cast<int>(c->strides[0]));
      if (setThreads)
        mklSetThreadsLocal(previous);
      return;
    }
    if (setThreads)
      mklSetThreadsLocal(previous);
  }
  matmul(a, b, c, accumulate);
}

/// C[i] (m x n) = A[i] @ B[i] (+ C[i] with `accumulate`) for i < `count`
/// as one cblas_?gemm_batch_strided call, when the BLAS has it and the
/// operands fit its layout: each matrix a GEMM operand, the batch strides
/// at least one matrix apart (no broadcast, no overlapping results), every
/// size and stride in an int. The BLAS's own batch kernels pack small
/// matrices better than one GEMM call per matrix (a [96, 128, 64] x
/// [96, 64, 128] batch ran 1.3x slower as 96 calls). Returns false when it
/// did not run.
template <typename T>
bool gemmBatch(StridedMemRef<T, 3> *a, StridedMemRef<T, 3> *b,
               StridedMemRef<T, 3> *c, bool accumulate) {
  int64_t count = c->sizes[0], m = c->sizes[1], n = c->sizes[2],
          k = a->sizes[2];
  // A sequential BLAS would run the whole batch on one thread.
  if (!haveGemmBatch<T>() || count < 2 || m == 0 || n == 0 || k == 0 ||
      torch2mlir_runtime_in_parallel() ||
      (!mklSetThreadsLocal && torch2mlir_runtime_max_threads() > 1))
    return false;
  GemmOperands ops;
  if (!getGemmOperands(m, n, k, a->strides + 1, b->strides + 1, c->strides + 1,
                       ops))
    return false;
  int64_t aSpan = ops.transA == kNoTrans ? ops.lda * m : ops.lda * k;
  int64_t bSpan = ops.transB == kNoTrans ? ops.ldb * k : ops.ldb * n;
  if (a->strides[0] < aSpan || b->strides[0] < bSpan ||
      c->strides[0] < c->strides[1] * m)
    return false;
  for (int64_t value : {a->strides[0], b->strides[0], c->strides[0], count})
    if (value >= INT32_MAX)
      return false;
  int previous = mklSetThreadsLocal
                     ? mklSetThreadsLocal(torch2mlir_runtime_max_threads())
                     : 0;
  gemmBatchCall(ops.transA, ops.transB, m, n, k, a->data(), ops.lda,
                a->strides[0], b->data(), ops.ldb, b->strides[0],
                accumulate ? T(1) : T(0), c->data(), c->strides[1],
                c->strides[0], count);
  if (mklSetThreadsLocal)
    mklSetThreadsLocal(previous);
  return true;
}

template <typename T>
void batchMatmul(StridedMemRef<T, 3> *a, StridedMemRef<T, 3> *b,
                 StridedMemRef<T, 3> *c, bool accumulate) {
  if (gemmBatch(a, b, c, accumulate))
    return;
  int64_t work = c->sizes[1] * c->sizes[2] * a->sizes[2];
  parallelFor(c->sizes[0], kGemmTaskWork / std::max<int64_t>(work, 1) + 1,
              [&](int64_t lo, int64_t hi) {
                for (int64_t i = lo; i < hi; ++i)
                  matmul2d(c->sizes[1], c->sizes[2], a->sizes[2],
                           a->data() + i * a->strides[0], a->strides + 1,
                           b->data() + i * b->strides[0], b->strides + 1,
                           c->data() + i * c->strides[0], c->strides + 1,
                           accumulate);
              });
}

/// The sizes of one group of a convolution of one batch element, with three
/// spatial dims (depth, height, width; a 2-D convolution has depth 1):
///   out (F x O...) += W (F x C x K...) * in (C x I...)
struct ConvShape {
  int64_t f, c;
  int64_t out[3], kernel[3], stride[3], dilation[3];
};

/// The ConvShape of a 2-D convolution (depth 1): `outSizes` {F, OH, OW} and
/// `wSizes` {C, KH, KW} (a group's, from the output's and weight's sizes).
ConvShape conv2dShape(const int64_t *outSizes, const int64_t *wSizes,
                      int64_t sh, int64_t sw, int64_t dh, int64_t dw) {
  return ConvShape{outSizes[0],
                   wSizes[0],
                   {1, outSizes[1], outSizes[2]},
                   {1, wSizes[1], wSizes[2]},
                   {1, sh, sw},
                   {1, dh, dw}};
}

/// The element offset of tap (c, kz, ky, kx) of a window from its origin
/// in an input of element strides inS {c, z, y, x}.
int64_t tapOffset(const ConvShape &s, const int64_t *inS, int64_t c, int64_t kz,
                  int64_t ky, int64_t kx) {
  return c * inS[0] + kz * s.dilation[0] * inS[1] +
         ky * s.dilation[1] * inS[2] + kx * s.dilation[2] * inS[3];
}

/// Whether a buffer of these sizes and element strides is dense row-major
/// (dims of size 1 may have any stride).
bool isDense(const int64_t *sizes, const int64_t *strides, int rank) {
  int64_t expected = 1;
  for (int i = rank - 1; i >= 0; --i) {
    if (sizes[i] != 1 && strides[i] != expected)
      return false;
    expected *= sizes[i];
  }
  return true;
}

/// Copies between a strided buffer `a` of `rank` <= 5 and a dense one `b`
/// (`toDense`: a -> b, else b -> a).
template <typename T>
void copyDense(const int64_t *sizes, const int64_t *strides, int rank, T *a,
               T *b, bool toDense) {
  forEachStrided(sizes, strides, rank, [&](int64_t offset) {
    if (toDense)
      *b++ = a[offset];
    else
      a[offset] = *b++;
  });
}

/// Output channels (per group) up to this many, in output rows at least
/// kDirectMinWidth wide, run as tiles of direct convolution
/// (convDirectTiledAvx512) rather than as a GEMM of im2col: the GEMM of so
/// few rows spends its time packing (16 rows: 138 GFLOP/s), the tiles do
/// not. Measured with one thread, GEMM -> tiles: a 4-group Conv2d(64, 64,
/// 3) on [1, 64, 56, 56] 0.75 -> 0.57 ms (eager 0.49), Conv3d(16, 16, 3) on
/// [1, 16, 16, 32, 32] 2.59 -> 1.28 ms, a 32-group Conv2d(128, 128, 3) on
/// [1, 128, 28, 28] 0.35 -> 0.14 ms; with 64 channels the GEMM wins
/// (Conv2d(64, 64, 3): 1.58 against 1.93 ms), and rows narrower than a
/// vector waste most of each tile's 32 columns.
constexpr int64_t kDirectMaxChannels = 16;
constexpr int64_t kDirectMinWidth = 16;

/// Reductions (channels times window) up to this long run as direct
/// multiply-adds over output rows: a GEMM with so short an inner dim (a 3x3
/// depthwise convolution has 9) spends its time packing.
constexpr int64_t kDirectMaxReduction = 32;

/// out += w * in, one tap at a time, over output rows: the inner loop runs
/// along x, contiguous (and vectorized) when the stride and layout allow.
template <typename T>
__attribute__((always_inline)) inline void
convDirectBody(const ConvShape &s, const T *in, const int64_t *inS, const T *w,
               const int64_t *wS, T *out, const int64_t *outS) {
  for (int64_t fi = 0; fi < s.f; ++fi)
    for (int64_t ci = 0; ci < s.c; ++ci)
      for (int64_t kz = 0; kz < s.kernel[0]; ++kz)
        for (int64_t ky = 0; ky < s.kernel[1]; ++ky)
          for (int64_t kx = 0; kx < s.kernel[2]; ++kx) {
            T tap = w[fi * wS[0] + ci * wS[1] + kz * wS[2] + ky * wS[3] +
                      kx * wS[4]];
            for (int64_t z = 0; z < s.out[0]; ++z)
              for (int64_t y = 0; y < s.out[1]; ++y) {
                const T *src = in + ci * inS[0] +
                               (z * s.stride[0] + kz * s.dilation[0]) * inS[1] +
                               (y * s.stride[1] + ky * s.dilation[1]) * inS[2] +
                               kx * s.dilation[2] * inS[3];
                T *dst = out + fi * outS[0] + z * outS[1] + y * outS[2];
                int64_t step = s.stride[2] * inS[3];
                if (step == 1 && outS[3] == 1)
                  for (int64_t x = 0; x < s.out[2]; ++x)
                    dst[x] = std::fma(tap, src[x], dst[x]);
                else
                  for (int64_t x = 0; x < s.out[2]; ++x)
                    dst[x * outS[3]] =
                        std::fma(tap, src[x * step], dst[x * outS[3]]);
              }
          }
}
T2M_FMA_CLONES(convDirect,
               (const ConvShape &s, const T *in, const int64_t *inS, const T *w,
                const int64_t *wS, T *out, const int64_t *outS),
               (s, in, inS, w, wS, out, outS))

#if defined(__x86_64__) && defined(__GNUC__)
/// One block of `V` 8-float vectors of an output row, `dst[0, 8V)`: out +=
/// the sum over taps t (of `count`) of taps[t] * base[offsets[t] + x], the
/// block held in V registers (V independent FMA chains) while every tap is
/// added. Each element adds the taps in the order of `taps`, one rounding
/// per FMA, as convDirectBody: the same bits.
template <int V>
__attribute__((target("avx2,fma"), always_inline)) inline void
directBlockAvx2(const float *taps, const int64_t *offsets, int64_t count,
                const float *base, float *dst) {
  __m256 acc[V];
  for (int j = 0; j < V; ++j)
    acc[j] = _mm256_loadu_ps(dst + 8 * j);
  for (int64_t t = 0; t < count; ++t) {
    __m256 tap = _mm256_set1_ps(taps[t]);
    const float *src = base + offsets[t];
    for (int j = 0; j < V; ++j)
      acc[j] = _mm256_fmadd_ps(tap, _mm256_loadu_ps(src + 8 * j), acc[j]);
  }
  for (int j = 0; j < V; ++j)
    _mm256_storeu_ps(dst + 8 * j, acc[j]);
}

/// directBlockAvx2<vectors> for `vectors` in [1, V] (none for 0): the
/// instantiation whose width is known at compile time.
template <int V>
__attribute__((target("avx2,fma"), always_inline)) inline void
directBlocksAvx2(int64_t vectors, const float *taps, const int64_t *offsets,
                 int64_t count, const float *base, float *dst) {
  if (vectors == V)
    directBlockAvx2<V>(taps, offsets, count, base, dst);
  else if constexpr (V > 1)
    directBlocksAvx2<V - 1>(vectors, taps, offsets, count, base, dst);
}

/// dst[0, width) += the sum over taps t (of `count`) of taps[t] *
/// base[offsets[t] + x], with AVX2: blocks of up to 64 outputs, the rest
/// one at a time.
__attribute__((target("avx2,fma"))) void
directRowAvx2(const float *taps, const int64_t *offsets, int64_t count,
              const float *base, float *dst, int64_t width) {
  int64_t x = 0;
  for (; x + 64 <= width; x += 64)
    directBlockAvx2<8>(taps, offsets, count, base + x, dst + x);
  directBlocksAvx2<7>((width - x) / 8, taps, offsets, count, base + x, dst + x);
  x += (width - x) / 8 * 8;
  for (; x < width; ++x) {
    float acc = dst[x];
    for (int64_t t = 0; t < count; ++t)
      acc = std::fma(taps[t], base[offsets[t] + x], acc);
    dst[x] = acc;
  }
}

#endif

#if defined(__x86_64__) && defined(__GNUC__)
/// Output channels and output columns (two 16-float vectors) of a tile of
/// convDirectTiledAvx512: 16 of the 32 vector registers accumulate.
constexpr int kTileChannels = 8;
constexpr int64_t kTileColumns = 32;

/// The mask of the first min(max(n, 0), 16) lanes of a 16-float vector.
inline __mmask16 firstLanes(int64_t n) {
  return n >= 16 ? __mmask16(0xffff)
                 : __mmask16((1u << std::max<int64_t>(n, 0)) - 1);
}

bool haveAvx512() {
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  return avx512 && gCpuCapability >= 2;
}

/// directBlockAvx2 with `V` 16-float vectors, the last one's lanes masked
/// by `last` (masked loads do not touch the memory of lanes off).
template <int V>
__attribute__((target("avx512f"), always_inline)) inline void
directBlockAvx512(const float *taps, const int64_t *offsets, int64_t count,
                  const float *base, float *dst, __mmask16 last) {
  __m512 acc[V];
  for (int j = 0; j < V; ++j)
    acc[j] = _mm512_maskz_loadu_ps(j == V - 1 ? last : 0xffff, dst + 16 * j);
  for (int64_t t = 0; t < count; ++t) {
    __m512 tap = _mm512_set1_ps(taps[t]);
    const float *src = base + offsets[t];
    for (int j = 0; j < V; ++j)
      acc[j] = _mm512_fmadd_ps(
          tap, _mm512_maskz_loadu_ps(j == V - 1 ? last : 0xffff, src + 16 * j),
          acc[j]);
  }
  for (int j = 0; j < V; ++j)
    _mm512_mask_storeu_ps(dst + 16 * j, j == V - 1 ? last : 0xffff, acc[j]);
}

/// directBlockAvx512<vectors> for `vectors` in [1, V] (none for 0).
template <int V>
__attribute__((target("avx512f"), always_inline)) inline void
directBlocksAvx512(int64_t vectors, const float *taps, const int64_t *offsets,
                   int64_t count, const float *base, float *dst,
                   __mmask16 last) {
  if (vectors == V)
    directBlockAvx512<V>(taps, offsets, count, base, dst, last);
  else if constexpr (V > 1)
    directBlocksAvx512<V - 1>(vectors, taps, offsets, count, base, dst, last);
}

/// directRowAvx2 with AVX-512: blocks of 128 outputs (8 FMA chains), then
/// one block of the rest, its last vector masked. Each output adds its taps
/// in the same order, one rounding per FMA: the same bits.
__attribute__((target("avx512f"))) void
directRowAvx512(const float *taps, const int64_t *offsets, int64_t count,
                const float *base, float *dst, int64_t width) {
  int64_t x = 0;
  for (; x + 128 <= width; x += 128)
    directBlockAvx512<8>(taps, offsets, count, base + x, dst + x, 0xffff);
  int64_t rest = width - x, vectors = (rest + 15) / 16;
  directBlocksAvx512<8>(vectors, taps, offsets, count, base + x, dst + x,
                        firstLanes(rest - 16 * (vectors - 1)));
}

/// convDirectBody for f32 rows contiguous in x with stride 1 (depthwise
/// and other convolutions of at most kDirectMaxReduction taps per output):
/// output-stationary, a block of outputs of a row in registers while every
/// tap is added, where the tap-major loop loads and stores the output row
/// once per tap. AVX-512 (masked, so the row's end is vectorized too) or
/// AVX2+FMA; returns false when it does not apply.
bool convDirectRows(const ConvShape &s, const float *in, const int64_t *inS,
                    const float *w, const int64_t *wS, float *out,
                    const int64_t *outS) {
  int64_t count = s.c * s.kernel[0] * s.kernel[1] * s.kernel[2];
  if (s.stride[2] != 1 || inS[3] != 1 || outS[3] != 1 ||
      count > kDirectMaxReduction)
    return false;
  auto *row = haveAvx512()    ? directRowAvx512
              : haveFastFma() ? directRowAvx2
                              : nullptr;
  if (!row)
    return false;
  float taps[kDirectMaxReduction];
  int64_t offsets[kDirectMaxReduction];
  for (int64_t fi = 0; fi < s.f; ++fi) {
    int64_t t = 0;
    for (int64_t ci = 0; ci < s.c; ++ci)
      for (int64_t kz = 0; kz < s.kernel[0]; ++kz)
        for (int64_t ky = 0; ky < s.kernel[1]; ++ky)
          for (int64_t kx = 0; kx < s.kernel[2]; ++kx, ++t) {
            taps[t] = w[fi * wS[0] + ci * wS[1] + kz * wS[2] + ky * wS[3] +
                        kx * wS[4]];
            offsets[t] = tapOffset(s, inS, ci, kz, ky, kx);
          }
    for (int64_t z = 0; z < s.out[0]; ++z)
      for (int64_t y = 0; y < s.out[1]; ++y)
        row(taps, offsets, count,
            in + z * s.stride[0] * inS[1] + y * s.stride[1] * inS[2],
            out + fi * outS[0] + z * outS[1] + y * outS[2], s.out[2]);
  }
  return true;
}

/// One tile: out[f, x0 .. x0 + 32) of an output row for the `F` channels
/// f of the tile (out at its first channel; columns past the row masked off
/// by m0, m1) = (out +) the sum over c, kz, ky, kx of w[f, c, kz, ky, kx] *
/// in[c, kz * dz, ky * dy, x + kx * dx] (in at the row's window origin;
/// `taps`: the tile's weights packed [c][kz][ky][kx][8], see
/// convDirectTiledAvx512). Each input vector is loaded once for the F
/// channels, each weight broadcast once for the 32 columns; every output
/// adds its taps in (c, kz, ky, kx) order, one rounding per FMA.
template <int F>
__attribute__((target("avx512f"))) void
directTileAvx512(const ConvShape &s, const float *in, const int64_t *inS,
                 const float *taps, float *out, int64_t outF, __mmask16 m0,
                 __mmask16 m1, bool accumulate) {
  __m512 acc[F][2];
#pragma GCC unroll 8
  for (int f = 0; f < F; ++f) {
    acc[f][0] = accumulate ? _mm512_maskz_loadu_ps(m0, out + f * outF)
                           : _mm512_setzero_ps();
    acc[f][1] = accumulate ? _mm512_maskz_loadu_ps(m1, out + f * outF + 16)
                           : _mm512_setzero_ps();
  }
  int64_t dx = s.dilation[2], kernelX = s.kernel[2];
  for (int64_t c = 0; c < s.c; ++c)
    for (int64_t kz = 0; kz < s.kernel[0]; ++kz)
      for (int64_t ky = 0; ky < s.kernel[1]; ++ky) {
        const float *src = in + c * inS[0] + kz * s.dilation[0] * inS[1] +
                           ky * s.dilation[1] * inS[2];
        for (int64_t kx = 0; kx < kernelX;
             ++kx, src += dx, taps += kTileChannels) {
          __m512 v0 = _mm512_maskz_loadu_ps(m0, src);
          __m512 v1 = _mm512_maskz_loadu_ps(m1, src + 16);
#pragma GCC unroll 8
          for (int f = 0; f < F; ++f) {
            __m512 tap = _mm512_set1_ps(taps[f]);
            acc[f][0] = _mm512_fmadd_ps(tap, v0, acc[f][0]);
            acc[f][1] = _mm512_fmadd_ps(tap, v1, acc[f][1]);
          }
        }
      }
#pragma GCC unroll 8
  for (int f = 0; f < F; ++f) {
    _mm512_mask_storeu_ps(out + f * outF, m0, acc[f][0]);
    _mm512_mask_storeu_ps(out + f * outF + 16, m1, acc[f][1]);
  }
}

/// directTileAvx512<channels> for `channels` in [1, F].
template <int F>
__attribute__((target("avx512f"))) void
directTilesAvx512(int channels, const ConvShape &s, const float *in,
                  const int64_t *inS, const float *taps, float *out,
                  int64_t outF, __mmask16 m0, __mmask16 m1, bool accumulate) {
  if (channels == F)
    directTileAvx512<F>(s, in, inS, taps, out, outF, m0, m1, accumulate);
  else if constexpr (F > 1)
    directTilesAvx512<F - 1>(channels, s, in, inS, taps, out, outF, m0, m1,
                             accumulate);
}

/// The weights of one group (see ConvShape; strides wS as convOne's)
/// packed for the direct tiles and the implicit GEMM: per block of
/// `lanes` output channels, the taps in (c, kz, ky, kx) order, each as the
/// block's channels' weights side by side ([block][c][kz][ky][kx][lanes]),
/// so that a tile's loads walk them in order; the channels past s.f in the
/// last block are zeros.
void packTaps(const ConvShape &s, const float *w, const int64_t *wS,
              int64_t lanes, Scratch<float> &packed) {
  int64_t blocks = (s.f + lanes - 1) / lanes;
  int64_t window = s.c * s.kernel[0] * s.kernel[1] * s.kernel[2];
  packed.resize(blocks * window * lanes);
  float *taps = packed.data();
  for (int64_t f = 0; f < blocks * lanes; ++f) {
    int64_t t = 0;
    for (int64_t c = 0; c < s.c; ++c)
      for (int64_t kz = 0; kz < s.kernel[0]; ++kz)
        for (int64_t ky = 0; ky < s.kernel[1]; ++ky)
          for (int64_t kx = 0; kx < s.kernel[2]; ++kx, ++t)
            taps[((f / lanes) * window + t) * lanes + f % lanes] =
                f < s.f ? w[f * wS[0] + c * wS[1] + kz * wS[2] + ky * wS[3] +
                            kx * wS[4]]
                        : 0.0f;
  }
}

/// One group of a float32 convolution of one batch element (see ConvShape;
/// strides as convOne's) computed in place, without im2col: tiles of 8
/// output channels x 32 columns of an output row held in registers while
/// the window's taps are added (directTileAvx512), the weights first
/// packed per tile's channels as [c][kz][ky][kx][8] so that the broadcasts
/// walk them in order, the (channel block, row) tasks split across the
/// team outside a parallel region. AVX-512, rows contiguous in x with
/// stride 1 only: returns false when it does not apply.
bool convDirectTiledAvx512(const ConvShape &s, const float *in,
                           const int64_t *inS, const float *w,
                           const int64_t *wS, float *out, const int64_t *outS,
                           bool accumulate) {
  if (!haveAvx512() || s.stride[2] != 1 || inS[3] != 1 || outS[3] != 1)
    return false;
  int64_t blocks = (s.f + kTileChannels - 1) / kTileChannels;
  int64_t window = s.c * s.kernel[0] * s.kernel[1] * s.kernel[2];
  Scratch<float> packed;
  packTaps(s, w, wS, kTileChannels, packed);
  const float *taps = packed.data();
  int64_t rows = s.out[0] * s.out[1], width = s.out[2];
  int64_t taskWork = kTileChannels * window * width;
  parallelFor(
      blocks * rows, kGemmTaskWork / std::max<int64_t>(taskWork, 1) + 1,
      [&](int64_t lo, int64_t hi) {
        for (int64_t t = lo; t < hi; ++t) {
          int64_t block = t / rows, r = t % rows;
          int64_t z = r / s.out[1], y = r % s.out[1];
          int64_t f0 = block * kTileChannels;
          int channels =
              static_cast<int>(std::min<int64_t>(kTileChannels, s.f - f0));
          const float *origin =
              in + z * s.stride[0] * inS[1] + y * s.stride[1] * inS[2];
          float *dst = out + f0 * outS[0] + z * outS[1] + y * outS[2];
          for (int64_t x0 = 0; x0 < width; x0 += kTileColumns) {
            int64_t left = std::min<int64_t>(kTileColumns, width - x0);
            directTilesAvx512<kTileChannels>(
                channels, s, origin + x0, inS,
                taps + block * window * kTileChannels, dst + x0, outS[0],
                firstLanes(left), firstLanes(left - 16), accumulate);
          }
        }
      });
  return true;
}

/// Output channels and 16-float vectors of a tile of convDirectWide:
/// 24 of the 32 vector registers accumulate, 3 hold the input.
constexpr int kWideChannels = 8;
constexpr int kWideVectors = 3;
constexpr int64_t kWideColumns = 16 * kWideVectors;
/// Input channels per pass over a tile: their window rows (16 x 3 rows of
/// 50 floats for a 3x3 kernel, 10 KiB) and the tile's weights (4.5 KiB)
/// stay in the L1 cache while the tile moves along the plane. One pass of
/// all 64 channels of a Conv2d(64, 64, 3) ran at 77 GFLOP/s, passes of 16
/// at 94 (8: 93, 32: 84; tiles of 8 x 32, one thread, 2.5 GHz AVX-512
/// Xeon).
constexpr int64_t kWideChannelBlock = 16;
/// Wide positions per task: its accumulators (8 x 4096 floats, 128 KiB)
/// and a channel block of its input stay in the L2 cache from one channel
/// block to the next.
constexpr int64_t kWidePositions = 4096;

/// One tile of convDirectWide: acc[f, 0 .. 48) for the 8 channels f
/// (rows `accF` apart; positions masked off by m) (=, or += with `load`)
/// the sum over c < channels and t < window of taps[c][t][f] * in[c * inC
/// + offsets[t] + position]. Each input vector is loaded once for the 8
/// channels, each weight broadcast once for the 48 positions; every output
/// adds its taps in (c, t) order, one rounding per FMA. `Full`: all 48
/// positions are in the plane, so the input loads are not masked (m, all
/// lanes on, still guards the accumulators' loads and stores); `Window` >
/// 0: the window's size, known at compile time, so that its loop unrolls.
/// Each takes uops off the loop over the taps (about 46 per 24 FMAs with
/// masked loads, 40 without, near the 4 a cycle the core issues): one
/// thread, the full unmasked tiles
/// took Conv2d(64, 64, 3, padding=1) on [1, 64, 56, 56] from 82 to 92
/// GFLOP/s and ResNet-18 5% faster, each measured against the masked tile
/// in the same rounds (the 3x3 unrolled: 2% more on ResNet-18).
template <bool Full, int Window = 0>
__attribute__((target("avx512f"))) inline void
wideTileAvx512(const float *in, int64_t inC, const float *taps,
               const int64_t *offsets, int64_t window, int64_t channels,
               float *acc, int64_t accF, const __mmask16 (&m)[kWideVectors],
               bool load) {
  if constexpr (Window > 0)
    window = Window;
  __m512 a[kWideChannels][kWideVectors];
#pragma GCC unroll 8
  for (int f = 0; f < kWideChannels; ++f)
#pragma GCC unroll 3
    for (int v = 0; v < kWideVectors; ++v)
      a[f][v] = load ? _mm512_maskz_loadu_ps(m[v], acc + f * accF + 16 * v)
                     : _mm512_setzero_ps();
  for (int64_t c = 0; c < channels; ++c) {
    const float *src = in + c * inC;
#pragma GCC unroll 9
    for (int64_t t = 0; t < window; ++t, taps += kWideChannels) {
      __m512 x[kWideVectors];
      const float *at = src + offsets[t];
#pragma GCC unroll 3
      for (int v = 0; v < kWideVectors; ++v)
        x[v] = Full ? _mm512_loadu_ps(at + 16 * v)
                    : _mm512_maskz_loadu_ps(m[v], at + 16 * v);
#pragma GCC unroll 8
      for (int f = 0; f < kWideChannels; ++f) {
        __m512 tap = _mm512_set1_ps(taps[f]);
#pragma GCC unroll 3
        for (int v = 0; v < kWideVectors; ++v)
          a[f][v] = _mm512_fmadd_ps(tap, x[v], a[f][v]);
      }
    }
  }
#pragma GCC unroll 8
  for (int f = 0; f < kWideChannels; ++f)
#pragma GCC unroll 3
    for (int v = 0; v < kWideVectors; ++v)
      _mm512_mask_storeu_ps(acc + f * accF + 16 * v, m[v], a[f][v]);
}

/// Output channels and 8-float vectors of a tile of wideTileAvx2: 12
/// accumulators, 3 registers for the input and 1 for the broadcast weight
/// fill the 16 vector registers.
constexpr int kWideChannelsAvx2 = 4;
constexpr int kWideVectorsAvx2 = 3;
/// Reductions (channels times window) of at least this length go to im2col
/// + GEMM on CPUs without AVX-512, where the AVX2 tiles lose to MKL's GEMM.
/// One thread of an AVX2 Zen 4 core, the tiles' time over im2col + GEMM's,
/// same rounds: 0.72 for a 4-group Conv2d(64, 64, 3) (16 channels a group,
/// 144 long) and 0.56 for Conv3d(16, 16, 3) (432), but 1.02 for
/// Conv2d(64, 64, 3, padding=1) on 56x56 (576) and 1.11 for Conv2d(128,
/// 128, 3, padding=1) on 28x28 (1152).
constexpr int64_t kWideAvx2MaxReduction = 512;

/// wideTileAvx512 for CPUs with AVX2 and FMA but not AVX-512: a tile of 4
/// output channels (`taps` points at the first of them in the tiles'
/// [c][t][8] packing; their rows of `acc` are `accF` apart) x 24 positions
/// (3 vectors, masked by m[0, 3)). Per tap, 3 loads and 4 broadcasts feed
/// 12 FMAs. The tap loop is not unrolled: unrolled (by 9, or with the 2
/// channels x 6 vectors tile), GCC 12 spilled accumulators to the stack
/// and the tile ran at about 60% of the FMA peak; rolled, the loop keeps
/// every accumulator in a register (73%). The same sums in the same order
/// as wideTileAvx512 (taps in (c, t) order, one rounding per FMA): the
/// same bits.
template <bool Full>
__attribute__((target("avx2,fma"))) inline void
wideTileAvx2(const float *in, int64_t inC, const float *taps,
             const int64_t *offsets, int64_t window, int64_t channels,
             float *acc, int64_t accF, const __m256i *m, bool load) {
  constexpr int C = kWideChannelsAvx2, V = kWideVectorsAvx2;
  __m256 a[C][V];
#pragma GCC unroll 4
  for (int f = 0; f < C; ++f)
#pragma GCC unroll 3
    for (int v = 0; v < V; ++v)
      a[f][v] = load ? _mm256_maskload_ps(acc + f * accF + 8 * v, m[v])
                     : _mm256_setzero_ps();
  for (int64_t c = 0; c < channels; ++c) {
    const float *src = in + c * inC;
    for (int64_t t = 0; t < window; ++t, taps += kWideChannels) {
      const float *at = src + offsets[t];
      __m256 x[V];
#pragma GCC unroll 3
      for (int v = 0; v < V; ++v)
        x[v] = Full ? _mm256_loadu_ps(at + 8 * v)
                    : _mm256_maskload_ps(at + 8 * v, m[v]);
#pragma GCC unroll 4
      for (int f = 0; f < C; ++f) {
        __m256 tap = _mm256_broadcast_ss(taps + f);
#pragma GCC unroll 3
        for (int v = 0; v < V; ++v)
          a[f][v] = _mm256_fmadd_ps(tap, x[v], a[f][v]);
      }
    }
  }
#pragma GCC unroll 4
  for (int f = 0; f < C; ++f)
#pragma GCC unroll 3
    for (int v = 0; v < V; ++v)
      _mm256_maskstore_ps(acc + f * accF + 8 * v, m[v], a[f][v]);
}

/// The wide tiles of positions [q, min(q1, q + kWideColumns)) of one task
/// for 8 output channels with AVX2: wideTileAvx2 on each run of 24
/// positions that starts before q1, for each half of the channels. The
/// arguments are wideTileAvx512's, `in` and `acc` at position q.
__attribute__((target("avx2,fma"))) void
wideTilesAvx2(const float *in, int64_t inC, const float *taps,
              const int64_t *offsets, int64_t window, int64_t channels,
              float *acc, int64_t accF, int64_t q, int64_t q1, bool load) {
  constexpr int64_t run = 8 * kWideVectorsAvx2;
  __m256i m[kWideColumns / 8];
  for (int v = 0; v < kWideColumns / 8; ++v)
    m[v] = firstLanes8(q1 - q - 8 * v);
  for (int64_t r = 0; r < kWideColumns && q + r < q1; r += run) {
    auto *tile = q + r + run > q1 ? wideTileAvx2<false> : wideTileAvx2<true>;
    for (int f = 0; f < kWideChannels; f += kWideChannelsAvx2)
      tile(in + r, inC, taps + f, offsets, window, channels, acc + f * accF + r,
           accF, m + r / 8, load);
  }
}

/// Whether convDirectWide is expected to beat im2col + GEMM: planes
/// whose wide rows waste at most an eighth of the tiles' positions (the
/// dropped columns and the last tile's padding), of at least 512 outputs
/// (fewer and the passes over the channel blocks dominate), with a kernel
/// of more than one row (one row reuses no window row from one tap row to
/// the next, and the tiles wait on the input: Conv1d(64, 64, 3) on [1, 64,
/// 3199] took 2.3 ms, the GEMM 1.5). One thread, GFLOP/s of the tiles on
/// square 3x3 convolutions (C = F): 106 at 56x56, 98 at 28x28 (128
/// channels), 69 at 14x14 (256), 28 at 7x7 (512). Without AVX-512, only
/// reductions shorter than kWideAvx2MaxReduction.
bool wideConvPays(const ConvShape &s, int64_t pitch) {
  int64_t height = s.out[1], width = s.out[2];
  int64_t positions = (height - 1) * pitch + width;
  int64_t tiles = (positions + kWideColumns - 1) / kWideColumns;
  int64_t reduction = s.c * s.kernel[0] * s.kernel[1] * s.kernel[2];
  return s.kernel[1] > 1 && height * width >= 512 &&
         8 * height * width >= 7 * tiles * kWideColumns &&
         (haveAvx512() || reduction < kWideAvx2MaxReduction);
}

/// How convDirectWide splits one group of one batch element: tasks
/// of rows [y0, y0 + rows) of one plane for one block of 8 channels,
/// positions [y0 * pitch, min(end of the plane, (y0 + rows) * pitch)), or
/// runs of at most kWidePositions columns of a plane of one row; each task
/// computes into `span` positions x 8 channels of the scratch, unless the
/// plan is in place (a plane of one row whose channels fill the tiles).
struct WidePlan {
  bool inPlace;
  int64_t blocks, rows, runs, span, tasks;
  /// Floats of scratch for the whole group (0 in place).
  int64_t scratchFloats() const {
    return inPlace ? 0 : tasks * kWideChannels * span;
  }
};

/// The WidePlan of a convolution (see convDirectWide), or nothing when the
/// wide tiles do not apply (neither AVX-512 nor AVX2 with FMA, strides
/// other than 1, rows not contiguous) or do not pay (wideConvPays).
std::optional<WidePlan> widePlan(const ConvShape &s, const int64_t *inS,
                                 const int64_t *outS) {
  int64_t pitch = inS[2];
  if (!(haveAvx512() || haveFastFma()) || s.stride[1] != 1 ||
      s.stride[2] != 1 || inS[3] != 1 || outS[3] != 1 ||
      !wideConvPays(s, pitch))
    return std::nullopt;
  int64_t height = s.out[1], width = s.out[2];
  WidePlan plan;
  plan.inPlace = height == 1 && s.f % kWideChannels == 0;
  plan.blocks = (s.f + kWideChannels - 1) / kWideChannels;
  plan.rows = std::max<int64_t>(1, kWidePositions / pitch);
  plan.runs = height == 1 ? (width + kWidePositions - 1) / kWidePositions
                          : (height + plan.rows - 1) / plan.rows;
  plan.span = height == 1 ? std::min(width, kWidePositions) : plan.rows * pitch;
  plan.tasks = plan.blocks * s.out[0] * plan.runs;
  return plan;
}

/// One group of a float32 convolution of one batch element (see ConvShape;
/// strides as convOne's) with stride 1 in y and x, computed without im2col.
/// Each output plane is computed wide, as if its rows were as long as the
/// input's (row pitch inS[2]): the position p = y * inS[2] + x of a plane
/// then reads the input at p + (the tap's offset), linear in p, so that a
/// tile of 48 consecutive positions runs across the ends of rows into the
/// next ones; only the (KW - 1) * dx columns past the output's width in
/// each row are computed and dropped. Tiles of 8 output channels x 48
/// positions are held in registers while the taps of a block of 16 input
/// channels are added (wideTileAvx512), the weights packed per tile's
/// channels as [c][kz][ky][kx][8]; the (channel block, plane, run of rows)
/// tasks are split across the team outside a parallel region, each
/// computing into its own part of one scratch and copying its rows out (a
/// plane of one row whose channels fill the tiles is computed in place).
/// `scratch` holds the plan's scratchFloats() (widePlan), taken by the
/// caller outside any parallel loop, so that the caching allocator finds
/// the same block every call (scratches taken inside parallel tasks are as
/// many as the threads that happen to run at once). AVX-512 tiles, else
/// AVX2 ones (wideTilesAvx2, the same bits); returns false when it does
/// not apply.
bool convDirectWide(const ConvShape &s, const float *in, const int64_t *inS,
                    const float *w, const int64_t *wS, float *out,
                    const int64_t *outS, bool accumulate, float *scratch) {
  std::optional<WidePlan> plan = widePlan(s, inS, outS);
  if (!plan || (!plan->inPlace && !scratch))
    return false;
  int64_t pitch = inS[2];
  int64_t height = s.out[1], width = s.out[2], planes = s.out[0];
  int64_t window = s.kernel[0] * s.kernel[1] * s.kernel[2];
  Scratch<float> packed;
  packTaps(s, w, wS, kWideChannels, packed);
  const float *taps = packed.data();
  Scratch<int64_t> offsets;
  offsets.resize(window);
  for (int64_t kz = 0, t = 0; kz < s.kernel[0]; ++kz)
    for (int64_t ky = 0; ky < s.kernel[1]; ++ky)
      for (int64_t kx = 0; kx < s.kernel[2]; ++kx, ++t)
        offsets.data()[t] = kz * s.dilation[0] * inS[1] +
                            ky * s.dilation[1] * pitch + kx * s.dilation[2];
  bool inPlace = plan->inPlace, avx512 = haveAvx512();
  int64_t rows = plan->rows, runs = plan->runs, span = plan->span;
  parallelFor(plan->tasks, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t task = lo; task < hi; ++task) {
      int64_t block = task / (planes * runs), z = task / runs % planes;
      int64_t run = task % runs, f0 = block * kWideChannels;
      int64_t q0, q1;
      if (height == 1) {
        q0 = run * kWidePositions;
        q1 = std::min(width, q0 + kWidePositions);
      } else {
        q0 = run * rows * pitch;
        q1 = std::min((height - 1) * pitch + width, q0 + rows * pitch);
      }
      const float *plane = in + z * s.stride[0] * inS[1];
      float *acc = inPlace ? out + f0 * outS[0] + z * outS[1]
                           : scratch + task * kWideChannels * span - q0;
      int64_t accF = inPlace ? outS[0] : span;
      for (int64_t c0 = 0; c0 < s.c; c0 += kWideChannelBlock) {
        int64_t channels = std::min(kWideChannelBlock, s.c - c0);
        const float *blockTaps =
            taps + (block * s.c + c0) * window * kWideChannels;
        bool load = c0 > 0 || (inPlace && accumulate);
        for (int64_t q = q0; q < q1; q += kWideColumns) {
          if (!avx512) {
            wideTilesAvx2(plane + c0 * inS[0] + q, inS[0], blockTaps,
                          offsets.data(), window, channels, acc + q, accF, q,
                          q1, load);
            continue;
          }
          __mmask16 m[kWideVectors];
          for (int v = 0; v < kWideVectors; ++v) {
            m[v] = firstLanes(q1 - q - 16 * v);
          }
          auto *tile = q + kWideColumns > q1 ? wideTileAvx512<false>
                       : window == 9         ? wideTileAvx512<true, 9>
                                             : wideTileAvx512<true>;
          tile(plane + c0 * inS[0] + q, inS[0], blockTaps, offsets.data(),
               window, channels, acc + q, accF, m, load);
        }
      }
      if (inPlace)
        continue;
      // Copy out the task's rows (their first width columns).
      int64_t channels = std::min<int64_t>(kWideChannels, s.f - f0);
      int64_t yEnd = height == 1 ? 1 : std::min(height, q0 / pitch + rows);
      for (int64_t f = 0; f < channels; ++f)
        for (int64_t y = q0 / pitch; y < yEnd; ++y) {
          const float *src = acc + f * accF + y * pitch;
          float *dst = out + (f0 + f) * outS[0] + z * outS[1] + y * outS[2];
          int64_t x0 = height == 1 ? q0 : 0;
          int64_t x1 = height == 1 ? q1 : width;
          if (accumulate)
            for (int64_t x = x0; x < x1; ++x)
              dst[x] += src[x];
          else
            std::memcpy(dst + x0, src + x0, (x1 - x0) * sizeof(float));
        }
    }
  });
  return true;
}

/// Output channels of an implicit-GEMM tile (two 8-float vectors) and the
/// most output positions it holds: 6 x 2 accumulators, the 2 weight
/// vectors and one broadcast input fill the 16 AVX2 registers.
constexpr int kImplicitChannels = 16;
constexpr int kImplicitPositions = 6;
/// Where the implicit GEMM beats im2col + OpenBLAS (convImplicitAvx2):
/// output rows at least this wide and reductions (channels x window) at
/// most this long. One Zen 4 core, per-round minima over 20-30 rounds, the
/// implicit GEMM's time over im2col + GEMM's at 1 / 2 threads:
/// Conv2d(64, 64, 3) on 56x56 0.87 / 0.90, dilated 0.87 / 0.93,
/// Conv2d(128, 128, 3, padding=1) on 28x28 (1152 long) 0.95 / 1.00,
/// Conv3d(16, 16, 3) 0.87 / 0.90, a 4-group Conv2d(64, 64, 3) 0.85 / 0.93
/// (against the AVX2 wide tiles); but 1.33 / 1.39 for 256 channels on
/// 14x14 (2304 long: 6 + 6 + 2 positions a row, each tile streaming its
/// 147 KiB of weights), 2.4 / 3.4 on 7x7, 1.01 / 1.10 for Conv1d(64, 64,
/// 3) and 0.97 / 1.08 at stride 2.
constexpr int64_t kImplicitMinWidth = 24;
constexpr int64_t kImplicitMaxTaps = 1152;

/// One tile of convImplicitAvx2: out[f, p] (= or += with `accumulate`)
/// the sum over the `taps` taps t of w[t][f] * in[offsets[t] + p], for the
/// first `channels` of 16 output channels f (rows `outF` apart) and
/// Positions consecutive positions p of an output row. Per tap, two vector
/// loads of the packed weights and one broadcast per position feed 2 FMAs
/// per position; each sum adds its taps in order, one rounding per FMA,
/// then is added to `out` with `accumulate`. The loop over the taps is
/// flat (a table of offsets): with nested loops over (c, ky, kx), GCC 12
/// stored the accumulators back to the stack on every tap and the tile ran
/// at 39 GFLOP/s; flat, every accumulator stays in a register (82
/// GFLOP/s, 91% of one Zen 4 core's FMA peak, on Conv2d(64, 64, 3) of [1,
/// 64, 56, 56]).
template <int Positions>
__attribute__((target("avx2,fma"))) void
implicitTileAvx2(const float *in, const int32_t *offsets, int64_t taps,
                 const float *w, float *out, int64_t outF, int channels,
                 bool accumulate) {
  __m256 a[Positions][2];
#pragma GCC unroll 6
  for (int p = 0; p < Positions; ++p)
    a[p][0] = a[p][1] = _mm256_setzero_ps();
  for (int64_t t = 0; t < taps; ++t, w += kImplicitChannels) {
    const float *at = in + offsets[t];
    __m256 w0 = _mm256_loadu_ps(w), w1 = _mm256_loadu_ps(w + 8);
#pragma GCC unroll 6
    for (int p = 0; p < Positions; ++p) {
      __m256 x = _mm256_broadcast_ss(at + p);
      a[p][0] = _mm256_fmadd_ps(w0, x, a[p][0]);
      a[p][1] = _mm256_fmadd_ps(w1, x, a[p][1]);
    }
  }
  alignas(32) float sums[Positions][kImplicitChannels];
#pragma GCC unroll 6
  for (int p = 0; p < Positions; ++p) {
    _mm256_store_ps(sums[p], a[p][0]);
    _mm256_store_ps(sums[p] + 8, a[p][1]);
  }
  for (int f = 0; f < channels; ++f)
    for (int p = 0; p < Positions; ++p) {
      float &o = out[f * outF + p];
      o = accumulate ? o + sums[p][f] : sums[p][f];
    }
}

using ImplicitTileFn = void (*)(const float *, const int32_t *, int64_t,
                                const float *, float *, int64_t, int, bool);
/// implicitTileAvx2<P> at index P - 1.
constexpr ImplicitTileFn kImplicitTiles[kImplicitPositions] = {
    implicitTileAvx2<1>, implicitTileAvx2<2>, implicitTileAvx2<3>,
    implicitTileAvx2<4>, implicitTileAvx2<5>, implicitTileAvx2<6>};

/// One group of a float32 convolution of one batch element (see ConvShape;
/// strides as convOne's) as an implicit GEMM, on CPUs with AVX2 and FMA but
/// not AVX-512: no im2col, no BLAS packing of it. The weights are packed
/// per block of 16 output channels as [block][c][kz][ky][kx][16] (zeros
/// past s.f), the window's input offsets go into one table, and tiles of
/// 16 channels x 6 consecutive positions of an output row
/// (implicitTileAvx2) broadcast the input where the window reads it, so
/// that any dilation and depth take the same path; the (row, channel
/// block) tasks are split across the team. Returns false where it does
/// not apply or does not pay: other CPUs, an x stride other than 1, rows
/// not contiguous, a kernel one row high, rows narrower than
/// kImplicitMinWidth, reductions longer than kImplicitMaxTaps, offsets
/// past 32 bits.
bool convImplicitAvx2(const ConvShape &s, const float *in, const int64_t *inS,
                      const float *w, const int64_t *wS, float *out,
                      const int64_t *outS, bool accumulate) {
  int64_t taps = s.c * s.kernel[0] * s.kernel[1] * s.kernel[2];
  if (!haveFastFma() || haveAvx512() || s.stride[2] != 1 || inS[3] != 1 ||
      outS[3] != 1 || s.kernel[1] == 1 || s.out[2] < kImplicitMinWidth ||
      taps > kImplicitMaxTaps)
    return false;
  Scratch<int32_t> offsets;
  offsets.resize(taps);
  int64_t t = 0;
  for (int64_t c = 0; c < s.c; ++c)
    for (int64_t kz = 0; kz < s.kernel[0]; ++kz)
      for (int64_t ky = 0; ky < s.kernel[1]; ++ky)
        for (int64_t kx = 0; kx < s.kernel[2]; ++kx, ++t) {
          int64_t offset = tapOffset(s, inS, c, kz, ky, kx);
          if (offset < 0 || offset > INT32_MAX)
            return false;
          offsets.data()[t] = static_cast<int32_t>(offset);
        }
  int64_t blocks = (s.f + kImplicitChannels - 1) / kImplicitChannels;
  Scratch<float> packed;
  packTaps(s, w, wS, kImplicitChannels, packed);
  int64_t rows = s.out[0] * s.out[1], width = s.out[2];
  int64_t taskWork = kImplicitChannels * taps * width;
  parallelFor(rows * blocks, kGemmTaskWork / std::max<int64_t>(taskWork, 1) + 1,
              [&](int64_t lo, int64_t hi) {
                for (int64_t task = lo; task < hi; ++task) {
                  int64_t r = task / blocks, block = task % blocks;
                  int64_t z = r / s.out[1], y = r % s.out[1];
                  int64_t f0 = block * kImplicitChannels;
                  int channels = static_cast<int>(
                      std::min<int64_t>(kImplicitChannels, s.f - f0));
                  const float *origin =
                      in + z * s.stride[0] * inS[1] + y * s.stride[1] * inS[2];
                  const float *blockTaps =
                      packed.data() + block * taps * kImplicitChannels;
                  float *dst = out + f0 * outS[0] + z * outS[1] + y * outS[2];
                  for (int64_t x0 = 0; x0 < width; x0 += kImplicitPositions) {
                    int64_t count =
                        std::min<int64_t>(kImplicitPositions, width - x0);
                    kImplicitTiles[count - 1](origin + x0, offsets.data(), taps,
                                              blockTaps, dst + x0, outS[0],
                                              channels, accumulate);
                  }
                }
              });
  return true;
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
/// dst[i] = src[2 i] for i < n: two vector loads and one two-source permute
/// per 16 elements, where the element loop of a stride-2 im2col row stayed
/// scalar. The second load stops at src[2 i + 30], the last element the
/// step needs (the window may end there).
__attribute__((target("avx512f"))) void copyEvensAvx512(const float *src,
                                                        float *dst, int64_t n) {
  const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
                                          22, 24, 26, 28, 30);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m512 low = _mm512_loadu_ps(src + 2 * i);
    __m512 high = _mm512_maskz_loadu_ps(0x7fff, src + 2 * i + 16);
    _mm512_storeu_ps(dst + i, _mm512_permutex2var_ps(low, evens, high));
  }
  for (; i < n; ++i)
    dst[i] = src[2 * i];
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
/// copyEvensAvx512 with AVX2: per 8 elements, two loads (the second
/// masked to its first 7 lanes: src[2 i + 14] is the last element the step
/// needs), one in-lane shuffle of their even elements and one permute of
/// 64-bit pairs to put them in order.
__attribute__((target("avx2"))) void copyEvensAvx2(const float *src, float *dst,
                                                   int64_t n) {
  const __m256i first7 = _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, -1, 0);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 low = _mm256_loadu_ps(src + 2 * i);
    __m256 high = _mm256_maskload_ps(src + 2 * i + 8, first7);
    // [l0 l2 h0 h2 | l4 l6 h4 h6], then the pairs in the order 0, 2, 1, 3.
    __m256 evens = _mm256_shuffle_ps(low, high, _MM_SHUFFLE(2, 0, 2, 0));
    _mm256_storeu_ps(dst + i,
                     _mm256_castpd_ps(_mm256_permute4x64_pd(
                         _mm256_castps_pd(evens), _MM_SHUFFLE(3, 1, 2, 0))));
  }
  for (; i < n; ++i)
    dst[i] = src[2 * i];
}
#endif

/// Rows [cLo, cHi) x K of im2col(in), columns [p0, p1) only, into `col`
/// (dense, rows of p1 - p0): the windows of `in` (C x I..., element
/// strides inS {c, z, y, x}) at the output positions p0 to p1 of `s`,
/// copied a run of output columns at a time.
template <typename T>
void im2colBlock(const ConvShape &s, const T *in, const int64_t *inS,
                 int64_t cLo, int64_t cHi, int64_t p0, int64_t p1, T *col) {
  T *row = col;
  for (int64_t ci = cLo; ci < cHi; ++ci)
    for (int64_t kz = 0; kz < s.kernel[0]; ++kz)
      for (int64_t ky = 0; ky < s.kernel[1]; ++ky)
        for (int64_t kx = 0; kx < s.kernel[2]; ++kx) {
          const T *src = in + ci * inS[0] + kz * s.dilation[0] * inS[1] +
                         ky * s.dilation[1] * inS[2] +
                         kx * s.dilation[2] * inS[3];
          for (int64_t q = p0; q < p1;) {
            int64_t x = q % s.out[2], zy = q / s.out[2];
            int64_t y = zy % s.out[1], z = zy / s.out[1];
            int64_t run = std::min(s.out[2] - x, p1 - q);
            const T *line = src + z * s.stride[0] * inS[1] +
                            y * s.stride[1] * inS[2] + x * s.stride[2] * inS[3];
            if (s.stride[2] == 1 && inS[3] == 1)
              std::memcpy(row, line, run * sizeof(T));
#if defined(__x86_64__) && defined(__GNUC__)
            else if (std::is_same_v<T, float> && s.stride[2] == 2 &&
                     inS[3] == 1 && haveAvx512())
              copyEvensAvx512(reinterpret_cast<const float *>(line),
                              reinterpret_cast<float *>(row), run);
            else if (std::is_same_v<T, float> && s.stride[2] == 2 &&
                     inS[3] == 1 && haveFastFma())
              copyEvensAvx2(reinterpret_cast<const float *>(line),
                            reinterpret_cast<float *>(row), run);
#endif
            else
              for (int64_t i = 0; i < run; ++i)
                row[i] = line[i * s.stride[2] * inS[3]];
            row += run;
            q += run;
          }
        }
}

/// col (C*K x O, dense) = the windows of `in` (C x I..., element strides
/// inS {c, z, y, x}) for each output position of `s`.
template <typename T>
void im2col(const ConvShape &s, const T *in, const int64_t *inS,
            Scratch<T> &col) {
  int64_t kSize = s.kernel[0] * s.kernel[1] * s.kernel[2];
  int64_t p = s.out[0] * s.out[1] * s.out[2];
  col.resize(s.c * kSize * p);
  // Channels in parallel (inline when called inside a parallel region).
  parallelFor(s.c,
              std::max<int64_t>(1, (int64_t(1) << 16) /
                                       std::max<int64_t>(kSize * p, 1)),
              [&](int64_t lo, int64_t hi) {
                im2colBlock(s, in, inS, lo, hi, 0, p,
                            col.data() + lo * kSize * p);
              });
}

/// Bytes of an im2col block that the next GEMM reads while it is still in
/// the L2 cache (2 MiB a core here; the rest holds the GEMM's panels).
constexpr int64_t kIm2colBlockBytes = int64_t(512) << 10;
/// Fewer output columns than this per block and the GEMMs get too skinny.
constexpr int64_t kIm2colMinBlock = 64;

/// How many blocks of output columns an im2col of `p` columns of
/// `columnBytes` each is built in: enough for each to fit
/// kIm2colBlockBytes, rounded up to a multiple of the team's size so that
/// every thread gets as many (3 blocks on 2 threads took as long as 4).
/// 0 (one whole im2col) when it fits already or when blocks that fit would
/// be narrower than kIm2colMinBlock.
int64_t blockCount(int64_t p, int64_t columnBytes) {
  int64_t fit = kIm2colBlockBytes / std::max<int64_t>(columnBytes, 1);
  if (fit < kIm2colMinBlock || fit >= p)
    return 0;
  int64_t threads = torch2mlir_runtime_in_parallel()
                        ? 1
                        : std::max(1, torch2mlir_runtime_max_threads());
  int64_t blocks = (p + fit - 1) / fit;
  blocks = (blocks + threads - 1) / threads * threads;
  // Near-equal widths of at least kIm2colMinBlock.
  return std::min(blocks, p / kIm2colMinBlock);
}

/// One group of a convolution of one batch element (see ConvShape), with
/// element strides per dim: inS {c, z, y, x}, wS {f, c, kz, ky, kx}, outS
/// {f, z, y, x}. Windows of at most kDirectMaxReduction taps run as direct
/// rows; on AVX2 CPUs without AVX-512, float32 rows of stride 1 as an
/// implicit GEMM where it pays (convImplicitAvx2); float32 planes of stride
/// 1 as wide direct tiles where they pay (convDirectWide), few output
/// channels as direct tiles
/// (convDirectTiledAvx512). Otherwise, with a BLAS it is one GEMM, W (F x C*K)
/// @ im2col(in) (C*K x O), or one per block of output columns (blockCount),
/// where im2col is skipped for a 1x1 stride-1 convolution of a dense input; a
/// strided weight or output goes through a dense copy.
template <typename T>
void convOne(const ConvShape &s, const T *in, const int64_t *inS, const T *w,
             const int64_t *wS, T *out, const int64_t *outS, Scratch<T> &col,
             Scratch<T> &packed, T *wideScratch, bool accumulate) {
  int64_t kSize = s.kernel[0] * s.kernel[1] * s.kernel[2];
  int64_t ck = s.c * kSize, p = s.out[0] * s.out[1] * s.out[2];
  int64_t outSizes[4] = {s.f, s.out[0], s.out[1], s.out[2]};
  if (ck <= kDirectMaxReduction) {
    if (!accumulate)
      zeroStrided(outSizes, outS, 4, out);
#if defined(__x86_64__) && defined(__GNUC__)
    if constexpr (std::is_same_v<T, float>)
      if (convDirectRows(s, in, inS, w, wS, out, outS))
        return;
#endif
    convDirect(s, in, inS, w, wS, out, outS);
    return;
  }
#if defined(__x86_64__) && defined(__GNUC__)
  if constexpr (std::is_same_v<T, float>)
    if (convImplicitAvx2(s, in, inS, w, wS, out, outS, accumulate))
      return;
  if constexpr (std::is_same_v<T, float>)
    if (convDirectWide(s, in, inS, w, wS, out, outS, accumulate, wideScratch))
      return;
  if constexpr (std::is_same_v<T, float>)
    if (s.f <= kDirectMaxChannels && s.out[2] >= kDirectMinWidth &&
        convDirectTiledAvx512(s, in, inS, w, wS, out, outS, accumulate))
      return;
#endif
  if (haveGemm<T>() && ck < INT32_MAX && p < INT32_MAX && s.f < INT32_MAX) {
    int64_t wSizes[5] = {s.f, s.c, s.kernel[0], s.kernel[1], s.kernel[2]};
    bool wDense = isDense(wSizes, wS, 5);
    bool outDense = isDense(outSizes, outS, 4);
    packed.resize((wDense ? 0 : s.f * ck) + (outDense ? 0 : s.f * p));
    const T *lhs = w;
    if (!wDense) {
      copyDense(wSizes, wS, 5, const_cast<T *>(w), packed.data(), true);
      lhs = packed.data();
    }
    T *result = out;
    if (!outDense) {
      result = packed.data() + (wDense ? 0 : s.f * ck);
      if (accumulate)
        copyDense(outSizes, outS, 4, out, result, true);
    }
    int64_t inSizes[4] = {s.c, s.out[0], s.out[1], s.out[2]};
    bool unitWindow =
        kSize == 1 && s.stride[0] == 1 && s.stride[1] == 1 && s.stride[2] == 1;
    if (unitWindow && isDense(inSizes, inS, 4)) {
      // A 1x1 stride-1 convolution is a plain GEMM.
      gemm(kNoTrans, kNoTrans, s.f, p, ck, lhs, ck, in, p, result, p,
           accumulate);
    } else if (int64_t blocks = blockCount(p, ck * int64_t(sizeof(T)))) {
      // An im2col larger than the cache: `blocks` blocks of near-equal
      // widths of output columns, each copied then multiplied while it is
      // in the L2 cache, the blocks split across the team (each GEMM
      // single-threaded), where the whole im2col went to memory and back.
      int64_t width = (p + blocks - 1) / blocks;
      parallelFor((p + width - 1) / width, 1, [&](int64_t lo, int64_t hi) {
        Scratch<T> block;
        block.resize(ck * width);
        for (int64_t b = lo; b < hi; ++b) {
          int64_t p0 = b * width, p1 = std::min(p, p0 + width);
          im2colBlock(s, in, inS, 0, s.c, p0, p1, block.data());
          gemm(kNoTrans, kNoTrans, s.f, p1 - p0, ck, lhs, ck, block.data(),
               p1 - p0, result + p0, p, accumulate);
        }
      });
    } else {
      im2col(s, in, inS, col);
      gemm(kNoTrans, kNoTrans, s.f, p, ck, lhs, ck, col.data(), p, result, p,
           accumulate);
    }
    if (!outDense)
      copyDense(outSizes, outS, 4, out, result, false);
    return;
  }
  if (!accumulate)
    zeroStrided(outSizes, outS, 4, out);
  for (int64_t fi = 0; fi < s.f; ++fi)
    for (int64_t z = 0; z < s.out[0]; ++z)
      for (int64_t y = 0; y < s.out[1]; ++y)
        for (int64_t x = 0; x < s.out[2]; ++x) {
          T &acc = out[fi * outS[0] + z * outS[1] + y * outS[2] + x * outS[3]];
          for (int64_t ci = 0; ci < s.c; ++ci)
            for (int64_t kz = 0; kz < s.kernel[0]; ++kz)
              for (int64_t ky = 0; ky < s.kernel[1]; ++ky)
                for (int64_t kx = 0; kx < s.kernel[2]; ++kx)
                  acc = std::fma(
                      w[fi * wS[0] + ci * wS[1] + kz * wS[2] + ky * wS[3] +
                        kx * wS[4]],
                      in[ci * inS[0] +
                         (z * s.stride[0] + kz * s.dilation[0]) * inS[1] +
                         (y * s.stride[1] + ky * s.dilation[1]) * inS[2] +
                         (x * s.stride[2] + kx * s.dilation[2]) * inS[3]],
                      acc);
        }
}

/// A convolution over a batch of `groups` groups: `in`, `w`, `out` point at
/// batch element 0, group 0; `batchS` and `groupS` are the element strides
/// of one batch element and one group of each ({in, w, out}; w has no batch
/// stride); `inS`, `wS`, `outS` those of the dims inside a group (see
/// convOne). Batch elements and groups run in parallel.
template <typename T>
void convBatch(const ConvShape &s, int64_t batch, int64_t groups,
               const int64_t batchS[3], const int64_t groupS[3], const T *in,
               const int64_t *inS, const T *w, const int64_t *wS, T *out,
               const int64_t *outS, bool accumulate) {
  int64_t work = s.f * s.out[0] * s.out[1] * s.out[2] * s.c * s.kernel[0] *
                 s.kernel[1] * s.kernel[2];
  // The wide tiles' scratch of every (batch element, group), taken here,
  // outside the parallel loop (see convDirectWide).
  int64_t wideFloats = 0;
#if defined(__x86_64__) && defined(__GNUC__)
  if constexpr (std::is_same_v<T, float>)
    if (std::optional<WidePlan> plan = widePlan(s, inS, outS))
      wideFloats = plan->scratchFloats();
#endif
  Scratch<T> wide;
  wide.resize(batch * groups * wideFloats);
  parallelFor(
      batch * groups, kGemmTaskWork / std::max<int64_t>(work, 1) + 1,
      [&](int64_t lo, int64_t hi) {
        Scratch<T> col, packed;
        for (int64_t i = lo; i < hi; ++i) {
          int64_t n = i / groups, g = i % groups;
          convOne(s, in + n * batchS[0] + g * groupS[0], inS, w + g * groupS[1],
                  wS, out + n * batchS[2] + g * groupS[2], outS, col, packed,
                  wideFloats ? wide.data() + i * wideFloats : nullptr,
                  accumulate);
        }
      });
}

/// Dim strides of a 2-D operand's spatial part, with a leading depth dim of
/// size 1: {channel, 0, y, x} from {channel, y, x}.
void withDepth(const int64_t *strides, int64_t *out) {
  out[0] = strides[0];
  out[1] = 0;
  out[2] = strides[1];
  out[3] = strides[2];
}

template <typename T>
void conv2dNchwFchw(StridedMemRef<T, 4> *in, StridedMemRef<T, 4> *w,
                    StridedMemRef<T, 4> *out, int64_t sh, int64_t sw,
                    int64_t dh, int64_t dw, bool accumulate) {
  ConvShape s = conv2dShape(out->sizes + 1, w->sizes + 1, sh, sw, dh, dw);
  int64_t inS[4], outS[4],
      wS[5] = {w->strides[0], w->strides[1], 0, w->strides[2], w->strides[3]};
  withDepth(in->strides + 1, inS);
  withDepth(out->strides + 1, outS);
  int64_t batchS[3] = {in->strides[0], 0, out->strides[0]};
  int64_t groupS[3] = {0, 0, 0};
  convBatch(s, out->sizes[0], 1, batchS, groupS, in->data(), inS, w->data(), wS,
            out->data(), outS, accumulate);
}

template <typename T>
void conv2dNgchwGfchw(StridedMemRef<T, 5> *in, StridedMemRef<T, 5> *w,
                      StridedMemRef<T, 5> *out, int64_t sh, int64_t sw,
                      int64_t dh, int64_t dw, bool accumulate) {
  ConvShape s = conv2dShape(out->sizes + 2, w->sizes + 2, sh, sw, dh, dw);
  int64_t inS[4], outS[4],
      wS[5] = {w->strides[1], w->strides[2], 0, w->strides[3], w->strides[4]};
  withDepth(in->strides + 2, inS);
  withDepth(out->strides + 2, outS);
  int64_t batchS[3] = {in->strides[0], 0, out->strides[0]};
  int64_t groupS[3] = {in->strides[1], w->strides[0], out->strides[1]};
  convBatch(s, out->sizes[0], out->sizes[1], batchS, groupS, in->data(), inS,
            w->data(), wS, out->data(), outS, accumulate);
}

template <typename T>
void conv3dNcdhwFcdhw(StridedMemRef<T, 5> *in, StridedMemRef<T, 5> *w,
                      StridedMemRef<T, 5> *out, int64_t sd, int64_t sh,
                      int64_t sw, int64_t dd, int64_t dh, int64_t dw,
                      bool accumulate) {
  ConvShape s{out->sizes[1],
              w->sizes[1],
              {out->sizes[2], out->sizes[3], out->sizes[4]},
              {w->sizes[2], w->sizes[3], w->sizes[4]},
              {sd, sh, sw},
              {dd, dh, dw}};
  int64_t batchS[3] = {in->strides[0], 0, out->strides[0]};
  int64_t groupS[3] = {0, 0, 0};
  convBatch(s, out->sizes[0], 1, batchS, groupS, in->data(), in->strides + 1,
            w->data(), w->strides, out->data(), out->strides + 1, accumulate);
}

//===----------------------------------------------------------------------===//
// int8 x int8 -> int32 (quantized programs)
//===----------------------------------------------------------------------===//

/// Columns of B per packed panel of the VNNI GEMM (two 512-bit registers of
/// int32 accumulators) and rows of A per micro-kernel call.
constexpr int64_t kIntPanel = 32;
constexpr int64_t kIntRows = 6;

/// The operands of C (m x n) += A (m x k) @ B (k x n), int8 in, int32 out,
/// with element strides.
struct IntGemm {
  int64_t m, n, k;
  const int8_t *a;
  int64_t as0, as1;
  const int8_t *b;
  int64_t bs0, bs1;
  int32_t *c;
  int64_t cs0, cs1;
  /// Subtracted from every element of row i, when not null (a convolution's
  /// input zero point times each filter's sum).
  const int32_t *rowOffsets = nullptr;
};

/// Exact: C += A @ B in int32, one product at a time.
void intGemmLoops(const IntGemm &g, int64_t rowLo, int64_t rowHi) {
  for (int64_t i = rowLo; i < rowHi; ++i) {
    for (int64_t p = 0; p < g.k; ++p) {
      int32_t aip = g.a[i * g.as0 + p * g.as1];
      for (int64_t j = 0; j < g.n; ++j)
        g.c[i * g.cs0 + j * g.cs1] += aip * int32_t(g.b[p * g.bs0 + j * g.bs1]);
    }
    if (g.rowOffsets)
      for (int64_t j = 0; j < g.n; ++j)
        g.c[i * g.cs0 + j * g.cs1] -= g.rowOffsets[i];
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
bool haveVnni() {
  static const bool vnni = __builtin_cpu_supports("avx512f") &&
                           __builtin_cpu_supports("avx512bw") &&
                           __builtin_cpu_supports("avx512vnni");
  return vnni && gCpuCapability >= 2;
}

/// acc[r] += the packed A row r (r < `rows`, or < Rows when Rows is not 0)
/// times the packed B panel, over `quads` quartets of k.
template <int64_t Rows>
__attribute__((target("avx512f,avx512bw,avx512vnni"),
               always_inline)) inline void
accumulateIntTile(__m512i (&acc)[kIntRows][2], int64_t rows, int64_t quads,
                  const uint32_t *ap, const int8_t *bp) {
  int64_t count = Rows ? Rows : rows;
  for (int64_t q = 0; q < quads; ++q) {
    __m512i b0 = _mm512_loadu_si512(bp + q * kIntPanel * 4);
    __m512i b1 = _mm512_loadu_si512(bp + q * kIntPanel * 4 + 64);
    for (int64_t r = 0; r < count; ++r) {
      __m512i av = _mm512_set1_epi32(int32_t(ap[r * quads + q]));
      acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], av, b0);
      acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], av, b1);
    }
  }
}

/// C[i0 .. i0+4, panel's 32 columns] += the packed A rows times the packed
/// B panel (see intGemmVnni), minus 128 times B's column sums.
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void
intGemmVnniTile(const IntGemm &g, int64_t quads, const uint32_t *packedA,
                const int8_t *packedB, const int32_t *colSums, int64_t panel,
                int64_t i0) {
  int64_t rows = std::min(kIntRows, g.m - i0);
  const int8_t *bp = packedB + panel * quads * kIntPanel * 4;
  const uint32_t *ap = packedA + i0 * quads;
  __m512i acc[kIntRows][2];
  for (int64_t r = 0; r < kIntRows; ++r)
    acc[r][0] = acc[r][1] = _mm512_setzero_si512();
  if (rows == kIntRows) // A constant trip count: the row loop unrolls.
    accumulateIntTile<kIntRows>(acc, kIntRows, quads, ap, bp);
  else
    accumulateIntTile<0>(acc, rows, quads, ap, bp);
  int64_t j0 = panel * kIntPanel;
  int64_t cols = std::min(kIntPanel, g.n - j0);
  __m512i s0 = _mm512_loadu_si512(colSums + j0);
  __m512i s1 = _mm512_loadu_si512(colSums + j0 + 16);
  for (int64_t r = 0; r < rows; ++r) {
    alignas(64) int32_t sums[kIntPanel];
    _mm512_store_si512(sums, _mm512_sub_epi32(acc[r][0], s0));
    _mm512_store_si512(sums + 16, _mm512_sub_epi32(acc[r][1], s1));
    int32_t *row = g.c + (i0 + r) * g.cs0 + j0 * g.cs1;
    int32_t offset = g.rowOffsets ? g.rowOffsets[i0 + r] : 0;
    for (int64_t l = 0; l < cols; ++l)
      row[l * g.cs1] += sums[l] - offset;
  }
}

/// Packs columns [32 * panel, 32 * panel + 32) of B (k x n, int8) as
/// [k/4][32][4] (k padded with zeros to a multiple of 4, columns past n
/// zero) into `dst`, and stores 128 times each column's sum in `sums`.
/// Contiguous layouts take word copies (B's columns contiguous: a linear's
/// weight) or 4-row byte interleaves (B's rows contiguous: an im2col); any
/// other layout goes element by element.
void packIntPanel(const IntGemm &g, int64_t quads, int64_t panel, int8_t *dst,
                  int32_t *sums) {
  int64_t j0 = panel * kIntPanel;
  int64_t cols = std::min(kIntPanel, g.n - j0);
  int64_t fullQuads = g.k / 4;
  for (int64_t l = 0; l < kIntPanel; ++l)
    sums[l] = 0;
  if (g.bs0 == 1) {
    for (int64_t l = 0; l < cols; ++l) {
      const int8_t *column = g.b + (j0 + l) * g.bs1;
      for (int64_t q = 0; q < fullQuads; ++q)
        std::memcpy(dst + (q * kIntPanel + l) * 4, column + 4 * q, 4);
      for (int64_t p = 4 * fullQuads; p < g.k; ++p)
        dst[(fullQuads * kIntPanel + l) * 4 + p % 4] = column[p];
      int32_t sum = 0;
      for (int64_t p = 0; p < g.k; ++p)
        sum += column[p];
      sums[l] = 128 * sum;
    }
    return;
  }
  if (g.bs1 == 1) {
    for (int64_t q = 0; q < quads; ++q) {
      const int8_t *rows[4];
      bool full = 4 * q + 3 < g.k;
      for (int64_t t = 0; t < 4; ++t)
        rows[t] = 4 * q + t < g.k ? g.b + (4 * q + t) * g.bs0 + j0 : nullptr;
      int8_t *out = dst + q * kIntPanel * 4;
      int64_t l = 0;
#if defined(__x86_64__) && defined(__GNUC__)
      // 16 columns of 4 rows: bytes (r0 r1 r2 r3) per column (SSE2).
      for (; full && l + 16 <= cols; l += 16) {
        __m128i r0 =
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(rows[0] + l));
        __m128i r1 =
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(rows[1] + l));
        __m128i r2 =
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(rows[2] + l));
        __m128i r3 =
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(rows[3] + l));
        __m128i lo01 = _mm_unpacklo_epi8(r0, r1),
                hi01 = _mm_unpackhi_epi8(r0, r1);
        __m128i lo23 = _mm_unpacklo_epi8(r2, r3),
                hi23 = _mm_unpackhi_epi8(r2, r3);
        auto *target = reinterpret_cast<__m128i *>(out + l * 4);
        _mm_storeu_si128(target, _mm_unpacklo_epi16(lo01, lo23));
        _mm_storeu_si128(target + 1, _mm_unpackhi_epi16(lo01, lo23));
        _mm_storeu_si128(target + 2, _mm_unpacklo_epi16(hi01, hi23));
        _mm_storeu_si128(target + 3, _mm_unpackhi_epi16(hi01, hi23));
      }
#endif
      for (; l < cols; ++l)
        for (int64_t t = 0; t < 4; ++t)
          out[l * 4 + t] = rows[t] ? rows[t][l] : 0;
    }
    for (int64_t p = 0; p < g.k; ++p) {
      const int8_t *row = g.b + p * g.bs0 + j0;
      for (int64_t l = 0; l < cols; ++l)
        sums[l] += row[l];
    }
    for (int64_t l = 0; l < cols; ++l)
      sums[l] *= 128;
    return;
  }
  for (int64_t l = 0; l < cols; ++l) {
    int32_t sum = 0;
    for (int64_t p = 0; p < g.k; ++p) {
      int8_t v = g.b[p * g.bs0 + (j0 + l) * g.bs1];
      dst[(p / 4) * kIntPanel * 4 + l * 4 + p % 4] = v;
      sum += v;
    }
    sums[l] = 128 * sum;
  }
}

/// The VNNI form (vpdpbusd: 4 unsigned x signed byte products summed into
/// each int32 lane). A is made unsigned by flipping its sign bit (a + 128),
/// so C gets sum((a + 128) * b) - 128 * sum(b): exact, as every partial sum
/// stays far below 2^31 for k < 2^16. Packing: A as [m][k/4] quartets, B as
/// panels of [k/4][32 columns][4]; k is padded to a multiple of 4 with
/// b = 0. Rows of A and panels of B run in parallel.
void intGemmVnni(const IntGemm &g) {
  int64_t quads = (g.k + 3) / 4;
  int64_t panels = (g.n + kIntPanel - 1) / kIntPanel;
  std::vector<uint32_t> packedA(g.m * quads);
  std::vector<int8_t> packedB(panels * quads * kIntPanel * 4, 0);
  std::vector<int32_t> colSums(panels * kIntPanel, 0);
  parallelFor(g.m, 64, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i)
      for (int64_t q = 0; q < quads; ++q) {
        if (g.as1 == 1 && 4 * q + 4 <= g.k) {
          uint32_t word;
          std::memcpy(&word, g.a + i * g.as0 + 4 * q, 4);
          packedA[i * quads + q] = word ^ 0x80808080u;
          continue;
        }
        uint32_t word = 0;
        for (int64_t t = 0; t < 4; ++t) {
          int64_t p = 4 * q + t;
          uint8_t byte = p < g.k ? uint8_t(g.a[i * g.as0 + p * g.as1]) : 0;
          word |= uint32_t(uint8_t(byte ^ 0x80)) << (8 * t);
        }
        packedA[i * quads + q] = word;
      }
  });
  parallelFor(panels, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t panel = lo; panel < hi; ++panel)
      packIntPanel(g, quads, panel,
                   packedB.data() + panel * quads * kIntPanel * 4,
                   colSums.data() + panel * kIntPanel);
  });
  int64_t rowBlocks = (g.m + kIntRows - 1) / kIntRows;
  int64_t work = kIntRows * kIntPanel * g.k / 4;
  parallelFor(rowBlocks * panels,
              kGemmTaskWork / std::max<int64_t>(work, 1) + 1,
              [&](int64_t lo, int64_t hi) {
                for (int64_t task = lo; task < hi; ++task)
                  intGemmVnniTile(g, quads, packedA.data(), packedB.data(),
                                  colSums.data(), task % panels,
                                  (task / panels) * kIntRows);
              });
}
#else
bool haveVnni() { return false; }
void intGemmVnni(const IntGemm &) {}
#endif

/// C += A @ B (int8 -> int32): the VNNI kernel on CPUs that have it, else
/// the exact loops (rows split across the team).
void intGemm(const IntGemm &g) {
  if (g.m == 0 || g.n == 0)
    return;
  if (haveVnni() && g.k > 0 && g.k < (int64_t(1) << 16)) {
    intGemmVnni(g);
    return;
  }
  parallelFor(g.m, kGemmTaskWork / std::max<int64_t>(g.n * g.k, 1) + 1,
              [&](int64_t lo, int64_t hi) { intGemmLoops(g, lo, hi); });
}

void intMatmul(StridedMemRef<int8_t, 2> *a, StridedMemRef<int8_t, 2> *b,
               StridedMemRef<int32_t, 2> *c) {
  intGemm({c->sizes[0], c->sizes[1], a->sizes[1], a->data(), a->strides[0],
           a->strides[1], b->data(), b->strides[0], b->strides[1], c->data(),
           c->strides[0], c->strides[1]});
}

/// out[n] (F x OH*OW) += sum((in - inZero) * (w - wZero)) over C x KH x KW,
/// `in` padded already (linalg.conv_2d_nchw_fchw_q): one int8 GEMM of the
/// weight by the input's im2col per batch element, then minus inZero times
/// each filter's sum. A weight zero point other than 0 (which torch2mlir's
/// lowering never makes) runs as exact loops.
void intConv2d(StridedMemRef<int8_t, 4> *in, StridedMemRef<int8_t, 4> *w,
               StridedMemRef<int32_t, 4> *out, int32_t inZero, int32_t wZero,
               int64_t sh, int64_t sw, int64_t dh, int64_t dw) {
  ConvShape s = conv2dShape(out->sizes + 1, w->sizes + 1, sh, sw, dh, dw);
  int64_t f = s.f, ck = s.c * s.kernel[1] * s.kernel[2];
  int64_t p = s.out[1] * s.out[2];
  int64_t outSizes[3] = {out->sizes[1], out->sizes[2], out->sizes[3]};
  bool outDense = isDense(outSizes, out->strides + 1, 3);
  int64_t wSizes[4] = {w->sizes[0], w->sizes[1], w->sizes[2], w->sizes[3]};
  if (wZero != 0 || !outDense || !isDense(wSizes, w->strides, 4)) {
    for (int64_t n = 0; n < out->sizes[0]; ++n)
      for (int64_t fi = 0; fi < f; ++fi)
        for (int64_t y = 0; y < s.out[1]; ++y)
          for (int64_t x = 0; x < s.out[2]; ++x) {
            int32_t acc = 0;
            for (int64_t ci = 0; ci < s.c; ++ci)
              for (int64_t ky = 0; ky < s.kernel[1]; ++ky)
                for (int64_t kx = 0; kx < s.kernel[2]; ++kx)
                  acc +=
                      (int32_t(
                           in->data()[n * in->strides[0] + ci * in->strides[1] +
                                      (y * sh + ky * dh) * in->strides[2] +
                                      (x * sw + kx * dw) * in->strides[3]]) -
                       inZero) *
                      (int32_t(
                           w->data()[fi * w->strides[0] + ci * w->strides[1] +
                                     ky * w->strides[2] + kx * w->strides[3]]) -
                       wZero);
            out->data()[n * out->strides[0] + fi * out->strides[1] +
                        y * out->strides[2] + x * out->strides[3]] += acc;
          }
    return;
  }
  // inZero times each filter's sum: sum((x - z) * w) = sum(x * w) - z * sum(w).
  std::vector<int32_t> filterSums(f, 0);
  for (int64_t fi = 0; fi < f; ++fi) {
    for (int64_t q = 0; q < ck; ++q)
      filterSums[fi] += w->data()[fi * ck + q];
    filterSums[fi] *= inZero;
  }
  int64_t inS[4];
  withDepth(in->strides + 1, inS);
  Scratch<int8_t> col;
  for (int64_t n = 0; n < out->sizes[0]; ++n) {
    const int8_t *image = in->data() + n * in->strides[0];
    int32_t *result = out->data() + n * out->strides[0];
    int64_t inSizes[3] = {in->sizes[1], in->sizes[2], in->sizes[3]};
    const int8_t *rhs = image;
    if (!(ck == s.c && sh == 1 && sw == 1 &&
          isDense(inSizes, in->strides + 1, 3))) {
      im2col(s, image, inS, col);
      rhs = col.data();
    }
    intGemm({f, p, ck, w->data(), ck, 1, rhs, p, 1, result, p, 1,
             filterSums.data()});
  }
}

/// An unranked memref (MLIR's C interface): the rank and a pointer to the
/// ranked descriptor {allocated, aligned, offset, sizes[rank],
/// strides[rank]}.
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;

  // The ranked descriptor's fields up to sizes[0] are laid out as in
  // StridedMemRef of any rank; the strides follow the `rank` sizes.
  template <typename T> T *data() const {
    return static_cast<StridedMemRef<T, 1> *>(descriptor)->data();
  }
  const int64_t *sizes() const {
    return static_cast<StridedMemRef<char, 1> *>(descriptor)->sizes;
  }
  const int64_t *strides() const { return sizes() + rank; }
};

/// Runs f(offsetA, offsetB) for every slice along `dim` of two memrefs of
/// the same rank whose sizes agree except along `dim` (element offsets of
/// the slice's first element in each), slices split across the team.
template <typename F>
void forEachSlice(const UnrankedMemRef &a, const UnrankedMemRef &b, int64_t dim,
                  int64_t work, F &&f) {
  int64_t slices = 1;
  for (int64_t i = 0; i < a.rank; ++i)
    if (i != dim)
      slices *= a.sizes()[i];
  parallelFor(slices, kGemmTaskWork / std::max<int64_t>(work, 1) + 1,
              [&](int64_t lo, int64_t hi) {
                for (int64_t s = lo; s < hi; ++s) {
                  int64_t rest = s, offsetA = 0, offsetB = 0;
                  for (int64_t i = a.rank - 1; i >= 0; --i) {
                    if (i == dim)
                      continue;
                    int64_t index = rest % a.sizes()[i];
                    rest /= a.sizes()[i];
                    offsetA += index * a.strides()[i];
                    offsetB += index * b.strides()[i];
                  }
                  f(offsetA, offsetB);
                }
              });
}

/// Whether `a` comes strictly before `b`: ascending or descending, NaN
/// above every number (PyTorch's order).
template <typename T> bool precedes(T a, T b, bool descending) {
  if constexpr (std::is_floating_point_v<T>) {
    if (descending)
      return a != a ? b == b : (b == b && a > b);
    return a == a && (b != b || a < b);
  } else {
    return descending ? a > b : a < b;
  }
}

/// An unsigned integer whose order is `precedes`' order of the values:
/// ascending, or descending when `descending`; NaN above every number
/// (first when descending), every NaN equal, -0.0 equal to +0.0.
template <typename T> auto orderKey(T value, bool descending) {
  using Key = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
  constexpr Key kSign = Key(1) << (8 * sizeof(Key) - 1);
  Key key;
  if constexpr (std::is_floating_point_v<T>) {
    if (value != value) {
      key = ~Key(0);
    } else {
      // +0.0 for -0.0; then the sign-magnitude bits as an ordered integer:
      // negatives flipped whole, positives above them.
      Key bits;
      T canonical = value == T(0) ? T(0) : value;
      std::memcpy(&bits, &canonical, sizeof(bits));
      key = (bits & kSign) ? ~bits : bits | kSign;
    }
  } else {
    key = static_cast<Key>(value) ^ kSign;
  }
  return descending ? Key(~key) : key;
}

template <typename Key> struct KeyedPosition {
  Key key;
  int64_t position;
};

/// Slices at least this long are radix sorted; shorter ones go through
/// std::stable_sort, where the radix passes' 256-entry histograms would
/// cost more than the elements.
constexpr int64_t kRadixSortMin = 256;

/// Sorts `items` by key, stably (equal keys keep their order): a
/// least-significant-digit radix sort, a byte per pass, the histograms of
/// all bytes counted in one pass; a byte that is the same in every key
/// costs no pass.
template <typename Key> void radixSort(std::vector<KeyedPosition<Key>> &items) {
  constexpr int kBytes = sizeof(Key);
  std::vector<KeyedPosition<Key>> scratch(items.size());
  std::vector<int64_t> counts(kBytes * 256, 0);
  for (const KeyedPosition<Key> &item : items)
    for (int b = 0; b < kBytes; ++b)
      ++counts[b * 256 + ((item.key >> (8 * b)) & 0xFF)];
  int64_t n = static_cast<int64_t>(items.size());
  for (int b = 0; b < kBytes; ++b) {
    int64_t *count = counts.data() + b * 256;
    if (count[(items.front().key >> (8 * b)) & 0xFF] == n)
      continue;
    int64_t offset = 0;
    for (int digit = 0; digit < 256; ++digit)
      offset += std::exchange(count[digit], offset);
    for (const KeyedPosition<Key> &item : items)
      scratch[count[(item.key >> (8 * b)) & 0xFF]++] = item;
    items.swap(scratch);
  }
}

/// The positions of a slice of `n` elements (`slice[q * step]`) in its
/// stable sort (ties keep position order), into `order`: all of them, or
/// with 0 <= `limit` < n only the first `limit` (a partial sort: topk).
template <typename T>
void sortedPositions(const T *slice, int64_t step, int64_t n, bool descending,
                     int64_t limit, std::vector<int64_t> &order) {
  if (limit >= 0 && limit < n) {
    // Ties broken by position: a total order, so the first `limit` of it
    // are the stable sort's. A heap of the `limit` first positions seen
    // so far, the last of them on top. A later position q comes after
    // every position in the heap among ties, so it enters only if its
    // value strictly precedes the top's: one comparison for most of a
    // long slice.
    auto before = [&](int64_t i, int64_t j) {
      T a = slice[i * step], b = slice[j * step];
      return precedes(a, b, descending) ||
             (!precedes(b, a, descending) && i < j);
    };
    order.resize(limit);
    for (int64_t q = 0; q < limit; ++q)
      order[q] = q;
    std::make_heap(order.begin(), order.end(), before);
    if (limit > 0) {
      T last = slice[order.front() * step];
      for (int64_t q = limit; q < n; ++q) {
        if (!precedes(slice[q * step], last, descending))
          continue;
        std::pop_heap(order.begin(), order.end(), before);
        order.back() = q;
        std::push_heap(order.begin(), order.end(), before);
        last = slice[order.front() * step];
      }
    }
    std::sort_heap(order.begin(), order.end(), before);
    return;
  }
  using Key = decltype(orderKey(T(), false));
  std::vector<KeyedPosition<Key>> items(n);
  for (int64_t q = 0; q < n; ++q)
    items[q] = {orderKey(slice[q * step], descending), q};
  if (n < kRadixSortMin) {
    std::stable_sort(items.begin(), items.end(),
                     [](const KeyedPosition<Key> &a,
                        const KeyedPosition<Key> &b) { return a.key < b.key; });
  } else {
    radixSort(items);
  }
  order.resize(n);
  for (int64_t q = 0; q < n; ++q)
    order[q] = items[q].position;
}

/// ranks[p] += the rank of x[p] in the stable sort of its slice along
/// `dim` (ties keep position order: the order the generic this replaces
/// computes with n^2 comparisons). With 0 <= `limit` < n only the first
/// `limit` ranks are exact (a partial sort: topk); the others are n.
template <typename T>
void sortRanks(const UnrankedMemRef &x, const UnrankedMemRef &ranks,
               int64_t dim, bool descending, int64_t limit) {
  if (x.rank != ranks.rank || dim < 0 || dim >= x.rank)
    return;
  int64_t n = x.sizes()[dim];
  int64_t xStep = x.strides()[dim], rStep = ranks.strides()[dim];
  const T *values = x.data<T>();
  int64_t *out = ranks.data<int64_t>();
  forEachSlice(x, ranks, dim, n * 16, [&](int64_t xo, int64_t ro) {
    // Not a thread_local buffer: in a shared library the compiler may
    // recompute its address (a __tls_get_addr call) at every use.
    std::vector<int64_t> order;
    sortedPositions(values + xo, xStep, n, descending, limit, order);
    int64_t exact = static_cast<int64_t>(order.size());
    if (exact < n)
      for (int64_t q = 0; q < n; ++q)
        out[ro + q * rStep] += n;
    for (int64_t q = 0; q < exact; ++q)
      out[ro + order[q] * rStep] += q - (exact < n ? n : 0);
  });
}

/// order[r] += the position of rank r in the stable sort of x's slice along
/// `dim`, for the r below the order's size along `dim` (at most `limit`
/// when 0 <= `limit`): sort_ranks then sort_order in one step, without
/// the ranks (a tensor of x's size) in between.
template <typename T>
void sortPositions(const UnrankedMemRef &x, const UnrankedMemRef &order,
                   int64_t dim, bool descending, int64_t limit) {
  if (x.rank != order.rank || dim < 0 || dim >= x.rank)
    return;
  int64_t n = x.sizes()[dim], count = order.sizes()[dim];
  int64_t xStep = x.strides()[dim], oStep = order.strides()[dim];
  const T *values = x.data<T>();
  int64_t *out = order.data<int64_t>();
  forEachSlice(x, order, dim, n * 16, [&](int64_t xo, int64_t oo) {
    std::vector<int64_t> positions;
    sortedPositions(values + xo, xStep, n, descending, limit, positions);
    int64_t written =
        std::min<int64_t>(count, static_cast<int64_t>(positions.size()));
    for (int64_t q = 0; q < written; ++q)
      out[oo + q * oStep] += positions[q];
  });
}

/// Opens the BLAS at `path` and finds its `<prefix>cblas_sgemm` and
/// `<prefix>cblas_dgemm`; an OpenBLAS gets one thread of its own, since
/// threads come from the OpenMP team (see gemm): its own pool would compete
/// with it for the same cores. Returns 0 on success (the functions set), 1
/// if the library cannot be opened, 2 if a symbol is missing.
int openGemm(const char *path, const char *prefix, void *&handle,
             SgemmFn &sgemmOut, DgemmFn &dgemmOut) {
  handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return 1;
  std::string s = std::string(prefix) + "cblas_sgemm";
  std::string d = std::string(prefix) + "cblas_dgemm";
  auto *sym = reinterpret_cast<SgemmFn>(dlsym(handle, s.c_str()));
  auto *dym = reinterpret_cast<DgemmFn>(dlsym(handle, d.c_str()));
  if (!sym || !dym)
    return 2;
  std::string threads = std::string(prefix) + "openblas_set_num_threads";
  if (auto *setThreads =
          reinterpret_cast<void (*)(int)>(dlsym(handle, threads.c_str())))
    setThreads(1);
  sgemmOut = sym;
  dgemmOut = dym;
  return 0;
}

} // namespace

/// Caps the vector instructions of the kernels at `level`: 2 AVX-512 (the
/// default: all the CPU has), 1 AVX2 with FMA, 0 neither (plain loops).
/// Each kernel computes the same bits at every level. For tests and
/// comparisons; call it before the kernels run.
T2M_EXPORT void torch2mlir_runtime_set_cpu_capability(int level) {
  gCpuCapability = level;
}

/// Loads the BLAS at `path` (a shared library exporting `<prefix>cblas_sgemm`
/// and `<prefix>cblas_dgemm`). Returns 0 on success, 1 if it cannot be
/// opened, 2 if a symbol is missing. Without it the kernels run as loops.
T2M_EXPORT int torch2mlir_runtime_init(const char *path, const char *prefix) {
  void *handle = nullptr;
  SgemmFn sym = nullptr;
  DgemmFn dym = nullptr;
  if (int failed = openGemm(path, prefix, handle, sym, dym))
    return failed;
  // MKL's single dynamic library (libmkl_rt) picks its threading layer
  // before the first call: GNU OpenMP when PyTorch's libgomp is bound (MKL
  // then runs on that same team), else sequential, which loads no
  // threading runtime at all.
  constexpr int kMklThreadingSequential = 1, kMklThreadingGnu = 3;
  auto *setLayer =
      reinterpret_cast<int (*)(int)>(dlsym(handle, "MKL_Set_Threading_Layer"));
  auto *setThreadsLocal = reinterpret_cast<int (*)(int)>(
      dlsym(handle, "MKL_Set_Num_Threads_Local"));
  mklSetThreadsLocal = nullptr;
  if (setLayer) {
    bool gnu = setThreadsLocal && torch2mlir_runtime_has_openmp() &&
               setLayer(kMklThreadingGnu) == kMklThreadingGnu;
    if (gnu)
      mklSetThreadsLocal = setThreadsLocal;
    else
      setLayer(kMklThreadingSequential);
  }
  sgemm = sym;
  dgemm = dym;
  // MKL's batched GEMM (OpenBLAS's, where it has one, is not used: its
  // signature has varied between releases).
  sgemmBatch = nullptr;
  dgemmBatch = nullptr;
  sgemmPacked = {};
  dgemmPacked = {};
  if (setLayer) {
    sgemmBatch = reinterpret_cast<SgemmBatchFn>(
        dlsym(handle, "cblas_sgemm_batch_strided"));
    dgemmBatch = reinterpret_cast<DgemmBatchFn>(
        dlsym(handle, "cblas_dgemm_batch_strided"));
    auto load = [&](auto &api, const char *size, const char *pack,
                    const char *compute) {
      using Api = std::remove_reference_t<decltype(api)>;
      Api loaded;
      loaded.size = reinterpret_cast<GemmPackSizeFn>(dlsym(handle, size));
      loaded.pack =
          reinterpret_cast<decltype(loaded.pack)>(dlsym(handle, pack));
      loaded.compute =
          reinterpret_cast<decltype(loaded.compute)>(dlsym(handle, compute));
      if (loaded.size && loaded.pack && loaded.compute)
        api = loaded;
    };
    load(sgemmPacked, "cblas_sgemm_pack_get_size", "cblas_sgemm_pack",
         "cblas_sgemm_compute");
    load(dgemmPacked, "cblas_dgemm_pack_get_size", "cblas_dgemm_pack",
         "cblas_dgemm_compute");
  }
  return 0;
}

/// Loads a second BLAS (as torch2mlir_runtime_init: `<prefix>cblas_sgemm`
/// and `<prefix>cblas_dgemm`, its own threads set to 1) for the GEMMs of at
/// least kLargeGemmMinDim in each of m, n and k, which gemm then splits
/// across the team; an empty `path` unloads it. Batched, packed and smaller
/// GEMMs stay with the first BLAS. Returns as torch2mlir_runtime_init.
T2M_EXPORT int torch2mlir_runtime_init_large_gemm(const char *path,
                                                  const char *prefix) {
  sgemmLarge = nullptr;
  dgemmLarge = nullptr;
  if (!*path)
    return 0;
  void *handle = nullptr;
  return openGemm(path, prefix, handle, sgemmLarge, dgemmLarge);
}

/// Frees the packed copies of every B that starts in [base, base + bytes):
/// the module that owned that memory (a frozen weight) is gone, and the
/// memory may next hold other values.
T2M_EXPORT void torch2mlir_runtime_release_packed(const void *base,
                                                  size_t bytes) {
  auto begin = reinterpret_cast<uintptr_t>(base);
  std::lock_guard<std::mutex> lock(packedMutex);
  for (auto it = packedMatrices.begin(); it != packedMatrices.end();) {
    auto at = reinterpret_cast<uintptr_t>(std::get<0>(it->first));
    if (at >= begin && at - begin < bytes) {
      std::free(it->second.data);
      packedBytes -= it->second.bytes;
      it = packedMatrices.erase(it);
    } else {
      ++it;
    }
  }
}

/// Bytes held by packed copies of frozen weights.
T2M_EXPORT size_t torch2mlir_runtime_packed_bytes() {
  std::lock_guard<std::mutex> lock(packedMutex);
  return packedBytes;
}

/// Whether torch2mlir_runtime_init loaded a BLAS.
T2M_EXPORT int torch2mlir_runtime_has_blas() { return sgemm != nullptr; }

#define T2M_KERNELS(SUFFIX, T)                                                 \
  T2M_EXPORT void _mlir_ciface_torch2mlir_matmul_##SUFFIX(                     \
      StridedMemRef<T, 2> *a, StridedMemRef<T, 2> *b, StridedMemRef<T, 2> *c,  \
      int64_t accumulate) {                                                    \
    matmul(a, b, c, accumulate != 0);                                          \
  }                                                                            \
  T2M_EXPORT void _mlir_ciface_torch2mlir_matmul_frozen_##SUFFIX(              \
      StridedMemRef<T, 2> *a, StridedMemRef<T, 2> *b, StridedMemRef<T, 2> *c,  \
      int64_t accumulate) {                                                    \
    matmulFrozen(a, b, c, accumulate != 0);                                    \
  }                                                                            \
  T2M_EXPORT void _mlir_ciface_torch2mlir_batch_matmul_##SUFFIX(               \
      StridedMemRef<T, 3> *a, StridedMemRef<T, 3> *b, StridedMemRef<T, 3> *c,  \
      int64_t accumulate) {                                                    \
    batchMatmul(a, b, c, accumulate != 0);                                     \
  }                                                                            \
  T2M_EXPORT void _mlir_ciface_torch2mlir_conv2d_nchw_fchw_##SUFFIX(           \
      StridedMemRef<T, 4> *in, StridedMemRef<T, 4> *w,                         \
      StridedMemRef<T, 4> *out, int64_t sh, int64_t sw, int64_t dh,            \
      int64_t dw, int64_t accumulate) {                                        \
    conv2dNchwFchw(in, w, out, sh, sw, dh, dw, accumulate != 0);               \
  }                                                                            \
  T2M_EXPORT void _mlir_ciface_torch2mlir_conv2d_ngchw_gfchw_##SUFFIX(         \
      StridedMemRef<T, 5> *in, StridedMemRef<T, 5> *w,                         \
      StridedMemRef<T, 5> *out, int64_t sh, int64_t sw, int64_t dh,            \
      int64_t dw, int64_t accumulate) {                                        \
    conv2dNgchwGfchw(in, w, out, sh, sw, dh, dw, accumulate != 0);             \
  }                                                                            \
  T2M_EXPORT void _mlir_ciface_torch2mlir_conv3d_ncdhw_fcdhw_##SUFFIX(         \
      StridedMemRef<T, 5> *in, StridedMemRef<T, 5> *w,                         \
      StridedMemRef<T, 5> *out, int64_t sd, int64_t sh, int64_t sw,            \
      int64_t dd, int64_t dh, int64_t dw, int64_t accumulate) {                \
    conv3dNcdhwFcdhw(in, w, out, sd, sh, sw, dd, dh, dw, accumulate != 0);     \
  }

T2M_KERNELS(f32, float)
T2M_KERNELS(f64, double)

T2M_EXPORT void
_mlir_ciface_torch2mlir_matmul_i8(StridedMemRef<int8_t, 2> *a,
                                  StridedMemRef<int8_t, 2> *b,
                                  StridedMemRef<int32_t, 2> *c) {
  intMatmul(a, b, c);
}

T2M_EXPORT void _mlir_ciface_torch2mlir_conv2d_nchw_fchw_q_i8(
    StridedMemRef<int8_t, 4> *in, StridedMemRef<int8_t, 4> *w,
    StridedMemRef<int32_t, 4> *out, int32_t inZero, int32_t wZero, int64_t sh,
    int64_t sw, int64_t dh, int64_t dw) {
  intConv2d(in, w, out, inZero, wZero, sh, sw, dh, dw);
}

#define T2M_SORT_KERNELS(SUFFIX, T)                                            \
  T2M_EXPORT void _mlir_ciface_torch2mlir_sort_ranks_##SUFFIX(                 \
      UnrankedMemRef *x, UnrankedMemRef *ranks, int64_t dim,                   \
      int64_t descending, int64_t limit) {                                     \
    sortRanks<T>(*x, *ranks, dim, descending != 0, limit);                     \
  }                                                                            \
  T2M_EXPORT void _mlir_ciface_torch2mlir_sort_positions_##SUFFIX(             \
      UnrankedMemRef *x, UnrankedMemRef *order, int64_t dim,                   \
      int64_t descending, int64_t limit) {                                     \
    sortPositions<T>(*x, *order, dim, descending != 0, limit);                 \
  }

T2M_SORT_KERNELS(f32, float)
T2M_SORT_KERNELS(f64, double)
T2M_SORT_KERNELS(i32, int32_t)
T2M_SORT_KERNELS(i64, int64_t)

/// order[r] += j for the j of each slice along `dim` whose rank is r < the
/// order's size along `dim` (ranks: a permutation of each slice).
T2M_EXPORT void _mlir_ciface_torch2mlir_sort_order(UnrankedMemRef *ranks,
                                                   UnrankedMemRef *order,
                                                   int64_t dim) {
  if (ranks->rank != order->rank || dim < 0 || dim >= ranks->rank)
    return;
  int64_t n = ranks->sizes()[dim], count = order->sizes()[dim];
  int64_t rStep = ranks->strides()[dim], oStep = order->strides()[dim];
  const int64_t *in = ranks->data<int64_t>();
  int64_t *out = order->data<int64_t>();
  forEachSlice(*ranks, *order, dim, n, [&](int64_t ro, int64_t oo) {
    for (int64_t j = 0; j < n; ++j) {
      int64_t r = in[ro + j * rStep];
      if (r >= 0 && r < count)
        out[oo + r * oStep] += j;
    }
  });
}
