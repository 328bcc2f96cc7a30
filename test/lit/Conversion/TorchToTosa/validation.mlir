// RUN: torch2mlir-opt %s -tosa-attach-target="profiles=pro_fp level=8k" -tosa-validate="strict-op-spec-alignment" -split-input-file -verify-diagnostics

// What the TOSA pipeline's validation step rejects: an op outside the
// declared profile (integer matmul is pro_int only).
func.func @int_matmul_in_pro_fp(%a: tensor<1x2x3xi8>, %b: tensor<1x3x4xi8>) -> tensor<1x2x4xi32> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.matmul' op illegal: requires [pro_int] but not enabled in target}}
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x3xi8>, tensor<1x3x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x4xi32>
  return %0 : tensor<1x2x4xi32>
}

// -----

// A rank above the 8k level's maximum (6).
func.func @rank_seven(%a: tensor<1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x2xf32> {
  // expected-error @+1 {{'tosa.tanh' op failed level check}}
  %0 = tosa.tanh %a : (tensor<1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x2xf32>
  return %0 : tensor<1x1x1x1x1x1x2xf32>
}
