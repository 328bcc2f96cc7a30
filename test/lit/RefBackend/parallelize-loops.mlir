// RUN: torch2mlir-opt %s -split-input-file -refbackend-parallelize-loops | FileCheck %s
// RUN: torch2mlir-opt %s -split-input-file -refbackend-parallelize-loops=min-task-cost=1 | FileCheck %s --check-prefix=GRAIN

// A 2-D loop: dimension 0 (64 iterations) is split; dimension 1 stays
// inside the chunk. The memrefs travel in the context struct; the constant
// bounds are cloned into the body.
// CHECK-LABEL: func.func @elementwise(
// CHECK-SAME:      %[[A:.*]]: memref<64x128xf32>, %[[B:.*]]: memref<64x128xf32>)
// CHECK:         %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK:         %[[CTX:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>)>
// CHECK:         %[[DA:.*]] = builtin.unrealized_conversion_cast %[[A]] : memref<64x128xf32> to !llvm.struct
// CHECK:         %[[FA:.*]] = llvm.getelementptr %[[CTX]][0, 0]
// CHECK:         llvm.store %[[DA]], %[[FA]]
// CHECK:         %[[DB:.*]] = builtin.unrealized_conversion_cast %[[B]]
// CHECK:         %[[FB:.*]] = llvm.getelementptr %[[CTX]][0, 1]
// CHECK:         llvm.store %[[DB]], %[[FB]]
// CHECK:         %[[N:.*]] = arith.ceildivsi
// CHECK:         %[[FN:.*]] = constant @elementwise_parallel : (!llvm.ptr, i64, i64) -> ()
// CHECK:         %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK:         %[[MINCHUNK:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK:         call @torch2mlir_parallel_for(%[[FN]], %[[CTX]], %[[N64]], %[[MINCHUNK]])
// CHECK-NOT:     scf.parallel
// CHECK:         return
// CHECK:       func.func private @elementwise_parallel(%[[C:.*]]: !llvm.ptr, %[[LO:.*]]: i64, %[[HI:.*]]: i64)
// CHECK:         %[[PA:.*]] = llvm.getelementptr %[[C]][0, 0]
// CHECK:         %[[LA:.*]] = llvm.load %[[PA]]
// CHECK:         %[[MA:.*]] = builtin.unrealized_conversion_cast %[[LA]] : !llvm.struct<{{.*}}> to memref<64x128xf32>
// CHECK:         %[[PB:.*]] = llvm.getelementptr %[[C]][0, 1]
// CHECK:         %[[MB:.*]] = builtin.unrealized_conversion_cast
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK:         %[[ILO:.*]] = arith.index_cast %[[LO]] : i64 to index
// CHECK:         %[[IHI:.*]] = arith.index_cast %[[HI]] : i64 to index
// CHECK:         %[[OFF:.*]] = arith.muli %[[ILO]], %[[C1]]
// CHECK:         %[[BEGIN:.*]] = arith.addi %[[C0]], %[[OFF]]
// CHECK:         %[[END:.*]] = arith.minsi %[[C64]],
// CHECK:         scf.parallel (%[[I:.*]], %[[J:.*]]) = (%[[BEGIN]], %[[C0]]) to (%[[END]], %[[C128]])
// CHECK:           memref.load %[[MA]][%[[I]], %[[J]]]
// CHECK:           math.exp
// CHECK:           memref.store {{.*}}, %[[MB]][%[[I]], %[[J]]]
// CHECK:       func.func private @torch2mlir_parallel_for((!llvm.ptr, i64, i64) -> (), !llvm.ptr, i64, i64)
// GRAIN-LABEL: func.func @elementwise(
// GRAIN:         llvm.mlir.constant(1 : i64) : i64
// GRAIN:         %[[G:.*]] = llvm.mlir.constant(1 : i64) : i64
// GRAIN:         call @torch2mlir_parallel_for({{.*}}, %[[G]])
func.func @elementwise(%a: memref<64x128xf32>, %b: memref<64x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c128) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<64x128xf32>
    %y = math.exp %x : f32
    memref.store %y, %b[%i, %j] : memref<64x128xf32>
    scf.reduce
  }
  return
}

