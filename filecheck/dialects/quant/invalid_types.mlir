// RUN: XQUANT_INVALID
// Every type-level error, with its exact message and position.

func.func private @f() -> !quant.uniform<int8:f32, 1.0>
// CHECK: illegal storage type prefix

// -----
func.func private @f() -> !quant.uniform<ux:f32, 1.0>
// CHECK: expected storage type width

// -----
func.func private @f() -> !quant.uniform<i33:f32, 1.0>
// CHECK: illegal storage type size: 33

// -----
func.func private @f() -> !quant.uniform<u0:f32, 1.0>
// CHECK: illegal storage type size: 0

// -----
func.func private @f() -> !quant.uniform<i123123123120:f32, 1.0>
// CHECK: invalid integer width

// -----
func.func private @f() -> !quant.uniform<i16777216:f32, 1.0>
// CHECK: integer bitwidth is limited to 16777215 bits

// -----
func.func private @f() -> !quant.uniform<i4<-9:1>:f32, 1.0>
// CHECK: illegal storage type minimum: -9

// -----
func.func private @f() -> !quant.uniform<u8<-1:3>:f32, 1.0>
// CHECK: illegal storage type minimum: -1

// -----
func.func private @f() -> !quant.uniform<u8<0:256>:f32, 1.0>
// CHECK: illegal storage type maximum: 256

// -----
func.func private @f() -> !quant.uniform<i8<3:3>:f32, 1.0>
// CHECK: illegal storage min and storage max: (3:3)

// -----
func.func private @f() -> !quant.uniform<i8<2:1>:f32, 1.0>
// CHECK: illegal storage min and storage max: (2:1)

// -----
func.func private @f() -> !quant.uniform<i8<16>:f32, 1.0>
// CHECK: expected ':'

// -----
func.func private @f() -> !quant.uniform<i8 f32, 1.0>
// CHECK: expected ':'

// -----
func.func private @f() -> !quant.uniform<i8<-4:3>:f32 0.99872>
// CHECK: expected ','

// -----
func.func private @f() -> !quant.uniform<i8:f32, 0.99872:127 23>
// CHECK: expected '>'

// -----
func.func private @f() -> !quant.uniform<i8:f32, abc>
// CHECK: expected floating point literal

// -----
func.func private @f() -> !quant.uniform<i8:f32, 2>
// CHECK: unexpected decimal integer literal for a floating point value

// -----
func.func private @f() -> !quant.uniform<i8:f32, 0.1:>
// CHECK: expected integer value

// -----
func.func private @f() -> !quant.uniform<i8:f32, 0.1:abc>
// CHECK: expected integer value

// -----
func.func private @f() -> !quant.uniform<i8:f33, 1.0>
// CHECK: expected non-function type

// -----
func.func private @f() -> !quant.uniform<i8:i32, 1.0>
// CHECK: invalid kind of type specified

// -----
func.func private @f() -> !quant.uniform<i8:f32, 0.0>
// CHECK: scale 0.000000e+00 out of expressed type range [1.401298e-45, 3.402823e+38]

// -----
func.func private @f() -> !quant.uniform<i8:f32, -2.0>
// CHECK: scale -2.000000e+00 out of expressed type range [1.401298e-45, 3.402823e+38]

// -----
func.func private @f() -> !quant.uniform<i8:f32, 1.0e39>
// CHECK: scale 1.000000e+39 out of expressed type range [1.401298e-45, 3.402823e+38]

// -----
func.func private @f() -> !quant.uniform<i8:f16, 7.0e4>
// CHECK: scale 7.000000e+04 out of expressed type range [5.960464e-08, 6.550400e+04]

// -----
func.func private @f() -> !quant.uniform<i8:f16, 5.8e-8>
// CHECK: scale 5.800000e-08 out of expressed type range [5.960464e-08, 6.550400e+04]

// -----
func.func private @f() -> !quant.uniform<i8:f16:0, {1.0, 1.0e-9}>
// CHECK: scale 1.000000e-09 out of expressed type range [5.960464e-08, 6.550400e+04]

// -----
func.func private @f() -> !quant.uniform<i8:f32, 0x7FF8000000000000>
// CHECK: scale nan out of expressed type range [1.401298e-45, 3.402823e+38]

// -----
func.func private @f() -> !quant.uniform<i8:f32, -0x3FF0000000000000>
// CHECK: hexadecimal float literal should not have a leading minus

