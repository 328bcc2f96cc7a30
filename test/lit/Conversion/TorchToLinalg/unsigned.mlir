// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// ui16/ui32/ui64 tensors (ONNX models use them) compute with the unsigned
// arith ops, as ui8 does: comparisons, division, max, shifts, conversions.

// CHECK-LABEL: func.func @ui32_compare_div_max
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK: arith.divui %{{.*}}, %{{.*}} : i32
// CHECK: arith.maxui %{{.*}}, %{{.*}} : i32
func.func @ui32_compare_div_max(%a: !torch.vtensor<[4],ui32>, %b: !torch.vtensor<[4],ui32>) -> (!torch.vtensor<[4],i1>, !torch.vtensor<[4],ui32>, !torch.vtensor<[4],ui32>) {
  %lt = torch.aten.lt.Tensor %a, %b : !torch.vtensor<[4],ui32>, !torch.vtensor<[4],ui32> -> !torch.vtensor<[4],i1>
  %str = torch.constant.str "trunc"
  %div = torch.aten.div.Tensor_mode %a, %b, %str : !torch.vtensor<[4],ui32>, !torch.vtensor<[4],ui32>, !torch.str -> !torch.vtensor<[4],ui32>
  %max = torch.aten.maximum %a, %b : !torch.vtensor<[4],ui32>, !torch.vtensor<[4],ui32> -> !torch.vtensor<[4],ui32>
  return %lt, %div, %max : !torch.vtensor<[4],i1>, !torch.vtensor<[4],ui32>, !torch.vtensor<[4],ui32>
}

// -----

// A right shift of ui64 fills with zeros (the top bit is not a sign).
// CHECK-LABEL: func.func @ui64_right_shift
// CHECK: arith.shrui %{{.*}}, %{{.*}} : i64
func.func @ui64_right_shift(%a: !torch.vtensor<[4],ui64>, %b: !torch.vtensor<[4],ui64>) -> !torch.vtensor<[4],ui64> {
  %0 = torch.aten.bitwise_right_shift.Tensor %a, %b : !torch.vtensor<[4],ui64>, !torch.vtensor<[4],ui64> -> !torch.vtensor<[4],ui64>
  return %0 : !torch.vtensor<[4],ui64>
}

// -----

// CHECK-LABEL: func.func @ui16_to_f32
// CHECK: arith.uitofp %{{.*}} : i16 to f32
func.func @ui16_to_f32(%a: !torch.vtensor<[4],ui16>) -> !torch.vtensor<[4],f32> {
  %int6 = torch.constant.int 6
  %false = torch.constant.bool false
  %none = torch.constant.none
  %f = torch.aten._to_copy %a, %int6, %none, %none, %none, %false, %none : !torch.vtensor<[4],ui16>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[4],f32>
  return %f : !torch.vtensor<[4],f32>
}
