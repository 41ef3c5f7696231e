"""Ops upstream MLIR has and xDSL 0.74 lacks, or defines too narrowly, under MLIR's names.

One module per upstream dialect: `arith` (remf, index_castui, MLIR's cast verifier),
`tensor` (reshape of unranked and dynamic tensors), `linalg` (div, batch_matmul,
matvec, vecmat, dot, map, the variadic reduce, pooling). They are plain op definitions;
`xquant.compat.upstream_ops` registers them in xDSL's dialects.
"""
