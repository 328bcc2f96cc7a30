// RUN: torch2mlir-opt --help | FileCheck %s

// The driver registers the torch dialects, passes and pipelines.

// CHECK: OVERVIEW: torch2mlir optimizer driver
// CHECK: Available Dialects: {{.*}}torch, torch_c
// CHECK: Passes:
// CHECK-DAG: --convert-torch-to-arith {{.*}}Lower torch scalars, scalar arithmetic and literals to arith
// CHECK-DAG: --convert-torch-to-linalg {{.*}}Lower ATen tensor ops to linalg-on-tensors
// CHECK-DAG: --torch-decompose-complex-ops {{.*}}Rewrite ATen ops in terms of a smaller core of ATen ops
// CHECK-DAG: --legal-ops=<string> {{.*}}ops (like aten.linear) that are not decomposed
// CHECK-DAG: --torch-finalizing-backend-type-conversion
// CHECK-DAG: --torch-func-backend-type-conversion
// CHECK-DAG: --torch-verify-backend-contract
// CHECK-DAG: --torch-verify-linalg-on-tensors-backend-contract
// CHECK: Pass Pipelines:
// CHECK-DAG: --torch-backend-to-linalg-on-tensors-backend-pipeline {{.*}}From the backend contract to linalg-on-tensors
// CHECK-DAG: --torch-lower-to-backend-contract {{.*}}From imported torch IR to the backend contract
// CHECK-DAG: --legal-ops=<string> {{.*}}ops the backend lowers itself (not decomposed)
// CHECK-DAG: --torch2mlir-refbackend-pipeline {{.*}}From linalg-on-tensors to the LLVM dialect
