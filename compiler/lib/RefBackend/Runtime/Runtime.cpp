//===- Runtime.cpp - Functions the RefBackend's generated code calls ------===//
//
// Part of the torch2mlir project.
//
// A tiny shared library that the ExecutionEngine loads for the RefBackend.
// The LLVM lowering of `memref.copy` calls `memrefCopy` when it cannot prove
// both buffers contiguous (a copy into a subview, e.g. for tensor.pad or an
// insert_slice). This library provides it with no dependency on LLVM.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

namespace {

/// The ABI of an unranked memref: the rank and a pointer to a ranked
/// descriptor {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};

struct RankedView {
  char *aligned;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;
};

RankedView view(const UnrankedMemRef &memref) {
  auto *fields = static_cast<char *>(memref.descriptor);
  RankedView result;
  std::memcpy(&result.aligned, fields + sizeof(void *), sizeof(void *));
  std::memcpy(&result.offset, fields + 2 * sizeof(void *), sizeof(int64_t));
  result.sizes = reinterpret_cast<const int64_t *>(fields + 2 * sizeof(void *) +
                                                   sizeof(int64_t));
  result.strides = result.sizes + memref.rank;
  return result;
}

/// Copies the elements of dims [dim, rank) at the given element offsets.
void copyDims(int64_t elementSize, int64_t rank, int64_t dim,
              const RankedView &src, int64_t srcOffset, const RankedView &dst,
              int64_t dstOffset) {
  int64_t size = src.sizes[dim];
  int64_t srcStride = src.strides[dim], dstStride = dst.strides[dim];
  if (dim + 1 == rank) {
    if (srcStride == 1 && dstStride == 1) {
      std::memcpy(dst.aligned + dstOffset * elementSize,
                  src.aligned + srcOffset * elementSize, size * elementSize);
      return;
    }
    for (int64_t i = 0; i < size; ++i)
      std::memcpy(dst.aligned + (dstOffset + i * dstStride) * elementSize,
                  src.aligned + (srcOffset + i * srcStride) * elementSize,
                  elementSize);
    return;
  }
  for (int64_t i = 0; i < size; ++i)
    copyDims(elementSize, rank, dim + 1, src, srcOffset + i * srcStride, dst,
             dstOffset + i * dstStride);
}

/// Copies of at least this many bytes run on several threads.
constexpr int64_t kParallelCopyBytes = int64_t(1) << 18;

} // namespace

// Parallel.cpp.
extern "C" void torch2mlir_parallel_for(void (*body)(void *, int64_t, int64_t),
                                        void *ctx, int64_t n, int64_t grain);

extern "C" __attribute__((visibility("default"))) void
memrefCopy(int64_t elementSize, UnrankedMemRef *src, UnrankedMemRef *dst) {
  RankedView from = view(*src), to = view(*dst);
  if (src->rank == 0) {
    std::memcpy(to.aligned + to.offset * elementSize,
                from.aligned + from.offset * elementSize, elementSize);
    return;
  }
  int64_t bytes = elementSize;
  for (int64_t d = 0; d < src->rank; ++d)
    bytes *= from.sizes[d];
  if (bytes == 0)
    return;
  // A large copy (a tensor.pad's input into the padded buffer) is split
  // across the threads along its first dim of more than one element, but
  // for the innermost: the copy is serial code between parallel loops.
  int64_t outer = 0;
  while (outer + 1 < src->rank && from.sizes[outer] == 1)
    ++outer;
  if (bytes < kParallelCopyBytes || outer + 1 >= src->rank) {
    copyDims(elementSize, src->rank, 0, from, from.offset, to, to.offset);
    return;
  }
  struct Task {
    int64_t elementSize, rank, outer;
    const RankedView *from, *to;
    int64_t srcBase, dstBase;
  } task{elementSize, src->rank, outer, &from, &to, from.offset, to.offset};
  // Dims before `outer` have size 1: their offsets add nothing.
  torch2mlir_parallel_for(
      [](void *ctx, int64_t lo, int64_t hi) {
        const Task &t = *static_cast<const Task *>(ctx);
        for (int64_t i = lo; i < hi; ++i)
          copyDims(t.elementSize, t.rank, t.outer + 1, *t.from,
                   t.srcBase + i * t.from->strides[t.outer], *t.to,
                   t.dstBase + i * t.to->strides[t.outer]);
      },
      &task, from.sizes[outer],
      std::max<int64_t>(1,
                        kParallelCopyBytes / 4 / (bytes / from.sizes[outer])));
}

