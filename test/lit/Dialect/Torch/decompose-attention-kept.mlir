// RUN: torch2mlir-opt %s -torch-decompose-complex-ops="legal-ops=aten.scaled_dot_product_attention" -split-input-file | FileCheck %s
// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s --check-prefix=NOTKEPT

// A backend that keeps attention (legal-ops) gets the float32 forms it
// fuses whole (isFusableAttention); the others still decompose.
// CHECK-LABEL: func.func @kept(
// CHECK: torch.aten.scaled_dot_product_attention %arg0, %arg1, %arg2, %arg3
// CHECK-NOT: torch.aten.bmm
// NOTKEPT-LABEL: func.func @kept(
// NOTKEPT: torch.aten.bmm
// NOTKEPT-NOT: scaled_dot_product_attention
func.func @kept(%q: !torch.vtensor<[2,4,6,16],f32>, %k: !torch.vtensor<[2,4,10,16],f32>, %v: !torch.vtensor<[2,4,10,16],f32>, %m: !torch.vtensor<[2,1,6,10],f32>) -> !torch.vtensor<[2,4,6,16],f32> {
  %none = torch.constant.none
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %0 = torch.aten.scaled_dot_product_attention %q, %k, %v, %m, %f0, %false, %none, %false : !torch.vtensor<[2,4,6,16],f32>, !torch.vtensor<[2,4,10,16],f32>, !torch.vtensor<[2,4,10,16],f32>, !torch.vtensor<[2,1,6,10],f32>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,4,6,16],f32>
  return %0 : !torch.vtensor<[2,4,6,16],f32>
}

// -----

// Grouped heads (key heads fewer than query heads) and a mask of unknown
// size are not fused: decomposed.
// CHECK-LABEL: func.func @grouped_heads(
// CHECK: torch.aten.bmm
// CHECK-NOT: scaled_dot_product_attention
func.func @grouped_heads(%q: !torch.vtensor<[1,8,6,16],f32>, %k: !torch.vtensor<[1,2,6,16],f32>) -> !torch.vtensor<[1,8,6,16],f32> {
  %none = torch.constant.none
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %0 = torch.aten.scaled_dot_product_attention %q, %k, %k, %none, %f0, %false, %none, %true : !torch.vtensor<[1,8,6,16],f32>, !torch.vtensor<[1,2,6,16],f32>, !torch.vtensor<[1,2,6,16],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,8,6,16],f32>
  return %0 : !torch.vtensor<[1,8,6,16],f32>
}

// CHECK-LABEL: func.func @unknown_mask_size(
// CHECK: torch.aten.bmm
// CHECK-NOT: scaled_dot_product_attention
func.func @unknown_mask_size(%q: !torch.vtensor<[1,2,6,16],f32>, %m: !torch.vtensor<[?,6],f32>) -> !torch.vtensor<[1,2,6,16],f32> {
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.scaled_dot_product_attention %q, %q, %q, %m, %f0, %false, %none, %false : !torch.vtensor<[1,2,6,16],f32>, !torch.vtensor<[1,2,6,16],f32>, !torch.vtensor<[1,2,6,16],f32>, !torch.vtensor<[?,6],f32>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,6,16],f32>
  return %0 : !torch.vtensor<[1,2,6,16],f32>
}

// -----

