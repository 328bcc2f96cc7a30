// RUN: torch2mlir-opt %s | FileCheck %s
// RUN: torch2mlir-opt %s | torch2mlir-opt | FileCheck %s
// RUN: torch2mlir-opt -mlir-print-op-generic %s | torch2mlir-opt | FileCheck %s

// The torch_c materializations round-trip.

// CHECK-LABEL: func.func @tensors(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,?],f32>, %[[B:.*]]: tensor<3xi64>)
// CHECK: %[[T:.*]] = torch_c.to_builtin_tensor %[[A]] : !torch.vtensor<[2,?],f32> -> tensor<2x?xf32>
// CHECK: %[[V:.*]] = torch_c.from_builtin_tensor %[[B]] : tensor<3xi64> -> !torch.vtensor<[3],si64>
// CHECK: return %[[T]], %[[V]]
func.func @tensors(%a: !torch.vtensor<[2,?],f32>, %b: tensor<3xi64>) -> (tensor<2x?xf32>, !torch.vtensor<[3],si64>) {
  %0 = torch_c.to_builtin_tensor %a : !torch.vtensor<[2,?],f32> -> tensor<2x?xf32>
  %1 = torch_c.from_builtin_tensor %b : tensor<3xi64> -> !torch.vtensor<[3],si64>
  return %0, %1 : tensor<2x?xf32>, !torch.vtensor<[3],si64>
}

// Signed and unsigned dtypes become signless builtin element types.
// CHECK-LABEL: func.func @signedness(
// CHECK: torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[],ui8> -> tensor<i8>
// CHECK: torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[4],i1> -> tensor<4xi1>
// CHECK: torch_c.from_builtin_tensor %{{.*}} : tensor<2xi32> -> !torch.vtensor<[2],si32>
func.func @signedness(%a: !torch.vtensor<[],ui8>, %b: !torch.vtensor<[4],i1>, %c: tensor<2xi32>) -> (tensor<i8>, tensor<4xi1>, !torch.vtensor<[2],si32>) {
  %0 = torch_c.to_builtin_tensor %a : !torch.vtensor<[],ui8> -> tensor<i8>
  %1 = torch_c.to_builtin_tensor %b : !torch.vtensor<[4],i1> -> tensor<4xi1>
  %2 = torch_c.from_builtin_tensor %c : tensor<2xi32> -> !torch.vtensor<[2],si32>
  return %0, %1, %2 : tensor<i8>, tensor<4xi1>, !torch.vtensor<[2],si32>
}

// CHECK-LABEL: func.func @scalars(
// CHECK-SAME: %[[I:.*]]: !torch.int, %[[F:.*]]: !torch.float, %[[B:.*]]: !torch.bool, %[[X:.*]]: i64, %[[Y:.*]]: f64, %[[Z:.*]]: i1)
// CHECK: %[[R0:.*]] = torch_c.to_i64 %[[I]]
// CHECK: %[[R1:.*]] = torch_c.from_i64 %[[X]]
// CHECK: %[[R2:.*]] = torch_c.to_f64 %[[F]]
// CHECK: %[[R3:.*]] = torch_c.from_f64 %[[Y]]
// CHECK: %[[R4:.*]] = torch_c.to_i1 %[[B]]
// CHECK: %[[R5:.*]] = torch_c.from_i1 %[[Z]]
// CHECK: return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]] : i64, !torch.int, f64, !torch.float, i1, !torch.bool
func.func @scalars(%i: !torch.int, %f: !torch.float, %b: !torch.bool, %x: i64, %y: f64, %z: i1) -> (i64, !torch.int, f64, !torch.float, i1, !torch.bool) {
  %0 = torch_c.to_i64 %i
  %1 = torch_c.from_i64 %x
  %2 = torch_c.to_f64 %f
  %3 = torch_c.from_f64 %y
  %4 = torch_c.to_i1 %b
  %5 = torch_c.from_i1 %z
  return %0, %1, %2, %3, %4, %5 : i64, !torch.int, f64, !torch.float, i1, !torch.bool
}