// -----

// A leading unit dimension is not split: the 128 iterations of dimension 1
// are. A dynamic size travels as an i64 and splits before the static
// dimensions nested in it.
// CHECK-LABEL: func.func @leading_unit_dim(
// CHECK:         call @torch2mlir_parallel_for
// CHECK:       func.func private @leading_unit_dim_parallel(
// CHECK:         %[[BEGIN:.*]] = arith.addi
// CHECK:         %[[END:.*]] = arith.minsi
// CHECK:         scf.parallel ({{.*}}) = (%{{.*}}, %[[BEGIN]]) to (%{{.*}}, %[[END]])
func.func @leading_unit_dim(%a: memref<1x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %c128) step (%c1, %c1) {
    memref.store %zero, %a[%i, %j] : memref<1x128xf32>
    scf.reduce
  }
  return
}

// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:      %[[A:.*]]: memref<?x8xf32>)
// CHECK:         %[[D:.*]] = memref.dim %[[A]]
// CHECK:         %[[D64:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK:         llvm.store %[[D64]]
// CHECK:         call @torch2mlir_parallel_for
// CHECK:       func.func private @dynamic_parallel(
// CHECK:         %[[LD:.*]] = llvm.load {{.*}} -> i64
// CHECK:         %[[UB:.*]] = arith.index_cast %[[LD]] : i64 to index
// CHECK:         arith.minsi %[[UB]],
func.func @dynamic(%a: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %n = memref.dim %a, %c0 : memref<?x8xf32>
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c8) step (%c1, %c1) {
    memref.store %zero, %a[%i, %j] : memref<?x8xf32>
    scf.reduce
  }
  return
}

// -----

// Loops that stay as they are: a parallel loop nested in a sequential one
// (one task per outer iteration would cost more than it saves), a loop with
// a reduction, and a loop with a single iteration.
// CHECK-LABEL: func.func @unchanged(
// CHECK-NOT:     call @torch2mlir_parallel_for
// CHECK:         scf.for
// CHECK:           scf.parallel
// CHECK:         scf.parallel
// CHECK:           scf.reduce(
// CHECK:         scf.parallel
// CHECK:         return
// CHECK-NOT:     func.func private @torch2mlir_parallel_for
func.func @unchanged(%a: memref<64x64xf32>, %s: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.for %k = %c0 to %c64 step %c1 {
    scf.parallel (%j) = (%c0) to (%c64) step (%c1) {
      memref.store %zero, %a[%k, %j] : memref<64x64xf32>
      scf.reduce
    }
  }
  %sum = scf.parallel (%i) = (%c0) to (%c64) step (%c1) init (%zero) -> f32 {
    %x = memref.load %a[%i, %c0] : memref<64x64xf32>
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      scf.reduce.return %t : f32
    }
  }
  memref.store %sum, %s[] : memref<f32>
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    memref.store %zero, %a[%i, %i] : memref<64x64xf32>
    scf.reduce
  }
  return
}

// -----

// Two loops in one function get two bodies with distinct names, and the
// runtime is declared once.
// CHECK-LABEL: func.func @two_loops(
// CHECK:         %[[F0:.*]] = constant @two_loops_parallel :
// CHECK:         call @torch2mlir_parallel_for(%[[F0]],
// CHECK:         %[[F1:.*]] = constant @two_loops_parallel_0 :
// CHECK:         call @torch2mlir_parallel_for(%[[F1]],
// CHECK-COUNT-1: func.func private @torch2mlir_parallel_for
func.func @two_loops(%a: memref<32xf32>, %b: memref<32xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1 : i64
  scf.parallel (%i) = (%c0) to (%c32) step (%c1) {
    memref.store %zero, %a[%i] : memref<32xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c32) step (%c1) {
    memref.store %one, %b[%i] : memref<32xi64>
    scf.reduce
  }
  return
}
