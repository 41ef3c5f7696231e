"""Dequantize a 4096x4096 Q4_K weight: xquant (`quant.dcast` of a
`!quant.superblock` tensor in the interpreter, as written and after
`lower-quant-ops`, and `numerics.gguf` directly)
vs. `gguf.quants.dequantize` (gguf 0.19). Prints times and ratios.

Run: python benchmarks/bench_gguf.py   (the gguf column needs `pip install -e '.[gguf]'`)
"""

from __future__ import annotations

import numpy as np
from timing import best_of, fix_allocator  # benchmarks/timing.py
from xdsl.dialects.builtin import IntegerType, TensorType

import xquant
from xquant.dialects.quant.superblock import SuperblockQuantizedType
from xquant.interpreter.resources import store_resource
from xquant.numerics.gguf.layouts import LAYOUTS, GGMLType, dequantize
from xquant.numerics.gguf.quantize import quantize

N = 4096


def main() -> None:
    fix_allocator()
    rng = np.random.default_rng(0)
    layout = LAYOUTS[GGMLType.Q4_K]
    x = rng.standard_normal((N, N)).astype(np.float32)
    raw = quantize(x, GGMLType.Q4_K)  # (N, N / 256 * 144) bytes
    qtype = SuperblockQuantizedType.ggml(GGMLType.Q4_K, 1)
    nbytes = raw.shape[1]
    text = f"""func.func @main() -> tensor<{N}x{N}xf32> {{
  %b = arith.constant dense<0> : tensor<{N}x{nbytes}xi8>
  %q = quant.scast %b : tensor<{N}x{nbytes}xi8> to tensor<{N}x{N}x{qtype}>
  %f = quant.dcast %q : tensor<{N}x{N}x{qtype}> to tensor<{N}x{N}xf32>
  func.return %f : tensor<{N}x{N}xf32>
}}"""
    module = xquant.parse_module(text)
    const = next(iter(module.ops)).body.block.first_op
    assert const is not None
    const.properties["value"] = store_resource(
        "q4k_weight", raw.view(np.int8), TensorType(IntegerType(8), [N, nbytes])
    )
    (interp,) = xquant.run(module, "main")
    direct = dequantize(raw, layout, (N, N))
    assert np.array_equal(interp.view(np.uint32), direct.view(np.uint32))
    lowered = xquant.apply_passes(module.clone(), "lower-quant-ops")
    (low,) = xquant.run(lowered, "main")
    assert np.array_equal(low.view(np.uint32), direct.view(np.uint32))

    t_interp = best_of(lambda: xquant.run(module, "main"))
    t_lowered = best_of(lambda: xquant.run(lowered, "main"))
    t_numerics = best_of(lambda: dequantize(raw, layout, (N, N)))
    print(f"Q4_K dequantize {N}x{N} ({raw.nbytes / 2**20:.1f} MiB of blocks)")
    print(f"  xquant interpreter (quant.dcast): {t_interp * 1e3:8.1f} ms")
    print(f"  xquant interpreter, lowered     : {t_lowered * 1e3:8.1f} ms")
    print(f"  xquant numerics.gguf            : {t_numerics * 1e3:8.1f} ms")
    try:
        import gguf
    except ImportError:
        print("  gguf.quants.dequantize          : (gguf not installed)")
        return
    want = gguf.quants.dequantize(raw, gguf.GGMLQuantizationType.Q4_K)
    assert np.array_equal(want.view(np.uint32), direct.view(np.uint32))
    t_gguf = best_of(
        lambda: gguf.quants.dequantize(raw, gguf.GGMLQuantizationType.Q4_K)
    )
    print(f"  gguf.quants.dequantize          : {t_gguf * 1e3:8.1f} ms")
    print(f"  ratio interpreter / gguf: {t_interp / t_gguf:.2f}x")
    print(f"  ratio lowered / gguf    : {t_lowered / t_gguf:.2f}x")
    print(f"  ratio numerics / gguf   : {t_numerics / t_gguf:.2f}x")


if __name__ == "__main__":
    main()
