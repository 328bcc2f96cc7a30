// RUN: torch2mlir-opt %s -torch-lower-to-backend-contract -torch-backend-to-linalg-on-tensors-backend-pipeline -torch2mlir-refbackend-pipeline | FileCheck %s
// RUN: torch2mlir-opt %s -torch-lower-to-backend-contract -torch-backend-to-linalg-on-tensors-backend-pipeline -torch2mlir-refbackend-pipeline | grep -c "llvm.call @_mlir_memref_to_llvm_alloc" | FileCheck %s --check-prefix=ONE
// RUN: torch2mlir-opt %s -torch-lower-to-backend-contract -torch-backend-to-linalg-on-tensors-backend-pipeline -torch2mlir-refbackend-pipeline | grep -c "llvm.call @_mlir_memref_to_llvm_free" | FileCheck %s --check-prefix=ONE

// The whole compiler, torch IR to the LLVM dialect, on
// softmax(relu(x + b), dim=1). The result is written to the out-param;
// relu(x + b) goes to one temporary buffer, allocated once and freed once;
// the softmax runs row by row, its max and sum in registers. Each loop nest
// is a body function that @main hands to the runtime's
// torch2mlir_parallel_for, in program order.

// ONE: {{^}}1{{$}}

// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
// CHECK-LABEL: llvm.func @main(
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK-DAG: %[[ROWS:.*]] = llvm.mlir.addressof @main_parallel_0 :
// CHECK-DAG: %[[ADD_RELU:.*]] = llvm.mlir.addressof @main_parallel :
// CHECK: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK: llvm.call @torch2mlir_parallel_for(%[[ADD_RELU]],
// CHECK: llvm.call @torch2mlir_parallel_for(%[[ROWS]],
// CHECK: llvm.call @_mlir_memref_to_llvm_free
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @_mlir_ciface_main(
// CHECK: llvm.call @main(
// x + b, relu:
// CHECK-LABEL: llvm.func @main_parallel(
// CHECK: %[[SUM:.*]] = llvm.fadd %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[GT:.*]] = llvm.fcmp "ugt" %[[SUM]], %{{.*}} : f32
// CHECK-NEXT: llvm.select %[[GT]], %[[SUM]], %{{.*}} : i1, f32
// Per row: the max, the exp-sum and the division:
// CHECK-LABEL: llvm.func @main_parallel_0(
// CHECK: llvm.intr.maximum(%{{.*}}, %{{.*}}) {fastmathFlags = #llvm.fastmath<nsz, reassoc>} : (f32, f32) -> f32
// CHECK: %[[D:.*]] = llvm.fsub
// CHECK-NEXT: %[[CLAMPED:.*]] = llvm.intr.maximum(%[[D]], %{{.*}}) : (f32, f32) -> f32
// CHECK-NEXT: llvm.intr.exp(%[[CLAMPED]]) : (f32) -> f32
// CHECK: llvm.fadd %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<reassoc>} : f32
// CHECK: llvm.fdiv
// CHECK: llvm.func @torch2mlir_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64)
// CHECK-NOT: !torch
// CHECK-NOT: torch_c.
// CHECK-NOT: linalg.
// CHECK-NOT: memref.
func.func @main(%x: !torch.vtensor<[4,5],f32>, %b: !torch.vtensor<[5],f32>) -> !torch.vtensor<[4,5],f32> attributes {llvm.emit_c_interface} {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.aten.add.Tensor %x, %b, %int1 : !torch.vtensor<[4,5],f32>, !torch.vtensor<[5],f32>, !torch.int -> !torch.vtensor<[4,5],f32>
  %1 = torch.aten.relu %0 : !torch.vtensor<[4,5],f32> -> !torch.vtensor<[4,5],f32>
  %2 = torch.aten.softmax.int %1, %int1, %none : !torch.vtensor<[4,5],f32>, !torch.int, !torch.none -> !torch.vtensor<[4,5],f32>
  return %2 : !torch.vtensor<[4,5],f32>
}
