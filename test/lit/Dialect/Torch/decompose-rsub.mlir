// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s

// rsub(x, s, alpha) = s - alpha * x = add.Scalar(neg(mul.Scalar(x, alpha)), s, 1)

// CHECK-LABEL: func.func @rsub(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3],f32>)
// CHECK-DAG: %[[S:.*]] = torch.constant.float 3.000000e+00
// CHECK: %[[MUL:.*]] = torch.aten.mul.Scalar %[[A]], %int2 : !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
// CHECK: %[[NEG:.*]] = torch.aten.neg %[[MUL]] : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
// CHECK: %[[ADD:.*]] = torch.aten.add.Scalar %[[NEG]], %[[S]], %int1 : !torch.vtensor<[2,3],f32>, !torch.float, !torch.int -> !torch.vtensor<[2,3],f32>
// CHECK: return %[[ADD]]
// CHECK-NOT: torch.aten.rsub
func.func @rsub(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %f = torch.constant.float 3.000000e+00
  %int2 = torch.constant.int 2
  %0 = torch.aten.rsub.Scalar %a, %f, %int2 : !torch.vtensor<[2,3],f32>, !torch.float, !torch.int -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// CHECK-LABEL: func.func @rsub_int(
// CHECK: torch.aten.mul.Scalar %{{.*}}, %int1 : !torch.vtensor<[4],si64>, !torch.int -> !torch.vtensor<[4],si64>
// CHECK: torch.aten.neg %{{.*}} : !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si64>
// CHECK: torch.aten.add.Scalar %{{.*}}, %int10, %int1 : !torch.vtensor<[4],si64>, !torch.int, !torch.int -> !torch.vtensor<[4],si64>
func.func @rsub_int(%a: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si64> {
  %int10 = torch.constant.int 10
  %int1 = torch.constant.int 1
  %0 = torch.aten.rsub.Scalar %a, %int10, %int1 : !torch.vtensor<[4],si64>, !torch.int, !torch.int -> !torch.vtensor<[4],si64>
  return %0 : !torch.vtensor<[4],si64>
}
