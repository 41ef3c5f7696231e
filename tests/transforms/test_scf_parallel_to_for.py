"""`scf-parallel-to-for` computes what the interpreter computes for `scf.parallel`.

The reduction `acc + x` over values spread over twelve decades depends on the
order; the interpreter runs `scf.parallel` in row-major order folding each
value into the accumulator, and so must the nested loops (bit for bit); the
golden is that loop written with numpy.
"""

from __future__ import annotations

import numpy as np

import xquant

PROGRAM = """
func.func @main(%t: tensor<6x5xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %init = arith.constant 0.5 : f32
  %r = "scf.parallel"(%c0, %c0, %c6, %c5, %c2, %c1, %init) <{operandSegmentSizes = array<i32: 2, 2, 2, 1>}> ({
  ^bb0(%i: index, %j: index):
    %x = tensor.extract %t[%i, %j] : tensor<6x5xf32>
    "scf.reduce"(%x) ({
    ^bb1(%lhs: f32, %rhs: f32):
      %s = arith.addf %lhs, %rhs : f32
      "scf.reduce.return"(%s) : (f32) -> ()
    }) : (f32) -> ()
  }) : (index, index, index, index, index, index, f32) -> f32
  return %r : f32
}
"""


def test_same_bits_as_the_interpreter() -> None:
    rng = np.random.default_rng(0)
    t = (rng.normal(size=(6, 5)) * 10.0 ** rng.integers(-6, 6, (6, 5))).astype(
        np.float32
    )
    acc = np.float32(0.5)
    for i in range(0, 6, 2):
        for j in range(5):
            acc = np.float32(acc + t[i, j])
    (interpreted,) = xquant.run(PROGRAM, "main", t)
    module = xquant.apply_passes(xquant.parse_module(PROGRAM), "scf-parallel-to-for")
    assert not any(op.name == "scf.parallel" for op in module.walk())
    (looped,) = xquant.run(module, "main", t)
    assert np.float32(interpreted).tobytes() == acc.tobytes()
    assert np.float32(looped).tobytes() == acc.tobytes()
