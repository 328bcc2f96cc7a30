// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// 4-D Attention: (Q * s) @ (K * s)^T with s = sqrt(1/sqrt(8)) rounded to
// Q's dtype (as the reference), a softmax that gives 0 for fully masked
// rows, then @ V.
// CHECK-LABEL: func.func @attention_4d
// CHECK: %[[S:.*]] = torch.constant.float 0.59460353851318359
// CHECK: %[[Q:.*]] = torch.aten.mul.Scalar %arg0, %[[S]]
// CHECK: %[[K:.*]] = torch.aten.mul.Scalar %arg1, %[[S]]
// CHECK: %[[KT:.*]] = torch.aten.permute %[[K]], {{.*}} -> !torch.vtensor<[2,3,8,6],f32>
// CHECK: %[[QK:.*]] = torch.aten.matmul %[[Q]], %[[KT]] : {{.*}} -> !torch.vtensor<[2,3,4,6],f32>
// CHECK: torch.aten.amax %[[QK]]
// CHECK: %[[E:.*]] = torch.aten.exp
// CHECK: %[[SUM:.*]] = torch.aten.sum.dim_IntList %[[E]]
// CHECK: %[[P:.*]] = torch.aten.div.Tensor %[[E]]
// CHECK: %[[Y:.*]] = torch.aten.matmul %[[P]], %arg2 : {{.*}} -> !torch.vtensor<[2,3,4,8],f32>
// CHECK: return %[[Y]]
func.func @attention_4d(%q: !torch.vtensor<[2,3,4,8],f32>, %k: !torch.vtensor<[2,3,6,8],f32>, %v: !torch.vtensor<[2,3,6,8],f32>) -> !torch.vtensor<[2,3,4,8],f32> attributes {torch.onnx_meta.opset_version = 23 : si64} {
  %0 = torch.operator "onnx.Attention"(%q, %k, %v) : (!torch.vtensor<[2,3,4,8],f32>, !torch.vtensor<[2,3,6,8],f32>, !torch.vtensor<[2,3,6,8],f32>) -> !torch.vtensor<[2,3,4,8],f32>
  return %0 : !torch.vtensor<[2,3,4,8],f32>
}

// -----

// bfloat16: s rounded to bfloat16, and the softmax sum adds the columns
// left to right in bfloat16, as the reference (numpy with ml_dtypes) does.
// CHECK-LABEL: func.func @attention_bf16
// CHECK: %[[S:.*]] = torch.constant.float 5.937500e-01
// CHECK: torch.aten.mul.Scalar %arg0, %[[S]]
// CHECK: %[[E:.*]] = torch.aten.exp
// CHECK-NOT: torch.aten.sum.dim_IntList
// CHECK: %[[C0:.*]] = torch.aten.slice.Tensor %[[E]], %int3, %int0, %int1, %int1 : {{.*}} -> !torch.vtensor<[1,1,2,1],bf16>
// CHECK: %[[C1:.*]] = torch.aten.slice.Tensor %[[E]], %int3, %int1, %int2, %int1
// CHECK: %[[S01:.*]] = torch.aten.add.Tensor %[[C0]], %[[C1]], %int1 : {{.*}} -> !torch.vtensor<[1,1,2,1],bf16>
// CHECK: %[[C2:.*]] = torch.aten.slice.Tensor %[[E]], %int3, %int2, %int3, %int1
// CHECK: torch.aten.add.Tensor %[[S01]], %[[C2]], %int1
func.func @attention_bf16(%q: !torch.vtensor<[1,1,2,8],bf16>, %k: !torch.vtensor<[1,1,3,8],bf16>, %v: !torch.vtensor<[1,1,3,8],bf16>) -> !torch.vtensor<[1,1,2,8],bf16> attributes {torch.onnx_meta.opset_version = 23 : si64} {
  %0 = torch.operator "onnx.Attention"(%q, %k, %v) : (!torch.vtensor<[1,1,2,8],bf16>, !torch.vtensor<[1,1,3,8],bf16>, !torch.vtensor<[1,1,3,8],bf16>) -> !torch.vtensor<[1,1,2,8],bf16>
  return %0 : !torch.vtensor<[1,1,2,8],bf16>
}

// -----

