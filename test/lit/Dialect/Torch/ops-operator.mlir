// RUN: torch2mlir-opt %s | FileCheck %s
// RUN: torch2mlir-opt %s | torch2mlir-opt | FileCheck %s
// RUN: torch2mlir-opt -mlir-print-op-generic %s | torch2mlir-opt | FileCheck %s

// torch.operator: any op without a definition of its own.

// CHECK-LABEL: func.func @unknown_aten(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2],f32>)
// CHECK: %[[R:.*]] = torch.operator "aten.sin"(%[[A]]) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
// CHECK: return %[[R]]
func.func @unknown_aten(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %0 = torch.operator "aten.sin"(%a) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// ONNX ops carry their attributes as `torch.onnx.*` attributes.
// CHECK-LABEL: func.func @onnx_attributes(
// CHECK: torch.operator "onnx.Gemm"(%{{.*}}, %{{.*}}, %{{.*}}) {torch.onnx.alpha = 5.000000e-01 : f32, torch.onnx.transB = 1 : si64} : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[4,3],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,4],f32>
// CHECK: torch.operator "onnx.Resize"(%{{.*}}) {torch.onnx.mode = "nearest", torch.onnx.scales = [2.000000e+00 : f32, 2.000000e+00 : f32]} : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor<[4,6],f32>
func.func @onnx_attributes(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[4,3],f32>, %c: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[2,4],f32>, !torch.vtensor<[4,6],f32>) {
  %0 = torch.operator "onnx.Gemm"(%a, %b, %c) {torch.onnx.alpha = 5.000000e-01 : f32, torch.onnx.transB = 1 : si64} : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[4,3],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,4],f32>
  %1 = torch.operator "onnx.Resize"(%a) {torch.onnx.mode = "nearest", torch.onnx.scales = [2.0 : f32, 2.0 : f32]} : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor<[4,6],f32>
  return %0, %1 : !torch.vtensor<[2,4],f32>, !torch.vtensor<[4,6],f32>
}

// Any number of results, including none, and operands of any type.
// CHECK-LABEL: func.func @results()
// CHECK: %[[R:.*]]:2 = torch.operator "custom.two"() : () -> (!torch.int, !torch.vtensor<[],f32>)
// CHECK: torch.operator "custom.effect"(%[[R]]#0, %[[R]]#1) : (!torch.int, !torch.vtensor<[],f32>) -> ()
// CHECK: torch.operator "custom.builtin"(%[[R]]#0) : (!torch.int) -> i64
func.func @results() {
  %0:2 = torch.operator "custom.two"() : () -> (!torch.int, !torch.vtensor<[],f32>)
  torch.operator "custom.effect"(%0#0, %0#1) : (!torch.int, !torch.vtensor<[],f32>) -> ()
  %1 = torch.operator "custom.builtin"(%0#0) : (!torch.int) -> i64
  return
}

// Subgraphs (ONNX If/Loop bodies) are regions.
// CHECK-LABEL: func.func @regions(
// CHECK: torch.operator "onnx.If"(%{{.*}}) : (!torch.vtensor<[1],i1>) -> !torch.vtensor<[2],f32> {
// CHECK-NEXT: }, {
// CHECK-NEXT: }
func.func @regions(%c: !torch.vtensor<[1],i1>) -> !torch.vtensor<[2],f32> {
  %0 = torch.operator "onnx.If"(%c) : (!torch.vtensor<[1],i1>) -> !torch.vtensor<[2],f32> {
  }, {
  }
  return %0 : !torch.vtensor<[2],f32>
}
