// RUN: xquant-opt %s --split-input-file -p stablehlo-legalize-to-linalg,canonicalize | filecheck %s
// RUN: xquant-opt %s --split-input-file -p stablehlo-legalize-to-linalg | filecheck %s --check-prefix=OVERLAP

// StableHLO's conversions/linalg/tests/miscellaneous.mlir, chunk 60 (L1141, at the commit
// in ../shared's README), its CHECK lines as upstream wrote them except where the
// spec's tie rule differs: the CMPI line comes first, KNOWN and NOT are new, CMPF and
// PRED take other operands (select(current, candidate), the candidate taken when it
// returns false, the region never run on the uninitialized current value), and NEW
// is scatter(accumulated, source), the interpreter's order.
// docs/upstream-test-exceptions.md, row #60.


// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d3)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[MAP2:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[MAP3:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d5)>
// CHECK-DAG: #[[MAP4:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
// CHECK:     func.func @select_and_scatter
func.func @select_and_scatter(%arg0 : tensor<2x8x8x1xf32>, %arg1 : tensor<2x4x4x1xf32>, %arg2 : tensor<f32>) -> tensor<2x8x8x1xf32> {
  %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
    %9 = stablehlo.compare  GE, %arg3, %arg4,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %9 : tensor<i1>
  }, {
  ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
    %9 = stablehlo.add %arg3, %arg4 : tensor<f32>
    stablehlo.return %9 : tensor<f32>
  }) {
    padding = dense<0> : tensor<4x2xi64>,
    window_dimensions = array<i64: 1, 2, 2, 1>,
    window_strides = array<i64: 1, 2, 2, 1>
  } : (tensor<2x8x8x1xf32>, tensor<2x4x4x1xf32>, tensor<f32>) -> tensor<2x8x8x1xf32>

  return %0 : tensor<2x8x8x1xf32>
}
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[CN1:.+]] = arith.constant -1 : i32
// CHECK: %[[EMPTY_VAL:.+]] = tensor.empty() : tensor<2x4x4x1xf32>
// CHECK: %[[EMPTY_IDX:.+]] = tensor.empty() : tensor<2x4x4x1xi32>
// CHECK: %[[FILL_IDX:.+]] = linalg.fill ins(%[[CN1]] : i32) outs(%[[EMPTY_IDX]] : tensor<2x4x4x1xi32>)
// CHECK: %[[WINDOW:.+]] = tensor.empty() : tensor<2x2xf32>
// CHECK: %[[SELECT_GENERIC:.+]]:2 = linalg.generic
// CHECK-SAME: indexing_maps = [#map, #map1, #map2, #map2]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%arg0, %[[WINDOW]] : tensor<2x8x8x1xf32>, tensor<2x2xf32>)
// CHECK-SAME: outs(%[[EMPTY_VAL]], %[[FILL_IDX]] : tensor<2x4x4x1xf32>, tensor<2x4x4x1xi32>)
// CHECK: ^bb0(%[[VAL:.+]]: f32, %[[IDX:.+]]: f32, %[[OLD_VAL:.+]]: f32, %[[OLD_IDX:.+]]: i32):
// CHECK:   %[[CMPI:.+]] = arith.cmpi eq, %[[OLD_IDX]], %[[CN1]] : i32
// CHECK:   %[[KNOWN:.+]] = arith.select %[[CMPI]], %[[VAL]], %[[OLD_VAL]] : f32
// CHECK:   %[[CMPF:.+]] = arith.cmpf oge, %[[KNOWN]], %[[VAL]] : f32
// CHECK:   %[[NOT:.+]] = arith.xori %[[CMPF]], %true : i1
// CHECK:   %[[PRED:.+]] = arith.ori %[[NOT]], %[[CMPI]] : i1
// CHECK:   %[[IDX4:.+]] = linalg.index 4 : index
// CHECK:   %[[IDX5:.+]] = linalg.index 5 : index
// CHECK:   %[[MUL:.+]] = arith.muli %[[IDX4]], %[[C2]] : index
// CHECK:   %[[ADD:.+]] = arith.addi %[[MUL]], %[[IDX5]] : index
// CHECK:   %[[CAST:.+]] = arith.index_cast %[[ADD]] : index to i32
// CHECK:   %[[SEL_IDX:.+]] = arith.select %[[PRED]], %[[CAST]], %[[OLD_IDX]] : i32
// CHECK:   %[[SEL_VAL:.+]] = arith.select %[[PRED]], %[[VAL]], %[[OLD_VAL]] : f32
// CHECK:   linalg.yield %[[SEL_VAL]], %[[SEL_IDX]] : f32, i32

