// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// RNN, forward, 2 steps: one input projection X @ W^T + (Wb + Rb) for all
// steps, then per step tanh(XW[t] + H @ R^T) from H = 0; Y stacks the steps.
// CHECK-LABEL: func.func @rnn_forward
// CHECK: %[[WT:.*]] = torch.aten.transpose.int {{.*}} -> !torch.vtensor<[4,5],f32>
// CHECK: %[[XW:.*]] = torch.aten.matmul %arg0, %[[WT]] : {{.*}} -> !torch.vtensor<[2,3,5],f32>
// CHECK: %[[RT:.*]] = torch.aten.transpose.int {{.*}} -> !torch.vtensor<[5,5],f32>
// CHECK: %[[WB:.*]] = torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[5],f32>
// CHECK: %[[RB:.*]] = torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[5],f32>
// CHECK: %[[BIAS:.*]] = torch.aten.add.Tensor %[[WB]], %[[RB]]
// CHECK: %[[XWB:.*]] = torch.aten.add.Tensor %[[XW]], %[[BIAS]]
// CHECK: %[[H0:.*]] = torch.aten.zeros {{.*}} -> !torch.vtensor<[3,5],f32>
// CHECK: %[[X0:.*]] = torch.aten.select.int %[[XWB]], %int0, %int0
// CHECK: %[[R0:.*]] = torch.aten.mm %[[H0]], %[[RT]]
// CHECK: %[[G0:.*]] = torch.aten.add.Tensor %[[X0]], %[[R0]]
// CHECK: %[[H1:.*]] = torch.aten.tanh %[[G0]]
// CHECK: %[[X1:.*]] = torch.aten.select.int %[[XWB]], %int0, %int1
// CHECK: %[[R1:.*]] = torch.aten.mm %[[H1]], %[[RT]]
// CHECK: %[[G1:.*]] = torch.aten.add.Tensor %[[X1]], %[[R1]]
// CHECK: %[[H2:.*]] = torch.aten.tanh %[[G1]]
// CHECK: %[[Y:.*]] = torch.aten.cat {{.*}} -> !torch.vtensor<[2,3,5],f32>
// CHECK: %[[Y4:.*]] = torch.aten.unsqueeze %[[Y]], %int1 {{.*}} -> !torch.vtensor<[2,1,3,5],f32>
// CHECK: %[[YH:.*]] = torch.aten.unsqueeze %[[H2]], %int0 {{.*}} -> !torch.vtensor<[1,3,5],f32>
// CHECK: return %[[Y4]], %[[YH]]
func.func @rnn_forward(%x: !torch.vtensor<[2,3,4],f32>, %w: !torch.vtensor<[1,5,4],f32>, %r: !torch.vtensor<[1,5,5],f32>, %b: !torch.vtensor<[1,10],f32>) -> (!torch.vtensor<[2,1,3,5],f32>, !torch.vtensor<[1,3,5],f32>) attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0:2 = torch.operator "onnx.RNN"(%x, %w, %r, %b) {torch.onnx.hidden_size = 5 : si64} : (!torch.vtensor<[2,3,4],f32>, !torch.vtensor<[1,5,4],f32>, !torch.vtensor<[1,5,5],f32>, !torch.vtensor<[1,10],f32>) -> (!torch.vtensor<[2,1,3,5],f32>, !torch.vtensor<[1,3,5],f32>)
  return %0#0, %0#1 : !torch.vtensor<[2,1,3,5],f32>, !torch.vtensor<[1,3,5],f32>
}

// -----