//===----------------------------------------------------------------------===//
// bfloat16 rounding
//
// LLVM computes bfloat16 arithmetic in float and rounds each result with
// the compiler-rt builtins below (round to nearest even, NaN stays NaN).
// libgcc only has them from GCC 13 on, so the JIT would not find them on
// older systems; these are the same functions under the same ABI (the
// result in the low 16 bits of xmm0, where _Float16 is returned).
//===----------------------------------------------------------------------===//

namespace {

uint16_t bf16BitsFromFloat(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7fffffffu) > 0x7f800000u) // NaN: keep it quiet
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  uint32_t lsb = (bits >> 16) & 1u;
  bits += 0x7fffu + lsb;
  return static_cast<uint16_t>(bits >> 16);
}

_Float16 asReturnRegister(uint16_t bits) {
  _Float16 result;
  std::memcpy(&result, &bits, sizeof(bits));
  return result;
}

} // namespace

extern "C" __attribute__((visibility("default"))) _Float16
__truncsfbf2(float value) {
  return asReturnRegister(bf16BitsFromFloat(value));
}

extern "C" __attribute__((visibility("default"))) _Float16
__truncdfbf2(double value) {
  // double -> float rounded to odd (toward zero, then the last bit set if
  // inexact), then float -> bfloat16 to nearest even: one correct rounding,
  // since float keeps more than 2 bits beyond bfloat16's 8.
  if (value != value)
    return asReturnRegister(bf16BitsFromFloat(static_cast<float>(value)));
  float narrow = static_cast<float>(value);
  if (static_cast<double>(narrow) != value) {
    uint32_t bits;
    std::memcpy(&bits, &narrow, sizeof(bits));
    double magnitude = value < 0 ? -value : value;
    float narrowMagnitude = narrow < 0 ? -narrow : narrow;
    if (static_cast<double>(narrowMagnitude) > magnitude)
      bits -= 1; // rounded away from zero: step back toward it
    bits |= 1u;
    std::memcpy(&narrow, &bits, sizeof(bits));
  }
  return asReturnRegister(bf16BitsFromFloat(narrow));
}

//===----------------------------------------------------------------------===//
// Random keys
//
// Random ops compute their elements from a 64-bit key (see
// TorchToLinalg/Random.cpp); `refbackend-lower-random-keys` makes each
// execution of one call torch2mlir_random_key. Keys are the outputs of a
// SplitMix64 stream per thread: the Python runtime seeds it (from PyTorch's
// default generator) right before calling a program with random ops, on the
// thread that runs the program's random ops, so concurrent calls from other
// threads do not interleave their streams.
//===----------------------------------------------------------------------===//

namespace {
/// PyTorch's default seed (c10::default_rng_seed_val), until seeded.
thread_local uint64_t randomState = 67280421310721ull;
} // namespace

extern "C" __attribute__((visibility("default"))) void
torch2mlir_runtime_seed_random(uint64_t seed) {
  randomState = seed;
}

extern "C" __attribute__((visibility("default"))) uint64_t
torch2mlir_random_key() {
  randomState += 0x9E3779B97F4A7C15ull;
  uint64_t z = randomState;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

//===----------------------------------------------------------------------===//
// Run-time checks. `refbackend-lower-asserts` turns each `cf.assert` of the
// compiled code (a size the code assumes, checked against the inputs) into a
// call of torch2mlir_runtime_fail with the assert's message, followed by a
// return from the entry function before any buffer is read with the wrong
// size. The Python runtime takes the message after the call and raises it.
// The first failure is kept until it is taken. Checks inside parallel loops
// run on the runtime's worker threads, so the state is the process's (a
// failure of one call may be taken by a call that runs at the same time on
// another thread: then both raise).
//===----------------------------------------------------------------------===//

namespace {
std::atomic<const char *> runtimeFailure{nullptr};
} // namespace

extern "C" __attribute__((visibility("default"))) void
torch2mlir_runtime_fail(const char *message) {
  const char *none = nullptr;
  runtimeFailure.compare_exchange_strong(none, message);
}

/// The message of the first failed check since the last take, or null;
/// clears it. The message is a constant of the compiled code: copy it before
/// that code is unloaded.
extern "C" __attribute__((visibility("default"))) const char *
torch2mlir_runtime_take_failure() {
  return runtimeFailure.exchange(nullptr);
}