// 3-D inputs with 9 query heads and 3 key/value heads (each K/V head
// repeated 3 times), causal: a constant bias of 0 / -inf.
// CHECK-LABEL: func.func @attention_3d_gqa_causal
// CHECK: %[[CAUSAL:.*]] = torch.vtensor.literal(dense<{{\[\[}}0.000000e+00, 0xFF800000, {{.*}}]]> : tensor<4x6xf32>)
// CHECK: %[[QV:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[2,4,9,8],f32>
// CHECK: torch.aten.permute %[[QV]], {{.*}} -> !torch.vtensor<[2,9,4,8],f32>
// CHECK: %[[KE:.*]] = torch.aten.expand {{.*}} -> !torch.vtensor<[2,3,3,6,8],f32>
// CHECK: torch.aten.view %[[KE]], {{.*}} -> !torch.vtensor<[2,9,6,8],f32>
// CHECK: %[[QK:.*]] = torch.aten.matmul {{.*}} -> !torch.vtensor<[2,9,4,6],f32>
// CHECK: torch.aten.add.Tensor %[[QK]], %[[CAUSAL]]
// CHECK: %[[Y:.*]] = torch.aten.matmul {{.*}} -> !torch.vtensor<[2,9,4,8],f32>
// CHECK: %[[YT:.*]] = torch.aten.permute %[[Y]], {{.*}} -> !torch.vtensor<[2,4,9,8],f32>
// CHECK: torch.aten.view %[[YT]], {{.*}} -> !torch.vtensor<[2,4,72],f32>
func.func @attention_3d_gqa_causal(%q: !torch.vtensor<[2,4,72],f32>, %k: !torch.vtensor<[2,6,24],f32>, %v: !torch.vtensor<[2,6,24],f32>) -> !torch.vtensor<[2,4,72],f32> attributes {torch.onnx_meta.opset_version = 23 : si64} {
  %0 = torch.operator "onnx.Attention"(%q, %k, %v) {torch.onnx.is_causal = 1 : si64, torch.onnx.kv_num_heads = 3 : si64, torch.onnx.q_num_heads = 9 : si64, torch.onnx.scale = 2.500000e-01 : f32} : (!torch.vtensor<[2,4,72],f32>, !torch.vtensor<[2,6,24],f32>, !torch.vtensor<[2,6,24],f32>) -> !torch.vtensor<[2,4,72],f32>
  return %0 : !torch.vtensor<[2,4,72],f32>
}

// -----

// A past cache (present = cat(past, current)), a boolean mask padded with
// -inf to the 3 keys, softcap, and the post-softmax probabilities (mode 3).
// CHECK-LABEL: func.func @attention_past_bool_mask
// CHECK: %[[PK:.*]] = torch.aten.cat {{.*}} -> !torch.vtensor<[1,2,3,4],f32>
// CHECK: %[[PV:.*]] = torch.aten.cat {{.*}} -> !torch.vtensor<[1,2,3,4],f32>
// CHECK: %[[M:.*]] = torch.aten.where.self %arg3, {{.*}} -> !torch.vtensor<[2,2],f32>
// CHECK: %[[BIAS:.*]] = torch.aten.constant_pad_nd %[[M]], {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK: torch.aten.div.Scalar
// CHECK: torch.aten.tanh
// CHECK: %[[CAPPED:.*]] = torch.aten.mul.Scalar
// CHECK: torch.aten.add.Tensor %[[CAPPED]], %[[BIAS]]
// CHECK: %[[ROWMAX:.*]] = torch.aten.amax %[[BIAS]]
// CHECK: %[[EMPTY:.*]] = torch.aten.eq.Scalar %[[ROWMAX]]
// CHECK: %[[P:.*]] = torch.aten.where.self %[[EMPTY]]
// CHECK: %[[Y:.*]] = torch.aten.matmul %[[P]], %[[PV]]
// CHECK: return %[[Y]], %[[PK]], %[[PV]], %[[P]]
func.func @attention_past_bool_mask(%q: !torch.vtensor<[1,2,2,4],f32>, %k: !torch.vtensor<[1,2,1,4],f32>, %v: !torch.vtensor<[1,2,1,4],f32>, %m: !torch.vtensor<[2,2],i1>, %pk: !torch.vtensor<[1,2,2,4],f32>, %pv: !torch.vtensor<[1,2,2,4],f32>) -> (!torch.vtensor<[1,2,2,4],f32>, !torch.vtensor<[1,2,3,4],f32>, !torch.vtensor<[1,2,3,4],f32>, !torch.vtensor<[1,2,2,3],f32>) attributes {torch.onnx_meta.opset_version = 23 : si64} {
  %0:4 = torch.operator "onnx.Attention"(%q, %k, %v, %m, %pk, %pv) {torch.onnx.qk_matmul_output_mode = 3 : si64, torch.onnx.softcap = 2.000000e+00 : f32} : (!torch.vtensor<[1,2,2,4],f32>, !torch.vtensor<[1,2,1,4],f32>, !torch.vtensor<[1,2,1,4],f32>, !torch.vtensor<[2,2],i1>, !torch.vtensor<[1,2,2,4],f32>, !torch.vtensor<[1,2,2,4],f32>) -> (!torch.vtensor<[1,2,2,4],f32>, !torch.vtensor<[1,2,3,4],f32>, !torch.vtensor<[1,2,3,4],f32>, !torch.vtensor<[1,2,2,3],f32>)
  return %0#0, %0#1, %0#2, %0#3 : !torch.vtensor<[1,2,2,4],f32>, !torch.vtensor<[1,2,3,4],f32>, !torch.vtensor<[1,2,3,4],f32>, !torch.vtensor<[1,2,2,3],f32>
}