// RNN, bidirectional with Relu: the reverse direction starts at the last
// step; Y stacks the directions along dim 1. The omitted Y (imported as
// !torch.vtensor) is not computed.
// CHECK-LABEL: func.func @rnn_bidirectional_relu
// CHECK: %[[F:.*]] = torch.aten.relu
// CHECK-NOT: torch.aten.relu
// CHECK: %[[XWR:.*]] = torch.aten.matmul {{.*}} -> !torch.vtensor<[1,2,3],f32>
// CHECK: torch.aten.select.int %[[XWR]], %int0, %int0
// CHECK: %[[B:.*]] = torch.aten.sigmoid
// CHECK: %[[FU:.*]] = torch.aten.unsqueeze %[[F]], %int0
// CHECK: %[[BU:.*]] = torch.aten.unsqueeze %[[B]], %int0
// CHECK: %[[L:.*]] = torch.prim.ListConstruct %[[FU]], %[[BU]]
// CHECK: %[[YH:.*]] = torch.aten.cat %[[L]], %int0 {{.*}} -> !torch.vtensor<[2,2,3],f32>
// CHECK: return %[[YH]]
func.func @rnn_bidirectional_relu(%x: !torch.vtensor<[1,2,4],f32>, %w: !torch.vtensor<[2,3,4],f32>, %r: !torch.vtensor<[2,3,3],f32>) -> !torch.vtensor<[2,2,3],f32> attributes {torch.onnx_meta.opset_version = 14 : si64} {
  %0:2 = torch.operator "onnx.RNN"(%x, %w, %r) {torch.onnx.activations = ["Relu", "Sigmoid"], torch.onnx.direction = "bidirectional", torch.onnx.hidden_size = 3 : si64} : (!torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[2,3,3],f32>) -> (!torch.vtensor, !torch.vtensor<[2,2,3],f32>)
  return %0#1 : !torch.vtensor<[2,2,3],f32>
}

// -----

// GRU, reverse, layout 1 (X [B, S, I], Y [B, S, D, H]), linear_before_reset:
// Rbh stays in the step, h = tanh(XW_h + r * (H @ Rh^T + Rbh)),
// H = (1 - z) * h + z * H.
// CHECK-LABEL: func.func @gru_reverse_batchwise
// CHECK: %[[X:.*]] = torch.aten.permute %arg0, {{.*}} -> !torch.vtensor<[2,3,4],f32>
// CHECK: %[[XW:.*]] = torch.aten.matmul %[[X]], {{.*}} -> !torch.vtensor<[2,3,15],f32>
// CHECK: %[[RT:.*]] = torch.aten.transpose.int {{.*}} -> !torch.vtensor<[5,15],f32>
// CHECK: %[[WB:.*]] = torch.aten.slice.Tensor %{{.*}}, %int0, %int0, %int15, %int1
// CHECK: %[[RB:.*]] = torch.aten.slice.Tensor %{{.*}}, %int0, %int15, %int30, %int1
// CHECK: %[[XWB:.*]] = torch.aten.add.Tensor %[[XW]], %[[WB]]
// CHECK: %[[H0:.*]] = torch.aten.zeros
// CHECK: %[[XT:.*]] = torch.aten.select.int %[[XWB]], %int0, %int1
// CHECK: %[[HR:.*]] = torch.aten.mm %[[H0]], %[[RT]]
// CHECK: %[[HRB:.*]] = torch.aten.add.Tensor %[[HR]], %[[RB]]
// CHECK: %[[HRH:.*]] = torch.aten.slice.Tensor %[[HRB]], %int1, %int10, %int15, %int1
// CHECK: %[[Z:.*]] = torch.aten.sigmoid
// CHECK: %[[R:.*]] = torch.aten.sigmoid
// CHECK: %[[RH:.*]] = torch.aten.mul.Tensor %[[R]], %[[HRH]]
// CHECK: %[[PRE:.*]] = torch.aten.add.Tensor %{{.*}}, %[[RH]]
// CHECK: %[[CAND:.*]] = torch.aten.tanh %[[PRE]]
// CHECK: %[[ZH:.*]] = torch.aten.mul.Tensor %[[Z]], %[[H0]]
// CHECK: %[[ONEMZ:.*]] = torch.aten.rsub.Scalar %[[Z]]
// CHECK: %[[KEEP:.*]] = torch.aten.mul.Tensor %[[ONEMZ]], %[[CAND]]
// CHECK: torch.aten.add.Tensor %[[KEEP]], %[[ZH]]
// CHECK: torch.aten.select.int %[[XWB]], %int0, %int0
// CHECK: %[[Y:.*]] = torch.aten.unsqueeze {{.*}} -> !torch.vtensor<[2,1,3,5],f32>
// CHECK: %[[YB:.*]] = torch.aten.permute %[[Y]], {{.*}} -> !torch.vtensor<[3,2,1,5],f32>
// CHECK: %[[YHB:.*]] = torch.aten.permute {{.*}} -> !torch.vtensor<[3,1,5],f32>
// CHECK: return %[[YB]], %[[YHB]]
func.func @gru_reverse_batchwise(%x: !torch.vtensor<[3,2,4],f32>, %w: !torch.vtensor<[1,15,4],f32>, %r: !torch.vtensor<[1,15,5],f32>, %b: !torch.vtensor<[1,30],f32>) -> (!torch.vtensor<[3,2,1,5],f32>, !torch.vtensor<[3,1,5],f32>) attributes {torch.onnx_meta.opset_version = 14 : si64} {
  %0:2 = torch.operator "onnx.GRU"(%x, %w, %r, %b) {torch.onnx.direction = "reverse", torch.onnx.hidden_size = 5 : si64, torch.onnx.layout = 1 : si64, torch.onnx.linear_before_reset = 1 : si64} : (!torch.vtensor<[3,2,4],f32>, !torch.vtensor<[1,15,4],f32>, !torch.vtensor<[1,15,5],f32>, !torch.vtensor<[1,30],f32>) -> (!torch.vtensor<[3,2,1,5],f32>, !torch.vtensor<[3,1,5],f32>)
  return %0#0, %0#1 : !torch.vtensor<[3,2,1,5],f32>, !torch.vtensor<[3,1,5],f32>
}

