// RUN: torch2mlir-opt %s -split-input-file -refbackend-lower-asserts -verify-diagnostics | FileCheck %s

// A top-level check: a branch to a block that reports the message (with the
// location) and returns before the code after the check runs.
// CHECK-LABEL: module
// CHECK:         llvm.mlir.global internal constant @__torch2mlir_check_0("sizes differ (at model.onnx:3:1)\00")
// CHECK:         func.func private @torch2mlir_runtime_fail(!llvm.ptr)
// CHECK-LABEL:   func.func @top_level(
// CHECK-SAME:        %[[OK:.*]]: i1, %[[OUT:.*]]: memref<4xf32>
// CHECK:           cf.cond_br %[[OK]], ^[[REST:.*]], ^[[FAILED:[a-z0-9]+]]
// CHECK:         ^[[FAILED]]:
// CHECK:           %[[TEXT:.*]] = llvm.mlir.addressof @__torch2mlir_check_0
// CHECK:           call @torch2mlir_runtime_fail(%{{.*}}) : (!llvm.ptr) -> ()
// CHECK-NEXT:      return
// CHECK:         ^[[REST]]:
// CHECK:           memref.store
// CHECK-NOT:     cf.assert
func.func @top_level(%ok: i1, %out: memref<4xf32>) {
  cf.assert %ok, "sizes differ" loc("model.onnx":3:1)
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %out[%c0] : memref<4xf32>
  return
}

// -----

// Two checks, each with its own message; no location, no "(at ...)".
// CHECK-LABEL: module
// CHECK-DAG:     @__torch2mlir_check_0("first\00")
// CHECK-DAG:     @__torch2mlir_check_1("second\00")
// CHECK-LABEL:   func.func @two
// CHECK:           cf.cond_br
// CHECK:           call @torch2mlir_runtime_fail
// CHECK:           cf.cond_br
// CHECK:           call @torch2mlir_runtime_fail
func.func @two(%a: i1, %b: i1) {
  cf.assert %a, "first" loc(unknown)
  cf.assert %b, "second" loc(unknown)
  return
}

// -----

// Inside a loop the function cannot return early: the failure is reported
// under scf.if and the loop goes on.
// CHECK-LABEL:   func.func @nested
// CHECK:           scf.for
// CHECK:             %[[NOT:.*]] = arith.xori %{{.*}}, %true
// CHECK:             scf.if %[[NOT]] {
// CHECK:               call @torch2mlir_runtime_fail
// CHECK-NOT:     cf.assert
func.func @nested(%n: index, %ok: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    cf.assert %ok, "in a loop" loc(unknown)
  }
  return
}

// -----

// A function with results (not the RefBackend's out-param form) reports
// under scf.if as well.
// CHECK-LABEL:   func.func @with_result
// CHECK:           scf.if
// CHECK:             call @torch2mlir_runtime_fail
// CHECK:           return %{{.*}} : i64
func.func @with_result(%ok: i1, %x: i64) -> i64 {
  cf.assert %ok, "with a result" loc(unknown)
  return %x : i64
}

// -----

// The runtime function declared with another type is an error.
// expected-error @+1 {{'torch2mlir_runtime_fail' is the RefBackend runtime's and must have type '(!llvm.ptr) -> ()'}}
func.func private @torch2mlir_runtime_fail(i64)
func.func @clash(%ok: i1) {
  cf.assert %ok, "clash" loc(unknown)
  return
}

// -----

// A function that allocates its results (callee-allocated-results) returns
// early with empty ones: each dynamic size 0, for the caller to free.
// CHECK-LABEL:   func.func @with_results(
// CHECK:           cf.cond_br %{{.*}}, ^[[REST:.*]], ^[[FAILED:[a-z0-9]+]]
// CHECK:         ^[[FAILED]]:
// CHECK:           call @torch2mlir_runtime_fail
// CHECK:           %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:           %[[EMPTY:.*]] = memref.alloc(%[[ZERO]]) : memref<?x2xi64>
// CHECK:           %[[STATIC:.*]] = memref.alloc() : memref<3xf32>
// CHECK:           return %[[EMPTY]], %[[STATIC]] : memref<?x2xi64>, memref<3xf32>
// CHECK:         ^[[REST]]:
// CHECK:           return %{{.*}}, %{{.*}} : memref<?x2xi64>, memref<3xf32>
func.func @with_results(%ok: i1, %n: index) -> (memref<?x2xi64>, memref<3xf32>) {
  cf.assert %ok, "sizes differ" loc(unknown)
  %rows = memref.alloc(%n) : memref<?x2xi64>
  %values = memref.alloc() : memref<3xf32>
  return %rows, %values : memref<?x2xi64>, memref<3xf32>
}
