// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s
// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s --check-prefix=DECOMPOSE

// native_layer_norm over the last dim: a sum reduction, the mean, a
// sum-of-squares reduction, rsqrt(var + eps), then the affine generic; mean
// and rstd come back in the keepdim shape.
// CHECK-LABEL: func.func @native_layer_norm
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: math.rsqrt
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x5x16xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<16xf32>, tensor<16xf32>)
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [2, 5, 1] : tensor<2x5xf32> into tensor<2x5x1xf32>
func.func @native_layer_norm(%x: !torch.vtensor<[2,5,16],f32>, %w: !torch.vtensor<[16],f32>, %b: !torch.vtensor<[16],f32>) -> (!torch.vtensor<[2,5,16],f32>, !torch.vtensor<[2,5,1],f32>) {
  %int16 = torch.constant.int 16
  %eps = torch.constant.float 1.000000e-05
  %shape = torch.prim.ListConstruct %int16 : (!torch.int) -> !torch.list<int>
  %0:3 = torch.aten.native_layer_norm %x, %shape, %w, %b, %eps : !torch.vtensor<[2,5,16],f32>, !torch.list<int>, !torch.vtensor<[16],f32>, !torch.vtensor<[16],f32>, !torch.float -> !torch.vtensor<[2,5,16],f32>, !torch.vtensor<[2,5,1],f32>, !torch.vtensor<[2,5,1],f32>
  return %0#0, %0#1 : !torch.vtensor<[2,5,16],f32>, !torch.vtensor<[2,5,1],f32>
}

// -----

// layer_norm decomposes to native_layer_norm, whose statistics have size-1
// normalized dims.
// DECOMPOSE-LABEL: func.func @layer_norm
// DECOMPOSE: %[[OUT:.*]], %{{.*}}, %{{.*}} = torch.aten.native_layer_norm %{{.*}} -> !torch.vtensor<[3,4,6],f32>, !torch.vtensor<[3,1,1],f32>, !torch.vtensor<[3,1,1],f32>
// DECOMPOSE: return %[[OUT]]
func.func @layer_norm(%x: !torch.vtensor<[3,4,6],f32>) -> !torch.vtensor<[3,4,6],f32> {
  %int4 = torch.constant.int 4
  %int6 = torch.constant.int 6
  %none = torch.constant.none
  %eps = torch.constant.float 1.000000e-03
  %true = torch.constant.bool true
  %shape = torch.prim.ListConstruct %int4, %int6 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.layer_norm %x, %shape, %none, %none, %eps, %true : !torch.vtensor<[3,4,6],f32>, !torch.list<int>, !torch.none, !torch.none, !torch.float, !torch.bool -> !torch.vtensor<[3,4,6],f32>
  return %0 : !torch.vtensor<[3,4,6],f32>
}
