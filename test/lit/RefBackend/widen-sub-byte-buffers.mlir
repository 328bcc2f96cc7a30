// RUN: torch2mlir-opt %s -refbackend-widen-sub-byte-buffers -split-input-file | FileCheck %s

// Bool constants become byte constants, the splat form included.
// CHECK: memref.global "private" constant @mask : memref<3xi8> = dense<[1, 0, 1]>
// CHECK: memref.global "private" constant @splat : memref<2x2xi8> = dense<1>
// CHECK: func.func private @callee(memref<3xi8>) -> memref<3xi8>
memref.global "private" constant @mask : memref<3xi1> = dense<[true, false, true]>
memref.global "private" constant @splat : memref<2x2xi1> = dense<true>
func.func private @callee(%m: memref<3xi1>) -> memref<3xi1>

// Loads truncate, stores zero-extend; every view and copy only changes type.
// CHECK-LABEL: func.func @views(
// CHECK-SAME:      %[[ARG:.*]]: memref<2x3xi8>, %[[OUT:.*]]: memref<6xi8>)
// CHECK:         %[[BYTE:.*]] = memref.load %[[ARG]][%{{.*}}, %{{.*}}] : memref<2x3xi8>
// CHECK:         %[[BIT:.*]] = arith.trunci %[[BYTE]] : i8 to i1
// CHECK:         %[[NOT:.*]] = arith.xori %[[BIT]], %{{.*}} : i1
// CHECK:         %[[ALLOC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3xi8>
// CHECK:         %[[EXT:.*]] = arith.extui %[[NOT]] : i1 to i8
// CHECK:         memref.store %[[EXT]], %[[ALLOC]][%{{.*}}, %{{.*}}] : memref<2x3xi8>
// CHECK:         memref.subview %[[ALLOC]][0, 1] [2, 2] [1, 1] : memref<2x3xi8> to memref<2x2xi8, strided<[3, 1], offset: 1>>
// CHECK:         %[[FLAT:.*]] = memref.collapse_shape %[[ALLOC]] {{\[\[}}0, 1]] : memref<2x3xi8> into memref<6xi8>
// CHECK:         memref.copy %[[FLAT]], %[[OUT]] : memref<6xi8> to memref<6xi8>
// CHECK:         %[[EXPANDED:.*]] = memref.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [3, 2] : memref<6xi8> into memref<3x2xi8>
// CHECK:         memref.cast %[[EXPANDED]] : memref<3x2xi8> to memref<?x2xi8>
// CHECK:         %[[GLOBAL:.*]] = memref.get_global @mask : memref<3xi8>
// CHECK:         call @callee(%[[GLOBAL]]) : (memref<3xi8>) -> memref<3xi8>
// CHECK:         memref.dealloc %[[ALLOC]] : memref<2x3xi8>
func.func @views(%arg: memref<2x3xi1>, %out: memref<6xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %v = memref.load %arg[%c0, %c1] : memref<2x3xi1>
  %n = arith.xori %v, %true : i1
  %a = memref.alloc() {alignment = 64 : i64} : memref<2x3xi1>
  memref.store %n, %a[%c1, %c0] : memref<2x3xi1>
  %s = memref.subview %a[0, 1] [2, 2] [1, 1] : memref<2x3xi1> to memref<2x2xi1, strided<[3, 1], offset: 1>>
  %f = memref.collapse_shape %a [[0, 1]] : memref<2x3xi1> into memref<6xi1>
  memref.copy %f, %out : memref<6xi1> to memref<6xi1>
  %e = memref.expand_shape %f [[0, 1]] output_shape [3, 2] : memref<6xi1> into memref<3x2xi1>
  %c = memref.cast %e : memref<3x2xi1> to memref<?x2xi1>
  %g = memref.get_global @mask : memref<3xi1>
  %r = func.call @callee(%g) : (memref<3xi1>) -> memref<3xi1>
  memref.dealloc %a : memref<2x3xi1>
  return
}

// -----

