// RUN: xdsl-opt %s -p stablehlo-legalize-to-linalg | filecheck %s
// RUN: xdsl-opt %s -p 'stablehlo-legalize-to-linalg{enable-primitive-ops=true}' | filecheck %s --check-prefix=PRIMITIVE

// Where xquant's lowering of iota/pad/dynamic_slice/map differs from or goes
// beyond upstream's miscellaneous.mlir (which the upstream-suite runner checks).

// Negative edges with interior padding: padded by the magnitudes, then cropped at -low.
// CHECK-LABEL: func.func @pad_negative
// CHECK:         %[[V:.*]] = tensor.extract %v[] : tensor<i8>
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<8x7xi8>
// CHECK:         %[[F:.*]] = linalg.fill ins(%[[V]] : i8) outs(%[[E]] : tensor<8x7xi8>)
// CHECK:         %[[I:.*]] = tensor.insert_slice %x into %[[F]][0, 0] [4, 3] [2, 2] : tensor<4x3xi8> into tensor<8x7xi8>
// CHECK:         tensor.extract_slice %[[I]][1, 0] [7, 3] [1, 1] : tensor<8x7xi8> to tensor<7x3xi8>
func.func @pad_negative(%x: tensor<4x3xi8>, %v: tensor<i8>) -> tensor<7x3xi8> {
  %0 = stablehlo.pad %x, %v, low = [-1, 0], high = [1, -2], interior = [1, 1] : (tensor<4x3xi8>, tensor<i8>) -> tensor<7x3xi8>
  func.return %0 : tensor<7x3xi8>
}

// An unsigned start clamps with one minui (a signed clamp would send 2^63.. to 0).
// CHECK-LABEL: func.func @dynamic_slice_ui64
// CHECK:         %[[BOUND:.*]] = arith.constant 3 : index
// CHECK:         %[[CAST:.*]] = builtin.unrealized_conversion_cast %i : tensor<ui64> to tensor<i64>
// CHECK:         %[[S:.*]] = tensor.extract %[[CAST]][] : tensor<i64>
// CHECK:         %[[IDX:.*]] = arith.index_castui %[[S]] : i64 to index
// CHECK:         %[[START:.*]] = arith.minui %[[IDX]], %[[BOUND]] : index
// CHECK-NOT:     arith.maxsi
// CHECK:         tensor.extract_slice %x[%[[START]]] [2] [1] : tensor<5xf32> to tensor<2xf32>
func.func @dynamic_slice_ui64(%x: tensor<5xf32>, %i: tensor<ui64>) -> tensor<2xf32> {
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [2] : (tensor<5xf32>, tensor<ui64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// An i1 iota of 3 would wrap in the index cast: left as it is.
// CHECK-LABEL: func.func @iota_i1_kept
// CHECK:         stablehlo.iota dim = 0 : tensor<3xi1>
func.func @iota_i1_kept() -> tensor<3xi1> {
  %0 = stablehlo.iota dim = 0 : tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// Under enable-primitive-ops iota becomes a linalg.map with no inputs, the index
// cast to i64 (upstream's IotaToMapConverter); map becomes linalg.map.
// PRIMITIVE-LABEL: func.func @iota_primitive
// PRIMITIVE:         linalg.map outs(
// PRIMITIVE:           linalg.index 0 : index
// PRIMITIVE:           arith.index_cast %{{.*}} : index to i64
// PRIMITIVE:           arith.sitofp %{{.*}} : i64 to f32
func.func @iota_primitive() -> tensor<4xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// PRIMITIVE-LABEL: func.func @map_primitive
// PRIMITIVE:         linalg.map { arith.mulf } ins(%x, %y : tensor<3xf32>, tensor<3xf32>)
func.func @map_primitive(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.multiply %a, %b : tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