// Attention written out as transformers' eager attention exports it: q and
// k^T viewed as [B*H, ...] (through clones and same-size expands), bmm,
// viewed back, times a 0-d literal, plus a mask, softmax, a clone, viewed
// again, bmm with v. Recomposed into attention with that scale, viewed as
// the last bmm's result; not recomposed for a backend that lowers the parts.
// CHECK-LABEL: func.func @eager_attention(
// CHECK: %[[SCALE:.*]] = torch.constant.float 1.250000e-01
// CHECK: %[[A:.*]] = torch.aten.scaled_dot_product_attention %arg0, %arg1, %arg2, %arg3, %{{.*}}, %false{{.*}}, %[[SCALE]], %false{{.*}} : !torch.vtensor<[2,4,6,16],f32>, !torch.vtensor<[2,4,10,16],f32>, !torch.vtensor<[2,4,10,8],f32>, !torch.vtensor<[2,1,6,10],f32>, !torch.float, !torch.bool, !torch.float, !torch.bool -> !torch.vtensor<[2,4,6,8],f32>
// CHECK: %[[R:.*]] = torch.aten.view %[[A]], %{{.*}} : !torch.vtensor<[2,4,6,8],f32>, !torch.list<int> -> !torch.vtensor<[8,6,8],f32>
// CHECK-NOT: torch.aten.bmm
// CHECK-NOT: torch.aten._softmax
// CHECK: return %[[R]]
// NOTKEPT-LABEL: func.func @eager_attention(
// NOTKEPT-NOT: scaled_dot_product_attention
// NOTKEPT: torch.aten._softmax
func.func @eager_attention(%q: !torch.vtensor<[2,4,6,16],f32>, %k: !torch.vtensor<[2,4,10,16],f32>, %v: !torch.vtensor<[2,4,10,8],f32>, %mask: !torch.vtensor<[2,1,6,10],f32>) -> !torch.vtensor<[8,6,8],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %int6 = torch.constant.int 6
  %int8 = torch.constant.int 8
  %int10 = torch.constant.int 10
  %int16 = torch.constant.int 16
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %scale = torch.vtensor.literal(dense<1.250000e-01> : tensor<f64>) : !torch.vtensor<[],f64>
  %qsizes = torch.prim.ListConstruct %int2, %int4, %int6, %int16 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %qe = torch.aten.expand %q, %qsizes, %false : !torch.vtensor<[2,4,6,16],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[2,4,6,16],f32>
  %qc = torch.aten.clone %qe, %int0 : !torch.vtensor<[2,4,6,16],f32>, !torch.int -> !torch.vtensor<[2,4,6,16],f32>
  %q3s = torch.prim.ListConstruct %int8, %int6, %int16 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %q3 = torch.aten.view %qc, %q3s : !torch.vtensor<[2,4,6,16],f32>, !torch.list<int> -> !torch.vtensor<[8,6,16],f32>
  %perm = torch.prim.ListConstruct %int0, %int1, %int3, %int2 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %kt = torch.aten.permute %k, %perm : !torch.vtensor<[2,4,10,16],f32>, !torch.list<int> -> !torch.vtensor<[2,4,16,10],f32>
  %kt3s = torch.prim.ListConstruct %int8, %int16, %int10 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %kt3 = torch.aten.view %kt, %kt3s : !torch.vtensor<[2,4,16,10],f32>, !torch.list<int> -> !torch.vtensor<[8,16,10],f32>
  %s3 = torch.aten.bmm %q3, %kt3 : !torch.vtensor<[8,6,16],f32>, !torch.vtensor<[8,16,10],f32> -> !torch.vtensor<[8,6,10],f32>
  %s4s = torch.prim.ListConstruct %int2, %int4, %int6, %int10 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %s4 = torch.aten.view %s3, %s4s : !torch.vtensor<[8,6,10],f32>, !torch.list<int> -> !torch.vtensor<[2,4,6,10],f32>
  %scaled = torch.aten.mul.Tensor %s4, %scale : !torch.vtensor<[2,4,6,10],f32>, !torch.vtensor<[],f64> -> !torch.vtensor<[2,4,6,10],f32>
  %masked = torch.aten.add.Tensor %scaled, %mask, %int1 : !torch.vtensor<[2,4,6,10],f32>, !torch.vtensor<[2,1,6,10],f32>, !torch.int -> !torch.vtensor<[2,4,6,10],f32>
  %p = torch.aten._softmax %masked, %int-1, %false : !torch.vtensor<[2,4,6,10],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2,4,6,10],f32>
  %pc = torch.aten.clone %p, %none : !torch.vtensor<[2,4,6,10],f32>, !torch.none -> !torch.vtensor<[2,4,6,10],f32>
  %p3s = torch.prim.ListConstruct %int8, %int6, %int10 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %p3 = torch.aten.view %pc, %p3s : !torch.vtensor<[2,4,6,10],f32>, !torch.list<int> -> !torch.vtensor<[8,6,10],f32>
  %v3s = torch.prim.ListConstruct %int8, %int10, %int8 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v3 = torch.aten.view %v, %v3s : !torch.vtensor<[2,4,10,8],f32>, !torch.list<int> -> !torch.vtensor<[8,10,8],f32>
  %o = torch.aten.bmm %p3, %v3 : !torch.vtensor<[8,6,10],f32>, !torch.vtensor<[8,10,8],f32> -> !torch.vtensor<[8,6,8],f32>
  return %o : !torch.vtensor<[8,6,8],f32>
}

// -----

