// RUN: torch2mlir-opt %s -split-input-file -refbackend-lower-random-keys -verify-diagnostics | FileCheck %s

// Each key becomes its own call of the runtime (declared once, private).
// CHECK-LABEL: module
// CHECK:         func.func private @torch2mlir_random_key() -> i64
// CHECK-LABEL:   func.func @two_keys
// CHECK:           %[[A:.*]] = call @torch2mlir_random_key() : () -> i64
// CHECK:           %[[B:.*]] = call @torch2mlir_random_key() : () -> i64
// CHECK:           return %[[A]], %[[B]]
// CHECK-LABEL:   func.func @another
// CHECK:           call @torch2mlir_random_key()
// CHECK-NOT:     torch_c.random_key
func.func @two_keys() -> (i64, i64) {
  %0 = torch_c.random_key
  %1 = torch_c.random_key
  return %0, %1 : i64, i64
}
func.func @another() -> i64 {
  %0 = torch_c.random_key
  return %0 : i64
}

// -----

// No random op: no declaration.
// CHECK-LABEL: module
// CHECK-NOT:     torch2mlir_random_key
func.func @none(%arg0: i64) -> i64 {
  return %arg0 : i64
}

// -----

// A user function with the runtime's name but another type is an error.
// expected-error @+1 {{'torch2mlir_random_key' is the RefBackend runtime's and must have type '() -> i64'}}
func.func private @torch2mlir_random_key() -> i32
func.func @clash() -> i64 {
  %0 = torch_c.random_key
  return %0 : i64
}
