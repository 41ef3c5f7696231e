// RUN: xquant-opt %s -split-input-file -verify-diagnostics
// Every rule of !mx_tensor.tensor, with its message.

// expected-error@+1 {{scale element type must be f8E8M0FNU, an 8-bit integer or a float, got i4}}
func.func private @f() -> !mx_tensor.tensor<<4xi4>, <64xf8E4M3FN>>

// -----
// expected-error@+1 {{compute type must be f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN, f4E2M1FN, i8, bf16, f16 or f32, got f64}}
func.func private @f() -> !mx_tensor.tensor<<4xf8E8M0FNU>, <64xf64>>

// -----
// expected-error@+1 {{compute type must be f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN, f4E2M1FN, i8, bf16, f16 or f32, got ui8}}
func.func private @f() -> !mx_tensor.tensor<<4xf8E8M0FNU>, [<64xi2>, <64xi4>] x ui8>

// -----
// expected-error@+1 {{scale shape ? must be static}}
func.func private @f() -> !mx_tensor.tensor<<?xf8E8M0FNU>, <64xf8E4M3FN>>

// -----
// expected-error@+1 {{scale dimension 0 has size 0; every dimension needs at least one scale}}
func.func private @f() -> !mx_tensor.tensor<<0xf8E8M0FNU>, <64xf8E4M3FN>>

// -----
// expected-error@+1 {{data tensor #0 shape ? must be static}}
func.func private @f() -> !mx_tensor.tensor<<2xf8E8M0FNU>, <?xf8E4M3FN>>

// -----
// expected-error@+1 {{data tensor #1 has shape 32 but data tensor #0 has shape 64}}
func.func private @f() -> !mx_tensor.tensor<<2xf8E8M0FNU>, [<64xi2>, <32xi4>] x f6E2M3FN>

// -----
// expected-error@+1 {{scale has rank 1 but the data has rank 2}}
func.func private @f() -> !mx_tensor.tensor<<2xf8E8M0FNU>, <64x64xf8E4M3FN>>

// -----
// expected-error@+1 {{data dimension 1 of size 64 is not a multiple of scale dimension 1 of size 3}}
func.func private @f() -> !mx_tensor.tensor<<4x3xf8E8M0FNU>, <64x64xf8E4M3FN>>

// -----
// expected-error@+1 {{split storage tensor #1 has element type f16; split storage must be signless integers}}
func.func private @f() -> !mx_tensor.tensor<<2xf8E8M0FNU>, [<64xi2>, <64xf16>] x f6E2M3FN>

// -----
// expected-error@+1 {{split storage tensor #0 has element type ui2; split storage must be signless integers}}
func.func private @f() -> !mx_tensor.tensor<<2xf8E8M0FNU>, [<64xui2>, <64xi4>] x f6E2M3FN>

// -----
// expected-error@+1 {{split storage widths 2 + 3 = 5 do not add up to the 6 bits of f6E2M3FN}}
func.func private @f() -> !mx_tensor.tensor<<2xf8E8M0FNU>, [<64xi2>, <64xi3>] x f6E2M3FN>

// -----
// expected-error@+1 {{compute type must be f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN, f4E2M1FN, i8, bf16, f16 or f32, got i4}}
func.func private @f() -> !mx_tensor.tensor<<2xf8E8M0FNU>, <64xi4>>

// -----
// expected-error@+1 {{expected 'x' and the compute type after several data tensors}}
func.func private @f() -> !mx_tensor.tensor<<2xf8E8M0FNU>, <64xi2>, <64xi4>>

// -----
// expected-error@+1 {{Expected 'x'}}
func.func private @f() -> !mx_tensor.tensor<<2xf8E8M0FNU>, [<64xi2>, <64xi4>] f6E2M3FN>
