module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<207xbf16>) -> (tensor<207xbf16> {jax.result_info = "result[0]"}, tensor<207xbf16> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<207xbf16>) -> tensor<207xf32>
    %1 = call @lgamma_impl(%0) : (tensor<207xf32>) -> tensor<207xf32>
    %2 = stablehlo.convert %1 : (tensor<207xf32>) -> tensor<207xbf16>
    %3 = chlo.digamma %arg0 : tensor<207xbf16> -> tensor<207xbf16>
    return %2, %3 : tensor<207xbf16>, tensor<207xbf16>
  }
  func.func private @lgamma_impl(%arg0: tensor<207xf32>) -> tensor<207xf32> {
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<207xf32>) -> tensor<207xi32>
    %c = stablehlo.constant dense<2147483647> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %2 = stablehlo.and %0, %1 : tensor<207xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<207xi32>, tensor<207xi32>) -> tensor<207xi1>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %6 = stablehlo.compare GT, %2, %5, SIGNED : (tensor<207xi32>, tensor<207xi32>) -> tensor<207xi1>
    %c_2 = stablehlo.constant dense<8388608> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %8 = stablehlo.compare LT, %2, %7, SIGNED : (tensor<207xi32>, tensor<207xi32>) -> tensor<207xi1>
    %9 = stablehlo.and %6, %8 : tensor<207xi1>
    %10 = stablehlo.count_leading_zeros %2 : tensor<207xi32>
    %c_3 = stablehlo.constant dense<8> : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %12 = stablehlo.subtract %10, %11 : tensor<207xi32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %14 = stablehlo.select %9, %12, %13 : tensor<207xi1>, tensor<207xi32>
    %c_5 = stablehlo.constant dense<-2147483648> : tensor<i32>
    %15 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %16 = stablehlo.and %0, %15 : tensor<207xi32>
    %17 = stablehlo.shift_left %2, %14 : tensor<207xi32>
    %18 = stablehlo.or %16, %17 : tensor<207xi32>
    %19 = stablehlo.select %9, %18, %0 : tensor<207xi1>, tensor<207xi32>
    %20 = stablehlo.bitcast_convert %19 : (tensor<207xi32>) -> tensor<207xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %22 = stablehlo.compare GE, %20, %21, FLOAT : (tensor<207xf32>, tensor<207xf32>) -> tensor<207xi1>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %24 = stablehlo.select %4, %23, %20 : tensor<207xi1>, tensor<207xf32>
    %25 = stablehlo.not %22 : tensor<207xi1>
    %cst_7 = stablehlo.constant dense<0xCB000000> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %27 = stablehlo.compare GT, %24, %26, FLOAT : (tensor<207xf32>, tensor<207xf32>) -> tensor<207xi1>
    %28 = stablehlo.and %25, %27 : tensor<207xi1>
    %cst_8 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %30 = stablehlo.select %28, %24, %29 : tensor<207xi1>, tensor<207xf32>
    %31 = stablehlo.round_nearest_even %30 : tensor<207xf32>
    %32 = stablehlo.subtract %30, %31 : tensor<207xf32>
    %33 = stablehlo.abs %32 : tensor<207xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %35 = stablehlo.subtract %34, %31 : tensor<207xf32>
    %36 = stablehlo.subtract %35, %32 : tensor<207xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %38 = stablehlo.subtract %37, %31 : tensor<207xf32>
    %39 = stablehlo.subtract %38, %36 : tensor<207xf32>
    %40 = stablehlo.subtract %39, %32 : tensor<207xf32>
    %41 = stablehlo.select %22, %24, %36 : tensor<207xi1>, tensor<207xf32>
    %cst_11 = stablehlo.constant dense<4.08500311E+36> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %43 = stablehlo.minimum %41, %42 : tensor<207xf32>
    %44:2 = call @_log_f32(%33, %14) : (tensor<207xf32>, tensor<207xi32>) -> (tensor<207xf32>, tensor<207xf32>)
    %45:3 = call @_lgamma_pos_small(%43) : (tensor<207xf32>) -> (tensor<207xf32>, tensor<207xf32>, tensor<207xf32>)
    %46:3 = call @_lgamma_pos_large(%43) : (tensor<207xf32>) -> (tensor<207xf32>, tensor<207xf32>, tensor<207xf32>)
    %cst_12 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %48 = stablehlo.compare LE, %43, %47, FLOAT : (tensor<207xf32>, tensor<207xf32>) -> tensor<207xi1>
    %49 = stablehlo.add %46#0, %46#1 : tensor<207xf32>
    %50 = stablehlo.select %48, %45#0, %49 : tensor<207xi1>, tensor<207xf32>
    %51 = stablehlo.select %48, %45#1, %46#0 : tensor<207xi1>, tensor<207xf32>
    %52 = stablehlo.select %48, %45#2, %46#1 : tensor<207xi1>, tensor<207xf32>
    %53 = stablehlo.add %52, %44#1 : tensor<207xf32>
    %54 = stablehlo.multiply %46#2, %40 : tensor<207xf32>
    %55 = call @_lgamma_neg_reflection(%32, %44#0, %51, %53, %54) : (tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>) -> tensor<207xf32>
    %56:2 = call @_lgamma_neg_root(%30, %31) : (tensor<207xf32>, tensor<207xf32>) -> (tensor<207xi1>, tensor<207xf32>)
    %57 = stablehlo.select %56#0, %56#1, %55 : tensor<207xi1>, tensor<207xf32>
    %58 = stablehlo.select %22, %50, %57 : tensor<207xi1>, tensor<207xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %60 = stablehlo.compare EQ, %58, %59, FLOAT : (tensor<207xf32>, tensor<207xf32>) -> tensor<207xi1>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %62 = stablehlo.select %60, %61, %58 : tensor<207xi1>, tensor<207xf32>
    %63 = stablehlo.not %22 : tensor<207xi1>
    %64 = stablehlo.floor %24 : tensor<207xf32>
    %65 = stablehlo.compare EQ, %24, %64, FLOAT : (tensor<207xf32>, tensor<207xf32>) -> tensor<207xi1>
    %66 = stablehlo.and %63, %65 : tensor<207xi1>
    %67 = stablehlo.or %4, %66 : tensor<207xi1>
    %cst_15 = stablehlo.constant dense<4.08500311E+36> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %69 = stablehlo.compare GT, %arg0, %68, FLOAT : (tensor<207xf32>, tensor<207xf32>) -> tensor<207xi1>
    %70 = stablehlo.or %67, %69 : tensor<207xi1>
    %cst_16 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %72 = stablehlo.select %70, %71, %62 : tensor<207xi1>, tensor<207xf32>
    %73 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<207xf32>, tensor<207xf32>) -> tensor<207xi1>
    %cst_17 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %74 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %75 = stablehlo.select %73, %74, %72 : tensor<207xi1>, tensor<207xf32>
    return %75 : tensor<207xf32>
  }
  func.func private @_log_f32(%arg0: tensor<207xf32>, %arg1: tensor<207xi32>) -> (tensor<207xf32>, tensor<207xf32>) {
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<207xf32>) -> tensor<207xi32>
    %c = stablehlo.constant dense<1060439283> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %2 = stablehlo.subtract %0, %1 : tensor<207xi32>
    %c_0 = stablehlo.constant dense<23> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %4 = stablehlo.shift_right_arithmetic %2, %3 : tensor<207xi32>
    %5 = stablehlo.subtract %4, %arg1 : tensor<207xi32>
    %6 = stablehlo.convert %5 : (tensor<207xi32>) -> tensor<207xf32>
    %c_1 = stablehlo.constant dense<23> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %8 = stablehlo.shift_left %4, %7 : tensor<207xi32>
    %9 = stablehlo.subtract %0, %8 : tensor<207xi32>
    %10 = stablehlo.bitcast_convert %9 : (tensor<207xi32>) -> tensor<207xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %12 = stablehlo.subtract %10, %11 : tensor<207xf32>
    %13 = stablehlo.multiply %12, %12 : tensor<207xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %15 = stablehlo.multiply %14, %13 : tensor<207xf32>
    %16 = stablehlo.subtract %12, %15 : tensor<207xf32>
    %17 = stablehlo.multiply %13, %12 : tensor<207xf32>
    %cst_3 = stablehlo.constant dense<0.3333333432674408> : tensor<f64>
    %cst_4 = stablehlo.constant dense<-0.24999989569187164> : tensor<f64>
    %cst_5 = stablehlo.constant dense<0.19999992847442627> : tensor<f64>
    %cst_6 = stablehlo.constant dense<-0.16668006777763367> : tensor<f64>
    %cst_7 = stablehlo.constant dense<0.14287430047988892> : tensor<f64>
    %cst_8 = stablehlo.constant dense<-0.12451331317424774> : tensor<f64>
    %cst_9 = stablehlo.constant dense<0.11021918058395386> : tensor<f64>
    %cst_10 = stablehlo.constant dense<-0.10625848919153214> : tensor<f64>
    %cst_11 = stablehlo.constant dense<0.10618706792593002> : tensor<f64>
    %cst_12 = stablehlo.constant dense<-0.063545495271682739> : tensor<f64>
    %18 = call @_horner(%12, %cst_3, %cst_4, %cst_5, %cst_6, %cst_7, %cst_8, %cst_9, %cst_10, %cst_11, %cst_12) : (tensor<207xf32>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>) -> tensor<207xf32>
    %19 = stablehlo.multiply %17, %18 : tensor<207xf32>
    %20 = stablehlo.add %16, %19 : tensor<207xf32>
    %cst_13 = stablehlo.constant dense<0.693115234> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %22 = stablehlo.multiply %6, %21 : tensor<207xf32>
    %cst_14 = stablehlo.constant dense<3.19461833E-5> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %24 = stablehlo.multiply %6, %23 : tensor<207xf32>
    %25 = stablehlo.add %20, %24 : tensor<207xf32>
    %26 = stablehlo.add %22, %25 : tensor<207xf32>
    %27 = stablehlo.subtract %22, %26 : tensor<207xf32>
    %28 = stablehlo.add %27, %25 : tensor<207xf32>
    return %26, %28 : tensor<207xf32>, tensor<207xf32>
  }
  func.func private @_horner(%arg0: tensor<207xf32>, %arg1: tensor<f64>, %arg2: tensor<f64>, %arg3: tensor<f64>, %arg4: tensor<f64>, %arg5: tensor<f64>, %arg6: tensor<f64>, %arg7: tensor<f64>, %arg8: tensor<f64>, %arg9: tensor<f64>, %arg10: tensor<f64>) -> tensor<207xf32> {
    %0 = stablehlo.convert %arg10 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %2 = stablehlo.multiply %1, %arg0 : tensor<207xf32>
    %3 = stablehlo.convert %arg9 : (tensor<f64>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %5 = stablehlo.add %2, %4 : tensor<207xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<207xf32>
    %7 = stablehlo.convert %arg8 : (tensor<f64>) -> tensor<f32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %9 = stablehlo.add %6, %8 : tensor<207xf32>
    %10 = stablehlo.multiply %9, %arg0 : tensor<207xf32>
    %11 = stablehlo.convert %arg7 : (tensor<f64>) -> tensor<f32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %13 = stablehlo.add %10, %12 : tensor<207xf32>
    %14 = stablehlo.multiply %13, %arg0 : tensor<207xf32>
    %15 = stablehlo.convert %arg6 : (tensor<f64>) -> tensor<f32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %17 = stablehlo.add %14, %16 : tensor<207xf32>
    %18 = stablehlo.multiply %17, %arg0 : tensor<207xf32>
    %19 = stablehlo.convert %arg5 : (tensor<f64>) -> tensor<f32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %21 = stablehlo.add %18, %20 : tensor<207xf32>
    %22 = stablehlo.multiply %21, %arg0 : tensor<207xf32>
    %23 = stablehlo.convert %arg4 : (tensor<f64>) -> tensor<f32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %25 = stablehlo.add %22, %24 : tensor<207xf32>
    %26 = stablehlo.multiply %25, %arg0 : tensor<207xf32>
    %27 = stablehlo.convert %arg3 : (tensor<f64>) -> tensor<f32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %29 = stablehlo.add %26, %28 : tensor<207xf32>
    %30 = stablehlo.multiply %29, %arg0 : tensor<207xf32>
    %31 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %33 = stablehlo.add %30, %32 : tensor<207xf32>
    %34 = stablehlo.multiply %33, %arg0 : tensor<207xf32>
    %35 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<f32>
    %36 = stablehlo.broadcast_in_dim %35, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %37 = stablehlo.add %34, %36 : tensor<207xf32>
    return %37 : tensor<207xf32>
  }
  func.func private @_lgamma_pos_small(%arg0: tensor<207xf32>) -> (tensor<207xf32>, tensor<207xf32>, tensor<207xf32>) {
    %cst = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<207xf32>, tensor<207xf32>) -> tensor<207xi1>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %3 = stablehlo.subtract %arg0, %2 : tensor<207xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %5 = stablehlo.subtract %3, %4 : tensor<207xf32>
    %cst_2 = stablehlo.constant dense<1.750000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %8 = stablehlo.select %1, %6, %7 : tensor<207xi1>, tensor<207xf32>
    %9 = stablehlo.subtract %3, %8 : tensor<207xf32>
    %cst_4 = stablehlo.constant dense<0.362068325> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %cst_5 = stablehlo.constant dense<0.577215672> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %12 = stablehlo.select %1, %10, %11 : tensor<207xi1>, tensor<207xf32>
    %cst_6 = stablehlo.constant dense<-0.0657293424> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %cst_7 = stablehlo.constant dense<-0.245251313> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %15 = stablehlo.select %1, %13, %14 : tensor<207xi1>, tensor<207xf32>
    %cst_8 = stablehlo.constant dense<0.0160308518> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %cst_9 = stablehlo.constant dense<0.155433342> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %18 = stablehlo.select %1, %16, %17 : tensor<207xi1>, tensor<207xf32>
    %cst_10 = stablehlo.constant dense<-0.00441958429> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %cst_11 = stablehlo.constant dense<-0.115152992> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %21 = stablehlo.select %1, %19, %20 : tensor<207xi1>, tensor<207xf32>
    %cst_12 = stablehlo.constant dense<0.00130368094> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %cst_13 = stablehlo.constant dense<0.0922760441> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %24 = stablehlo.select %1, %22, %23 : tensor<207xi1>, tensor<207xf32>
    %cst_14 = stablehlo.constant dense<-4.00087971E-4> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %cst_15 = stablehlo.constant dense<-0.0771135687> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %27 = stablehlo.select %1, %25, %26 : tensor<207xi1>, tensor<207xf32>
    %cst_16 = stablehlo.constant dense<1.24877915E-4> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %cst_17 = stablehlo.constant dense<0.0660817325> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %30 = stablehlo.select %1, %28, %29 : tensor<207xi1>, tensor<207xf32>
    %cst_18 = stablehlo.constant dense<-4.18991549E-5> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %cst_19 = stablehlo.constant dense<-0.061489731> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %33 = stablehlo.select %1, %31, %32 : tensor<207xi1>, tensor<207xf32>
    %cst_20 = stablehlo.constant dense<1.5541731E-5> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %cst_21 = stablehlo.constant dense<0.0583322793> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %36 = stablehlo.select %1, %34, %35 : tensor<207xi1>, tensor<207xf32>
    %cst_22 = stablehlo.constant dense<-3.44545674E-6> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %cst_23 = stablehlo.constant dense<-3.065680e-02> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %39 = stablehlo.select %1, %37, %38 : tensor<207xi1>, tensor<207xf32>
    %cst_24 = stablehlo.constant dense<2.14668859E-7> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %cst_25 = stablehlo.constant dense<0.0167537015> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %42 = stablehlo.select %1, %40, %41 : tensor<207xi1>, tensor<207xf32>
    %cst_26 = stablehlo.constant dense<-9.51253639E-7> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %cst_27 = stablehlo.constant dense<-0.0866426677> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %45 = stablehlo.select %1, %43, %44 : tensor<207xi1>, tensor<207xf32>
    %cst_28 = stablehlo.constant dense<5.093690e-07> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %cst_29 = stablehlo.constant dense<0.0945988297> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %48 = stablehlo.select %1, %46, %47 : tensor<207xi1>, tensor<207xf32>
    %49 = call @_horner_0(%9, %12, %15, %18, %21, %24, %27, %30, %33, %36, %39, %42, %45, %48) : (tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>) -> tensor<207xf32>
    %50 = stablehlo.bitcast_convert %3 : (tensor<207xf32>) -> tensor<207xi32>
    %c = stablehlo.constant dense<-4096> : tensor<i32>
    %51 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %52 = stablehlo.and %50, %51 : tensor<207xi32>
    %53 = stablehlo.bitcast_convert %52 : (tensor<207xi32>) -> tensor<207xf32>
    %54 = stablehlo.subtract %3, %53 : tensor<207xf32>
    %55 = stablehlo.bitcast_convert %5 : (tensor<207xf32>) -> tensor<207xi32>
    %c_30 = stablehlo.constant dense<-4096> : tensor<i32>
    %56 = stablehlo.broadcast_in_dim %c_30, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %57 = stablehlo.and %55, %56 : tensor<207xi32>
    %58 = stablehlo.bitcast_convert %57 : (tensor<207xi32>) -> tensor<207xf32>
    %59 = stablehlo.subtract %5, %58 : tensor<207xf32>
    %60 = stablehlo.multiply %53, %58 : tensor<207xf32>
    %61 = stablehlo.multiply %54, %5 : tensor<207xf32>
    %62 = stablehlo.multiply %53, %59 : tensor<207xf32>
    %63 = stablehlo.add %61, %62 : tensor<207xf32>
    %64 = stablehlo.bitcast_convert %49 : (tensor<207xf32>) -> tensor<207xi32>
    %c_31 = stablehlo.constant dense<-4096> : tensor<i32>
    %65 = stablehlo.broadcast_in_dim %c_31, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %66 = stablehlo.and %64, %65 : tensor<207xi32>
    %67 = stablehlo.bitcast_convert %66 : (tensor<207xi32>) -> tensor<207xf32>
    %68 = stablehlo.subtract %49, %67 : tensor<207xf32>
    %69 = stablehlo.multiply %60, %67 : tensor<207xf32>
    %70 = stablehlo.multiply %63, %49 : tensor<207xf32>
    %71 = stablehlo.multiply %60, %68 : tensor<207xf32>
    %72 = stablehlo.add %70, %71 : tensor<207xf32>
    %73 = stablehlo.add %69, %72 : tensor<207xf32>
    return %73, %69, %72 : tensor<207xf32>, tensor<207xf32>, tensor<207xf32>
  }
  func.func private @_horner_0(%arg0: tensor<207xf32>, %arg1: tensor<207xf32>, %arg2: tensor<207xf32>, %arg3: tensor<207xf32>, %arg4: tensor<207xf32>, %arg5: tensor<207xf32>, %arg6: tensor<207xf32>, %arg7: tensor<207xf32>, %arg8: tensor<207xf32>, %arg9: tensor<207xf32>, %arg10: tensor<207xf32>, %arg11: tensor<207xf32>, %arg12: tensor<207xf32>, %arg13: tensor<207xf32>) -> tensor<207xf32> {
    %0 = stablehlo.multiply %arg13, %arg0 : tensor<207xf32>
    %1 = stablehlo.add %0, %arg12 : tensor<207xf32>
    %2 = stablehlo.multiply %1, %arg0 : tensor<207xf32>
    %3 = stablehlo.add %2, %arg11 : tensor<207xf32>
    %4 = stablehlo.multiply %3, %arg0 : tensor<207xf32>
    %5 = stablehlo.add %4, %arg10 : tensor<207xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<207xf32>
    %7 = stablehlo.add %6, %arg9 : tensor<207xf32>
    %8 = stablehlo.multiply %7, %arg0 : tensor<207xf32>
    %9 = stablehlo.add %8, %arg8 : tensor<207xf32>
    %10 = stablehlo.multiply %9, %arg0 : tensor<207xf32>
    %11 = stablehlo.add %10, %arg7 : tensor<207xf32>
    %12 = stablehlo.multiply %11, %arg0 : tensor<207xf32>
    %13 = stablehlo.add %12, %arg6 : tensor<207xf32>
    %14 = stablehlo.multiply %13, %arg0 : tensor<207xf32>
    %15 = stablehlo.add %14, %arg5 : tensor<207xf32>
    %16 = stablehlo.multiply %15, %arg0 : tensor<207xf32>
    %17 = stablehlo.add %16, %arg4 : tensor<207xf32>
    %18 = stablehlo.multiply %17, %arg0 : tensor<207xf32>
    %19 = stablehlo.add %18, %arg3 : tensor<207xf32>
    %20 = stablehlo.multiply %19, %arg0 : tensor<207xf32>
    %21 = stablehlo.add %20, %arg2 : tensor<207xf32>
    %22 = stablehlo.multiply %21, %arg0 : tensor<207xf32>
    %23 = stablehlo.add %22, %arg1 : tensor<207xf32>
    return %23 : tensor<207xf32>
  }
  func.func private @_lgamma_pos_large(%arg0: tensor<207xf32>) -> (tensor<207xf32>, tensor<207xf32>, tensor<207xf32>) {
    %0:2 = call @_log_f32_1(%arg0) : (tensor<207xf32>) -> (tensor<207xf32>, tensor<207xf32>)
    %1 = stablehlo.bitcast_convert %0#0 : (tensor<207xf32>) -> tensor<207xi32>
    %c = stablehlo.constant dense<-4096> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %3 = stablehlo.and %1, %2 : tensor<207xi32>
    %4 = stablehlo.bitcast_convert %3 : (tensor<207xi32>) -> tensor<207xf32>
    %5 = stablehlo.subtract %0#0, %4 : tensor<207xf32>
    %6 = stablehlo.add %5, %0#1 : tensor<207xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %8 = stablehlo.subtract %arg0, %7 : tensor<207xf32>
    %9 = stablehlo.bitcast_convert %8 : (tensor<207xf32>) -> tensor<207xi32>
    %c_0 = stablehlo.constant dense<-4096> : tensor<i32>
    %10 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %11 = stablehlo.and %9, %10 : tensor<207xi32>
    %12 = stablehlo.bitcast_convert %11 : (tensor<207xi32>) -> tensor<207xf32>
    %13 = stablehlo.subtract %8, %12 : tensor<207xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %15 = stablehlo.subtract %4, %14 : tensor<207xf32>
    %16 = stablehlo.multiply %12, %15 : tensor<207xf32>
    %17 = stablehlo.multiply %13, %15 : tensor<207xf32>
    %18 = stablehlo.multiply %8, %6 : tensor<207xf32>
    %19 = stablehlo.add %17, %18 : tensor<207xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %21 = stablehlo.divide %20, %arg0 : tensor<207xf32>
    %22 = stablehlo.multiply %21, %21 : tensor<207xf32>
    %cst_3 = stablehlo.constant dense<0.083333335816860198> : tensor<f64>
    %cst_4 = stablehlo.constant dense<-0.0027777778450399637> : tensor<f64>
    %cst_5 = stablehlo.constant dense<7.9365080455318093E-4> : tensor<f64>
    %cst_6 = stablehlo.constant dense<-5.9523811796680093E-4> : tensor<f64>
    %cst_7 = stablehlo.constant dense<8.4175082156434655E-4> : tensor<f64>
    %23 = call @_horner_2(%22, %cst_3, %cst_4, %cst_5, %cst_6, %cst_7) : (tensor<207xf32>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>) -> tensor<207xf32>
    %cst_8 = stablehlo.constant dense<0.418938518> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %25 = stablehlo.add %19, %24 : tensor<207xf32>
    %26 = stablehlo.multiply %21, %23 : tensor<207xf32>
    %27 = stablehlo.add %25, %26 : tensor<207xf32>
    %cst_9 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %29 = stablehlo.multiply %28, %21 : tensor<207xf32>
    %30 = stablehlo.subtract %0#0, %29 : tensor<207xf32>
    return %16, %27, %30 : tensor<207xf32>, tensor<207xf32>, tensor<207xf32>
  }
  func.func private @_log_f32_1(%arg0: tensor<207xf32>) -> (tensor<207xf32>, tensor<207xf32>) {
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<207xf32>) -> tensor<207xi32>
    %c = stablehlo.constant dense<1060439283> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %2 = stablehlo.subtract %0, %1 : tensor<207xi32>
    %c_0 = stablehlo.constant dense<23> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %4 = stablehlo.shift_right_arithmetic %2, %3 : tensor<207xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %6 = stablehlo.subtract %4, %5 : tensor<207xi32>
    %7 = stablehlo.convert %6 : (tensor<207xi32>) -> tensor<207xf32>
    %c_2 = stablehlo.constant dense<23> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %9 = stablehlo.shift_left %4, %8 : tensor<207xi32>
    %10 = stablehlo.subtract %0, %9 : tensor<207xi32>
    %11 = stablehlo.bitcast_convert %10 : (tensor<207xi32>) -> tensor<207xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %13 = stablehlo.subtract %11, %12 : tensor<207xf32>
    %14 = stablehlo.multiply %13, %13 : tensor<207xf32>
    %cst_3 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %16 = stablehlo.multiply %15, %14 : tensor<207xf32>
    %17 = stablehlo.subtract %13, %16 : tensor<207xf32>
    %18 = stablehlo.multiply %14, %13 : tensor<207xf32>
    %cst_4 = stablehlo.constant dense<0.3333333432674408> : tensor<f64>
    %cst_5 = stablehlo.constant dense<-0.24999989569187164> : tensor<f64>
    %cst_6 = stablehlo.constant dense<0.19999992847442627> : tensor<f64>
    %cst_7 = stablehlo.constant dense<-0.16668006777763367> : tensor<f64>
    %cst_8 = stablehlo.constant dense<0.14287430047988892> : tensor<f64>
    %cst_9 = stablehlo.constant dense<-0.12451331317424774> : tensor<f64>
    %cst_10 = stablehlo.constant dense<0.11021918058395386> : tensor<f64>
    %cst_11 = stablehlo.constant dense<-0.10625848919153214> : tensor<f64>
    %cst_12 = stablehlo.constant dense<0.10618706792593002> : tensor<f64>
    %cst_13 = stablehlo.constant dense<-0.063545495271682739> : tensor<f64>
    %19 = call @_horner(%13, %cst_4, %cst_5, %cst_6, %cst_7, %cst_8, %cst_9, %cst_10, %cst_11, %cst_12, %cst_13) : (tensor<207xf32>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>) -> tensor<207xf32>
    %20 = stablehlo.multiply %18, %19 : tensor<207xf32>
    %21 = stablehlo.add %17, %20 : tensor<207xf32>
    %cst_14 = stablehlo.constant dense<0.693115234> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %23 = stablehlo.multiply %7, %22 : tensor<207xf32>
    %cst_15 = stablehlo.constant dense<3.19461833E-5> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %25 = stablehlo.multiply %7, %24 : tensor<207xf32>
    %26 = stablehlo.add %21, %25 : tensor<207xf32>
    %27 = stablehlo.add %23, %26 : tensor<207xf32>
    %28 = stablehlo.subtract %23, %27 : tensor<207xf32>
    %29 = stablehlo.add %28, %26 : tensor<207xf32>
    return %27, %29 : tensor<207xf32>, tensor<207xf32>
  }
  func.func private @_horner_2(%arg0: tensor<207xf32>, %arg1: tensor<f64>, %arg2: tensor<f64>, %arg3: tensor<f64>, %arg4: tensor<f64>, %arg5: tensor<f64>) -> tensor<207xf32> {
    %0 = stablehlo.convert %arg5 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %2 = stablehlo.multiply %1, %arg0 : tensor<207xf32>
    %3 = stablehlo.convert %arg4 : (tensor<f64>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %5 = stablehlo.add %2, %4 : tensor<207xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<207xf32>
    %7 = stablehlo.convert %arg3 : (tensor<f64>) -> tensor<f32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %9 = stablehlo.add %6, %8 : tensor<207xf32>
    %10 = stablehlo.multiply %9, %arg0 : tensor<207xf32>
    %11 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %13 = stablehlo.add %10, %12 : tensor<207xf32>
    %14 = stablehlo.multiply %13, %arg0 : tensor<207xf32>
    %15 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<f32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %17 = stablehlo.add %14, %16 : tensor<207xf32>
    return %17 : tensor<207xf32>
  }
  func.func private @_lgamma_neg_reflection(%arg0: tensor<207xf32>, %arg1: tensor<207xf32>, %arg2: tensor<207xf32>, %arg3: tensor<207xf32>, %arg4: tensor<207xf32>) -> tensor<207xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<207xf32>
    %cst = stablehlo.constant dense<-1.6449340581893921> : tensor<f64>
    %cst_0 = stablehlo.constant dense<-0.54116076231002808> : tensor<f64>
    %cst_1 = stablehlo.constant dense<-0.33916869759559631> : tensor<f64>
    %cst_2 = stablehlo.constant dense<-0.24974527955055237> : tensor<f64>
    %cst_3 = stablehlo.constant dense<-0.21417342126369476> : tensor<f64>
    %cst_4 = stablehlo.constant dense<-0.090555958449840545> : tensor<f64>
    %cst_5 = stablehlo.constant dense<-0.33258557319641113> : tensor<f64>
    %1 = call @_horner_3(%0, %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4, %cst_5) : (tensor<207xf32>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>) -> tensor<207xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<207xf32>
    %3 = stablehlo.add %arg1, %arg2 : tensor<207xf32>
    %4 = stablehlo.add %2, %arg4 : tensor<207xf32>
    %5 = stablehlo.add %arg3, %4 : tensor<207xf32>
    %6 = stablehlo.add %3, %5 : tensor<207xf32>
    %7 = stablehlo.negate %6 : tensor<207xf32>
    return %7 : tensor<207xf32>
  }
  func.func private @_horner_3(%arg0: tensor<207xf32>, %arg1: tensor<f64>, %arg2: tensor<f64>, %arg3: tensor<f64>, %arg4: tensor<f64>, %arg5: tensor<f64>, %arg6: tensor<f64>, %arg7: tensor<f64>) -> tensor<207xf32> {
    %0 = stablehlo.convert %arg7 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %2 = stablehlo.multiply %1, %arg0 : tensor<207xf32>
    %3 = stablehlo.convert %arg6 : (tensor<f64>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %5 = stablehlo.add %2, %4 : tensor<207xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<207xf32>
    %7 = stablehlo.convert %arg5 : (tensor<f64>) -> tensor<f32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %9 = stablehlo.add %6, %8 : tensor<207xf32>
    %10 = stablehlo.multiply %9, %arg0 : tensor<207xf32>
    %11 = stablehlo.convert %arg4 : (tensor<f64>) -> tensor<f32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %13 = stablehlo.add %10, %12 : tensor<207xf32>
    %14 = stablehlo.multiply %13, %arg0 : tensor<207xf32>
    %15 = stablehlo.convert %arg3 : (tensor<f64>) -> tensor<f32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %17 = stablehlo.add %14, %16 : tensor<207xf32>
    %18 = stablehlo.multiply %17, %arg0 : tensor<207xf32>
    %19 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %21 = stablehlo.add %18, %20 : tensor<207xf32>
    %22 = stablehlo.multiply %21, %arg0 : tensor<207xf32>
    %23 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<f32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %25 = stablehlo.add %22, %24 : tensor<207xf32>
    return %25 : tensor<207xf32>
  }
  func.func private @_lgamma_neg_root(%arg0: tensor<207xf32>, %arg1: tensor<207xf32>) -> (tensor<207xi1>, tensor<207xf32>) {
    %cst = stablehlo.constant dense<[-0.457024753, 1.000000e+00, -0.143580884, 0.252317339, -0.0393618383, 0.044705715, -0.00821816828, 0.00845535938, -0.00138529448, 0.00139251992, -1.98333408E-4, 1.98492111E-4, -2.48002707E-5, 2.48029046E-5, -2.75571483E-6, 2.75574894E-6]> : tensor<16xf32>
    %cst_0 = stablehlo.constant dense<[1.48729189E-8, 0.000000e+00, -4.60860106E-9, 1.40906877E-8, -1.48918433E-9, 1.1097015E-10, -4.15751669E-11, 6.298560e-11, 2.98885222E-11, 2.71651451E-12, 4.27655497E-13, -1.57696133E-12, 1.16013495E-14, -4.11633103E-13, 8.02972834E-15, 8.43790437E-14]> : tensor<16xf32>
    %cst_1 = stablehlo.constant dense<[2.550000e-01, -1.000000e+00, 3.400000e-01, 3.700000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01]> : tensor<16xf32>
    %cst_2 = stablehlo.constant dense<[-1.38533652, 0.000000e+00, -2.234660e+00, -0.966047525, -2.10904527, -1.85305738, -2.02762246, -1.97070384, -2.00517678, -1.99477208, -2.00079918, -1.99919963, -2.0001061, -1.99989378, -2.0000124, -1.9999876]> : tensor<16xf32>
    %cst_3 = stablehlo.constant dense<[2.67372108, 0.000000e+00, -0.104558013, 1.47233355, -0.0994995161, 0.15925236, -0.0272024628, 0.0297407601, -0.00516465073, 0.00524011673, -7.99042871E-4, 8.00676643E-4, -1.06171268E-4, 1.06197927E-4, -1.24548615E-5, 1.24457247E-5]> : tensor<16xf32>
    %cst_4 = stablehlo.constant dense<[5.65496206, 0.000000e+00, -0.632970095, 1.32829309, -0.756576359, -0.495038867, -0.693450987, -0.636482954, -0.671820819, -0.661415874, -0.667466938, -0.665867149, -0.666774272, -0.666561901, -0.666680336, -0.66665554]> : tensor<16xf32>
    %cst_5 = stablehlo.constant dense<[13.6487474, 0.000000e+00, 0.18435128, 2.66334176, -0.0802543088, 0.183989882, -0.0263557527, 0.0306188613, -0.00513932668, 0.00526309945, -7.983600e-04, 8.00992537E-4, -1.06074294E-4, 1.06123902E-4, -1.08104869E-5, 1.11924992E-5]> : tensor<16xf32>
    %cst_6 = stablehlo.constant dense<[29.0560436, 0.000000e+00, -0.0475766957, 3.16822863, -0.470409244, -0.203508675, -0.425810963, -3.688310e-01, -4.050240e-01, -0.394625604, -0.400700718, -0.399102062, -0.400009692, -0.399797767, -3.999230e-01, -0.39989692]> : tensor<16xf32>
    %cst_7 = stablehlo.constant dense<[64.692688, 0.000000e+00, 5.535060e-01, 4.82858515, -0.0605156571, 0.212788194, -0.0257291067, 0.0318717323, -0.00515836058, 0.00533373794, -8.04428709E-4, 8.080150e-04, -1.07942105E-4, 1.07877786E-4, -3.53875039E-5, 2.95385908E-5]> : tensor<16xf32>
    %cst_8 = stablehlo.constant dense<[144.274414, 0.000000e+00, 0.502989888, 6.22517824, -0.33854869, -0.0589724258, -0.313833177, -0.255872041, -0.293304026, -0.282735527, -0.28885287, -0.287227511, -0.288137108, -0.287917346, -0.287951857, -2.879430e-01]> : tensor<16xf32>
    %cst_9 = stablehlo.constant dense<[354.171173, 0.000000e+00, 0.874119758, 9.20790672, -0.0421104282, 0.194769889, -0.0219563879, 0.0279599521, -0.00452799257, 0.00470815646, -7.10393128E-4, 7.14876514E-4, -8.80396764E-5, 8.91314048E-5, 1.32301051E-4, -9.35434145E-5]> : tensor<16xf32>
    %cst_10 = stablehlo.constant dense<[972.521484, 0.000000e+00, 0.829021215, 15.6274681, -0.230358541, -0.0118875364, -0.215895846, -0.168328941, -0.201411426, -0.192730859, -0.198401839, -0.19707121, -0.197927535, -0.197773159, -0.198337495, -0.198233053]> : tensor<16xf32>
    %cst_11 = stablehlo.constant dense<[2111.91357, 0.000000e+00, 2.96750498, 24.9583759, -0.012698682, 0.470867515, -0.0385501981, 0.056485422, -0.00820949394, 0.00869482476, -0.00128752366, 0.00129581429, -1.87857018E-4, 1.85009369E-4, -3.45863868E-4, 2.53180886E-4]> : tensor<16xf32>
    %cst_12 = stablehlo.constant dense<[2133.65771, 0.000000e+00, 3.87669849, 18.7148895, -0.289828926, 0.247943312, -0.340197712, -0.23934947, -0.304349959, -0.286053866, -0.295447946, -0.292626083, -0.293967903, -0.293548137, -0.292859882, -0.292959183]> : tensor<16xf32>
    %cst_13 = stablehlo.constant dense<-2.600000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<207xf32>, tensor<207xf32>) -> tensor<207xi1>
    %cst_14 = stablehlo.constant dense<-2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %3 = stablehlo.compare LT, %arg0, %2, FLOAT : (tensor<207xf32>, tensor<207xf32>) -> tensor<207xi1>
    %4 = stablehlo.and %1, %3 : tensor<207xi1>
    %cst_15 = stablehlo.constant dense<-2.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %6 = stablehlo.select %4, %5, %arg1 : tensor<207xi1>, tensor<207xf32>
    %7 = stablehlo.subtract %arg0, %6 : tensor<207xf32>
    %8 = stablehlo.negate %6 : tensor<207xf32>
    %9 = stablehlo.convert %8 : (tensor<207xf32>) -> tensor<207xi32>
    %c = stablehlo.constant dense<2> : tensor<i32>
    %10 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %11 = stablehlo.compare GE, %9, %10, SIGNED : (tensor<207xi32>, tensor<207xi32>) -> tensor<207xi1>
    %c_16 = stablehlo.constant dense<9> : tensor<i32>
    %12 = stablehlo.broadcast_in_dim %c_16, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %13 = stablehlo.compare LE, %9, %12, SIGNED : (tensor<207xi32>, tensor<207xi32>) -> tensor<207xi1>
    %14 = stablehlo.and %11, %13 : tensor<207xi1>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %16 = stablehlo.compare GT, %7, %15, FLOAT : (tensor<207xf32>, tensor<207xf32>) -> tensor<207xi1>
    %c_18 = stablehlo.constant dense<1> : tensor<i32>
    %17 = stablehlo.broadcast_in_dim %c_18, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %c_19 = stablehlo.constant dense<0> : tensor<i32>
    %18 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %19 = stablehlo.select %16, %17, %18 : tensor<207xi1>, tensor<207xi32>
    %c_20 = stablehlo.constant dense<2> : tensor<i32>
    %20 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %21 = stablehlo.subtract %9, %20 : tensor<207xi32>
    %c_21 = stablehlo.constant dense<2> : tensor<i32>
    %22 = stablehlo.broadcast_in_dim %c_21, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %23 = stablehlo.multiply %22, %21 : tensor<207xi32>
    %24 = stablehlo.add %23, %19 : tensor<207xi32>
    %c_22 = stablehlo.constant dense<1> : tensor<i32>
    %25 = stablehlo.broadcast_in_dim %c_22, dims = [] : (tensor<i32>) -> tensor<207xi32>
    %26 = stablehlo.select %14, %24, %25 : tensor<207xi1>, tensor<207xi32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0] : (tensor<207xi32>) -> tensor<207x1xi32>
    %28 = "stablehlo.gather"(%cst, %27) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<207x1xi32>) -> tensor<207xf32>
    %29 = "stablehlo.gather"(%cst_0, %27) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<207x1xi32>) -> tensor<207xf32>
    %30 = "stablehlo.gather"(%cst_1, %27) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<207x1xi32>) -> tensor<207xf32>
    %31 = "stablehlo.gather"(%cst_2, %27) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<207x1xi32>) -> tensor<207xf32>
    %32 = "stablehlo.gather"(%cst_3, %27) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<207x1xi32>) -> tensor<207xf32>
    %33 = "stablehlo.gather"(%cst_4, %27) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<207x1xi32>) -> tensor<207xf32>
    %34 = "stablehlo.gather"(%cst_5, %27) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<207x1xi32>) -> tensor<207xf32>
    %35 = "stablehlo.gather"(%cst_6, %27) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<207x1xi32>) -> tensor<207xf32>
    %36 = "stablehlo.gather"(%cst_7, %27) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<207x1xi32>) -> tensor<207xf32>
    %37 = "stablehlo.gather"(%cst_8, %27) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<207x1xi32>) -> tensor<207xf32>
    %38 = "stablehlo.gather"(%cst_9, %27) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<207x1xi32>) -> tensor<207xf32>
    %39 = "stablehlo.gather"(%cst_10, %27) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<207x1xi32>) -> tensor<207xf32>
    %40 = "stablehlo.gather"(%cst_11, %27) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<207x1xi32>) -> tensor<207xf32>
    %41 = "stablehlo.gather"(%cst_12, %27) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<207x1xi32>) -> tensor<207xf32>
    %42 = stablehlo.subtract %7, %28 : tensor<207xf32>
    %43 = stablehlo.add %7, %28 : tensor<207xf32>
    %cst_23 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %45 = stablehlo.divide %44, %43 : tensor<207xf32>
    %46 = stablehlo.subtract %42, %29 : tensor<207xf32>
    %47 = stablehlo.multiply %46, %45 : tensor<207xf32>
    %48 = stablehlo.multiply %47, %43 : tensor<207xf32>
    %49 = stablehlo.subtract %42, %48 : tensor<207xf32>
    %cst_24 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %51 = stablehlo.add %50, %47 : tensor<207xf32>
    %52 = stablehlo.multiply %29, %51 : tensor<207xf32>
    %53 = stablehlo.subtract %49, %52 : tensor<207xf32>
    %54 = stablehlo.multiply %53, %45 : tensor<207xf32>
    %55 = stablehlo.add %47, %54 : tensor<207xf32>
    %56 = stablehlo.abs %55 : tensor<207xf32>
    %57 = stablehlo.compare LE, %56, %30, FLOAT : (tensor<207xf32>, tensor<207xf32>) -> tensor<207xi1>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<207xf32>
    %59 = stablehlo.select %57, %55, %58 : tensor<207xi1>, tensor<207xf32>
    %60 = call @_horner_4(%59, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41) : (tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>, tensor<207xf32>) -> tensor<207xf32>
    %61 = stablehlo.multiply %59, %60 : tensor<207xf32>
    return %57, %61 : tensor<207xi1>, tensor<207xf32>
  }
  func.func private @_horner_4(%arg0: tensor<207xf32>, %arg1: tensor<207xf32>, %arg2: tensor<207xf32>, %arg3: tensor<207xf32>, %arg4: tensor<207xf32>, %arg5: tensor<207xf32>, %arg6: tensor<207xf32>, %arg7: tensor<207xf32>, %arg8: tensor<207xf32>, %arg9: tensor<207xf32>, %arg10: tensor<207xf32>, %arg11: tensor<207xf32>) -> tensor<207xf32> {
    %0 = stablehlo.multiply %arg11, %arg0 : tensor<207xf32>
    %1 = stablehlo.add %0, %arg10 : tensor<207xf32>
    %2 = stablehlo.multiply %1, %arg0 : tensor<207xf32>
    %3 = stablehlo.add %2, %arg9 : tensor<207xf32>
    %4 = stablehlo.multiply %3, %arg0 : tensor<207xf32>
    %5 = stablehlo.add %4, %arg8 : tensor<207xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<207xf32>
    %7 = stablehlo.add %6, %arg7 : tensor<207xf32>
    %8 = stablehlo.multiply %7, %arg0 : tensor<207xf32>
    %9 = stablehlo.add %8, %arg6 : tensor<207xf32>
    %10 = stablehlo.multiply %9, %arg0 : tensor<207xf32>
    %11 = stablehlo.add %10, %arg5 : tensor<207xf32>
    %12 = stablehlo.multiply %11, %arg0 : tensor<207xf32>
    %13 = stablehlo.add %12, %arg4 : tensor<207xf32>
    %14 = stablehlo.multiply %13, %arg0 : tensor<207xf32>
    %15 = stablehlo.add %14, %arg3 : tensor<207xf32>
    %16 = stablehlo.multiply %15, %arg0 : tensor<207xf32>
    %17 = stablehlo.add %16, %arg2 : tensor<207xf32>
    %18 = stablehlo.multiply %17, %arg0 : tensor<207xf32>
    %19 = stablehlo.add %18, %arg1 : tensor<207xf32>
    return %19 : tensor<207xf32>
  }
}
