// RUN: torch2mlir-opt %s | FileCheck %s
// RUN: torch2mlir-opt %s | torch2mlir-opt | FileCheck %s

// CHECK-LABEL: func.func @literals()
// CHECK: %[[F:.*]] = torch.vtensor.literal(dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>) : !torch.vtensor<[2,2],f32>
// CHECK: %[[S:.*]] = torch.vtensor.literal(dense<[1, -2, 3]> : tensor<3xsi64>) : !torch.vtensor<[3],si64>
// CHECK: %[[Z:.*]] = torch.vtensor.literal(dense<5.000000e+00> : tensor<f64>) : !torch.vtensor<[],f64>
// CHECK: %[[B:.*]] = torch.vtensor.literal(dense<[true, false]> : tensor<2xi1>) : !torch.vtensor<[2],i1>
// CHECK: return %[[F]], %[[S]], %[[Z]], %[[B]]
func.func @literals() -> (!torch.vtensor<[2,2],f32>, !torch.vtensor<[3],si64>, !torch.vtensor<[],f64>, !torch.vtensor<[2],i1>) {
  %0 = torch.vtensor.literal(dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>) : !torch.vtensor<[2,2],f32>
  %1 = torch.vtensor.literal(dense<[1, -2, 3]> : tensor<3xsi64>) : !torch.vtensor<[3],si64>
  %2 = torch.vtensor.literal(dense<5.0> : tensor<f64>) : !torch.vtensor<[],f64>
  %3 = torch.vtensor.literal(dense<[true, false]> : tensor<2xi1>) : !torch.vtensor<[2],i1>
  return %0, %1, %2, %3 : !torch.vtensor<[2,2],f32>, !torch.vtensor<[3],si64>, !torch.vtensor<[],f64>, !torch.vtensor<[2],i1>
}

// Integer dtypes may be given as signless integers of the same width.
// CHECK-LABEL: func.func @signless_payload()
// CHECK: torch.vtensor.literal(dense<7> : tensor<2xi64>) : !torch.vtensor<[2],si64>
// CHECK: torch.vtensor.literal(dense<[200, 1]> : tensor<2xui8>) : !torch.vtensor<[2],ui8>
// CHECK: torch.vtensor.literal(dense<-1> : tensor<4xi8>) : !torch.vtensor<[4],ui8>
func.func @signless_payload() -> (!torch.vtensor<[2],si64>, !torch.vtensor<[2],ui8>, !torch.vtensor<[4],ui8>) {
  %0 = torch.vtensor.literal(dense<7> : tensor<2xi64>) : !torch.vtensor<[2],si64>
  %1 = torch.vtensor.literal(dense<[200, 1]> : tensor<2xui8>) : !torch.vtensor<[2],ui8>
  %2 = torch.vtensor.literal(dense<-1> : tensor<4xi8>) : !torch.vtensor<[4],ui8>
  return %0, %1, %2 : !torch.vtensor<[2],si64>, !torch.vtensor<[2],ui8>, !torch.vtensor<[4],ui8>
}

// Weights are usually dense_resource blobs.
// CHECK-LABEL: func.func @resource()
// CHECK: torch.vtensor.literal(dense_resource<weight> : tensor<2xf32>) : !torch.vtensor<[2],f32>
func.func @resource() -> !torch.vtensor<[2],f32> {
  %0 = torch.vtensor.literal(dense_resource<weight> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803F00000040"
    }
  }
#-}