// The probabilities are also returned (output_attentions): left alone, as
// is a product with k not transposed through permute [0, 1, 3, 2].
// CHECK-LABEL: func.func @probabilities_returned(
// CHECK-NOT: scaled_dot_product_attention
// CHECK: torch.aten._softmax
func.func @probabilities_returned(%q: !torch.vtensor<[1,2,6,16],f32>, %k: !torch.vtensor<[1,2,6,16],f32>) -> (!torch.vtensor<[2,6,16],f32>, !torch.vtensor<[1,2,6,6],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int6 = torch.constant.int 6
  %int16 = torch.constant.int 16
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %q3s = torch.prim.ListConstruct %int2, %int6, %int16 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %q3 = torch.aten.view %q, %q3s : !torch.vtensor<[1,2,6,16],f32>, !torch.list<int> -> !torch.vtensor<[2,6,16],f32>
  %perm = torch.prim.ListConstruct %int0, %int1, %int3, %int2 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %kt = torch.aten.permute %k, %perm : !torch.vtensor<[1,2,6,16],f32>, !torch.list<int> -> !torch.vtensor<[1,2,16,6],f32>
  %kt3s = torch.prim.ListConstruct %int2, %int16, %int6 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %kt3 = torch.aten.view %kt, %kt3s : !torch.vtensor<[1,2,16,6],f32>, !torch.list<int> -> !torch.vtensor<[2,16,6],f32>
  %s3 = torch.aten.bmm %q3, %kt3 : !torch.vtensor<[2,6,16],f32>, !torch.vtensor<[2,16,6],f32> -> !torch.vtensor<[2,6,6],f32>
  %s4s = torch.prim.ListConstruct %int1, %int2, %int6, %int6 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %s4 = torch.aten.view %s3, %s4s : !torch.vtensor<[2,6,6],f32>, !torch.list<int> -> !torch.vtensor<[1,2,6,6],f32>
  %p = torch.aten._softmax %s4, %int-1, %false : !torch.vtensor<[1,2,6,6],f32>, !torch.int, !torch.bool -> !torch.vtensor<[1,2,6,6],f32>
  %p3s = torch.prim.ListConstruct %int2, %int6, %int6 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %p3 = torch.aten.view %p, %p3s : !torch.vtensor<[1,2,6,6],f32>, !torch.list<int> -> !torch.vtensor<[2,6,6],f32>
  %o = torch.aten.bmm %p3, %q3 : !torch.vtensor<[2,6,6],f32>, !torch.vtensor<[2,6,16],f32> -> !torch.vtensor<[2,6,16],f32>
  return %o, %p : !torch.vtensor<[2,6,16],f32>, !torch.vtensor<[1,2,6,6],f32>
}

// CHECK-LABEL: func.func @keys_not_transposed(
// CHECK-NOT: scaled_dot_product_attention
// CHECK: torch.aten._softmax
func.func @keys_not_transposed(%q: !torch.vtensor<[1,2,6,6],f32>) -> !torch.vtensor<[2,6,6],f32> {
  %int2 = torch.constant.int 2
  %int6 = torch.constant.int 6
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int2, %int6, %int6 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %q3 = torch.aten.view %q, %s : !torch.vtensor<[1,2,6,6],f32>, !torch.list<int> -> !torch.vtensor<[2,6,6],f32>
  %s3 = torch.aten.bmm %q3, %q3 : !torch.vtensor<[2,6,6],f32>, !torch.vtensor<[2,6,6],f32> -> !torch.vtensor<[2,6,6],f32>
  %int1 = torch.constant.int 1
  %s4s = torch.prim.ListConstruct %int1, %int2, %int6, %int6 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %s4 = torch.aten.view %s3, %s4s : !torch.vtensor<[2,6,6],f32>, !torch.list<int> -> !torch.vtensor<[1,2,6,6],f32>
  %p = torch.aten._softmax %s4, %int-1, %false : !torch.vtensor<[1,2,6,6],f32>, !torch.int, !torch.bool -> !torch.vtensor<[1,2,6,6],f32>
  %p3 = torch.aten.view %p, %s : !torch.vtensor<[1,2,6,6],f32>, !torch.list<int> -> !torch.vtensor<[2,6,6],f32>
  %o = torch.aten.bmm %p3, %q3 : !torch.vtensor<[2,6,6],f32>, !torch.vtensor<[2,6,6],f32> -> !torch.vtensor<[2,6,6],f32>
  return %o : !torch.vtensor<[2,6,6],f32>
}

// -----

