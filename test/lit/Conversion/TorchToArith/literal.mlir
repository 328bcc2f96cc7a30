// RUN: torch2mlir-opt %s -convert-torch-to-arith -split-input-file | FileCheck %s

// torch.vtensor.literal becomes an arith.constant of the builtin tensor:
// signed/unsigned payloads are reinterpreted as signless, bit for bit.

// CHECK-LABEL: func.func @literals()
// CHECK: %[[A:.*]] = arith.constant dense<[1, -2, 3]> : tensor<3xi64>
// CHECK: %[[TA:.*]] = torch_c.from_builtin_tensor %[[A]] : tensor<3xi64> -> !torch.vtensor<[3],si64>
// CHECK: %[[B:.*]] = arith.constant dense<[1.500000e+00, 2.500000e+00]> : tensor<2xf32>
// CHECK: %[[TB:.*]] = torch_c.from_builtin_tensor %[[B]] : tensor<2xf32> -> !torch.vtensor<[2],f32>
// 200 as ui8 is the bit pattern of -56 as i8.
// CHECK: %[[C:.*]] = arith.constant dense<[-56, 7]> : tensor<2xi8>
// CHECK: %[[TC:.*]] = torch_c.from_builtin_tensor %[[C]] : tensor<2xi8> -> !torch.vtensor<[2],ui8>
// CHECK: %[[D:.*]] = arith.constant dense<true> : tensor<i1>
// CHECK: %[[TD:.*]] = torch_c.from_builtin_tensor %[[D]] : tensor<i1> -> !torch.vtensor<[],i1>
// CHECK: return %[[TA]], %[[TB]], %[[TC]], %[[TD]]
// CHECK-NOT: torch.vtensor.literal
func.func @literals() -> (!torch.vtensor<[3],si64>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],ui8>, !torch.vtensor<[],i1>) {
  %0 = torch.vtensor.literal(dense<[1, -2, 3]> : tensor<3xsi64>) : !torch.vtensor<[3],si64>
  %1 = torch.vtensor.literal(dense<[1.5, 2.5]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %2 = torch.vtensor.literal(dense<[200, 7]> : tensor<2xui8>) : !torch.vtensor<[2],ui8>
  %3 = torch.vtensor.literal(dense<true> : tensor<i1>) : !torch.vtensor<[],i1>
  return %0, %1, %2, %3 : !torch.vtensor<[3],si64>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],ui8>, !torch.vtensor<[],i1>
}

// -----

// A signless payload of a signed dtype needs no reinterpretation.
// CHECK-LABEL: func.func @signless_payload()
// CHECK: %[[A:.*]] = arith.constant dense<7> : tensor<2x2xi64>
// CHECK: torch_c.from_builtin_tensor %[[A]] : tensor<2x2xi64> -> !torch.vtensor<[2,2],si64>
func.func @signless_payload() -> !torch.vtensor<[2,2],si64> {
  %0 = torch.vtensor.literal(dense<7> : tensor<2x2xi64>) : !torch.vtensor<[2,2],si64>
  return %0 : !torch.vtensor<[2,2],si64>
}
