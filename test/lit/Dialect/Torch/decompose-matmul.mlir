// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s

// matmul by operand ranks.

// CHECK-LABEL: func.func @matmul_2x2(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3],f32>, %[[B:.*]]: !torch.vtensor<[3,4],f32>)
// CHECK: %[[R:.*]] = torch.aten.mm %[[A]], %[[B]] : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[2,4],f32>
// CHECK: return %[[R]]
func.func @matmul_2x2(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[2,4],f32> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// CHECK-LABEL: func.func @matmul_2x2_dynamic(
// CHECK: torch.aten.mm %{{.*}}, %{{.*}} : !torch.vtensor<[?,3],f32>, !torch.vtensor<[3,?],f32> -> !torch.vtensor<[?,?],f32>
func.func @matmul_2x2_dynamic(%a: !torch.vtensor<[?,3],f32>, %b: !torch.vtensor<[3,?],f32>) -> !torch.vtensor<[?,?],f32> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[?,3],f32>, !torch.vtensor<[3,?],f32> -> !torch.vtensor<[?,?],f32>
  return %0 : !torch.vtensor<[?,?],f32>
}

// -----

// CHECK-LABEL: func.func @matmul_3x3(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[5,2,3],f32>, %[[B:.*]]: !torch.vtensor<[5,3,4],f32>)
// CHECK: %[[R:.*]] = torch.aten.bmm %[[A]], %[[B]] : !torch.vtensor<[5,2,3],f32>, !torch.vtensor<[5,3,4],f32> -> !torch.vtensor<[5,2,4],f32>
// CHECK: return %[[R]]
func.func @matmul_3x3(%a: !torch.vtensor<[5,2,3],f32>, %b: !torch.vtensor<[5,3,4],f32>) -> !torch.vtensor<[5,2,4],f32> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[5,2,3],f32>, !torch.vtensor<[5,3,4],f32> -> !torch.vtensor<[5,2,4],f32>
  return %0 : !torch.vtensor<[5,2,4],f32>
}

// -----

// A batch that broadcasts is expanded first: only the [1] side, the other
// already has the result's batch.
// CHECK-LABEL: func.func @matmul_3x3_broadcast(
// CHECK: torch.aten.expand %arg0, {{.*}} -> !torch.vtensor<[5,2,3],f32>
// CHECK-NOT: torch.aten.expand
// CHECK: torch.aten.bmm {{.*}} -> !torch.vtensor<[5,2,4],f32>
// CHECK-NOT: torch.aten.matmul
func.func @matmul_3x3_broadcast(%a: !torch.vtensor<[1,2,3],f32>, %b: !torch.vtensor<[5,3,4],f32>) -> !torch.vtensor<[5,2,4],f32> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[1,2,3],f32>, !torch.vtensor<[5,3,4],f32> -> !torch.vtensor<[5,2,4],f32>
  return %0 : !torch.vtensor<[5,2,4],f32>
}

// -----

// CHECK-LABEL: func.func @matmul_3x2(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[5,2,3],f32>, %[[B:.*]]: !torch.vtensor<[3,4],f32>)
// CHECK: %[[FLAT_SIZES:.*]] = torch.prim.ListConstruct %int10, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: %[[FLAT:.*]] = torch.aten.view %[[A]], %[[FLAT_SIZES]] : !torch.vtensor<[5,2,3],f32>, !torch.list<int> -> !torch.vtensor<[10,3],f32>
// CHECK: %[[MM:.*]] = torch.aten.mm %[[FLAT]], %[[B]] : !torch.vtensor<[10,3],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[10,4],f32>
// CHECK: %[[SIZES:.*]] = torch.prim.ListConstruct %int5, %int2, %int4 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
// CHECK: %[[R:.*]] = torch.aten.view %[[MM]], %[[SIZES]] : !torch.vtensor<[10,4],f32>, !torch.list<int> -> !torch.vtensor<[5,2,4],f32>
// CHECK: return %[[R]]
func.func @matmul_3x2(%a: !torch.vtensor<[5,2,3],f32>, %b: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[5,2,4],f32> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[5,2,3],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[5,2,4],f32>
  return %0 : !torch.vtensor<[5,2,4],f32>
}