// -----

// GRU, linear_before_reset = 0: h = tanh(XW_h + (r * H) @ Rh^T), with all
// of R's biases folded into XW.
// CHECK-LABEL: func.func @gru_default
// CHECK: %[[RT:.*]] = torch.aten.transpose.int {{.*}} -> !torch.vtensor<[2,6],f32>
// CHECK: %[[H0:.*]] = torch.aten.select.int %arg3, %int0, %int0
// CHECK: %[[RTZR:.*]] = torch.aten.slice.Tensor %[[RT]], %int1, %int0, %int4, %int1
// CHECK: %[[RTH:.*]] = torch.aten.slice.Tensor %[[RT]], %int1, %int4, %int6, %int1
// CHECK: torch.aten.mm %[[H0]], %[[RTZR]]
// CHECK: %[[Z:.*]] = torch.aten.sigmoid
// CHECK: %[[R:.*]] = torch.aten.sigmoid
// CHECK: %[[RH:.*]] = torch.aten.mul.Tensor %[[R]], %[[H0]]
// CHECK: torch.aten.mm %[[RH]], %[[RTH]]
// CHECK: torch.aten.tanh
func.func @gru_default(%x: !torch.vtensor<[1,1,3],f32>, %w: !torch.vtensor<[1,6,3],f32>, %r: !torch.vtensor<[1,6,2],f32>, %h0: !torch.vtensor<[1,1,2],f32>) -> !torch.vtensor<[1,1,2],f32> attributes {torch.onnx_meta.opset_version = 7 : si64} {
  %none = torch.constant.none
  %0:2 = torch.operator "onnx.GRU"(%x, %w, %r, %none, %none, %h0) {torch.onnx.hidden_size = 2 : si64} : (!torch.vtensor<[1,1,3],f32>, !torch.vtensor<[1,6,3],f32>, !torch.vtensor<[1,6,2],f32>, !torch.none, !torch.none, !torch.vtensor<[1,1,2],f32>) -> (!torch.vtensor, !torch.vtensor<[1,1,2],f32>)
  return %0#1 : !torch.vtensor<[1,1,2],f32>
}

