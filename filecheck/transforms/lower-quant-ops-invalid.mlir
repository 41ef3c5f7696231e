// RUN: xquant-opt %s --lower-quant-ops -split-input-file -verify-diagnostics
// Types without a numeric meaning are diagnosed, not crashed on (upstream hits llvm_unreachable).

func.func @any(%arg0: f32) -> !quant.any<i8:f32> {
  // expected-error@+1 {{'quant.qcast' op cannot lower !quant.any<i8:f32>: only !quant.uniform types have a numeric meaning}}
  %0 = quant.qcast %arg0 : f32 to !quant.any<i8:f32>
  return %0 : !quant.any<i8:f32>
}

// -----
func.func @calibrated(%arg0: !quant.calibrated<f32<-1.0:1.0>>) -> f32 {
  // expected-error@+1 {{'quant.dcast' op cannot lower !quant.calibrated<f32<-1.000000e+00:1.000000e+00>>: only !quant.uniform types have a numeric meaning}}
  %0 = quant.dcast %arg0 : !quant.calibrated<f32<-1.0:1.0>> to f32
  return %0 : f32
}
