// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// Ops that the pass owns but cannot lower are errors naming the op; ops it
// does not own stay for a later pass (or the backend contract verifier).

// CHECK-LABEL: func.func @not_owned(
// CHECK: torch.aten.matmul %{{.*}}, %{{.*}} : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[],f32>
// CHECK: torch.operator "aten.sin"
func.func @not_owned(%a: !torch.vtensor<[3],f32>) -> (!torch.vtensor<[],f32>, !torch.vtensor<[3],f32>) {
  %0 = torch.aten.matmul %a, %a : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[],f32>
  %1 = torch.operator "aten.sin"(%a) : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  return %0, %1 : !torch.vtensor<[],f32>, !torch.vtensor<[3],f32>
}

// -----

// mm does not promote: operands of different dtypes.
func.func @mm_mixed_dtypes(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[3,4],f64>) -> !torch.vtensor<[2,4],f64> {
  // expected-error @+1 {{'torch.aten.mm' could not be lowered to linalg-on-tensors: unsupported: operands of different dtypes}}
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,4],f64> -> !torch.vtensor<[2,4],f64>
  return %0 : !torch.vtensor<[2,4],f64>
}

// -----

// True division has no integer result.
func.func @div_int_result(%a: !torch.vtensor<[2],si64>, %b: !torch.vtensor<[2],si64>) -> !torch.vtensor<[2],si64> {
  // expected-error @+1 {{'torch.aten.div.Tensor' could not be lowered to linalg-on-tensors: unsupported: this operation on the result dtype}}
  %0 = torch.aten.div.Tensor %a, %b : !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64> -> !torch.vtensor<[2],si64>
  return %0 : !torch.vtensor<[2],si64>
}

// -----

// Subtraction of bools is an error in PyTorch too.
func.func @sub_bool(%a: !torch.vtensor<[2],i1>, %b: !torch.vtensor<[2],i1>) -> !torch.vtensor<[2],i1> {
  %int1 = torch.constant.int 1
  // expected-error @+1 {{'torch.aten.sub.Tensor' could not be lowered to linalg-on-tensors: unsupported: this operation on the result dtype}}
  %0 = torch.aten.sub.Tensor %a, %b, %int1 : !torch.vtensor<[2],i1>, !torch.vtensor<[2],i1>, !torch.int -> !torch.vtensor<[2],i1>
  return %0 : !torch.vtensor<[2],i1>
}

// -----

func.func @exp_int_result(%a: !torch.vtensor<[2],si64>) -> !torch.vtensor<[2],si64> {
  // expected-error @+1 {{'torch.aten.exp' could not be lowered to linalg-on-tensors: unsupported: this dtype}}
  %0 = torch.aten.exp %a : !torch.vtensor<[2],si64> -> !torch.vtensor<[2],si64>
  return %0 : !torch.vtensor<[2],si64>
}

// -----

func.func @softmax_int(%a: !torch.vtensor<[2,3],si64>) -> !torch.vtensor<[2,3],si64> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  // expected-error @+1 {{'torch.aten._softmax' could not be lowered to linalg-on-tensors: unsupported: non-float softmax}}
  %0 = torch.aten._softmax %a, %int1, %false : !torch.vtensor<[2,3],si64>, !torch.int, !torch.bool -> !torch.vtensor<[2,3],si64>
  return %0 : !torch.vtensor<[2,3],si64>
}

// -----

func.func @max_pool_ceil_mode_unknown(%a: !torch.vtensor<[1,1,?,?],f32>, %ceil: !torch.bool) -> !torch.vtensor<[1,1,?,?],f32> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.max_pool2d' could not be lowered to linalg-on-tensors: ceil_mode must be a constant}}
  %0 = torch.aten.max_pool2d %a, %k, %k, %p, %d, %ceil : !torch.vtensor<[1,1,?,?],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,1,?,?],f32>
  return %0 : !torch.vtensor<[1,1,?,?],f32>
}

// -----

func.func @avg_pool_unsigned(%a: !torch.vtensor<[1,1,4,4],ui8>) -> !torch.vtensor<[1,1,2,2],ui8> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  // expected-error @+1 {{'torch.aten.avg_pool2d' could not be lowered to linalg-on-tensors: unsupported: average pooling of bool or unsigned}}
  %0 = torch.aten.avg_pool2d %a, %k, %k, %p, %false, %true, %none : !torch.vtensor<[1,1,4,4],ui8>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,1,2,2],ui8>
  return %0 : !torch.vtensor<[1,1,2,2],ui8>
}

// -----