// -----

// LSTM with peepholes, clip and a runtime sequence_lens: gates [i, o, f, c];
// i and f see Pi * C and Pf * C, o sees Po * C_new; clip clamps each gate
// input (not h(C)); a batch entry keeps its state past its length.
// CHECK-LABEL: func.func @lstm_peepholes_clip_lens
// CHECK: %[[H0:.*]] = torch.aten.select.int %arg5, %int0, %int0
// CHECK: %[[C0:.*]] = torch.aten.select.int %arg6, %int0, %int0
// CHECK: %[[P:.*]] = torch.aten.select.int %arg7, %int0, %int0
// CHECK: %[[PI:.*]] = torch.aten.slice.Tensor %[[P]], %int0, %int0, %int3, %int1
// CHECK: %[[PO:.*]] = torch.aten.slice.Tensor %[[P]], %int0, %int3, %int6, %int1
// CHECK: %[[PF:.*]] = torch.aten.slice.Tensor %[[P]], %int0, %int6, %int9, %int1
// CHECK: %[[G:.*]] = torch.aten.add.Tensor
// CHECK: %[[GI:.*]] = torch.aten.slice.Tensor %[[G]], %int1, %int0, %int3, %int1
// CHECK: %[[GO:.*]] = torch.aten.slice.Tensor %[[G]], %int1, %int3, %int6, %int1
// CHECK: %[[GF:.*]] = torch.aten.slice.Tensor %[[G]], %int1, %int6, %int9, %int1
// CHECK: %[[GC:.*]] = torch.aten.slice.Tensor %[[G]], %int1, %int9, %int12, %int1
// CHECK: %[[PIC:.*]] = torch.aten.mul.Tensor %[[PI]], %[[C0]]
// CHECK: %[[GIP:.*]] = torch.aten.add.Tensor %[[GI]], %[[PIC]]
// CHECK: %[[PFC:.*]] = torch.aten.mul.Tensor %[[PF]], %[[C0]]
// CHECK: %[[GFP:.*]] = torch.aten.add.Tensor %[[GF]], %[[PFC]]
// CHECK: %[[GIC:.*]] = torch.aten.clamp %[[GIP]], %[[LO:.*]], %[[HI:.*]] :
// CHECK: %[[I:.*]] = torch.aten.sigmoid %[[GIC]]
// CHECK: %[[GFC:.*]] = torch.aten.clamp %[[GFP]], %[[LO]], %[[HI]]
// CHECK: %[[F:.*]] = torch.aten.sigmoid %[[GFC]]
// CHECK: %[[GCC:.*]] = torch.aten.clamp %[[GC]], %[[LO]], %[[HI]]
// CHECK: %[[CC:.*]] = torch.aten.tanh %[[GCC]]
// CHECK: %[[IC:.*]] = torch.aten.mul.Tensor %[[I]], %[[CC]]
// CHECK: %[[FC:.*]] = torch.aten.mul.Tensor %[[F]], %[[C0]]
// CHECK: %[[C1:.*]] = torch.aten.add.Tensor %[[FC]], %[[IC]]
// CHECK: %[[POC:.*]] = torch.aten.mul.Tensor %[[PO]], %[[C1]]
// CHECK: %[[GOP:.*]] = torch.aten.add.Tensor %[[GO]], %[[POC]]
// CHECK: %[[GOC:.*]] = torch.aten.clamp %[[GOP]], %[[LO]], %[[HI]]
// CHECK: %[[O:.*]] = torch.aten.sigmoid %[[GOC]]
// CHECK: %[[TC:.*]] = torch.aten.tanh %[[C1]]
// CHECK: %[[H1:.*]] = torch.aten.mul.Tensor %[[O]], %[[TC]]
// CHECK: %[[VALID:.*]] = torch.aten.gt.Scalar %arg4, %int0 : !torch.vtensor<[3],si32>, !torch.int -> !torch.vtensor<[3],i1>
// CHECK: %[[MASK:.*]] = torch.aten.unsqueeze %[[VALID]], %int1
// CHECK: torch.aten.where.self %[[MASK]], %[[H1]], %[[H0]]
// CHECK: torch.aten.where.self %[[MASK]], %[[C1]], %[[C0]]
// CHECK: torch.aten.gt.Scalar %arg4, %int1
// CHECK: return
func.func @lstm_peepholes_clip_lens(%x: !torch.vtensor<[2,3,4],f32>, %w: !torch.vtensor<[1,12,4],f32>, %r: !torch.vtensor<[1,12,3],f32>, %b: !torch.vtensor<[1,24],f32>, %lens: !torch.vtensor<[3],si32>, %h0: !torch.vtensor<[1,3,3],f32>, %c0: !torch.vtensor<[1,3,3],f32>, %p: !torch.vtensor<[1,9],f32>) -> (!torch.vtensor<[2,1,3,3],f32>, !torch.vtensor<[1,3,3],f32>, !torch.vtensor<[1,3,3],f32>) attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0:3 = torch.operator "onnx.LSTM"(%x, %w, %r, %b, %lens, %h0, %c0, %p) {torch.onnx.clip = 2.0 : f32, torch.onnx.hidden_size = 3 : si64} : (!torch.vtensor<[2,3,4],f32>, !torch.vtensor<[1,12,4],f32>, !torch.vtensor<[1,12,3],f32>, !torch.vtensor<[1,24],f32>, !torch.vtensor<[3],si32>, !torch.vtensor<[1,3,3],f32>, !torch.vtensor<[1,3,3],f32>, !torch.vtensor<[1,9],f32>) -> (!torch.vtensor<[2,1,3,3],f32>, !torch.vtensor<[1,3,3],f32>, !torch.vtensor<[1,3,3],f32>)
  return %0#0, %0#1, %0#2 : !torch.vtensor<[2,1,3,3],f32>, !torch.vtensor<[1,3,3],f32>, !torch.vtensor<[1,3,3],f32>
}

