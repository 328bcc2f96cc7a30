// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: torch2mlir-opt %s -torch-decompose-complex-ops="legal-ops=aten.linear" -split-input-file | FileCheck %s --check-prefix=LINEAR
// RUN: torch2mlir-opt %s -torch-decompose-complex-ops="legal-ops=torch.aten.linear" -split-input-file | FileCheck %s --check-prefix=LINEAR
// RUN: torch2mlir-opt %s -torch-decompose-complex-ops="legal-ops=aten.matmul,aten.t" -split-input-file | FileCheck %s --check-prefix=MATMUL

// Ops named in legal-ops are not decomposed, with or without the `torch.`
// prefix; the others still are.

// DEFAULT-LABEL: func.func @linear(
// DEFAULT-NOT: torch.aten.linear
// DEFAULT: torch.aten.permute
// DEFAULT: torch.aten.mm
// DEFAULT: torch.aten.add.Tensor

// LINEAR-LABEL: func.func @linear(
// LINEAR-SAME: %[[X:.*]]: !torch.vtensor<[4,3],f32>, %[[W:.*]]: !torch.vtensor<[5,3],f32>, %[[B:.*]]: !torch.vtensor<[5],f32>)
// LINEAR: %[[R:.*]] = torch.aten.linear %[[X]], %[[W]], %[[B]] : !torch.vtensor<[4,3],f32>, !torch.vtensor<[5,3],f32>, !torch.vtensor<[5],f32> -> !torch.vtensor<[4,5],f32>
// LINEAR-NOT: torch.aten.mm
// LINEAR: return %[[R]]

// MATMUL-LABEL: func.func @linear(
// MATMUL: %[[T:.*]] = torch.aten.t %{{.*}} : !torch.vtensor<[5,3],f32> -> !torch.vtensor<[3,5],f32>
// MATMUL: %[[MM:.*]] = torch.aten.matmul %{{.*}}, %[[T]] : !torch.vtensor<[4,3],f32>, !torch.vtensor<[3,5],f32> -> !torch.vtensor<[4,5],f32>
// MATMUL: torch.aten.add.Tensor %[[MM]]
// MATMUL-NOT: torch.aten.permute
// MATMUL-NOT: torch.aten.mm
func.func @linear(%x: !torch.vtensor<[4,3],f32>, %w: !torch.vtensor<[5,3],f32>, %b: !torch.vtensor<[5],f32>) -> !torch.vtensor<[4,5],f32> {
  %0 = torch.aten.linear %x, %w, %b : !torch.vtensor<[4,3],f32>, !torch.vtensor<[5,3],f32>, !torch.vtensor<[5],f32> -> !torch.vtensor<[4,5],f32>
  return %0 : !torch.vtensor<[4,5],f32>
}

// -----

// Other ops are still decomposed when linear is legal.
// LINEAR-LABEL: func.func @others(
// LINEAR-NOT: torch.aten.t %
// LINEAR: torch.aten.permute
// LINEAR: torch.aten._softmax
// DEFAULT-LABEL: func.func @others(
// DEFAULT: torch.aten.permute
// DEFAULT: torch.aten._softmax
func.func @others(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[3,2],f32> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.aten.t %a : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[3,2],f32>
  %1 = torch.aten.softmax.int %0, %int1, %none : !torch.vtensor<[3,2],f32>, !torch.int, !torch.none -> !torch.vtensor<[3,2],f32>
  return %1 : !torch.vtensor<[3,2],f32>
}
