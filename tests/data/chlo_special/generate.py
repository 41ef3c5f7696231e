"""Write goldens for chlo's special functions from JAX 0.12 on CPU (XLA compiling the
chlo ops itself, upstream's expansions on XLA's own pow/log/exp), in f32, f64 and f16:

- `chlo.zeta(x, q)`, `chlo.polygamma(n, x)`, `chlo.bessel_i1e(x)`,
  `chlo.next_after(x, y)`, `chlo.erf_inv(x)`, `chlo.erf(x)`, `chlo.erfc(x)`;
- `chlo.ragged_dot` (f32) in its three modes;
- the same through `lax.zeta`, `lax.polygamma`, `lax.bessel_i1e`, `lax.nextafter`,
  `lax.erf_inv`, `lax.erf`, `lax.erfc` (`jax_*`), as a JAX program computes them.

Run by hand (JAX is not a dependency of xquant), from the repository root:

    python3.12 -m venv /tmp/jax312 && /tmp/jax312/bin/pip install 'jax==0.12.*'
    /tmp/jax312/bin/python tests/data/chlo_special/generate.py

Writes, next to this file, special.npz (`<input>_<dtype>` and `<source>_<op>_<dtype>`,
f16 as its uint16 bits) and MANIFEST.txt (the JAX version).
"""

from __future__ import annotations

from pathlib import Path

import jax

jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

HERE = Path(__file__).resolve().parent
DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16}

SPECIAL = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -0.5,
    2.0,
    3.0,
    7.9,
    8.0,
    8.1,
    30.0,
    1e-3,
    -1e-3,
    1e3,
    1e10,
    1e-30,
    float("nan"),
    float("inf"),
    float("-inf"),
]


def unary_inputs(dtype: type) -> np.ndarray:
    rng = np.random.default_rng(27)
    grid = np.linspace(-40.0, 40.0, 81)
    spread = np.concatenate([rng.uniform(-5, 5, 30), 10.0 ** rng.uniform(-6, 4, 20)])
    with np.errstate(over="ignore"):
        return np.concatenate([np.array(SPECIAL), grid, spread]).astype(dtype)


def unit_inputs(dtype: type) -> np.ndarray:
    """erf_inv's domain [-1, 1], its ends, and outside it."""
    rng = np.random.default_rng(29)
    grid = np.linspace(-1.0, 1.0, 81)
    near = 1 - 10.0 ** rng.uniform(-7, -1, 20)
    edge = [1.0, -1.0, 0.0, 1.5, -2.0, float("nan"), float("inf")]
    values = np.concatenate([grid, near, -near, edge, rng.uniform(-1, 1, 30)])
    return values.astype(dtype)


def pair_inputs(dtype: type) -> tuple[np.ndarray, np.ndarray]:
    """(x, q) for zeta: x >= 1 mostly, q across its poles; integer n for polygamma."""
    rng = np.random.default_rng(31)
    x = np.concatenate(
        [
            [1.0, 1.5, 2.0, 2.0, 3.0, 4.0, 2.0, 3.0, 0.5, 2.5, 2.0, 6.0, 2.0, 3.0],
            rng.uniform(1, 12, 60),
            rng.integers(1, 8, 30).astype(float),
        ]
    )
    q = np.concatenate(
        [
            [
                1.0,
                2.0,
                0.5,
                -1.0,
                -2.0,
                0.0,
                -1.5,
                1e-3,
                2.0,
                -2.5,
                1e4,
                3.0,
                np.inf,
                np.nan,
            ],
            rng.uniform(0.05, 20, 60),
            rng.uniform(-6, 6, 30),
        ]
    )
    return x.astype(dtype), q.astype(dtype)


def polygamma_inputs(dtype: type) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(37)
    n = np.concatenate(
        [[0, 0, 1, 1, 2, 3, 4, -1, 1.5, 0, 2], rng.integers(0, 6, 60).astype(float)]
    )
    x = np.concatenate(
        [
            [1.0, -0.5, 1.0, 0.5, 2.0, 3.0, 0.25, 1.0, 1.0, 0.0, -2.0],
            rng.uniform(0.1, 10, 60),
        ]
    )
    return n.astype(dtype), x.astype(dtype)


def next_after_inputs(dtype: type) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(41)
    specials = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-30, 3e38]
    x = np.array([a for a in specials for _ in specials] + list(rng.normal(size=40)))
    y = np.array([b for _ in specials for b in specials] + list(rng.normal(size=40)))
    with np.errstate(over="ignore"):
        return x.astype(dtype), y.astype(dtype)


UNARY = {"bessel_i1e": lax.bessel_i1e, "erf": lax.erf, "erfc": lax.erfc}
BINARY = {"zeta": lax.zeta, "polygamma": lax.polygamma, "next_after": lax.nextafter}

MODULE = """module @m {{
  func.func public @main({args}) -> tensor<{n}x{t}> {{
    %0 = chlo.{op} {operands} : {types} -> tensor<{n}x{t}>
    return %0 : tensor<{n}x{t}>
  }}
}}"""


