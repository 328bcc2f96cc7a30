// RUN: torch2mlir-opt %s | FileCheck %s
// RUN: torch2mlir-opt %s | torch2mlir-opt | FileCheck %s
// RUN: torch2mlir-opt -mlir-print-op-generic %s | torch2mlir-opt | FileCheck %s

// Tensor types round-trip: known and dynamic sizes, unknown rank, unknown
// dtype, rank 0, and the non-value-semantic !torch.tensor.

// CHECK-LABEL: func.func private @vtensor_sizes(
// CHECK-SAME: !torch.vtensor<[2,?,3],f32>
// CHECK-SAME: !torch.vtensor<[0],f32>
// CHECK-SAME: !torch.vtensor<[?],f64>)
func.func private @vtensor_sizes(!torch.vtensor<[2,?,3],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[?],f64>)

// CHECK-LABEL: func.func private @vtensor_rank0(!torch.vtensor<[],si64>)
func.func private @vtensor_rank0(!torch.vtensor<[],si64>)

// CHECK-LABEL: func.func private @vtensor_unknown_rank(!torch.vtensor<*,f32>)
func.func private @vtensor_unknown_rank(!torch.vtensor<*,f32>)

// CHECK-LABEL: func.func private @vtensor_unknown_dtype(!torch.vtensor<[2],unk>)
func.func private @vtensor_unknown_dtype(!torch.vtensor<[2],unk>)

// Unknown rank and unknown dtype is printed without parameters, however it
// was spelled.
// CHECK-LABEL: func.func private @vtensor_bare(!torch.vtensor, !torch.vtensor)
func.func private @vtensor_bare(!torch.vtensor, !torch.vtensor<*,unk>)

// CHECK-LABEL: func.func private @nonvalue_tensors(
// CHECK-SAME: !torch.tensor<[2,3],f16>
// CHECK-SAME: !torch.tensor,
// CHECK-SAME: !torch.tensor<*,bf16>
// CHECK-SAME: !torch.tensor<[?],ui8>
// CHECK-SAME: !torch.tensor<[],unk>)
func.func private @nonvalue_tensors(!torch.tensor<[2,3],f16>, !torch.tensor, !torch.tensor<*,bf16>, !torch.tensor<[?],ui8>, !torch.tensor<[],unk>)

// Every dtype that a torch tensor may have.
// CHECK-LABEL: func.func private @dtypes(
// CHECK-SAME: !torch.vtensor<[1],f16>
// CHECK-SAME: !torch.vtensor<[1],bf16>
// CHECK-SAME: !torch.vtensor<[1],f32>
// CHECK-SAME: !torch.vtensor<[1],f64>
// CHECK-SAME: !torch.vtensor<[1],si8>
// CHECK-SAME: !torch.vtensor<[1],si16>
// CHECK-SAME: !torch.vtensor<[1],si32>
// CHECK-SAME: !torch.vtensor<[1],si64>
// CHECK-SAME: !torch.vtensor<[1],ui8>
// CHECK-SAME: !torch.vtensor<[1],ui16>
// CHECK-SAME: !torch.vtensor<[1],ui32>
// CHECK-SAME: !torch.vtensor<[1],ui64>
// CHECK-SAME: !torch.vtensor<[1],i1>
// CHECK-SAME: !torch.vtensor<[1],complex<f32>>
// CHECK-SAME: !torch.vtensor<[1],complex<f64>>)
func.func private @dtypes(!torch.vtensor<[1],f16>, !torch.vtensor<[1],bf16>, !torch.vtensor<[1],f32>, !torch.vtensor<[1],f64>, !torch.vtensor<[1],si8>, !torch.vtensor<[1],si16>, !torch.vtensor<[1],si32>, !torch.vtensor<[1],si64>, !torch.vtensor<[1],ui8>, !torch.vtensor<[1],ui16>, !torch.vtensor<[1],ui32>, !torch.vtensor<[1],ui64>, !torch.vtensor<[1],i1>, !torch.vtensor<[1],complex<f32>>, !torch.vtensor<[1],complex<f64>>)

// Tensor types as values, not only in signatures.
// CHECK-LABEL: func.func @tensor_values(
// CHECK-SAME: %[[ARG:.*]]: !torch.vtensor<[4,?],si32>) -> !torch.vtensor<[4,?],si32>
// CHECK: return %[[ARG]] : !torch.vtensor<[4,?],si32>
func.func @tensor_values(%arg0: !torch.vtensor<[4,?],si32>) -> !torch.vtensor<[4,?],si32> {
  return %arg0 : !torch.vtensor<[4,?],si32>
}