// -----

// CHECK-LABEL: func.func @matmul_4x2(
// CHECK: torch.aten.view %{{.*}}, %{{.*}} : !torch.vtensor<[2,5,2,3],f32>, !torch.list<int> -> !torch.vtensor<[20,3],f32>
// CHECK: torch.aten.mm %{{.*}}, %{{.*}} : !torch.vtensor<[20,3],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[20,4],f32>
// CHECK: torch.aten.view %{{.*}}, %{{.*}} : !torch.vtensor<[20,4],f32>, !torch.list<int> -> !torch.vtensor<[2,5,2,4],f32>
func.func @matmul_4x2(%a: !torch.vtensor<[2,5,2,3],f32>, %b: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[2,5,2,4],f32> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[2,5,2,3],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[2,5,2,4],f32>
  return %0 : !torch.vtensor<[2,5,2,4],f32>
}

// -----

// The flattened row count must be static.
// CHECK-LABEL: func.func @matmul_3x2_dynamic_batch(
// CHECK: torch.aten.matmul
// CHECK-NOT: torch.aten.mm
func.func @matmul_3x2_dynamic_batch(%a: !torch.vtensor<[?,2,3],f32>, %b: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[?,2,4],f32> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[?,2,3],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[?,2,4],f32>
  return %0 : !torch.vtensor<[?,2,4],f32>
}

// -----

// A 1-D operand becomes a matrix (lhs: one row, rhs: one column), the
// matmul of matrices is decomposed again, and the added dims are viewed
// away: 1x1 is a [1,3] x [3,1] mm viewed to a 0-d tensor.
// CHECK-LABEL: func.func @matmul_1x1(
// CHECK: %[[ROW:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[1,3],f32>
// CHECK: %[[COL:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[3,1],f32>
// CHECK: %[[MM:.*]] = torch.aten.mm %[[ROW]], %[[COL]] : {{.*}} -> !torch.vtensor<[1,1],f32>
// CHECK: %[[R:.*]] = torch.aten.view %[[MM]], {{.*}} -> !torch.vtensor<[],f32>
// CHECK: return %[[R]]
func.func @matmul_1x1(%a: !torch.vtensor<[3],f32>, %b: !torch.vtensor<[3],f32>) -> !torch.vtensor<[],f32> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// -----

