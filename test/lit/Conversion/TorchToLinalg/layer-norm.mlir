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

// -----

// Over the last two dims, the statistics unused: the normalized dims and
// the weight collapse into one row; row by row (the sum, the squared
// deviations, then y with the weight), expanded back.
// CHECK-LABEL: func.func @layer_norm_two_dims_rows(
// CHECK-SAME: %[[XT:.*]]: !torch.vtensor<[3,4,6],f32>, %[[WT:.*]]: !torch.vtensor<[4,6],f32>)
// CHECK-DAG: %[[X:.*]] = torch_c.to_builtin_tensor %[[XT]]
// CHECK-DAG: %[[W:.*]] = torch_c.to_builtin_tensor %[[WT]]
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0], [1, 2]] : tensor<3x4x6xf32> into tensor<3x24xf32>
// CHECK: %[[W1:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0, 1]] : tensor<4x6xf32> into tensor<24xf32>
// CHECK: %[[R:.*]] = scf.forall (%{{.*}}) in (3) shared_outs(%{{.*}}) -> (tensor<3x24xf32>)
// CHECK: scf.for
// CHECK: scf.for
// CHECK: math.rsqrt
// CHECK: scf.for
// CHECK: tensor.extract %[[W1]]
// CHECK: tensor.expand_shape %[[R]] {{\[\[}}0], [1, 2]] output_shape [3, 4, 6] : tensor<3x24xf32> into tensor<3x4x6xf32>
func.func @layer_norm_two_dims_rows(%x: !torch.vtensor<[3,4,6],f32>, %w: !torch.vtensor<[4,6],f32>) -> !torch.vtensor<[3,4,6],f32> {
  %int4 = torch.constant.int 4
  %int6 = torch.constant.int 6
  %none = torch.constant.none
  %eps = torch.constant.float 1.000000e-05
  %shape = torch.prim.ListConstruct %int4, %int6 : (!torch.int, !torch.int) -> !torch.list<int>
  %0:3 = torch.aten.native_layer_norm %x, %shape, %w, %none, %eps : !torch.vtensor<[3,4,6],f32>, !torch.list<int>, !torch.vtensor<[4,6],f32>, !torch.none, !torch.float -> !torch.vtensor<[3,4,6],f32>, !torch.vtensor<[3,1,1],f32>, !torch.vtensor<[3,1,1],f32>
  return %0#0 : !torch.vtensor<[3,4,6],f32>
}

// -----

// The normalized result unused, the statistics used (GroupNorm's
// decomposition): both statistics of a row in one task, a [rows, 2] tensor
// (mean, then rstd), sliced and reshaped to the keepdim shape.
// CHECK-LABEL: func.func @layer_norm_statistics_only(
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<2x3x4x5xf32> into tensor<2x3x20xf32>
// CHECK: %[[S:.*]] = scf.forall (%{{.*}}, %{{.*}}) in (2, 3) shared_outs(%{{.*}}) -> (tensor<2x3x2xf32>)
// CHECK: %[[SUM:.*]] = scf.for
// CHECK: %[[MEAN:.*]] = arith.divf %[[SUM]]
// CHECK: %[[SQ:.*]] = scf.for
// CHECK: %[[RSTD:.*]] = math.rsqrt
// CHECK: %[[C0:.*]] = tensor.insert %[[MEAN]] into %{{.*}}[%c0{{.*}}] : tensor<2xf32>
// CHECK: tensor.insert %[[RSTD]] into %[[C0]][%c1{{.*}}] : tensor<2xf32>
// CHECK-NOT: linalg.generic
// CHECK: %[[M:.*]] = tensor.extract_slice %[[S]][0, 0, 0] [2, 3, 1] [1, 1, 1] : tensor<2x3x2xf32> to tensor<2x3x1xf32>
// CHECK: tensor.expand_shape %[[M]] {{.*}} output_shape [2, 3, 1, 1]
// CHECK: %[[RS:.*]] = tensor.extract_slice %[[S]][0, 0, 1] [2, 3, 1] [1, 1, 1] : tensor<2x3x2xf32> to tensor<2x3x1xf32>
// CHECK: tensor.expand_shape %[[RS]] {{.*}} output_shape [2, 3, 1, 1]
func.func @layer_norm_statistics_only(%x: !torch.vtensor<[2,3,4,5],f32>) -> (!torch.vtensor<[2,3,1,1],f32>, !torch.vtensor<[2,3,1,1],f32>) {
  %int4 = torch.constant.int 4
  %int5 = torch.constant.int 5
  %none = torch.constant.none
  %eps = torch.constant.float 1.000000e-05
  %shape = torch.prim.ListConstruct %int4, %int5 : (!torch.int, !torch.int) -> !torch.list<int>
  %0:3 = torch.aten.native_layer_norm %x, %shape, %none, %none, %eps : !torch.vtensor<[2,3,4,5],f32>, !torch.list<int>, !torch.none, !torch.none, !torch.float -> !torch.vtensor<[2,3,4,5],f32>, !torch.vtensor<[2,3,1,1],f32>, !torch.vtensor<[2,3,1,1],f32>
  return %0#1, %0#2 : !torch.vtensor<[2,3,1,1],f32>, !torch.vtensor<[2,3,1,1],f32>
}