// -----
func.func private @f() -> !quant.uniform<i8:f32:-1, {1.0}>
// CHECK: illegal quantized dimension: -1

// -----
func.func private @f() -> !quant.uniform<i8:f32:1, 2.0>
// CHECK: expected '{'

// -----
func.func private @f() -> !quant.uniform<i8:f32:0, {}>
// CHECK: expected floating point literal

// -----
func.func private @f() -> !quant.uniform<i8:f32:, {1.0}>
// CHECK: expected integer value

// -----
func.func private @f() -> !quant.uniform<i8:f32:{0:0}, {{1.0}}>
// CHECK: illegal block size: 0

// -----
func.func private @f() -> !quant.uniform<i8:f32:{0:-1}, {{1.0}}>
// CHECK: illegal block size: -1

// -----
func.func private @f() -> !quant.uniform<i8:f32:{-1:1}, {{1.0}}>
// CHECK: illegal quantized dimension: -1

// -----
func.func private @f() -> !quant.uniform<i8:f32:{0}, {{1.0}}>
// CHECK: expected ':'

// -----
func.func private @f() -> !quant.uniform<i8:f32:{:1}, {{1.0}}>
// CHECK: expected integer value

// -----
func.func private @f() -> !quant.uniform<i8:f32:{}, 2.0>
// CHECK: expected '{'

// -----
func.func private @f() -> !quant.uniform<i8:f32:{0:1, 1:2}, {{1.0, 2.0}, {3.0}}>
// CHECK: tensor literal is invalid; ranks are not consistent between elements

// -----
func.func private @f() -> !quant.uniform<i8:f32:{0:1, 1:2}, {{2.0, 3.0}, 4.0}>
// CHECK: tensor literal is invalid; ranks are not consistent between elements

// -----
func.func private @f() -> !quant.uniform<i8:f32:{0:1}, {1.0, 2.0}:1>
// CHECK: expected '>'

// -----
func.func private @f() -> !quant.uniform<i8:f32:{0:1}, {2.0:200}>
// CHECK: zero point 200 out of storage type range [-128, 127]

// -----
func.func private @f() -> !quant.uniform<u8:f32:{0:1}, {2.0:-1}>
// CHECK: zero point -1 out of storage type range [0, 255]

// -----
func.func private @f() -> !quant.any<i8:i8>
// CHECK: invalid kind of type specified

// -----
func.func private @f() -> !quant.any<i8<-8:7>f32>
// CHECK: expected '>'

// -----
func.func private @f() -> !quant.calibrated<f32<2.0:1.0>>
// CHECK: illegal min and max: (2.000000e+00:1.000000e+00)

// -----
func.func private @f() -> !quant.calibrated<f32<-0.5>>
// CHECK: expected ':'
// CHECK: calibrated values must be present

// -----
func.func private @f() -> !quant.calibrated<f32>
// CHECK: expected '<'
// CHECK: calibrated values must be present

// -----
func.func private @f() -> !quant.calibrated<i8<-4:3>>
// CHECK: invalid kind of type specified
// CHECK: expecting float expressed type

// -----
// Quantized types are neither vector nor memref element types (upstream's interfaces).
func.func private @f() -> vector<4x!quant.uniform<i8:f32, 1.0>>
// CHECK: failed to verify 'elementType': VectorElementTypeInterface instance

// -----
func.func private @f() -> memref<4x!quant.uniform<i8:f32, 1.0>>
// CHECK: invalid memref element type

// -----
func.func private @f() -> memref<*x!quant.any<i8:f32>>
// CHECK: invalid memref element type

// -----
// Infinities are quoted as LLVM's raw_ostream writes a double.
func.func private @f() -> !quant.uniform<i8:f32, 0x7FF0000000000000>
// CHECK: scale INF out of expressed type range [1.401298e-45, 3.402823e+38]

// -----
func.func private @f() -> !quant.calibrated<f32<1.0:-1.0e400>>
// CHECK: illegal min and max: (1.000000e+00:-INF)

// -----
func.func private @f() -> !quant.calibrated<f32<-1:1>>
// CHECK: unexpected decimal integer literal for a floating point value
// CHECK: calibrated values must be present

// -----
func.func private @f() -> !quant.any<ui:f32>
// CHECK: expected storage type width

// -----
func.func private @f() -> !quant.any<>
// CHECK: expected valid keyword
