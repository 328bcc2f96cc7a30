// RUN: torch2mlir-opt %s -torch-lower-to-backend-contract="legal-ops=aten.linear,aten.t float64=false" --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=CONTRACT
// RUN: torch2mlir-opt %s -torch-backend-to-linalg-on-tensors-backend-pipeline --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=LINALG
// RUN: torch2mlir-opt %s -torch2mlir-refbackend-pipeline --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=REFBACKEND

// The pipelines expand to their passes, in order; legal-ops and float64
// reach the decomposition pass.

// CONTRACT: Pass Manager with 5 passes:
// CONTRACT: func.func(
// CONTRACT-NEXT: canonicalize
// CONTRACT: func.func(
// CONTRACT-NEXT: torch-decompose-complex-ops{float64=false legal-ops={aten.linear,aten.t}}
// CONTRACT: func.func(
// CONTRACT-NEXT: canonicalize
// CONTRACT: cse,
// CONTRACT-NEXT: torch-verify-backend-contract

// LINALG: Pass Manager with 7 passes:
// LINALG: convert-torch-to-linalg
// LINALG: convert-torch-to-arith
// LINALG: torch-func-backend-type-conversion,
// LINALG: canonicalize
// LINALG: torch-finalizing-backend-type-conversion
// LINALG: cse,
// LINALG-NEXT: torch-verify-linalg-on-tensors-backend-contract

// REFBACKEND: canonicalize
// REFBACKEND: refbackend-fuse-elementwise
// REFBACKEND: one-shot-bufferize{{.*}}bufferize-function-boundaries=true
// REFBACKEND: buffer-results-to-out-params{{.*}}hoist-static-allocs=true modify-public-functions=true
// REFBACKEND: ownership-based-buffer-deallocation
// REFBACKEND: bufferization-lower-deallocations
// REFBACKEND: convert-linalg-to-parallel-loops
// REFBACKEND: refbackend-widen-sub-byte-buffers
// REFBACKEND: refbackend-parallelize-loops{{.*}}min-task-cost=16384
// REFBACKEND: finalize-memref-to-llvm
// REFBACKEND: convert-func-to-llvm
// REFBACKEND: reconcile-unrealized-casts

func.func @f() {
  return
}
