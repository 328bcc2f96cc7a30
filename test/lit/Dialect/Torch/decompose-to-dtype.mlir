// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s

// to.dtype is a cast: _to_copy with the dtype, non_blocking and
// memory_format, and None for layout, device and pin_memory.

// CHECK-LABEL: func.func @to_dtype(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3],f32>)
// CHECK: %[[R:.*]] = torch.aten._to_copy %[[A]], %int4, %none, %none, %none, %false, %none : !torch.vtensor<[2,3],f32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[2,3],si64>
// CHECK: return %[[R]]
// CHECK-NOT: torch.aten.to.dtype
func.func @to_dtype(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],si64> {
  %int4 = torch.constant.int 4
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %0 = torch.aten.to.dtype %a, %int4, %false, %true, %none : !torch.vtensor<[2,3],f32>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[2,3],si64>
  return %0 : !torch.vtensor<[2,3],si64>
}

// -----

// The memory format is forwarded.
// CHECK-LABEL: func.func @to_dtype_memory_format(
// CHECK: torch.aten._to_copy %{{.*}}, %int6, %none, %none, %none, %false, %int0 : !torch.vtensor<[4],si32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.int -> !torch.vtensor<[4],f32>
func.func @to_dtype_memory_format(%a: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],f32> {
  %int6 = torch.constant.int 6
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %0 = torch.aten.to.dtype %a, %int6, %false, %false, %int0 : !torch.vtensor<[4],si32>, !torch.int, !torch.bool, !torch.bool, !torch.int -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}
