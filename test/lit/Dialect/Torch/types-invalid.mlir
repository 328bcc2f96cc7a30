// RUN: torch2mlir-opt %s -split-input-file -verify-diagnostics

// The tensor type verifier: dtypes must be torch dtypes, sizes >= 0 or ?.

// expected-error @+1 {{invalid dtype 'index' for a torch tensor}}
func.func private @index_dtype(!torch.vtensor<[2],index>)

// -----

// Signless integers other than i1 are not torch dtypes (si32 is).
// expected-error @+1 {{invalid dtype 'i32' for a torch tensor (expected one of f16, bf16, f32, f64, f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, f8E8M0FNU, si2, si4, si8, si16, si32, si64, ui2, ui4, ui8, ui16, ui32, ui64, i1, complex<f32>, complex<f64>)}}
func.func private @signless_i32(!torch.vtensor<[2],i32>)

// -----

// expected-error @+1 {{invalid dtype 'i64' for a torch tensor}}
func.func private @signless_i64(!torch.vtensor<[],i64>)

// -----

// Integers are torch dtypes at 2, 4, 8, 16, 32 and 64 bits only.
// expected-error @+1 {{invalid dtype 'ui3' for a torch tensor}}
func.func private @ui3_nonvalue(!torch.tensor<[2],ui3>)

// -----

// float8 formats PyTorch has no dtype for are not torch dtypes.
// expected-error @+1 {{invalid dtype 'f8E4M3' for a torch tensor}}
func.func private @fp8_ieee(!torch.vtensor<[2],f8E4M3>)

// -----

// expected-error @+1 {{invalid dtype 'complex<f16>' for a torch tensor}}
func.func private @complex_f16(!torch.vtensor<[2],complex<f16>>)

// -----

// expected-error @+1 {{invalid tensor size -2 (sizes are >= 0, or ? when dynamic)}}
func.func private @negative_size(!torch.vtensor<[2,-2],f32>)

// -----

// -1 is the internal encoding of a dynamic size, but it must be spelled `?`.
// expected-error @+1 {{invalid tensor size -7}}
func.func private @negative_size_nonvalue(!torch.tensor<[-7],f32>)
