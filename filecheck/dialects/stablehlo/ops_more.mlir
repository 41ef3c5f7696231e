// RUN: xquant-opt %s -split-input-file -allow-unregistered-dialect | xquant-opt -split-input-file -allow-unregistered-dialect | filecheck %s
// The ops beyond the quantized subset that upstream's pass tests use, printed as stablehlo-opt prints them.

// CHECK-LABEL: func.func @pretty
func.func @pretty(%a: tensor<2x2xi32>, %f: tensor<2x2xf32>, %q: tensor<3x4x!quant.uniform<i8:f32, 1.0:17>>,
                  %qs: tensor<!quant.uniform<i8:f32, 1.0:17>>, %i: tensor<i64>, %shape: tensor<2xi64>,
                  %c: tensor<complex<f64>>, %d: tensor<2x?xf32, #stablehlo.type_extensions<bounds = [?, 2]>>) {
  // CHECK: stablehlo.and %arg0, %arg0 : tensor<2x2xi32>
  %0 = "stablehlo.and"(%a, %a) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  // CHECK: stablehlo.shift_right_logical %arg0, %arg0 : tensor<2x2xi32>
  %1 = "stablehlo.shift_right_logical"(%a, %a) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  // CHECK: stablehlo.popcnt %arg0 : tensor<2x2xi32>
  %2 = "stablehlo.popcnt"(%a) : (tensor<2x2xi32>) -> tensor<2x2xi32>
  // CHECK: stablehlo.remainder %arg1, %arg1 : tensor<2x2xf32>
  %3 = "stablehlo.remainder"(%f, %f) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: stablehlo.is_finite %arg1 : (tensor<2x2xf32>) -> tensor<2x2xi1>
  %4 = "stablehlo.is_finite"(%f) : (tensor<2x2xf32>) -> tensor<2x2xi1>
  // CHECK: stablehlo.real %arg6 : (tensor<complex<f64>>) -> tensor<f64>
  %5 = stablehlo.real %c : (tensor<complex<f64>>) -> tensor<f64>
  // CHECK: stablehlo.complex %arg1, %arg1 : tensor<2x2xcomplex<f32>>
  %6 = "stablehlo.complex"(%f, %f) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xcomplex<f32>>
  // CHECK: stablehlo.reduce_precision %arg1, format = e5m10 : tensor<2x2xf32>
  %7 = "stablehlo.reduce_precision"(%f) {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: stablehlo.get_dimension_size %arg2, dim = 1 : (tensor<3x4x!quant.uniform<i8:f32, 1.000000e+00:17>>) -> tensor<i32>
  %8 = "stablehlo.get_dimension_size"(%q) <{dimension = 1 : i64}> : (tensor<3x4x!quant.uniform<i8:f32, 1.0:17>>) -> tensor<i32>
  // CHECK: stablehlo.dynamic_slice %arg2, %arg4, %arg4, sizes = [1, 4] : (tensor<3x4x!quant.uniform<i8:f32, 1.000000e+00:17>>, tensor<i64>, tensor<i64>) -> tensor<1x4x!quant.uniform<i8:f32, 1.000000e+00:17>>
  %9 = "stablehlo.dynamic_slice"(%q, %i, %i) {slice_sizes = array<i64: 1, 4>} : (tensor<3x4x!quant.uniform<i8:f32, 1.0:17>>, tensor<i64>, tensor<i64>) -> tensor<1x4x!quant.uniform<i8:f32, 1.0:17>>
  // CHECK: stablehlo.dynamic_broadcast_in_dim %arg1, %arg5, dims = [0, 1] : (tensor<2x2xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %10 = "stablehlo.dynamic_broadcast_in_dim"(%f, %shape) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x2xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: stablehlo.pad %arg2, %arg3, low = [0, 1], high = [1, 0], interior = [0, 1] : (tensor<3x4x!quant.uniform<i8:f32, 1.000000e+00:17>>, tensor<!quant.uniform<i8:f32, 1.000000e+00:17>>) -> tensor<4x8x!quant.uniform<i8:f32, 1.000000e+00:17>>
  %11 = "stablehlo.pad"(%q, %qs) {edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 1, 0>, interior_padding = array<i64: 0, 1>} : (tensor<3x4x!quant.uniform<i8:f32, 1.0:17>>, tensor<!quant.uniform<i8:f32, 1.0:17>>) -> tensor<4x8x!quant.uniform<i8:f32, 1.0:17>>
  // CHECK: stablehlo.reverse %arg2, dims = [1] : tensor<3x4x!quant.uniform<i8:f32, 1.000000e+00:17>>
  %12 = "stablehlo.reverse"(%q) {dimensions = array<i64: 1>} : (tensor<3x4x!quant.uniform<i8:f32, 1.0:17>>) -> tensor<3x4x!quant.uniform<i8:f32, 1.0:17>>
  // CHECK: stablehlo.dot %arg1, %arg1, precision = [DEFAULT, DEFAULT] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %13 = "stablehlo.dot"(%f, %f) {precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: stablehlo.cholesky %arg1, lower = true : tensor<2x2xf32>
  %14 = "stablehlo.cholesky"(%f) {lower = true} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: stablehlo.optimization_barrier %arg0, %arg1 : tensor<2x2xi32>, tensor<2x2xf32>
  %15:2 = "stablehlo.optimization_barrier"(%a, %f) : (tensor<2x2xi32>, tensor<2x2xf32>) -> (tensor<2x2xi32>, tensor<2x2xf32>)
  // CHECK: stablehlo.tuple %arg0, %arg1 : tuple<tensor<2x2xi32>, tensor<2x2xf32>>
  %16 = "stablehlo.tuple"(%a, %f) : (tensor<2x2xi32>, tensor<2x2xf32>) -> tuple<tensor<2x2xi32>, tensor<2x2xf32>>
  // CHECK: stablehlo.get_tuple_element %{{.*}}[1] : (tuple<tensor<2x2xi32>, tensor<2x2xf32>>) -> tensor<2x2xf32>
  %17 = "stablehlo.get_tuple_element"(%16) {index = 1 : i32} : (tuple<tensor<2x2xi32>, tensor<2x2xf32>>) -> tensor<2x2xf32>
  // CHECK: stablehlo.einsum %arg1, %arg1, config = "ij,jk->ik" : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %18 = "stablehlo.einsum"(%f, %f) {einsum_config = "ij,jk->ik"} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: stablehlo.add %arg7, %arg7 : tensor<2x?xf32, #stablehlo.bounds<?, 2>>
  %19 = stablehlo.add %d, %d : tensor<2x?xf32, #stablehlo.bounds<?, 2>>
  // CHECK: stablehlo.composite "my.op" %arg1 {decomposition = @my.op.impl} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %20 = stablehlo.composite "my.op" %f {decomposition = @my.op.impl} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return
}

// -----

// CHECK-LABEL: func.func @while
// CHECK:      stablehlo.while(%iterArg = %arg0) : tensor<i32>
// CHECK-NEXT: cond {
// CHECK:        stablehlo.compare  LT, %iterArg, %iterArg
// CHECK:      } do {
// CHECK:        stablehlo.return %iterArg : tensor<i32>
func.func @while(%a: tensor<i32>) -> tensor<i32> {
  %0 = "stablehlo.while"(%a) ({
  ^bb0(%x: tensor<i32>):
    %1 = stablehlo.compare LT, %x, %x : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%x: tensor<i32>):
    stablehlo.return %x : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// CHECK-LABEL: func.func @side_effects
// CHECK: "stablehlo.send"(%arg0, %arg1) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, is_host_transfer = true}> : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
// CHECK: stablehlo.after_all %{{.*}}, %arg1 : !stablehlo.token
// CHECK: "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<4xf32>
func.func @side_effects(%x: tensor<2xf32>, %t: !stablehlo.token) -> !stablehlo.token {
  %0 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, is_host_transfer = true} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  %1 = stablehlo.after_all %0, %t : !stablehlo.token
  %2 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>
  func.return %1 : !stablehlo.token
}
