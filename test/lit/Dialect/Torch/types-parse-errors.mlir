// RUN: torch2mlir-opt %s -split-input-file -verify-diagnostics

// Syntax errors in torch types.

// expected-error @+1 {{unknown torch type 'foo'}}
func.func private @unknown(!torch.foo)

// -----

// expected-error @+1 {{unknown torch type 'foo'}}
func.func private @unknown_nested(!torch.list<foo>)

// -----

// expected-error @+1 {{unknown torch type 'integer'}}
func.func private @unknown_in_optional(!torch.optional<integer>)

// -----

// The dtype (or `unk`) is required once sizes are given.
// expected-error @+1 {{expected ','}}
func.func private @missing_dtype(!torch.vtensor<[2,3]>)

// -----

// expected-error @+1 {{expected ','}}
func.func private @missing_dtype_unranked(!torch.vtensor<*>)

// -----

// expected-error @+1 {{expected integer value}}
func.func private @bad_size(!torch.vtensor<[2,x],f32>)
