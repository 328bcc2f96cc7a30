// RUN: torch2mlir-opt %s -torch2mlir-refbackend-pipeline=parallel-loops=false -split-input-file | FileCheck %s
// RUN: torch2mlir-opt %s -torch2mlir-refbackend-pipeline -split-input-file | FileCheck %s --check-prefix=PAR

// linalg-on-tensors to the LLVM dialect: the result becomes an out-param
// memref, loops replace linalg, and `llvm.emit_c_interface` adds the
// `_mlir_ciface_` wrapper that the runtime calls. The checks without a
// prefix see sequential loops (parallel-loops=false); by default (PAR), the
// loop is a body function that @main passes to the runtime's
// torch2mlir_parallel_for with the trip count (4) and the least iterations
// per task.

// PAR-LABEL: llvm.func @main(
// PAR-DAG: %[[N:.*]] = llvm.mlir.constant(4 : i64) : i64
// PAR-DAG: %[[GRAIN:.*]] = llvm.mlir.constant(3277 : i64) : i64
// PAR-DAG: %[[BODY:.*]] = llvm.mlir.addressof @main_parallel : !llvm.ptr
// PAR: llvm.call @torch2mlir_parallel_for(%[[BODY]], %{{.*}}, %[[N]], %[[GRAIN]])
// PAR-NOT: llvm.fadd
// PAR: llvm.return
// PAR-LABEL: llvm.func @main_parallel(%{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64)
// PAR: llvm.fadd

// Two memref inputs and the result, each an expanded 1-D descriptor
// (allocated ptr, aligned ptr, offset, size, stride).
// CHECK-LABEL: llvm.func @main(
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64,
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64,
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64)
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK: llvm.mlir.constant(4 : index) : i64
// CHECK: llvm.cond_br
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: %[[Y:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: %[[S:.*]] = llvm.fadd %[[X]], %[[Y]] : f32
// CHECK: llvm.store %[[S]], %{{.*}} : f32, !llvm.ptr
// CHECK: llvm.return
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK-LABEL: llvm.func @_mlir_ciface_main(
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr)
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: llvm.call @main(
// CHECK-SAME: -> ()
// CHECK-NEXT: llvm.return
// CHECK-NOT: linalg.
// CHECK-NOT: memref.
// CHECK-NOT: func.func
#map = affine_map<(d0) -> (d0)>
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> attributes {llvm.emit_c_interface} {
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Without the attribute there is no wrapper; math lowers to LLVM
// intrinsics.
// CHECK-LABEL: llvm.func @no_wrapper(
// CHECK-NOT: attributes {llvm.emit_c_interface}
// CHECK: llvm.intr.exp(%{{.*}}) : (f32) -> f32
// CHECK-NOT: _mlir_ciface_
#map = affine_map<(d0) -> (d0)>
func.func @no_wrapper(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%x: f32, %out: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Bool tensors are bytes in memory: the i1 out-param and input are i8
// buffers, loads truncate and stores zero-extend.
// CHECK-LABEL: llvm.func @bool_main(
// CHECK: %[[BYTE:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK: %[[BIT:.*]] = llvm.trunc %[[BYTE]] : i8 to i1
// CHECK: %[[AND:.*]] = llvm.and %[[BIT]], %{{.*}} : i1
// CHECK: %[[OUT:.*]] = llvm.zext %[[AND]] : i1 to i8
// CHECK: llvm.store %[[OUT]], %{{.*}} : i8, !llvm.ptr
// CHECK-LABEL: llvm.func @_mlir_ciface_bool_main(
#map = affine_map<(d0) -> (d0)>
func.func @bool_main(%a: tensor<4xi1>, %b: tensor<4xf32>) -> tensor<4xi1> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<4xi1>
  %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%a, %b : tensor<4xi1>, tensor<4xf32>) outs(%0 : tensor<4xi1>) {
  ^bb0(%x: i1, %y: f32, %out: i1):
    %c = arith.cmpf ogt, %y, %zero : f32
    %s = arith.andi %x, %c : i1
    linalg.yield %s : i1
  } -> tensor<4xi1>
  return %1 : tensor<4xi1>
}

// -----

// Integer pow (math.ipowi) calls a generated function.
// CHECK-LABEL: llvm.func @ipow(
// CHECK: llvm.call @__mlir_math_ipowi_i64(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK: llvm.func linkonce_odr @__mlir_math_ipowi_i64(
#map = affine_map<(d0) -> (d0)>
func.func @ipow(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> {
  %0 = tensor.empty() : tensor<4xi64>
  %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%a, %b : tensor<4xi64>, tensor<4xi64>) outs(%0 : tensor<4xi64>) {
  ^bb0(%x: i64, %y: i64, %out: i64):
    %s = math.ipowi %x, %y : i64
    linalg.yield %s : i64
  } -> tensor<4xi64>
  return %1 : tensor<4xi64>
}
