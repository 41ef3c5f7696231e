"""Quantize + dequantize of a 1024x1024 f32 tensor through `lower-mx-tensor` IR in the xquant
interpreter, vs. the hand-written numpy of `xquant.numerics.mx`. Prints times and the ratio.

Run: python benchmarks/bench_mx.py
"""

from __future__ import annotations

import numpy as np
from timing import (
    best_of,
    fix_allocator,
)  # benchmarks/timing.py (scripts run from this folder)
from xdsl.dialects.builtin import IntegerType, f4E2M1FN, f6E2M3FN, f8E4M3FN, f8E8M0FNU

import xquant
from xquant.numerics import mx

N = 1024
CASES = [
    ("MXFP8 (E4M3)", "f8E4M3FN", None, f8E4M3FN),
    ("MXFP6 (E2M3, i2+i4 split)", "f6E2M3FN", "[i2, i4]", f6E2M3FN),
    ("MXFP4 (E2M1)", "f4E2M1FN", None, f4E2M1FN),
]


def module_text(compute: str, storage: str | None) -> str:
    if storage is None:
        mx_type = f"!mx_tensor.tensor<<{N}x{N // 32}xf8E8M0FNU>, <{N}x{N}x{compute}>>"
        attr = ""
    else:
        parts = ", ".join(
            f"<{N}x{N}x{t.strip()}>" for t in storage.strip("[]").split(",")
        )
        mx_type = f"!mx_tensor.tensor<<{N}x{N // 32}xf8E8M0FNU>, [{parts}] x {compute}>"
        attr = f" {{storage_types = {storage}}}"
    return f"""
func.func @main(%x: tensor<{N}x{N}xf32>) -> tensor<{N}x{N}xf32> {{
  %q = mx_tensor.quantize %x{attr} : tensor<{N}x{N}xf32> -> {mx_type}
  %y = mx_tensor.dequantize %q : {mx_type} -> tensor<{N}x{N}xf32>
  func.return %y : tensor<{N}x{N}xf32>
}}
"""


def numpy_version(x: np.ndarray, compute, split: bool) -> np.ndarray:
    bytes_, elements = mx.quantize(x, (N, N // 32), compute)
    if split:
        fmt = mx.element_format(compute)
        parts = mx.split_storage(
            mx.element_codes(elements, fmt), [IntegerType(2), IntegerType(4)]
        )
        elements = mx.elements_from_codes(
            mx.join_storage(parts, [IntegerType(2), IntegerType(4)]), fmt
        )
    return mx.dequantize(
        mx.scale_from_bytes(bytes_, f8E8M0FNU), f8E8M0FNU, elements, compute
    )


def main() -> None:
    fix_allocator()
    x = np.random.default_rng(0).standard_normal((N, N)).astype(np.float32)
    print(f"quantize + dequantize, {N}x{N} f32, 32-element row blocks (best of 3)")
    for name, compute, storage, attr in CASES:
        module = xquant.parse_module(module_text(compute, storage))
        xquant.apply_passes(module, "lower-mx-tensor")
        (lowered,) = xquant.run(module, "main", x)
        reference = numpy_version(x, attr, storage is not None)
        assert np.array_equal(lowered.view(np.uint32), reference.view(np.uint32)), name
        t_ir = best_of(lambda: xquant.run(module, "main", x))
        t_np = best_of(lambda: numpy_version(x, attr, storage is not None))
        print(
            f"  {name:28s} lowered IR {t_ir * 1e3:7.1f} ms   numpy {t_np * 1e3:7.1f} ms   ratio {t_ir / t_np:4.2f}x"
        )


if __name__ == "__main__":
    main()