def xla_chlo(op: str, arrays: list[np.ndarray], type_name: str) -> np.ndarray:
    """XLA's CPU backend on the chlo op as written (JAX's private compile API)."""
    from jax._src import xla_bridge
    from jax._src.lib import xla_client

    n = arrays[0].size
    tensor = f"tensor<{n}x{type_name}>"
    text = MODULE.format(
        args=", ".join(f"%arg{i}: {tensor}" for i in range(len(arrays))),
        n=n,
        t=type_name,
        op=op,
        operands=", ".join(f"%arg{i}" for i in range(len(arrays))),
        types=", ".join([tensor] * len(arrays)),
    )
    backend = xla_bridge.get_backend()
    devices = xla_client.DeviceList(tuple(backend.devices()[:1]))
    executable = backend.compile_and_load(text, devices, xla_client.CompileOptions())
    results = executable.execute_sharded([jax.device_put(a) for a in arrays])
    (out,) = results.disassemble_into_single_device_arrays()
    return np.asarray(out[0])


RAGGED_DOT_MODES = {
    # name: lhs shape, rhs shape, group sizes, ((lhs_contracting, rhs_contracting),
    # (lhs_batch, rhs_batch)), lhs_ragged_dimensions, rhs_group_dimensions
    # [b,m,k] x [g,b,k,n], group_sizes [g] -> [b,m,n]
    "mode1": ((2, 11, 5), (3, 2, 5, 7), [4, 0, 6], (([2], [2]), ([0], [1])), [1], [0]),
    # [b,m,k] x [b,k,n], group_sizes [b,g] -> [g,b,m,n]
    "mode2": (
        (2, 3, 5),
        (2, 5, 7),
        [[1, 2, 0, 2], [3, 0, 1, 0]],
        (([2], [1]), ([0], [0])),
        [2],
        [],
    ),
    # [b,m,k] x [b,k,n], group_sizes [g] -> [b,m,n]
    "mode3": ((2, 3, 5), (2, 5, 7), [1, 1], (([2], [1]), ([0], [0])), [0], []),
}


def ragged_dot(arrays: dict[str, np.ndarray]) -> None:
    """f32 `lax.ragged_dot_general` in the three modes of `chlo.ragged_dot` (XLA's
    CPU backend has no ragged-dot of its own: JAX computes it)."""
    rng = np.random.default_rng(43)
    for mode, (lhs, rhs, sizes, dims, ragged, group) in RAGGED_DOT_MODES.items():
        a = rng.normal(size=lhs).astype(np.float32)
        b = rng.normal(size=rhs).astype(np.float32)
        g = np.array(sizes, np.int64)
        numbers = lax.RaggedDotDimensionNumbers(
            dot_dimension_numbers=dims,
            lhs_ragged_dimensions=ragged,
            rhs_group_dimensions=group,
        )
        out = jax.jit(
            lambda x, y, s, n=numbers: lax.ragged_dot_general(
                x, y, s, n, precision=lax.Precision.HIGHEST
            )
        )(a, b, g)
        arrays[f"ragged_{mode}_lhs"] = a
        arrays[f"ragged_{mode}_rhs"] = b
        arrays[f"ragged_{mode}_groups"] = g
        arrays[f"ragged_{mode}_jax"] = np.asarray(out)


def main() -> None:
    arrays: dict[str, np.ndarray] = {}

    def put(key: str, name: str, value: np.ndarray) -> None:
        arrays[f"{key}_{name}"] = value.view(np.uint16) if name == "f16" else value

    for name, dtype in DTYPES.items():
        x = unary_inputs(dtype)
        put("x", name, x)
        for op, function in UNARY.items():
            put(f"xla_{op}", name, xla_chlo(op, [x], name))
            put(f"jax_{op}", name, np.asarray(jax.jit(function)(jnp.asarray(x))))
        u = unit_inputs(dtype)
        put("u", name, u)
        put("xla_erf_inv", name, xla_chlo("erf_inv", [u], name))
        put("jax_erf_inv", name, np.asarray(jax.jit(lax.erf_inv)(jnp.asarray(u))))
        pairs = {
            "zeta": pair_inputs(dtype),
            "polygamma": polygamma_inputs(dtype),
            "next_after": next_after_inputs(dtype),
        }
        for op, (a, b) in pairs.items():
            put(f"{op}_lhs", name, a)
            put(f"{op}_rhs", name, b)
            put(f"xla_{op}", name, xla_chlo(op, [a, b], name))
            jitted = jax.jit(BINARY[op])
            put(f"jax_{op}", name, np.asarray(jitted(jnp.asarray(a), jnp.asarray(b))))
    ragged_dot(arrays)
    np.savez_compressed(HERE / "special.npz", **arrays)
    (HERE / "MANIFEST.txt").write_text(f"jax {jax.__version__}\nspecial.npz\n")


if __name__ == "__main__":
    main()