// -----

// nonpad_kv_seqlen (opset 24) with is_causal: keys j < n[b] and, per batch,
// j <= i + n[b] - S; float16 products and sums accumulate in float32.
// CHECK-LABEL: func.func @attention_nonpad
// CHECK: %[[DIFF0:.*]] = torch.vtensor.literal(dense<{{\[\[}}-1, -2, -3]]> : tensor<1x3xi64>)
// CHECK: %[[KEYS:.*]] = torch.vtensor.literal(dense<{{\[\[}}0, 1, 2]]> : tensor<1x3xi64>)
// CHECK: %[[N:.*]] = torch.aten.view %arg3, {{.*}} -> !torch.vtensor<[2,1,1],si64>
// CHECK: %[[PAD:.*]] = torch.aten.lt.Tensor %[[KEYS]], %[[N]]
// CHECK: %[[DIFF:.*]] = torch.aten.add.Tensor %[[DIFF0]], %[[N]]
// CHECK: %[[CAUSAL:.*]] = torch.aten.ge.Scalar %[[DIFF]]
// CHECK: %[[ALLOWED:.*]] = torch.aten.logical_and %[[PAD]], %[[CAUSAL]] : {{.*}} -> !torch.vtensor<[2,1,3],i1>
// CHECK: torch.aten.where.self %[[ALLOWED]]
// CHECK: torch.aten.matmul {{.*}} : !torch.vtensor<[2,1,1,4],f32>, !torch.vtensor<[2,1,4,3],f32> -> !torch.vtensor<[2,1,1,3],f32>
// CHECK: torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[2,1,1,1],f32>
func.func @attention_nonpad(%q: !torch.vtensor<[2,1,1,4],f16>, %k: !torch.vtensor<[2,1,3,4],f16>, %v: !torch.vtensor<[2,1,3,4],f16>, %n: !torch.vtensor<[2],si64>) -> !torch.vtensor<[2,1,1,4],f16> attributes {torch.onnx_meta.opset_version = 24 : si64} {
  %none = torch.constant.none
  %0 = torch.operator "onnx.Attention"(%q, %k, %v, %none, %none, %none, %n) {torch.onnx.is_causal = 1 : si64} : (!torch.vtensor<[2,1,1,4],f16>, !torch.vtensor<[2,1,3,4],f16>, !torch.vtensor<[2,1,3,4],f16>, !torch.none, !torch.none, !torch.none, !torch.vtensor<[2],si64>) -> !torch.vtensor<[2,1,1,4],f16>
  return %0 : !torch.vtensor<[2,1,1,4],f16>
}

// -----