// Attention as exported without the Core ATen table (LLaMA-style eager
// attention): 4-D matmuls, k transposed with transpose.int, a float scale,
// a mask, softmax.int to its own dtype, a conversion to that same dtype and
// an eval-mode dropout. Recomposed into attention of the matmul's sizes (no
// view); not recomposed for a backend that lowers the parts.
// CHECK-LABEL: func.func @matmul_attention(
// CHECK: %[[SCALE:.*]] = torch.constant.float 1.250000e-01
// CHECK: %[[A:.*]] = torch.aten.scaled_dot_product_attention %arg0, %arg1, %arg2, %arg3, %{{.*}}, %false{{.*}}, %[[SCALE]], %false{{.*}} : !torch.vtensor<[1,4,1,16],f32>, !torch.vtensor<[1,4,10,16],f32>, !torch.vtensor<[1,4,10,8],f32>, !torch.vtensor<[1,1,1,10],f32>, !torch.float, !torch.bool, !torch.float, !torch.bool -> !torch.vtensor<[1,4,1,8],f32>
// CHECK-NOT: torch.aten.matmul
// CHECK-NOT: torch.aten.softmax.int
// CHECK: return %[[A]]
// NOTKEPT-LABEL: func.func @matmul_attention(
// NOTKEPT-NOT: scaled_dot_product_attention
// NOTKEPT: return
func.func @matmul_attention(%q: !torch.vtensor<[1,4,1,16],f32>, %k: !torch.vtensor<[1,4,10,16],f32>, %v: !torch.vtensor<[1,4,10,8],f32>, %mask: !torch.vtensor<[1,1,1,10],f32>) -> !torch.vtensor<[1,4,1,8],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int6 = torch.constant.int 6
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %float0 = torch.constant.float 0.000000e+00
  %scale = torch.constant.float 1.250000e-01
  %kt = torch.aten.transpose.int %k, %int2, %int3 : !torch.vtensor<[1,4,10,16],f32>, !torch.int, !torch.int -> !torch.vtensor<[1,4,16,10],f32>
  %s = torch.aten.matmul %q, %kt : !torch.vtensor<[1,4,1,16],f32>, !torch.vtensor<[1,4,16,10],f32> -> !torch.vtensor<[1,4,1,10],f32>
  %scaled = torch.aten.mul.Scalar %s, %scale : !torch.vtensor<[1,4,1,10],f32>, !torch.float -> !torch.vtensor<[1,4,1,10],f32>
  %masked = torch.aten.add.Tensor %scaled, %mask, %int1 : !torch.vtensor<[1,4,1,10],f32>, !torch.vtensor<[1,1,1,10],f32>, !torch.int -> !torch.vtensor<[1,4,1,10],f32>
  %p = torch.aten.softmax.int %masked, %int-1, %int6 : !torch.vtensor<[1,4,1,10],f32>, !torch.int, !torch.int -> !torch.vtensor<[1,4,1,10],f32>
  %pt = torch.aten.to.dtype %p, %int6, %false, %false, %none : !torch.vtensor<[1,4,1,10],f32>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,4,1,10],f32>
  %pd = torch.aten.dropout %pt, %float0, %false : !torch.vtensor<[1,4,1,10],f32>, !torch.float, !torch.bool -> !torch.vtensor<[1,4,1,10],f32>
  %o = torch.aten.matmul %pd, %v : !torch.vtensor<[1,4,1,10],f32>, !torch.vtensor<[1,4,10,8],f32> -> !torch.vtensor<[1,4,1,8],f32>
  return %o : !torch.vtensor<[1,4,1,8],f32>
}

// -----

// Negative transpose dims, no scale and no mask: attention with scale 1.
// CHECK-LABEL: func.func @matmul_attention_unscaled(
// CHECK: %[[ONE:.*]] = torch.constant.float 1.000000e+00
// CHECK: %[[A:.*]] = torch.aten.scaled_dot_product_attention %arg0, %arg1, %arg1, %none{{.*}}, %{{.*}}, %false{{.*}}, %[[ONE]], %false{{.*}}
// CHECK: return %[[A]]
func.func @matmul_attention_unscaled(%q: !torch.vtensor<[2,3,5,16],f32>, %k: !torch.vtensor<[2,3,7,16],f32>) -> !torch.vtensor<[2,3,5,16],f32> {
  %int-1 = torch.constant.int -1
  %int-2 = torch.constant.int -2
  %none = torch.constant.none
  %kt = torch.aten.transpose.int %k, %int-1, %int-2 : !torch.vtensor<[2,3,7,16],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,3,16,7],f32>
  %s = torch.aten.matmul %q, %kt : !torch.vtensor<[2,3,5,16],f32>, !torch.vtensor<[2,3,16,7],f32> -> !torch.vtensor<[2,3,5,7],f32>
  %p = torch.aten.softmax.int %s, %int-1, %none : !torch.vtensor<[2,3,5,7],f32>, !torch.int, !torch.none -> !torch.vtensor<[2,3,5,7],f32>
  %o = torch.aten.matmul %p, %k : !torch.vtensor<[2,3,5,7],f32>, !torch.vtensor<[2,3,7,16],f32> -> !torch.vtensor<[2,3,5,16],f32>
  return %o : !torch.vtensor<[2,3,5,16],f32>
}

