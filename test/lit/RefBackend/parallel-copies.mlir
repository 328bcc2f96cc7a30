// RUN: torch2mlir-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(refbackend-parallel-copies))' | FileCheck %s
// RUN: torch2mlir-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(refbackend-parallel-copies{min-bytes=64}))' | FileCheck %s --check-prefix=SMALL

// A copy of 16 MB at the top of the function (a scatter's result starting
// as its input) becomes a linalg.copy: a parallel loop after
// convert-linalg-to-parallel-loops, not one serial memcpy.
// CHECK-LABEL: func.func @large(
// CHECK-SAME: %[[SRC:.*]]: memref<1024x4096xf32>, %[[DST:.*]]: memref<1024x4096xf32>)
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%[[SRC]] : memref<1024x4096xf32>) outs(%[[DST]] : memref<1024x4096xf32>)
// CHECK-NEXT: return
func.func @large(%src: memref<1024x4096xf32>, %dst: memref<1024x4096xf32>) {
  memref.copy %src, %dst : memref<1024x4096xf32> to memref<1024x4096xf32>
  return
}

// -----

// Below min-bytes (256 KiB by default: 65,536 floats), a memcpy is cheaper
// than waking the team; exactly at it, the copy is parallel. Bytes count the
// element width: 65,536 bf16 are 128 KiB.
// CHECK-LABEL: func.func @threshold(
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<65535xf32> to memref<65535xf32>
// CHECK: linalg.copy ins(%{{.*}} : memref<65536xf32>)
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<65536xbf16> to memref<65536xbf16>
// CHECK: linalg.copy ins(%{{.*}} : memref<32768xi64>)
// SMALL-LABEL: func.func @threshold(
// SMALL-NOT: memref.copy
func.func @threshold(%a: memref<65535xf32>, %b: memref<65535xf32>,
                     %c: memref<65536xf32>, %d: memref<65536xf32>,
                     %e: memref<65536xbf16>, %f: memref<65536xbf16>,
                     %g: memref<32768xi64>, %h: memref<32768xi64>) {
  memref.copy %a, %b : memref<65535xf32> to memref<65535xf32>
  memref.copy %c, %d : memref<65536xf32> to memref<65536xf32>
  memref.copy %e, %f : memref<65536xbf16> to memref<65536xbf16>
  memref.copy %g, %h : memref<32768xi64> to memref<32768xi64>
  return
}

// -----

// Left alone: a copy nested in a loop (it runs once per iteration, maybe
// inside a task already), a dynamic size, complex elements (a struct per
// element), and a 0-d copy. A strided target is fine: linalg.copy reads the
// layout.
// CHECK-LABEL: func.func @left_alone(
// CHECK: scf.for
// CHECK-NEXT: memref.copy %{{.*}}, %{{.*}} : memref<1024x1024xf32> to memref<1024x1024xf32>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<?x1024xf32> to memref<?x1024xf32>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<1024x1024xcomplex<f32>> to memref<1024x1024xcomplex<f32>>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<f32> to memref<f32>
// CHECK: linalg.copy ins(%{{.*}} : memref<512x1024xf32>) outs(%{{.*}} : memref<512x1024xf32, strided<[2048, 1]>>)
// SMALL-LABEL: func.func @left_alone(
// SMALL: scf.for
// SMALL-NEXT: memref.copy
// SMALL: memref.copy %{{.*}}, %{{.*}} : memref<?x1024xf32>
// SMALL: memref.copy %{{.*}}, %{{.*}} : memref<1024x1024xcomplex<f32>>
// SMALL: memref.copy %{{.*}}, %{{.*}} : memref<f32> to memref<f32>
func.func @left_alone(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>,
                      %n: index, %c: memref<?x1024xf32>, %d: memref<?x1024xf32>,
                      %e: memref<1024x1024xcomplex<f32>>,
                      %f: memref<1024x1024xcomplex<f32>>,
                      %g: memref<f32>, %h: memref<f32>,
                      %i: memref<512x1024xf32>,
                      %j: memref<512x1024xf32, strided<[2048, 1]>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %iv = %c0 to %n step %c1 {
    memref.copy %a, %b : memref<1024x1024xf32> to memref<1024x1024xf32>
  }
  memref.copy %c, %d : memref<?x1024xf32> to memref<?x1024xf32>
  memref.copy %e, %f : memref<1024x1024xcomplex<f32>> to memref<1024x1024xcomplex<f32>>
  memref.copy %g, %h : memref<f32> to memref<f32>
  memref.copy %i, %j : memref<512x1024xf32> to memref<512x1024xf32, strided<[2048, 1]>>
  return
}