// The result must have a known rank and dtype.
func.func @relu_unranked(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<*,f32> {
  // expected-error @+1 {{'torch.aten.relu' could not be lowered to linalg-on-tensors: result needs a known rank and dtype}}
  %0 = torch.aten.relu %a : !torch.vtensor<[2],f32> -> !torch.vtensor<*,f32>
  return %0 : !torch.vtensor<*,f32>
}

// -----

func.func @max_pool_unsigned(%a: !torch.vtensor<[1,1,4,4],ui8>) -> !torch.vtensor<[1,1,2,2],ui8> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.max_pool2d' could not be lowered to linalg-on-tensors: unsupported: max_pool2d of bool or unsigned tensors}}
  %0 = torch.aten.max_pool2d %a, %k, %k, %p, %d, %false : !torch.vtensor<[1,1,4,4],ui8>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,1,2,2],ui8>
  return %0 : !torch.vtensor<[1,1,2,2],ui8>
}

// -----

// A declared result type no broadcast of the operands gives (an ONNX
// declaration can say anything) is refused, never built (it used to abort
// in an assertion): a result of lower rank than an operand...
func.func @result_rank_too_low(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[3],f32> {
  // expected-error @+1 {{'torch.aten.relu' could not be lowered to linalg-on-tensors: the operands do not broadcast to the declared result type}}
  %0 = torch.aten.relu %a : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// ... a static size that is neither 1 nor the operand's ...
func.func @result_size_contradicts(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,4],f32> {
  %int1 = torch.constant.int 1
  // expected-error @+1 {{'torch.aten.add.Tensor' could not be lowered to linalg-on-tensors: the operands do not broadcast to the declared result type}}
  %0 = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// ... and a result dim that no operand has.
func.func @dim_from_nowhere(%a: !torch.vtensor<[3],f32>) -> !torch.vtensor<[?,3],f32> {
  // expected-error @+1 {{'torch.aten.neg' could not be lowered to linalg-on-tensors: the operands do not broadcast to the declared result type}}
  %0 = torch.aten.neg %a : !torch.vtensor<[3],f32> -> !torch.vtensor<[?,3],f32>
  return %0 : !torch.vtensor<[?,3],f32>
}

// -----

// A reshape whose several dynamic result sizes the input's do not give is
// refused (it used to abort in an assertion).
func.func @reshape_sizes_unknown(%a: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?,?],f32> {
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  %none = torch.constant.none
  %dims = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.sum.dim_IntList' could not be lowered to linalg-on-tensors: unsupported: a reshape to a result with several dynamic sizes}}
  %0 = torch.aten.sum.dim_IntList %a, %dims, %true, %none : !torch.vtensor<[?,?],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[?,?],f32>
  return %0 : !torch.vtensor<[?,?],f32>
}

// -----

// A declared pooled size the window parameters do not give (an ONNX
// declaration: stride 100 over 8 gives 1, not 8) is refused: the lowering
// would pad with -inf up to the declared size.
func.func @pool_declared_size(%a: !torch.vtensor<[1,1,8,8],f32>) -> !torch.vtensor<[1,1,8,8],f32> {
  %int1 = torch.constant.int 1
  %int100 = torch.constant.int 100
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int100, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.max_pool2d' could not be lowered to linalg-on-tensors: the declared result size 8 of pooled dim 2 is not what the window parameters give (1)}}
  %0 = torch.aten.max_pool2d %a, %k, %s, %p, %d, %false : !torch.vtensor<[1,1,8,8],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,1,8,8],f32>
  return %0 : !torch.vtensor<[1,1,8,8],f32>
}

// -----

// An op without a complex lowering is an error naming the op (it aborted in
// a cast<FloatType> of the element type), not an assertion in its pattern.
func.func @complex_relu(%a: !torch.vtensor<[3],complex<f32>>) -> !torch.vtensor<[3],complex<f32>> {
  // expected-error @+1 {{'torch.aten.relu' could not be lowered to linalg-on-tensors: unsupported: complex dtypes for this op (way out: compute on torch.view_as_real pairs)}}
  %0 = torch.aten.relu %a : !torch.vtensor<[3],complex<f32>> -> !torch.vtensor<[3],complex<f32>>
  return %0 : !torch.vtensor<[3],complex<f32>>
}

// -----

// A dynamic pooled size needs ceil_mode to compute the output size.
func.func @avg_pool_dynamic_ceil_mode(%a: !torch.vtensor<[1,1,?,4],f32>, %ceil: !torch.bool) -> !torch.vtensor<[1,1,?,2],f32> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %true = torch.constant.bool true
  %none = torch.constant.none
  // expected-error @+1 {{'torch.aten.avg_pool2d' could not be lowered to linalg-on-tensors: ceil_mode must be a constant when a pooled size is dynamic}}
  %0 = torch.aten.avg_pool2d %a, %k, %k, %p, %ceil, %true, %none : !torch.vtensor<[1,1,?,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,1,?,2],f32>
  return %0 : !torch.vtensor<[1,1,?,2],f32>
}