// Structural ops: scf.for iter_args, scf.if results, cf block arguments.
// CHECK-LABEL: func.func @control_flow(
// CHECK-SAME:      %[[ARG:.*]]: memref<4xi8>, %{{.*}}: i1) -> memref<4xi8>
// CHECK:         %[[LOOP:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ARG]]) -> (memref<4xi8>)
// CHECK:           %[[X:.*]] = memref.load %[[ACC]]
// CHECK:           %[[XB:.*]] = arith.trunci %[[X]] : i8 to i1
// CHECK:           scf.if %[[XB]] -> (memref<4xi8>)
// CHECK:             scf.yield %[[ACC]] : memref<4xi8>
// CHECK:           scf.yield %{{.*}} : memref<4xi8>
// CHECK:         cf.cond_br %{{.*}}, ^bb1(%[[LOOP]] : memref<4xi8>), ^bb1(%[[ARG]] : memref<4xi8>)
// CHECK:       ^bb1(%[[M:.*]]: memref<4xi8>):
// CHECK:         return %[[M]] : memref<4xi8>
func.func @control_flow(%arg: memref<4xi1>, %flag: i1) -> memref<4xi1> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %arg) -> (memref<4xi1>) {
    %x = memref.load %acc[%i] : memref<4xi1>
    %sel = scf.if %x -> (memref<4xi1>) {
      scf.yield %acc : memref<4xi1>
    } else {
      scf.yield %arg : memref<4xi1>
    }
    scf.yield %sel : memref<4xi1>
  }
  cf.cond_br %flag, ^bb1(%r : memref<4xi1>), ^bb1(%arg : memref<4xi1>)
^bb1(%m: memref<4xi1>):
  return %m : memref<4xi1>
}

// -----

// Other element types and bool scalars are left alone.
// CHECK-LABEL: func.func @untouched(
// CHECK-SAME:      %{{.*}}: memref<4xf32>, %{{.*}}: i1, %{{.*}}: memref<2xi8>)
// CHECK-NOT:     arith.trunci
// CHECK-NOT:     arith.extui
func.func @untouched(%a: memref<4xf32>, %flag: i1, %b: memref<2xi8>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<4xf32>
  %y = memref.load %b[%c0] : memref<2xi8>
  memref.store %y, %b[%c0] : memref<2xi8>
  return
}

// -----

// 4-bit integers and floats: a byte each, the element zero-extended (as
// ml_dtypes stores int4/uint4/float4_e2m1fn); a float goes through its bits.
// CHECK: memref.global "private" constant @nibbles : memref<3xi8> = dense<[15, 7, 8]>
// CHECK: memref.global "private" constant @fp4 : memref<2xi8> = dense<[2, 15]>
// CHECK-LABEL: func.func @widen_nibbles(
// CHECK-SAME:      %[[I4:.*]]: memref<3xi8>, %[[F4:.*]]: memref<2xi8>)
// CHECK:         %[[B:.*]] = memref.load %[[I4]]
// CHECK:         %[[N:.*]] = arith.trunci %[[B]] : i8 to i4
// CHECK:         %[[E:.*]] = arith.extui %[[N]] : i4 to i8
// CHECK:         memref.store %[[E]], %[[I4]]
// CHECK:         %[[FB:.*]] = memref.load %[[F4]]
// CHECK:         %[[FT:.*]] = arith.trunci %[[FB]] : i8 to i4
// CHECK:         %[[F:.*]] = arith.bitcast %[[FT]] : i4 to f4E2M1FN
// CHECK:         %[[FI:.*]] = arith.bitcast %[[F]] : f4E2M1FN to i4
// CHECK:         %[[FE:.*]] = arith.extui %[[FI]] : i4 to i8
// CHECK:         memref.store %[[FE]], %[[F4]]
memref.global "private" constant @nibbles : memref<3xi4> = dense<[-1, 7, -8]>
memref.global "private" constant @fp4 : memref<2xf4E2M1FN> = dense<[1.0, -6.0]>
func.func @widen_nibbles(%i: memref<3xi4>, %f: memref<2xf4E2M1FN>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = memref.load %i[%c0] : memref<3xi4>
  memref.store %v, %i[%c1] : memref<3xi4>
  %w = memref.load %f[%c0] : memref<2xf4E2M1FN>
  memref.store %w, %f[%c1] : memref<2xf4E2M1FN>
  return
}
