// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// Elu: x < 0 ? alpha * (exp(x) - 1) : x.
// CHECK-LABEL: func.func @elu
// CHECK-DAG: %[[ALPHA:.*]] = torch.constant.float 2.000000e+00
// CHECK-DAG: %[[ZERO:.*]] = torch.constant.float 0.000000e+00
// CHECK: %[[EXP:.*]] = torch.aten.exp %arg0
// CHECK: %[[EXPM1:.*]] = torch.aten.add.Scalar %[[EXP]]
// CHECK: %[[NEG:.*]] = torch.aten.mul.Scalar %[[EXPM1]], %[[ALPHA]]
// CHECK: %[[LT:.*]] = torch.aten.lt.Scalar %arg0, %[[ZERO]] : !torch.vtensor<[3],f32>, !torch.float -> !torch.vtensor<[3],i1>
// CHECK: torch.aten.where.self %[[LT]], %[[NEG]], %arg0
func.func @elu(%x: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0 = torch.operator "onnx.Elu"(%x) {torch.onnx.alpha = 2.0 : f32} : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// Selu with its default alpha and gamma.
// CHECK-LABEL: func.func @selu_default
// CHECK-DAG: %[[GAMMA:.*]] = torch.constant.float 1.0507010221481323
// CHECK-DAG: %[[ALPHA:.*]] = torch.constant.float 1.6732631921768188
// CHECK: torch.aten.mul.Scalar %{{.*}}, %[[ALPHA]]
// CHECK: %[[INNER:.*]] = torch.aten.where.self
// CHECK: torch.aten.mul.Scalar %[[INNER]], %[[GAMMA]]
func.func @selu_default(%x: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0 = torch.operator "onnx.Selu"(%x) : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// HardSwish: x * clamp(x / 6 + 0.5, 0, 1).
// CHECK-LABEL: func.func @hardswish
// CHECK: %[[SCALED:.*]] = torch.aten.mul.Scalar %arg0
// CHECK: %[[SHIFTED:.*]] = torch.aten.add.Scalar %[[SCALED]]
// CHECK: %[[GATE:.*]] = torch.aten.clamp %[[SHIFTED]]
// CHECK: torch.aten.mul.Tensor %arg0, %[[GATE]]
func.func @hardswish(%x: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0 = torch.operator "onnx.HardSwish"(%x) : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// PRelu: the slope broadcasts to x.
// CHECK-LABEL: func.func @prelu
// CHECK: %[[NEG:.*]] = torch.aten.lt.Scalar %arg0
// CHECK: %[[SCALED:.*]] = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[2,3],f32>
// CHECK: torch.aten.where.self %[[NEG]], %[[SCALED]], %arg0
func.func @prelu(%x: !torch.vtensor<[2,3],f32>, %s: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3],f32> attributes {torch.onnx_meta.opset_version = 16 : si64} {
  %0 = torch.operator "onnx.PRelu"(%x, %s) : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// CHECK-LABEL: func.func @gelu_tanh
// CHECK: %[[APPROX:.*]] = torch.constant.str "tanh"
// CHECK: torch.aten.gelu %arg0, %[[APPROX]]
func.func @gelu_tanh(%x: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 20 : si64} {
  %0 = torch.operator "onnx.Gelu"(%x) {torch.onnx.approximate = "tanh"} : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// Mod: aten.remainder (fmod=0, Python's %) or aten.fmod (fmod=1), both
// exact.
// CHECK-LABEL: func.func @mod_int
// CHECK: %[[R:.*]] = torch.aten.remainder.Tensor %arg0, %arg1 : !torch.vtensor<[3],si32>, !torch.vtensor<[1],si32> -> !torch.vtensor<[3],si32>
// CHECK: return %[[R]]
func.func @mod_int(%a: !torch.vtensor<[3],si32>, %b: !torch.vtensor<[1],si32>) -> !torch.vtensor<[3],si32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.Mod"(%a, %b) : (!torch.vtensor<[3],si32>, !torch.vtensor<[1],si32>) -> !torch.vtensor<[3],si32>
  return %0 : !torch.vtensor<[3],si32>
}

// CHECK-LABEL: func.func @mod_fmod
// CHECK: %[[R:.*]] = torch.aten.fmod.Tensor %arg0, %arg1 : !torch.vtensor<[3],f16>, !torch.vtensor<[3],f16> -> !torch.vtensor<[3],f16>
// CHECK: return %[[R]]
func.func @mod_fmod(%a: !torch.vtensor<[3],f16>, %b: !torch.vtensor<[3],f16>) -> !torch.vtensor<[3],f16> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.Mod"(%a, %b) {torch.onnx.fmod = 1 : si64} : (!torch.vtensor<[3],f16>, !torch.vtensor<[3],f16>) -> !torch.vtensor<[3],f16>
  return %0 : !torch.vtensor<[3],f16>
}

// -----

// IsInf with detect_negative=0 compares with +inf only.
// CHECK-LABEL: func.func @isinf_positive
// CHECK: %[[INF:.*]] = torch.constant.float 0x7FF0000000000000
// CHECK-NOT: torch.aten.logical_or
// CHECK: torch.aten.eq.Scalar %arg0, %[[INF]]
func.func @isinf_positive(%x: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],i1> attributes {torch.onnx_meta.opset_version = 20 : si64} {
  %0 = torch.operator "onnx.IsInf"(%x) {torch.onnx.detect_negative = 0 : si64} : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],i1>
  return %0 : !torch.vtensor<[3],i1>
}

// CHECK-LABEL: func.func @isnan
// CHECK: torch.aten.ne.Tensor %arg0, %arg0 : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[3],i1>
func.func @isnan(%x: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],i1> attributes {torch.onnx_meta.opset_version = 20 : si64} {
  %0 = torch.operator "onnx.IsNaN"(%x) : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],i1>
  return %0 : !torch.vtensor<[3],i1>
}

// -----

// Round half to even: floor, then the fraction decides, ties by parity.
// CHECK-LABEL: func.func @round
// CHECK: %[[F:.*]] = torch.aten.floor %arg0
// CHECK: %[[D:.*]] = torch.aten.sub.Tensor %arg0, %[[F]]
// CHECK: torch.aten.gt.Scalar %[[D]]
// CHECK: %[[TIE:.*]] = torch.aten.eq.Scalar %[[D]]
// CHECK: torch.aten.where.self %[[TIE]]
func.func @round(%x: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0 = torch.operator "onnx.Round"(%x) : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// CHECK-LABEL: func.func @castlike
// CHECK: %[[F16:.*]] = torch.constant.int 5
// CHECK: torch.aten.to.dtype %arg0, %[[F16]], {{.*}} -> !torch.vtensor<[3],f16>
func.func @castlike(%x: !torch.vtensor<[3],f32>, %like: !torch.vtensor<[0],f16>) -> !torch.vtensor<[3],f16> attributes {torch.onnx_meta.opset_version = 21 : si64} {
  %0 = torch.operator "onnx.CastLike"(%x, %like) : (!torch.vtensor<[3],f32>, !torch.vtensor<[0],f16>) -> !torch.vtensor<[3],f16>
  return %0 : !torch.vtensor<[3],f16>
}

// -----

func.func @softplus_int(%x: !torch.vtensor<[3],si32>) -> !torch.vtensor<[3],si32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  // expected-error @+1 {{'onnx.Softplus' (opset 22) could not be lowered to the torch dialect: unsupported: a non-float input}}
  %0 = torch.operator "onnx.Softplus"(%x) : (!torch.vtensor<[3],si32>) -> !torch.vtensor<[3],si32>
  return %0 : !torch.vtensor<[3],si32>
}

// -----

func.func @gelu_unknown(%x: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 20 : si64} {
  // expected-error @+1 {{unsupported approximate 'erf'}}
  %0 = torch.operator "onnx.Gelu"(%x) {torch.onnx.approximate = "erf"} : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// Swish: x * sigmoid(alpha * x).
// CHECK-LABEL: func.func @swish
// CHECK: %[[SCALED:.*]] = torch.aten.mul.Scalar %arg0
// CHECK: %[[GATE:.*]] = torch.aten.sigmoid %[[SCALED]]
// CHECK: torch.aten.mul.Tensor %arg0, %[[GATE]]
func.func @swish(%x: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 24 : si64} {
  %0 = torch.operator "onnx.Swish"(%x) {torch.onnx.alpha = 2.0 : f32} : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// SwiGLU: A * sigmoid(alpha * A) * B.
// CHECK-LABEL: func.func @swiglu
// CHECK: %[[ALPHA:.*]] = torch.constant.float 1.500000e+00
// CHECK: %[[SCALED:.*]] = torch.aten.mul.Scalar %arg0, %[[ALPHA]] :
// CHECK: %[[SIG:.*]] = torch.aten.sigmoid %[[SCALED]]
// CHECK: %[[GATE:.*]] = torch.aten.mul.Tensor %arg0, %[[SIG]]
// CHECK: torch.aten.mul.Tensor %[[GATE]], %arg1 : {{.*}} -> !torch.vtensor<[2,4],f32>
func.func @swiglu(%a: !torch.vtensor<[2,4],f32>, %b: !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32> attributes {torch.onnx_meta.opset_version = 28 : si64} {
  %0 = torch.operator "onnx.SwiGLU"(%a, %b) {torch.onnx.alpha = 1.5 : f32} : (!torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// A and B must have one shape: SwiGLU does not broadcast.
func.func @swiglu_broadcast(%a: !torch.vtensor<[2,4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,4],f32> attributes {torch.onnx_meta.opset_version = 28 : si64} {
  // expected-error @+1 {{B must have known sizes and dtype, those of the result}}
  %0 = torch.operator "onnx.SwiGLU"(%a, %b) : (!torch.vtensor<[2,4],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// QuantizeLinear per axis: scale and zero point viewed along axis 1, x /
// scale rounded half to even, plus the zero point, clamped to [0, 255],
// cast to ui8.
// CHECK-LABEL: func.func @quantize_axis
// CHECK-DAG: %[[LO:.*]] = torch.constant.float 0.000000e+00
// CHECK-DAG: %[[HI:.*]] = torch.constant.float 2.550000e+02
// CHECK: %[[S:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[1,3],f32>
// CHECK: %[[Z:.*]] = torch.aten.view %arg2, {{.*}} -> !torch.vtensor<[1,3],ui8>
// CHECK: %[[D:.*]] = torch.aten.div.Tensor %arg0, %[[S]]
// CHECK: torch.aten.floor %[[D]]
// CHECK: torch.aten.where.self
// CHECK: %[[R:.*]] = torch.aten.where.self
// CHECK: %[[ZF:.*]] = torch.aten.to.dtype %[[Z]], %int6
// CHECK: %[[Y:.*]] = torch.aten.add.Tensor %[[R]], %[[ZF]], %int1
// CHECK: %[[C:.*]] = torch.aten.clamp %[[Y]], %[[LO]], %[[HI]]
// CHECK: torch.aten.to.dtype %[[C]], %int0, {{.*}} -> !torch.vtensor<[2,3],ui8>
func.func @quantize_axis(%x: !torch.vtensor<[2,3],f32>, %s: !torch.vtensor<[3],f32>, %z: !torch.vtensor<[3],ui8>) -> !torch.vtensor<[2,3],ui8> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.QuantizeLinear"(%x, %s, %z) : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],ui8>) -> !torch.vtensor<[2,3],ui8>
  return %0 : !torch.vtensor<[2,3],ui8>
}

// -----

// DequantizeLinear, blocked (block_size 2 along axis 1): the [2,2] scale is
// repeated to [2,4]: viewed [2,2,1], expanded [2,2,2], viewed [2,4].
// CHECK-LABEL: func.func @dequantize_blocked
// CHECK: %[[U:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[2,2,1],f32>
// CHECK: %[[E:.*]] = torch.aten.expand %[[U]], {{.*}} -> !torch.vtensor<[2,2,2],f32>
// CHECK: %[[S:.*]] = torch.aten.view %[[E]], {{.*}} -> !torch.vtensor<[2,4],f32>
// CHECK: %[[X:.*]] = torch.aten.to.dtype %arg0, %int6
// CHECK: torch.aten.mul.Tensor %[[X]], %[[S]] : {{.*}} -> !torch.vtensor<[2,4],f32>
func.func @dequantize_blocked(%x: !torch.vtensor<[2,4],si8>, %s: !torch.vtensor<[2,2],f32>) -> !torch.vtensor<[2,4],f32> attributes {torch.onnx_meta.opset_version = 21 : si64} {
  %0 = torch.operator "onnx.DequantizeLinear"(%x, %s) {torch.onnx.axis = 1 : si64, torch.onnx.block_size = 2 : si64} : (!torch.vtensor<[2,4],si8>, !torch.vtensor<[2,2],f32>) -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// A scale that is neither one value, per axis nor per block.
func.func @quantize_bad_scale(%x: !torch.vtensor<[2,3],f32>, %s: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2,3],ui8> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  // expected-error @+1 {{y_scale/y_zero_point must be one value, one per axis index, or one per block}}
  %0 = torch.operator "onnx.QuantizeLinear"(%x, %s) : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2],f32>) -> !torch.vtensor<[2,3],ui8>
  return %0 : !torch.vtensor<[2,3],ui8>
}
