// RUN: torch2mlir-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(refbackend-read-only-arguments))' | FileCheck %s
// RUN: torch2mlir-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(refbackend-read-only-arguments),one-shot-bufferize{bufferize-function-boundaries})' | FileCheck %s --check-prefix=BUF

// Tensor arguments of a public function are read-only; other arguments keep
// their attributes.
// CHECK-LABEL: func.func @scatter(
// CHECK-SAME: %{{.*}}: tensor<4xf32> {bufferization.writable = false},
// CHECK-SAME: %{{.*}}: index,
// CHECK-SAME: %{{.*}}: tensor<2xf32> {bufferization.writable = false, test.kept}
// An in-place update of the argument writes into a copy, never into the
// caller's buffer.
// BUF-LABEL: func.func @scatter(
// BUF-SAME: %[[X:[^:]+]]: memref<4xf32
// BUF: %[[COPY:.*]] = memref.alloc() {{.*}} : memref<4xf32>
// BUF: memref.copy %[[X]], %[[COPY]]
// BUF: memref.store %{{.*}}, %[[COPY]][%{{.*}}]
// BUF: return %[[COPY]]
func.func @scatter(%x: tensor<4xf32>, %i: index, %y: tensor<2xf32> {test.kept}) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %v = tensor.extract %y[%c0] : tensor<2xf32>
  %0 = tensor.insert %v into %x[%i] : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Private functions (called within the module) are left to bufferization.
// CHECK-LABEL: func.func private @helper(
// CHECK-SAME: %{{.*}}: tensor<4xf32>)
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