func.func @attention_3d_without_heads(%q: !torch.vtensor<[2,4,24],f32>, %k: !torch.vtensor<[2,6,24],f32>, %v: !torch.vtensor<[2,6,24],f32>) -> !torch.vtensor<[2,4,24],f32> attributes {torch.onnx_meta.opset_version = 23 : si64} {
  // expected-error @+1 {{3-D inputs need q_num_heads and kv_num_heads}}
  %0 = torch.operator "onnx.Attention"(%q, %k, %v) : (!torch.vtensor<[2,4,24],f32>, !torch.vtensor<[2,6,24],f32>, !torch.vtensor<[2,6,24],f32>) -> !torch.vtensor<[2,4,24],f32>
  return %0 : !torch.vtensor<[2,4,24],f32>
}

// -----

func.func @attention_bad_mode(%q: !torch.vtensor<[1,1,2,4],f32>, %k: !torch.vtensor<[1,1,2,4],f32>, %v: !torch.vtensor<[1,1,2,4],f32>) -> !torch.vtensor<[1,1,2,4],f32> attributes {torch.onnx_meta.opset_version = 23 : si64} {
  // expected-error @+1 {{unsupported qk_matmul_output_mode 4 (expects 0 to 3)}}
  %0 = torch.operator "onnx.Attention"(%q, %k, %v) {torch.onnx.qk_matmul_output_mode = 4 : si64} : (!torch.vtensor<[1,1,2,4],f32>, !torch.vtensor<[1,1,2,4],f32>, !torch.vtensor<[1,1,2,4],f32>) -> !torch.vtensor<[1,1,2,4],f32>
  return %0 : !torch.vtensor<[1,1,2,4],f32>
}

// -----

func.func @attention_mask_does_not_broadcast(%q: !torch.vtensor<[1,2,2,4],f32>, %k: !torch.vtensor<[1,2,3,4],f32>, %v: !torch.vtensor<[1,2,3,4],f32>, %m: !torch.vtensor<[3,2,3],f32>) -> !torch.vtensor<[1,2,2,4],f32> attributes {torch.onnx_meta.opset_version = 23 : si64} {
  // expected-error @+1 {{attn_mask does not broadcast to [batch, q_num_heads, q_sequence_length, kv_sequence_length]}}
  %0 = torch.operator "onnx.Attention"(%q, %k, %v, %m) : (!torch.vtensor<[1,2,2,4],f32>, !torch.vtensor<[1,2,3,4],f32>, !torch.vtensor<[1,2,3,4],f32>, !torch.vtensor<[3,2,3],f32>) -> !torch.vtensor<[1,2,2,4],f32>
  return %0 : !torch.vtensor<[1,2,2,4],f32>
}

// -----

func.func @attention_softmax_precision(%q: !torch.vtensor<[1,1,2,4],f32>, %k: !torch.vtensor<[1,1,2,4],f32>, %v: !torch.vtensor<[1,1,2,4],f32>) -> !torch.vtensor<[1,1,2,4],f32> attributes {torch.onnx_meta.opset_version = 23 : si64} {
  // expected-error @+1 {{unsupported softmax_precision (expects 1 FLOAT, 10 FLOAT16, 11 DOUBLE or 16 BFLOAT16)}}
  %0 = torch.operator "onnx.Attention"(%q, %k, %v) {torch.onnx.softmax_precision = 7 : si64} : (!torch.vtensor<[1,1,2,4],f32>, !torch.vtensor<[1,1,2,4],f32>, !torch.vtensor<[1,1,2,4],f32>) -> !torch.vtensor<[1,1,2,4],f32>
  return %0 : !torch.vtensor<[1,1,2,4],f32>
}

// -----