// CHECK: %[[SCATTER_EMPTY:.+]] = tensor.empty() : tensor<2x4x2x4x2x1xf32>
// CHECK: %[[INIT:.+]] = tensor.extract %arg2[] : tensor<f32>
// CHECK: %[[FILL:.+]] = linalg.fill ins(%[[INIT]] : f32) outs(%[[SCATTER_EMPTY]] : tensor<2x4x2x4x2x1xf32>) -> tensor<2x4x2x4x2x1xf32>
// CHECK: %[[SCATTER:.+]] = linalg.generic
// CHECK-SAME: indexing_maps = [#map3, #map3, #map4]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[SELECT_GENERIC]]#1, %arg1 : tensor<2x4x4x1xi32>, tensor<2x4x4x1xf32>)
// CHECK-SAME: outs(%[[FILL]] : tensor<2x4x2x4x2x1xf32>)
// CHECK: ^bb0(%[[IDX:.+]]: i32, %[[UPDATE:.+]]: f32, %[[OLD:.+]]: f32):
// CHECK:   %[[NEW:.+]] = arith.addf %[[OLD]], %[[UPDATE]] : f32
// CHECK:   %[[IDX2:.+]] = linalg.index 2 : index
// CHECK:   %[[IDX4:.+]] = linalg.index 4 : index
// CHECK:   %[[MUL:.+]] = arith.muli %[[IDX2]], %[[C2]] : index
// CHECK:   %[[ADD:.+]] = arith.addi %[[MUL]], %[[IDX4]] : index
// CHECK:   %[[CAST:.+]] = arith.index_cast %[[ADD]] : index to i32
// CHECK:   %[[CMP:.+]] = arith.cmpi eq, %[[CAST]], %[[IDX]] : i32
// CHECK:   %[[SELECT:.+]] = arith.select %[[CMP]], %[[NEW]], %[[OLD]] : f32
// CHECK:   linalg.yield %[[SELECT]]

// CHECK: %[[COLLAPSE:.+]] = tensor.collapse_shape %[[SCATTER]]
// CHECK-NEXT{literal}: [[0], [1, 2], [3, 4], [5]]
// CHECK: return %[[COLLAPSE]] : tensor<2x8x8x1xf32>

// -----

// Overlapping windows (3 under a stride of 2) and padding (beyond upstream): padding
// positions are masked, positions are numbered in the window, then one generic per
// window position updates a strided slice of the padded result, the last position
// first (so an element gets its contributions in source order).
// OVERLAP-LABEL: func.func @overlapping
// OVERLAP:       %[[PADDED:.*]] = tensor.pad %arg0 low[1] high[0]
// OVERLAP:       %[[SEL:.*]]:2 = linalg.generic {{.*}} ins(%[[PADDED]], %{{.*}} : tensor<6xf32>, tensor<3xf32>)
// OVERLAP:         arith.cmpi sge
// OVERLAP:         arith.cmpi slt
// OVERLAP:       %[[FRAME:.*]] = linalg.fill
// OVERLAP:       %[[P2:.*]] = tensor.extract_slice %[[FRAME]][2] [2] [2]
// OVERLAP:       %[[G2:.*]] = linalg.generic {{.*}} ins(%[[SEL]]#1, %arg1 : tensor<2xi32>, tensor<2xf32>) outs(%[[P2]] : tensor<2xf32>)
// OVERLAP:       %[[F2:.*]] = tensor.insert_slice %[[G2]] into %[[FRAME]][2] [2] [2]
// OVERLAP:       tensor.extract_slice %[[F2]][1] [2] [2]
// OVERLAP:       tensor.insert_slice %{{.*}}[1] [2] [2]
// OVERLAP:       tensor.extract_slice %{{.*}}[0] [2] [2]
// OVERLAP:       %[[F0:.*]] = tensor.insert_slice %{{.*}}[0] [2] [2]
// OVERLAP:       %[[R:.*]] = tensor.extract_slice %[[F0]][1] [5] [1] : tensor<6xf32> to tensor<5xf32>
// OVERLAP:       return %[[R]]
func.func @overlapping(%x: tensor<5xf32>, %s: tensor<2xf32>, %i: tensor<f32>) -> tensor<5xf32> {
  %0 = "stablehlo.select_and_scatter"(%x, %s, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) {padding = dense<[[1, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 3>, window_strides = array<i64: 2>}
    : (tensor<5xf32>, tensor<2xf32>, tensor<f32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}
