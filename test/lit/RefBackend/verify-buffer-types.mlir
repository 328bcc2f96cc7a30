// RUN: torch2mlir-opt %s -refbackend-verify-buffer-types -split-input-file -verify-diagnostics

// Byte-sized and wider buffers pass.
func.func @ok(%a: memref<4xi8>, %b: memref<4xf32>) {
  %0 = memref.alloc() : memref<4xi32>
  memref.dealloc %0 : memref<4xi32>
  return
}

// -----

// A sub-byte input or result of the compiled function (an out-param after
// bufferization).
// expected-error @+1 {{the RefBackend cannot keep sub-byte elements in memory, and an input or result of the compiled function needs a buffer of type 'memref<4xi4>'; such buffers are stored as bytes by refbackend-widen-sub-byte-buffers, which must run first}}
func.func @nibble_result(%a: memref<4xf32>, %out: memref<4xi4>) {
  return
}

// -----

// A bool buffer means refbackend-widen-sub-byte-buffers did not run first.
func.func @bool_buffer() {
  // expected-error @+1 {{'memref.alloc' needs a buffer of type 'memref<2x2xi1>'; such buffers are stored as bytes by refbackend-widen-sub-byte-buffers, which must run first}}
  %0 = memref.alloc() : memref<2x2xi1>
  memref.dealloc %0 : memref<2x2xi1>
  return
}
