// RUN: torch2mlir-opt %s -refbackend-verify-buffer-types -split-input-file -verify-diagnostics

// Byte-sized and wider buffers pass.
func.func @ok(%a: memref<4xi8>, %b: memref<4xf32>) {
  %0 = memref.alloc() : memref<4xi32>
  memref.dealloc %0 : memref<4xi32>
  return
}

// -----

// A bool result of the compiled function (an out-param after bufferization).
// expected-error @+1 {{the RefBackend cannot yet keep bool tensors in memory, and a bool input or result of the compiled function needs a buffer of type 'memref<4xi1>'; way out: produce uint8 instead of bool here}}
func.func @bool_result(%a: memref<4xf32>, %out: memref<4xi1>) {
  return
}

// -----

// A bool intermediate buffer.
func.func @bool_buffer() {
  // expected-error @+1 {{'memref.alloc' needs a buffer of type 'memref<2x2xi1>'}}
  %0 = memref.alloc() : memref<2x2xi1>
  memref.dealloc %0 : memref<2x2xi1>
  return
}