// RotaryEmbedding, interleaved: [B, H, S, D] -> [B, S, H, D]; cos/sin
// gathered by position and viewed to [B, S, 1, D/2]; the even (x1) and odd
// (x2) features rotate, real = cos*x1 - sin*x2, imag = sin*x1 + cos*x2,
// and alternate again through a [.., D/2, 2] concat.
// CHECK-LABEL: func.func @rotary_interleaved
// CHECK: %[[X:.*]] = torch.aten.permute %arg0, {{.*}} -> !torch.vtensor<[1,3,2,4],f32>
// CHECK: %[[COSG:.*]] = torch.aten.index_select %arg1, %int0, {{.*}} -> !torch.vtensor<[3,2],f32>
// CHECK: %[[COS:.*]] = torch.aten.view %[[COSG]], {{.*}} -> !torch.vtensor<[1,3,1,2],f32>
// CHECK: %[[SING:.*]] = torch.aten.index_select %arg2, %int0, {{.*}} -> !torch.vtensor<[3,2],f32>
// CHECK: %[[SIN:.*]] = torch.aten.view %[[SING]], {{.*}} -> !torch.vtensor<[1,3,1,2],f32>
// CHECK: %[[X1:.*]] = torch.aten.slice.Tensor %[[X]], %int3, %int0, %int4, %int2
// CHECK: %[[X2:.*]] = torch.aten.slice.Tensor %[[X]], %int3, %int1, %int4, %int2
// CHECK-DAG: %[[SX2:.*]] = torch.aten.mul.Tensor %[[SIN]], %[[X2]]
// CHECK-DAG: %[[CX1:.*]] = torch.aten.mul.Tensor %[[COS]], %[[X1]]
// CHECK: %[[REAL:.*]] = torch.aten.sub.Tensor %[[CX1]], %[[SX2]], %int1
// CHECK-DAG: %[[CX2:.*]] = torch.aten.mul.Tensor %[[COS]], %[[X2]]
// CHECK-DAG: %[[SX1:.*]] = torch.aten.mul.Tensor %[[SIN]], %[[X1]]
// CHECK: %[[IMAG:.*]] = torch.aten.add.Tensor %[[SX1]], %[[CX2]], %int1
// CHECK: torch.aten.view %[[REAL]], {{.*}} -> !torch.vtensor<[1,3,2,2,1],f32>
// CHECK: torch.aten.view %[[IMAG]], {{.*}} -> !torch.vtensor<[1,3,2,2,1],f32>
// CHECK: %[[PAIRS:.*]] = torch.aten.cat %{{.*}}, %int4 : {{.*}} -> !torch.vtensor<[1,3,2,2,2],f32>
// CHECK: %[[OUT:.*]] = torch.aten.view %[[PAIRS]], {{.*}} -> !torch.vtensor<[1,3,2,4],f32>
// CHECK: torch.aten.permute %[[OUT]], {{.*}} -> !torch.vtensor<[1,2,3,4],f32>
func.func @rotary_interleaved(%x: !torch.vtensor<[1,2,3,4],f32>, %cos: !torch.vtensor<[8,2],f32>, %sin: !torch.vtensor<[8,2],f32>, %pos: !torch.vtensor<[1,3],si64>) -> !torch.vtensor<[1,2,3,4],f32> attributes {torch.onnx_meta.opset_version = 23 : si64} {
  %0 = torch.operator "onnx.RotaryEmbedding"(%x, %cos, %sin, %pos) {torch.onnx.interleaved = 1 : si64} : (!torch.vtensor<[1,2,3,4],f32>, !torch.vtensor<[8,2],f32>, !torch.vtensor<[8,2],f32>, !torch.vtensor<[1,3],si64>) -> !torch.vtensor<[1,2,3,4],f32>
  return %0 : !torch.vtensor<[1,2,3,4],f32>
}

// -----

// A partial rotation (rotary_embedding_dim 2 of 4) over a 3-D input with
// num_heads: halves x1 = [0, 1), x2 = [1, 2), the rest [2, 4) passes.
// CHECK-LABEL: func.func @rotary_partial_3d
// CHECK: %[[X:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[1,3,2,4],f32>
// CHECK: %[[ROT:.*]] = torch.aten.slice.Tensor %[[X]], %int3, %int0, %int2, %int1
// CHECK: torch.aten.slice.Tensor %[[ROT]], %int3, %int0, %int1, %int1
// CHECK: torch.aten.slice.Tensor %[[ROT]], %int3, %int1, %int2, %int1
// CHECK: torch.aten.cat %{{.*}}, %int3 : {{.*}} -> !torch.vtensor<[1,3,2,2],f32>
// CHECK: %[[PASS:.*]] = torch.aten.slice.Tensor %[[X]], %int3, %int2, %int4, %int1
// CHECK: torch.aten.cat %{{.*}}, %int3 : {{.*}} -> !torch.vtensor<[1,3,2,4],f32>
// CHECK: torch.aten.view %{{.*}} -> !torch.vtensor<[1,3,8],f32>
func.func @rotary_partial_3d(%x: !torch.vtensor<[1,3,8],f32>, %cos: !torch.vtensor<[1,3,1],f32>, %sin: !torch.vtensor<[1,3,1],f32>) -> !torch.vtensor<[1,3,8],f32> attributes {torch.onnx_meta.opset_version = 23 : si64} {
  %0 = torch.operator "onnx.RotaryEmbedding"(%x, %cos, %sin) {torch.onnx.num_heads = 2 : si64, torch.onnx.rotary_embedding_dim = 2 : si64} : (!torch.vtensor<[1,3,8],f32>, !torch.vtensor<[1,3,1],f32>, !torch.vtensor<[1,3,1],f32>) -> !torch.vtensor<[1,3,8],f32>
  return %0 : !torch.vtensor<[1,3,8],f32>
}

