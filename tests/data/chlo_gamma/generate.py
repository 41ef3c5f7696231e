"""Write lgamma/digamma goldens from JAX 0.12 on CPU, in f32, f64, f16 and bf16:

- `xla_*`: XLA compiling `chlo.lgamma`/`chlo.digamma` itself (a two-op StableHLO
  module handed to the CPU backend): XLA's expansion of the chlo op, which is
  upstream's (the same Lanczos approximation), on XLA's own log/sin/cos;
- `jax_*`: `lax.lgamma`/`lax.digamma` as a JAX program computes them. JAX 0.12
  lowers digamma, and f64 lgamma, to the chlo op, but f32/f16/bf16 lgamma to its
  own, more accurate, float32 implementation (`jax/_src/lax/lgamma.py`).

Run by hand (JAX is not a dependency of xquant), from the repository root:

    python3.12 -m venv /tmp/jax312 && /tmp/jax312/bin/pip install 'jax==0.12.*'
    /tmp/jax312/bin/python tests/data/chlo_gamma/generate.py

Writes, next to this file:
- gamma.npz: `x_<dtype>` (the inputs), `xla_lgamma_<dtype>`, `xla_digamma_<dtype>`,
  `jax_lgamma_<dtype>`, `jax_digamma_<dtype>`; 16-bit floats as their uint16 bits (npz cannot hold
  ml_dtypes types portably);
- gamma_<dtype>.mlir: `jax.jit(f).lower(x).as_text()` of f(x) = (lgamma(x), digamma(x));
- MANIFEST.txt: the JAX version.
"""

from __future__ import annotations

from pathlib import Path

import jax

jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

HERE = Path(__file__).resolve().parent

SPECIAL = [
    # poles and around them
    0.0,
    -0.0,
    -1.0,
    -2.0,
    -3.0,
    -10.0,
    -1e6,
    -1.0009765625,
    -0.9990234375,
    -2.001,
    -1e-7,
    1e-7,
    # negatives (reflection)
    -0.5,
    -1.5,
    -2.25,
    -2.5,
    -3.75,
    -10.7,
    -33.3,
    -100.5,
    # the reflection's threshold and small values
    0.25,
    0.4999,
    0.5,
    0.5001,
    1.0,
    1.5,
    2.0,
    2.5,
    3.0,
    4.0,
    # large values
    10.0,
    33.0,
    100.0,
    1e4,
    1e6,
    1e10,
    1e20,
    1e30,
    3e38,
    # tiny values
    1e-20,
    1e-30,
    1e-38,
    1e-40,
    # non-finite
    float("nan"),
    float("inf"),
    float("-inf"),
]


def inputs(dtype: type) -> np.ndarray:
    rng = np.random.default_rng(31)
    grid = np.linspace(-12.0, 12.0, 97)
    spread = np.concatenate([rng.uniform(-30, 30, 40), 10.0 ** rng.uniform(-6, 6, 24)])
    values = np.concatenate([np.array(SPECIAL), grid, spread])
    with np.errstate(over="ignore"):
        return values.astype(dtype)


def f(x):
    return lax.lgamma(x), lax.digamma(x)


CHLO_MODULE = """module @m {{
  func.func public @main(%arg0: tensor<{n}x{t}>) -> (tensor<{n}x{t}>, tensor<{n}x{t}>) {{
    %0 = chlo.lgamma %arg0 : tensor<{n}x{t}> -> tensor<{n}x{t}>
    %1 = chlo.digamma %arg0 : tensor<{n}x{t}> -> tensor<{n}x{t}>
    return %0, %1 : tensor<{n}x{t}>, tensor<{n}x{t}>
  }}
}}"""


def xla_chlo(x: np.ndarray, type_name: str) -> tuple[np.ndarray, np.ndarray]:
    """XLA's CPU backend on the chlo ops as written (JAX's private compile API)."""
    from jax._src import xla_bridge
    from jax._src.lib import xla_client

    backend = xla_bridge.get_backend()
    text = CHLO_MODULE.format(n=x.size, t=type_name)
    devices = xla_client.DeviceList(tuple(backend.devices()[:1]))
    executable = backend.compile_and_load(text, devices, xla_client.CompileOptions())
    results = executable.execute_sharded([jax.device_put(x)])
    lg, dg = (np.asarray(r[0]) for r in results.disassemble_into_single_device_arrays())
    return lg, dg


def main() -> None:
    arrays: dict[str, np.ndarray] = {}
    for name, dtype in (
        ("f32", np.float32),
        ("f64", np.float64),
        ("f16", np.float16),
        ("bf16", ml_dtypes.bfloat16),
    ):
        x = inputs(dtype)
        lowered = jax.jit(f).lower(jnp.asarray(x))
        (HERE / f"gamma_{name}.mlir").write_text(lowered.as_text())
        lg, dg = (np.asarray(v) for v in lowered.compile()(jnp.asarray(x)))
        xla_lg, xla_dg = xla_chlo(x, name)
        outputs = (lg, dg, xla_lg, xla_dg)
        assert all(v.dtype == x.dtype for v in outputs), (name, outputs)
        named = (
            ("x", x),
            ("jax_lgamma", lg),
            ("jax_digamma", dg),
            ("xla_lgamma", xla_lg),
            ("xla_digamma", xla_dg),
        )
        for key, value in named:
            if name in ("f16", "bf16"):
                value = value.view(np.uint16)
            arrays[f"{key}_{name}"] = value
    np.savez_compressed(HERE / "gamma.npz", **arrays)
    (HERE / "MANIFEST.txt").write_text(
        f"jax {jax.__version__}\ngamma_{{f32,f64,f16,bf16}}.mlir gamma.npz\n"
    )


if __name__ == "__main__":
    main()
