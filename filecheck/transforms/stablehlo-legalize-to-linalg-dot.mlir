// RUN: xdsl-opt %s -p stablehlo-legalize-to-linalg | filecheck %s
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s --check-prefix=ROUNDTRIP

// dot and dot_general as upstream's StablehloToLinalgDotProduct.cpp: named ops for a
// simple dot, dynamic sizes of the init read with tensor.dim from the operand dim they
// come from, discardable attributes carried over.

// CHECK-LABEL: func.func @matmul_dynamic
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[D1:.*]] = tensor.dim %b, %[[C1]] : tensor<3x?xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty(%[[D1]]) : tensor<2x?xf32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2x?xf32>) -> tensor<2x?xf32>
// CHECK-NEXT:    %[[M:.*]] = linalg.matmul {someattr} ins(%a, %b : tensor<2x3xf32>, tensor<3x?xf32>) outs(%[[F]] : tensor<2x?xf32>) -> tensor<2x?xf32>
// CHECK-NEXT:    func.return %[[M]]
func.func @matmul_dynamic(%a: tensor<2x3xf32>, %b: tensor<3x?xf32>) -> tensor<2x?xf32> {
  %0 = "stablehlo.dot"(%a, %b) {someattr} : (tensor<2x3xf32>, tensor<3x?xf32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// CHECK-LABEL: func.func @matvec
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D0:.*]] = tensor.dim %a, %[[C0]] : tensor<?x3xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty(%[[D0]]) : tensor<?xf32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill
// CHECK-NEXT:    linalg.matvec ins(%a, %b : tensor<?x3xf32>, tensor<3xf32>) outs(%[[F]] : tensor<?xf32>) -> tensor<?xf32>
func.func @matvec(%a: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// i8 x i8 -> i32: the named op sign-extends its inputs in its body.
// CHECK-LABEL: func.func @vecmat_i8_i32
// CHECK:         linalg.vecmat ins(%a, %b : tensor<3xi8>, tensor<3x4xi8>) outs(%{{.*}} : tensor<4xi32>) -> tensor<4xi32>
func.func @vecmat_i8_i32(%a: tensor<3xi8>, %b: tensor<3x4xi8>) -> tensor<4xi32> {
  %0 = stablehlo.dot %a, %b : (tensor<3xi8>, tensor<3x4xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Unsigned tensors are cast to signless ones and back, as upstream's type converter.
// CHECK-LABEL: func.func @dot_unsigned
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[A:.*]] = builtin.unrealized_conversion_cast %a : tensor<?xui32> to tensor<?xi32>
// CHECK-NEXT:    %[[B:.*]] = builtin.unrealized_conversion_cast %b : tensor<?xui32> to tensor<?xi32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<i32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%[[E]] : tensor<i32>) -> tensor<i32>
// CHECK-NEXT:    %[[D:.*]] = linalg.dot ins(%[[A]], %[[B]] : tensor<?xi32>, tensor<?xi32>) outs(%[[F]] : tensor<i32>) -> tensor<i32>
// CHECK-NEXT:    %[[R:.*]] = builtin.unrealized_conversion_cast %[[D]] : tensor<i32> to tensor<ui32>
// CHECK-NEXT:    func.return %[[R]]
func.func @dot_unsigned(%a: tensor<?xui32>, %b: tensor<?xui32>) -> tensor<ui32> {
  %0 = stablehlo.dot %a, %b : (tensor<?xui32>, tensor<?xui32>) -> tensor<ui32>
  return %0 : tensor<ui32>
}

// CHECK-LABEL: func.func @batch_matmul_dynamic
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D0:.*]] = tensor.dim %a, %[[C0]] : tensor<?x2x4xi32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty(%[[D0]]) : tensor<?x2x3xi32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill
// CHECK-NEXT:    linalg.batch_matmul {someattr} ins(%a, %b : tensor<?x2x4xi32>, tensor<?x4x3xi32>) outs(%[[F]] : tensor<?x2x3xi32>) -> tensor<?x2x3xi32>
func.func @batch_matmul_dynamic(%a: tensor<?x2x4xi32>, %b: tensor<?x4x3xi32>) -> tensor<?x2x3xi32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] {someattr} : (tensor<?x2x4xi32>, tensor<?x4x3xi32>) -> tensor<?x2x3xi32>
  return %0 : tensor<?x2x3xi32>
}

// The general form: result dims are (batch, lhs free, rhs free), each read from its operand.
// CHECK-LABEL: func.func @general_dynamic
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[D0:.*]] = tensor.dim %a, %[[C1]] : tensor<?x?x?xf32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D1:.*]] = tensor.dim %a, %[[C0]] : tensor<?x?x?xf32>
// CHECK-NEXT:    %[[C0B:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D2:.*]] = tensor.dim %b, %[[C0B]] : tensor<?x?x?xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty(%[[D0]], %[[D1]], %[[D2]]) : tensor<?x?x?xf32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%[[F]] : tensor<?x?x?xf32>) attrs = {someattr} {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
func.func @general_dynamic(%a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [1] x [2], contracting_dims = [2] x [1] {someattr} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// A dot_general with an algorithm is left as it is (upstream: "dot algorithms not yet
// supported in linalg conversion"); the attribute prints as upstream's.
// CHECK-LABEL: func.func @with_algorithm
// CHECK-NEXT:    stablehlo.dot_general
// ROUNDTRIP-LABEL: func.func @with_algorithm
// ROUNDTRIP:       algorithm = #stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>
func.func @with_algorithm(%a: tensor<2x2x2xi64>, %b: tensor<2x2x2xi64>) -> tensor<2x2x2xi64> {
  %0 = "stablehlo.dot_general"(%a, %b) <{
    dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>,
    algorithm = #stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>
  }> : (tensor<2x2x2xi64>, tensor<2x2x2xi64>) -> tensor<2x2x2xi64>
  return %0 : tensor<2x2x2xi64>
}

// Complex: linalg.matmul into a complex zero (its body complex.mul / complex.add), as upstream.
// CHECK-LABEL: func.func @complex_matmul
// CHECK-NEXT:    %[[Z:.*]] = complex.constant [0.000000e+00 : f32, 0.000000e+00 : f32] : complex<f32>
// CHECK:         %[[F:.*]] = linalg.fill ins(%[[Z]] : complex<f32>)
// CHECK-NEXT:    %[[M:.*]] = linalg.matmul ins(%a, %b : tensor<2x3xcomplex<f32>>, tensor<3x?xcomplex<f32>>) outs(%[[F]] : tensor<2x?xcomplex<f32>>) -> tensor<2x?xcomplex<f32>>
// CHECK-NEXT:    func.return %[[M]]
func.func @complex_matmul(%a: tensor<2x3xcomplex<f32>>, %b: tensor<3x?xcomplex<f32>>) -> tensor<2x?xcomplex<f32>> {
  %0 = stablehlo.dot %a, %b : (tensor<2x3xcomplex<f32>>, tensor<3x?xcomplex<f32>>) -> tensor<2x?xcomplex<f32>>
  return %0 : tensor<2x?xcomplex<f32>>
}
