// RUN: xquant-opt %s --split-input-file | xquant-opt --split-input-file | filecheck %s
// RUN: xquant-opt %s --mlir-print-op-generic --split-input-file | xquant-opt --split-input-file | filecheck %s
// xquant-opt, not xdsl-opt: these use no xquant dialect, so stock xdsl-opt does not load xquant's fixes to xDSL.
// linalg.generic result types in parentheses after the region, as upstream MLIR
// and xDSL's printer write them, read back; the bare list xDSL also accepts still parses.

#map = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @two
// CHECK:         %{{.*}} = linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>) {
// CHECK:           linalg.yield %{{.*}}, %{{.*}} : f32, f32
// CHECK-NEXT:    } -> (tensor<4xf32>, tensor<4xf32>)
func.func @two(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e, %e : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %o1: f32, %o2: f32):
    %n = arith.negf %x : f32
    linalg.yield %x, %n : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @three
// CHECK:         } -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>)
func.func @three(%a: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>) {
  %r:3 = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a, %i, %a : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>) {
  ^bb0(%x: f32, %o1: f32, %o2: i32, %o3: f32):
    linalg.yield %x, %o2, %o3 : f32, i32, f32
  } -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>)
  return %r#0, %r#1, %r#2 : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>
}

// One result in parentheses (accepted upstream) prints without them, as upstream does.
// CHECK-LABEL: func.func @one
// CHECK:         } -> tensor<4xf32>
// CHECK:         } -> tensor<4xf32>
func.func @one(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> (tensor<4xf32>)
  %s = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%r : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// The bare list (not upstream syntax) still parses, and prints in parentheses.
// CHECK-LABEL: func.func @bare
// CHECK:         } -> (tensor<4xf32>, tensor<4xf32>)
func.func @bare(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a, %a : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %o1: f32, %o2: f32):
    linalg.yield %x, %x : f32, f32
  } -> tensor<4xf32>, tensor<4xf32>
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// No results: `-> ()` parses, and nothing is printed after the region.
// CHECK-LABEL: func.func @none
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : memref<4xf32>) {
// CHECK:           linalg.yield %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    {{(func\.)?}}return
func.func @none(%a: memref<4xf32>, %b: memref<4xf32>) {
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> ()
  return
}