// -----

func.func @rotary_odd_dim(%x: !torch.vtensor<[1,2,3,4],f32>, %cos: !torch.vtensor<[8,2],f32>, %sin: !torch.vtensor<[8,2],f32>, %pos: !torch.vtensor<[1,3],si64>) -> !torch.vtensor<[1,2,3,4],f32> attributes {torch.onnx_meta.opset_version = 23 : si64} {
  // expected-error @+1 {{rotary_embedding_dim must be even and at most the head size}}
  %0 = torch.operator "onnx.RotaryEmbedding"(%x, %cos, %sin, %pos) {torch.onnx.rotary_embedding_dim = 3 : si64} : (!torch.vtensor<[1,2,3,4],f32>, !torch.vtensor<[8,2],f32>, !torch.vtensor<[8,2],f32>, !torch.vtensor<[1,3],si64>) -> !torch.vtensor<[1,2,3,4],f32>
  return %0 : !torch.vtensor<[1,2,3,4],f32>
}

// -----

// TensorScatter, circular: position p of batch b takes update entry
// k = (p - w[b]) mod 4 when k < 2 (gather of clamp(k, 0, 1)), else keeps
// the cache's.
// CHECK-LABEL: func.func @tensor_scatter_circular
// CHECK: %[[M:.*]] = torch.vtensor.literal(dense<4> : tensor<i64>)
// CHECK: %[[W:.*]] = torch.aten.view %arg2, {{.*}} -> !torch.vtensor<[2,1,1],si64>
// CHECK: %[[P:.*]] = torch.aten.view {{.*}} -> !torch.vtensor<[1,4,1],si64>
// CHECK: %[[D:.*]] = torch.aten.sub.Tensor %[[P]], %[[W]], %int1 : {{.*}} -> !torch.vtensor<[2,4,1],si64>
// CHECK: %[[Q:.*]] = torch.aten.div.Tensor_mode %[[D]], %[[M]], %str
// CHECK: %[[QM:.*]] = torch.aten.mul.Scalar %[[Q]], %int4
// CHECK: %[[K:.*]] = torch.aten.sub.Tensor %[[D]], %[[QM]], %int1
// CHECK-DAG: %[[LT:.*]] = torch.aten.lt.Scalar %[[K]], %int2
// CHECK-DAG: %[[GE:.*]] = torch.aten.ge.Scalar %[[K]], %int0
// CHECK: %[[VALID:.*]] = torch.aten.logical_and %[[GE]], %[[LT]]
// CHECK: %[[IDX:.*]] = torch.aten.clamp %[[K]], %int0, %int1
// CHECK: %[[IDXE:.*]] = torch.aten.expand %[[IDX]], {{.*}} -> !torch.vtensor<[2,4,3],si64>
// CHECK: %[[VALIDE:.*]] = torch.aten.expand %[[VALID]], {{.*}} -> !torch.vtensor<[2,4,3],i1>
// CHECK: %[[NEW:.*]] = torch.aten.gather %arg1, %int1, %[[IDXE]], %false
// CHECK: torch.aten.where.self %[[VALIDE]], %[[NEW]], %arg0
func.func @tensor_scatter_circular(%cache: !torch.vtensor<[2,4,3],f32>, %update: !torch.vtensor<[2,2,3],f32>, %w: !torch.vtensor<[2],si64>) -> !torch.vtensor<[2,4,3],f32> attributes {torch.onnx_meta.opset_version = 24 : si64} {
  %0 = torch.operator "onnx.TensorScatter"(%cache, %update, %w) {torch.onnx.mode = "circular"} : (!torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,2,3],f32>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[2,4,3],f32>
  return %0 : !torch.vtensor<[2,4,3],f32>
}