// -----

// Constant sequence_lens that all equal the sequence length need no mask.
// CHECK-LABEL: func.func @lstm_full_constant_lens
// CHECK-NOT: torch.aten.where.self
// CHECK: return
func.func @lstm_full_constant_lens(%x: !torch.vtensor<[2,1,2],f32>, %w: !torch.vtensor<[1,12,2],f32>, %r: !torch.vtensor<[1,12,3],f32>) -> !torch.vtensor<[1,1,3],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %none = torch.constant.none
  %lens = torch.vtensor.literal(dense<2> : tensor<1xsi32>) : !torch.vtensor<[1],si32>
  %0:2 = torch.operator "onnx.LSTM"(%x, %w, %r, %none, %lens) {torch.onnx.hidden_size = 3 : si64} : (!torch.vtensor<[2,1,2],f32>, !torch.vtensor<[1,12,2],f32>, !torch.vtensor<[1,12,3],f32>, !torch.none, !torch.vtensor<[1],si32>) -> (!torch.vtensor, !torch.vtensor<[1,1,3],f32>)
  return %0#1 : !torch.vtensor<[1,1,3],f32>
}

// -----

// A dynamic sequence length cannot be unrolled.
func.func @rnn_dynamic_sequence(%x: !torch.vtensor<[?,3,4],f32>, %w: !torch.vtensor<[1,5,4],f32>, %r: !torch.vtensor<[1,5,5],f32>) -> !torch.vtensor<[1,3,5],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  // expected-error @+1 {{'onnx.RNN' (opset 22) could not be lowered to the torch dialect: unsupported: X has dynamic sizes; the recurrence is unrolled over time and needs a static sequence length and batch size}}
  %0:2 = torch.operator "onnx.RNN"(%x, %w, %r) {torch.onnx.hidden_size = 5 : si64} : (!torch.vtensor<[?,3,4],f32>, !torch.vtensor<[1,5,4],f32>, !torch.vtensor<[1,5,5],f32>) -> (!torch.vtensor, !torch.vtensor<[1,3,5],f32>)
  return %0#1 : !torch.vtensor<[1,3,5],f32>
}