// CHECK-LABEL: func.func @matmul_2x1(
// CHECK: %[[COL:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[3,1],f32>
// CHECK: %[[MM:.*]] = torch.aten.mm %arg0, %[[COL]] : {{.*}} -> !torch.vtensor<[2,1],f32>
// CHECK: torch.aten.view %[[MM]], {{.*}} -> !torch.vtensor<[2],f32>
func.func @matmul_2x1(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2],f32> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// A 1-D lhs against a batch: [1,3] broadcast over the batch, bmm, the row
// dim viewed away.
// CHECK-LABEL: func.func @matmul_1x3(
// CHECK: %[[ROW:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[1,3],f32>
// CHECK: torch.aten.expand %[[ROW]], {{.*}} -> !torch.vtensor<[2,1,3],f32>
// CHECK: %[[BMM:.*]] = torch.aten.bmm {{.*}} -> !torch.vtensor<[2,1,4],f32>
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[2,4],f32>
func.func @matmul_1x3(%a: !torch.vtensor<[3],f32>, %b: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2,4],f32> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[3],f32>, !torch.vtensor<[2,3,4],f32> -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// With a dynamic result size the 1-D case is not decomposed: the op stays.
// CHECK-LABEL: func.func @matmul_2x1_dynamic(
// CHECK: torch.aten.matmul %arg0, %arg1 : !torch.vtensor<[?,3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[?],f32>
func.func @matmul_2x1_dynamic(%a: !torch.vtensor<[?,3],f32>, %b: !torch.vtensor<[3],f32>) -> !torch.vtensor<[?],f32> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[?,3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

// Batch dims broadcast: the [1,3] batch of the lhs is expanded to the
// result's [2,3], both operands flattened to 6 matrices, one bmm.
// CHECK-LABEL: func.func @matmul_4x3_broadcast(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[1,3,4,5],f32>, %[[B:.*]]: !torch.vtensor<[3,5,2],f32>
// CHECK: %[[EA:.*]] = torch.aten.expand %[[A]], {{.*}} -> !torch.vtensor<[2,3,4,5],f32>
// CHECK: %[[FA:.*]] = torch.aten.view %[[EA]], {{.*}} -> !torch.vtensor<[6,4,5],f32>
// CHECK: %[[EB:.*]] = torch.aten.expand %[[B]], {{.*}} -> !torch.vtensor<[2,3,5,2],f32>
// CHECK: %[[FB:.*]] = torch.aten.view %[[EB]], {{.*}} -> !torch.vtensor<[6,5,2],f32>
// CHECK: %[[BMM:.*]] = torch.aten.bmm %[[FA]], %[[FB]] : {{.*}} -> !torch.vtensor<[6,4,2],f32>
// CHECK: torch.aten.view %[[BMM]], {{.*}} -> !torch.vtensor<[2,3,4,2],f32>
func.func @matmul_4x3_broadcast(%a: !torch.vtensor<[1,3,4,5],f32>, %b: !torch.vtensor<[3,5,2],f32>) -> !torch.vtensor<[2,3,4,2],f32> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[1,3,4,5],f32>, !torch.vtensor<[3,5,2],f32> -> !torch.vtensor<[2,3,4,2],f32>
  return %0 : !torch.vtensor<[2,3,4,2],f32>
}

// -----

// Same-rank operands with unknown (and equal) batch dims: the batch dims
// flattened by views whose unknown sizes are read at run time, bmm, and a
// view back.
// CHECK-LABEL: func.func @dynamic_batched(
// CHECK: %[[B:.*]] = torch.aten.size.int %arg0, %int0
// CHECK: %[[N:.*]] = torch.aten.mul.int %{{.*}}, %[[B]]
// CHECK: %[[BH:.*]] = torch.aten.mul.int %[[N]], %int4
// CHECK: %[[L:.*]] = torch.aten.view %arg0, %{{.*}} : !torch.vtensor<[?,4,?,8],f32>, !torch.list<int> -> !torch.vtensor<[?,?,8],f32>
// CHECK: %[[R:.*]] = torch.aten.view %arg1, %{{.*}} : !torch.vtensor<[?,4,8,?],f32>, !torch.list<int> -> !torch.vtensor<[?,8,?],f32>
// CHECK: %[[P:.*]] = torch.aten.bmm %[[L]], %[[R]] : !torch.vtensor<[?,?,8],f32>, !torch.vtensor<[?,8,?],f32> -> !torch.vtensor<[?,?,?],f32>
// CHECK: torch.aten.view %[[P]], %{{.*}} -> !torch.vtensor<[?,4,?,?],f32>
func.func @dynamic_batched(%a: !torch.vtensor<[?,4,?,8],f32>, %b: !torch.vtensor<[?,4,8,?],f32>) -> !torch.vtensor<[?,4,?,?],f32> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[?,4,?,8],f32>, !torch.vtensor<[?,4,8,?],f32> -> !torch.vtensor<[?,4,?,?],f32>
  return %0 : !torch.vtensor<[?,4,?,?],f32>
}

// -----

// A batch dim known on one side and unknown on the other would broadcast:
// not decomposed.
// CHECK-LABEL: func.func @dynamic_broadcast(
// CHECK: torch.aten.matmul
func.func @dynamic_broadcast(%a: !torch.vtensor<[?,4,3,8],f32>, %b: !torch.vtensor<[1,4,8,?],f32>) -> !torch.vtensor<[?,4,3,?],f32> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[?,4,3,8],f32>, !torch.vtensor<[1,4,8,?],f32> -> !torch.vtensor<[?,4,3,?],f32>
  return %0 : !torch.vtensor<[?,4,3,?],f32>
}