// -----

func.func @tensor_scatter_bad_mode(%cache: !torch.vtensor<[2,4,3],f32>, %update: !torch.vtensor<[2,2,3],f32>) -> !torch.vtensor<[2,4,3],f32> attributes {torch.onnx_meta.opset_version = 24 : si64} {
  // expected-error @+1 {{unsupported mode 'ring'}}
  %0 = torch.operator "onnx.TensorScatter"(%cache, %update) {torch.onnx.mode = "ring"} : (!torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,2,3],f32>) -> !torch.vtensor<[2,4,3],f32>
  return %0 : !torch.vtensor<[2,4,3],f32>
}

// -----

// LinearAttention, update_rule "linear", T = 2 unrolled: S starts at zeros;
// each step adds k^T v to S and reads scale * q @ S; the steps'
// outputs are concatenated along time, S is present_state.
// CHECK-LABEL: func.func @linear_attention_linear
// CHECK: %[[S0:.*]] = torch.aten.zeros {{.*}} -> !torch.vtensor<[1,2,2,2],f32>
// CHECK: %[[K0:.*]] = torch.aten.select.int %arg1, %int1, %int0
// CHECK: %[[V0:.*]] = torch.aten.select.int %arg2, %int1, %int0
// CHECK: %[[O0:.*]] = torch.aten.mul.Tensor {{.*}} -> !torch.vtensor<[1,2,2,2],f32>
// CHECK: %[[S1:.*]] = torch.aten.add.Tensor %[[S0]], %[[O0]], %int1
// CHECK: %[[Q0:.*]] = torch.aten.select.int %arg0, %int1, %int0
// CHECK: torch.aten.matmul %{{.*}}, %[[S1]] : {{.*}} -> !torch.vtensor<[1,2,1,2],f32>
// CHECK: torch.aten.select.int %arg1, %int1, %int1
// CHECK: %[[S2:.*]] = torch.aten.add.Tensor %[[S1]], %{{.*}}, %int1
// CHECK: torch.aten.matmul %{{.*}}, %[[S2]]
// CHECK: %[[OUT:.*]] = torch.aten.cat %{{.*}}, %int1 : {{.*}} -> !torch.vtensor<[1,2,4],f32>
// CHECK: return %[[OUT]], %[[S2]]
func.func @linear_attention_linear(%q: !torch.vtensor<[1,2,4],f32>, %k: !torch.vtensor<[1,2,4],f32>, %v: !torch.vtensor<[1,2,4],f32>) -> (!torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,2,2,2],f32>) attributes {torch.onnx_meta.opset_version = 27 : si64} {
  %0:2 = torch.operator "onnx.LinearAttention"(%q, %k, %v) {torch.onnx.kv_num_heads = 2 : si64, torch.onnx.q_num_heads = 2 : si64, torch.onnx.update_rule = "linear"} : (!torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,2,4],f32>) -> (!torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,2,2,2],f32>)
  return %0#0, %0#1 : !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,2,2,2],f32>
}

// -----

// The gated rules need decay (and the delta rules beta).
func.func @linear_attention_gated_without_decay(%q: !torch.vtensor<[1,2,4],f32>, %k: !torch.vtensor<[1,2,4],f32>, %v: !torch.vtensor<[1,2,4],f32>) -> !torch.vtensor<[1,2,4],f32> attributes {torch.onnx_meta.opset_version = 27 : si64} {
  // expected-error @+1 {{update_rule 'gated' does not match the decay/beta inputs given}}
  %0:2 = torch.operator "onnx.LinearAttention"(%q, %k, %v) {torch.onnx.kv_num_heads = 2 : si64, torch.onnx.q_num_heads = 2 : si64, torch.onnx.update_rule = "gated"} : (!torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,2,4],f32>) -> (!torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,2,2,2],f32>)
  return %0#0 : !torch.vtensor<[1,2,4],f32>
}
