"""Helpers shared by the passes: IR emitters (one per dialect they build for), the op list
emitters build into, function-signature rewriting, and the pipeline runner. No pass
lives here (MLIR's Dialect/Quant/Utils, StableHLO's conversions/.../transforms helpers)."""
