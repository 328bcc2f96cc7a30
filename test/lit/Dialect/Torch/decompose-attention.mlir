// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s

// scaled_dot_product_attention, causal: q @ k^T (bmm over the flattened
// batch), times 1/sqrt(16), the lower triangle kept (arange(L) >= arange(S)),
// softmax over the last dim, @ v.
// CHECK-LABEL: func.func @causal(
// CHECK-DAG: %[[MINF:.*]] = torch.constant.float 0xFFF0000000000000
// CHECK-DAG: %[[SCALE:.*]] = torch.constant.float 2.500000e-01
// CHECK: %[[KT:.*]] = torch.aten.permute %arg1
// CHECK: %[[QK:.*]] = torch.aten.bmm
// CHECK: %[[S:.*]] = torch.aten.mul.Scalar %{{.*}}, %[[SCALE]] : !torch.vtensor<[2,4,6,10],f32>
// CHECK: torch.aten.arange.start_step %int0, %int6
// CHECK: torch.aten.arange.start_step %int0, %int10
// CHECK: %[[KEEP:.*]] = torch.aten.ge.Tensor %{{.*}}, %{{.*}} : !torch.vtensor<[6,1],si64>, !torch.vtensor<[1,10],si64> -> !torch.vtensor<[6,10],i1>
// CHECK: %[[FILL:.*]] = torch.aten.scalar_tensor %[[MINF]]
// CHECK: %[[MASKED:.*]] = torch.aten.where.self %[[KEEP]], %[[S]], %[[FILL]]
// CHECK: torch.aten._softmax %[[MASKED]], %int-1, %false
// CHECK: torch.aten.bmm
// CHECK-NOT: scaled_dot_product_attention
func.func @causal(%q: !torch.vtensor<[2,4,6,16],f32>, %k: !torch.vtensor<[2,4,10,16],f32>, %v: !torch.vtensor<[2,4,10,16],f32>) -> !torch.vtensor<[2,4,6,16],f32> {
  %none = torch.constant.none
  %f0 = torch.constant.float 0.000000e+00
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %0 = torch.aten.scaled_dot_product_attention %q, %k, %v, %none, %f0, %true, %none, %false : !torch.vtensor<[2,4,6,16],f32>, !torch.vtensor<[2,4,10,16],f32>, !torch.vtensor<[2,4,10,16],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,4,6,16],f32>
  return %0 : !torch.vtensor<[2,4,6,16],f32>
}

// -----

// A float mask is added to the scores; an explicit scale is used as given;
// grouped-query attention repeats each key/value head (2 -> 4) before.
// CHECK-LABEL: func.func @float_mask_gqa(
// CHECK-DAG: %[[SCALE:.*]] = torch.constant.float 5.000000e-01
// CHECK: torch.aten.view %arg1, %{{.*}} -> !torch.vtensor<[1,2,1,3,8],f32>
// CHECK: torch.aten.expand %{{.*}} : !torch.vtensor<[1,2,1,3,8],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,2,2,3,8],f32>
// CHECK: torch.aten.view %{{.*}} -> !torch.vtensor<[1,4,3,8],f32>
// CHECK: torch.aten.mul.Scalar %{{.*}}, %[[SCALE]]
// CHECK: %[[MASKED:.*]] = torch.aten.add.Tensor %{{.*}}, %arg3, %int1 : !torch.vtensor<[1,4,5,3],f32>, !torch.vtensor<[5,3],f32>, !torch.int
// With a mask, a row it leaves no score of gets weights 0 (PyTorch's
// _safe_softmax), not the NaN of a softmax of -inf.
// CHECK: %[[P:.*]] = torch.aten._softmax %[[MASKED]], %int-1, %false
// CHECK: %[[ROWMAX:.*]] = torch.aten.amax %[[MASKED]], %{{.*}}, %true{{.*}} -> !torch.vtensor<[1,4,5,1],f32>
// CHECK: %[[KEPT:.*]] = torch.aten.gt.Scalar %[[ROWMAX]], %{{.*}} -> !torch.vtensor<[1,4,5,1],i1>
// CHECK: %[[ZERO:.*]] = torch.aten.scalar_tensor
// CHECK: %[[W:.*]] = torch.aten.where.self %[[KEPT]], %[[P]], %[[ZERO]]
// CHECK: torch.aten.bmm
func.func @float_mask_gqa(%q: !torch.vtensor<[1,4,5,8],f32>, %k: !torch.vtensor<[1,2,3,8],f32>, %v: !torch.vtensor<[1,2,3,8],f32>, %m: !torch.vtensor<[5,3],f32>) -> !torch.vtensor<[1,4,5,8],f32> {
  %f0 = torch.constant.float 0.000000e+00
  %scale = torch.constant.float 5.000000e-01
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %0 = torch.aten.scaled_dot_product_attention %q, %k, %v, %m, %f0, %false, %scale, %true : !torch.vtensor<[1,4,5,8],f32>, !torch.vtensor<[1,2,3,8],f32>, !torch.vtensor<[1,2,3,8],f32>, !torch.vtensor<[5,3],f32>, !torch.float, !torch.bool, !torch.float, !torch.bool -> !torch.vtensor<[1,4,5,8],f32>
  return %0 : !torch.vtensor<[1,4,5,8],f32>
}

// -----

// Attention dropout is not decomposed: the op stays (the contract verifier
// then names it).
// CHECK-LABEL: func.func @dropout(
// CHECK: torch.aten.scaled_dot_product_attention
func.func @dropout(%q: !torch.vtensor<[1,2,3,4],f32>) -> !torch.vtensor<[1,2,3,4],f32> {
  %none = torch.constant.none
  %p = torch.constant.float 1.000000e-01
  %false = torch.constant.bool false
  %0 = torch.aten.scaled_dot_product_attention %q, %q, %q, %none, %p, %false, %none, %false : !torch.vtensor<[1,2,3,4],f32>, !torch.vtensor<[1,2,3,4],f32>, !torch.vtensor<[1,2,3,4],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,3,4],f32>
  return %0 : !torch.vtensor<[1,2,3,4],f32>
}