// -----

func.func @gru_unsupported_activation(%x: !torch.vtensor<[1,1,3],f32>, %w: !torch.vtensor<[1,6,3],f32>, %r: !torch.vtensor<[1,6,2],f32>) -> !torch.vtensor<[1,1,2],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  // expected-error @+1 {{unsupported activation 'ThresholdedRelu' in attribute 'activations' (supported: Sigmoid, Tanh, Relu, LeakyRelu, HardSigmoid, Softsign)}}
  %0:2 = torch.operator "onnx.GRU"(%x, %w, %r) {torch.onnx.activations = ["Sigmoid", "ThresholdedRelu"], torch.onnx.hidden_size = 2 : si64} : (!torch.vtensor<[1,1,3],f32>, !torch.vtensor<[1,6,3],f32>, !torch.vtensor<[1,6,2],f32>) -> (!torch.vtensor, !torch.vtensor<[1,1,2],f32>)
  return %0#1 : !torch.vtensor<[1,1,2],f32>
}

// -----

func.func @lstm_input_forget(%x: !torch.vtensor<[1,1,2],f32>, %w: !torch.vtensor<[1,12,2],f32>, %r: !torch.vtensor<[1,12,3],f32>) -> !torch.vtensor<[1,1,3],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  // expected-error @+1 {{unsupported: attribute 'input_forget' = 1 (coupled input and forget gates)}}
  %0:2 = torch.operator "onnx.LSTM"(%x, %w, %r) {torch.onnx.hidden_size = 3 : si64, torch.onnx.input_forget = 1 : si64} : (!torch.vtensor<[1,1,2],f32>, !torch.vtensor<[1,12,2],f32>, !torch.vtensor<[1,12,3],f32>) -> (!torch.vtensor, !torch.vtensor<[1,1,3],f32>)
  return %0#1 : !torch.vtensor<[1,1,3],f32>
}

// -----

func.func @rnn_wrong_weight(%x: !torch.vtensor<[1,1,2],f32>, %w: !torch.vtensor<[1,4,3],f32>, %r: !torch.vtensor<[1,4,4],f32>) -> !torch.vtensor<[1,1,4],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  // expected-error @+1 {{W must be [1, 4, 2] and R [1, 4, 4] of X's dtype}}
  %0:2 = torch.operator "onnx.RNN"(%x, %w, %r) {torch.onnx.hidden_size = 4 : si64} : (!torch.vtensor<[1,1,2],f32>, !torch.vtensor<[1,4,3],f32>, !torch.vtensor<[1,4,4],f32>) -> (!torch.vtensor, !torch.vtensor<[1,1,4],f32>)
  return %0#1 : !torch.vtensor<[1,1,4],f32>
}

// -----

func.func @gru_wrong_result(%x: !torch.vtensor<[1,1,3],f32>, %w: !torch.vtensor<[1,6,3],f32>, %r: !torch.vtensor<[1,6,2],f32>) -> !torch.vtensor<[1,1,4],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  // expected-error @+1 {{result 1 has sizes that do not match the inputs}}
  %0:2 = torch.operator "onnx.GRU"(%x, %w, %r) {torch.onnx.hidden_size = 2 : si64} : (!torch.vtensor<[1,1,3],f32>, !torch.vtensor<[1,6,3],f32>, !torch.vtensor<[1,6,2],f32>) -> (!torch.vtensor, !torch.vtensor<[1,1,4],f32>)
  return %0#1 : !torch.vtensor<[1,1,4],f32>
}
