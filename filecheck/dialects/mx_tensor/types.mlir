// RUN: XQUANT_ROUNDTRIP
// All three spellings of split storage parse; the bracket form prints.

// CHECK: func.func private @plain(!mx_tensor.tensor<<1x1xi8>, <1024x1024xbf16>>, !mx_tensor.tensor<<4x4xf16>, <1024x1024xbf16>>, !mx_tensor.tensor<<1024x1xi8>, <1024x1024xf8E5M2>>)
func.func private @plain(!mx_tensor.tensor<<1x1xi8>, <1024x1024xbf16>>, !mx_tensor.tensor<<4x4xf16>, <1024x1024xbf16>>, !mx_tensor.tensor<<1024x1xi8>, <1024x1024xf8E5M2>>)

// CHECK: func.func private @split(!mx_tensor.tensor<<32x1xi8>, [<1024x1024xi2>, <1024x1024xi4>] x f6E3M2FN>, !mx_tensor.tensor<<32x1xi8>, [<1024x1024xi2>, <1024x1024xi4>] x f6E3M2FN>, !mx_tensor.tensor<<32x1xi8>, [<1024x1024xi2>, <1024x1024xi4>] x f6E3M2FN>)
func.func private @split(!mx_tensor.tensor<<32x1xi8>, <1024x1024xi2>, <1024x1024xi4> x f6E3M2FN>,
                         !mx_tensor.tensor< <32x1xi8>, [ <1024x1024xi2>, <1024x1024xi4> ] x f6E3M2FN >,
                         !mx_tensor.tensor< <32x1xi8>, < <1024x1024xi2> x <1024x1024xi4> x f6E3M2FN > >)

// A single data tensor of the compute type prints in the short form; one integer tensor holding the codes keeps the long one.
// CHECK: func.func private @single(!mx_tensor.tensor<<2xf8E8M0FNU>, <64xf4E2M1FN>>, !mx_tensor.tensor<<2xf8E8M0FNU>, [<64xi4>] x f4E2M1FN>, !mx_tensor.tensor<<2xui8>, <64xi8>>, !mx_tensor.tensor<<f8E8M0FNU>, <f32>>)
func.func private @single(!mx_tensor.tensor<<2xf8E8M0FNU>, <64xf4E2M1FN> x f4E2M1FN>, !mx_tensor.tensor<<2xf8E8M0FNU>, <64xi4> x f4E2M1FN>, !mx_tensor.tensor<<2xui8>, <64xi8>>, !mx_tensor.tensor<<f8E8M0FNU>, <f32>>)

// Three-way split, NVFP4-style E4M3 scale over 16-element blocks.
// CHECK: func.func private @other(!mx_tensor.tensor<<8x2xf8E8M0FNU>, [<8x64xi1>, <8x64xi3>, <8x64xi4>] x f8E4M3FN>, !mx_tensor.tensor<<4xf8E4M3FN>, <64xf4E2M1FN>>)
func.func private @other(!mx_tensor.tensor<<8x2xf8E8M0FNU>, [<8x64xi1>, <8x64xi3>, <8x64xi4>] x f8E4M3FN>, !mx_tensor.tensor<<4xf8E4M3FN>, <64xf4E2M1FN>>)
