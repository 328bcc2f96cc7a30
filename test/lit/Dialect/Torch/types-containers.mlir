// RUN: torch2mlir-opt %s | FileCheck %s
// RUN: torch2mlir-opt %s | torch2mlir-opt | FileCheck %s

// Lists and optionals. Nested torch types are printed without their
// `!torch.` prefix, except `tensor` and `none`, whose short names are builtin
// types; the full spelling is accepted too.

// CHECK-LABEL: func.func private @lists(
// CHECK-SAME: !torch.list<int>, !torch.list<float>, !torch.list<bool>, !torch.list<str>)
func.func private @lists(!torch.list<int>, !torch.list<float>, !torch.list<bool>, !torch.list<str>)

// CHECK-LABEL: func.func private @full_spelling(!torch.list<int>, !torch.optional<float>)
func.func private @full_spelling(!torch.list<!torch.int>, !torch.optional<!torch.float>)

// CHECK-LABEL: func.func private @tensor_lists(
// CHECK-SAME: !torch.list<vtensor<[2],f32>>
// CHECK-SAME: !torch.list<vtensor>
// CHECK-SAME: !torch.list<!torch.tensor<[2],f32>>
// CHECK-SAME: !torch.list<optional<vtensor<[?,4],si64>>>)
func.func private @tensor_lists(!torch.list<vtensor<[2],f32>>, !torch.list<vtensor>, !torch.list<!torch.tensor<[2],f32>>, !torch.list<optional<vtensor<[?,4],si64>>>)

// CHECK-LABEL: func.func private @optionals(
// CHECK-SAME: !torch.optional<int>
// CHECK-SAME: !torch.optional<!torch.tensor>
// CHECK-SAME: !torch.optional<Device>
// CHECK-SAME: !torch.optional<Generator>)
func.func private @optionals(!torch.optional<int>, !torch.optional<!torch.tensor>, !torch.optional<Device>, !torch.optional<Generator>)

// CHECK-LABEL: func.func private @nested(
// CHECK-SAME: !torch.list<list<int>>
// CHECK-SAME: !torch.optional<list<int>>
// CHECK-SAME: !torch.list<optional<list<float>>>
// CHECK-SAME: !torch.list<!torch.none>)
func.func private @nested(!torch.list<list<int>>, !torch.optional<list<int>>, !torch.list<optional<list<float>>>, !torch.list<!torch.none>)