// -----

// Left alone: a training-mode dropout of the probabilities (it changes
// values), a softmax over another dim than the last, and keys transposed
// over the head dims.
// CHECK-LABEL: func.func @matmul_attention_dropout_train(
// CHECK-NOT: scaled_dot_product_attention
// CHECK: torch.aten._softmax
func.func @matmul_attention_dropout_train(%q: !torch.vtensor<[1,2,6,16],f32>, %k: !torch.vtensor<[1,2,6,16],f32>) -> !torch.vtensor<[1,2,6,16],f32> {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int-1 = torch.constant.int -1
  %true = torch.constant.bool true
  %none = torch.constant.none
  %float = torch.constant.float 1.000000e-01
  %kt = torch.aten.transpose.int %k, %int2, %int3 : !torch.vtensor<[1,2,6,16],f32>, !torch.int, !torch.int -> !torch.vtensor<[1,2,16,6],f32>
  %s = torch.aten.matmul %q, %kt : !torch.vtensor<[1,2,6,16],f32>, !torch.vtensor<[1,2,16,6],f32> -> !torch.vtensor<[1,2,6,6],f32>
  %p = torch.aten.softmax.int %s, %int-1, %none : !torch.vtensor<[1,2,6,6],f32>, !torch.int, !torch.none -> !torch.vtensor<[1,2,6,6],f32>
  %pd = torch.aten.dropout %p, %float, %true : !torch.vtensor<[1,2,6,6],f32>, !torch.float, !torch.bool -> !torch.vtensor<[1,2,6,6],f32>
  %o = torch.aten.matmul %pd, %k : !torch.vtensor<[1,2,6,6],f32>, !torch.vtensor<[1,2,6,16],f32> -> !torch.vtensor<[1,2,6,16],f32>
  return %o : !torch.vtensor<[1,2,6,16],f32>
}

// CHECK-LABEL: func.func @matmul_attention_softmax_dim2(
// CHECK-NOT: scaled_dot_product_attention
// CHECK: torch.aten._softmax
func.func @matmul_attention_softmax_dim2(%q: !torch.vtensor<[1,2,6,16],f32>, %k: !torch.vtensor<[1,2,6,16],f32>) -> !torch.vtensor<[1,2,6,16],f32> {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %none = torch.constant.none
  %kt = torch.aten.transpose.int %k, %int2, %int3 : !torch.vtensor<[1,2,6,16],f32>, !torch.int, !torch.int -> !torch.vtensor<[1,2,16,6],f32>
  %s = torch.aten.matmul %q, %kt : !torch.vtensor<[1,2,6,16],f32>, !torch.vtensor<[1,2,16,6],f32> -> !torch.vtensor<[1,2,6,6],f32>
  %p = torch.aten.softmax.int %s, %int2, %none : !torch.vtensor<[1,2,6,6],f32>, !torch.int, !torch.none -> !torch.vtensor<[1,2,6,6],f32>
  %o = torch.aten.matmul %p, %k : !torch.vtensor<[1,2,6,6],f32>, !torch.vtensor<[1,2,6,16],f32> -> !torch.vtensor<[1,2,6,16],f32>
  return %o : !torch.vtensor<[1,2,6,16],f32>
}

// CHECK-LABEL: func.func @matmul_attention_heads_transposed(
// CHECK-NOT: scaled_dot_product_attention
// CHECK: torch.aten._softmax
func.func @matmul_attention_heads_transposed(%q: !torch.vtensor<[2,2,6,6],f32>, %k: !torch.vtensor<[2,2,6,6],f32>) -> !torch.vtensor<[2,2,6,6],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %none = torch.constant.none
  %kt = torch.aten.transpose.int %k, %int0, %int1 : !torch.vtensor<[2,2,6,6],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,2,6,6],f32>
  %s = torch.aten.matmul %q, %kt : !torch.vtensor<[2,2,6,6],f32>, !torch.vtensor<[2,2,6,6],f32> -> !torch.vtensor<[2,2,6,6],f32>
  %p = torch.aten.softmax.int %s, %int-1, %none : !torch.vtensor<[2,2,6,6],f32>, !torch.int, !torch.none -> !torch.vtensor<[2,2,6,6],f32>
  %o = torch.aten.matmul %p, %k : !torch.vtensor<[2,2,6,6],f32>, !torch.vtensor<[2,2,6,6],f32> -> !torch.vtensor<[2,2,6,6],f32>
  return %o : !torch.vtensor<[2,2,6,6],f32>
}
