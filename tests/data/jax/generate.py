"""Write the JAX corpus: small programs as JAX lowers them, with inputs and JAX's CPU outputs.

Run by hand (JAX is not a dependency of xquant), from the repository root:

    python3.12 -m venv /tmp/jax312 && /tmp/jax312/bin/pip install 'jax==0.12.*'
    /tmp/jax312/bin/python tests/data/jax/generate.py

For each program NAME it writes, next to this file:
- NAME.mlir: `jax.jit(f).lower(*args).as_text()` (plain, no locations)
- NAME.debug.mlir: `.as_text(debug_info=True)` (with locations)
- NAME.export.mlir: `jax.export.export(jax.jit(f))(*args).mlir_module()`
- NAME.npz: the inputs `in0`, `in1`, ... and JAX's CPU outputs `out0`, ...
  (bf16 arrays are stored as their uint16 bits under `bits_in0`/`bits_out0`, with
  `dtype_in0 = "bfloat16"`, since npz cannot hold ml_dtypes types portably).
`MANIFEST.txt` records the JAX version and the program names.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
from jax import lax

jax.config.update("jax_platforms", "cpu")

HERE = Path(__file__).resolve().parent
RNG = np.random.default_rng(27)


def f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def i32(lo: int, hi: int, *shape: int) -> np.ndarray:
    return RNG.integers(lo, hi, shape).astype(np.int32)


def i8(*shape: int) -> np.ndarray:
    return RNG.integers(-128, 128, shape).astype(np.int8)


def bf16(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(ml_dtypes.bfloat16)


PROGRAMS: dict[str, tuple[Callable[..., Any], list[np.ndarray]]] = {}


def program(name: str, *args: np.ndarray):
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        PROGRAMS[name] = (fn, list(args))
        return fn

    return register


# --- neural-network building blocks -------------------------------------------------


@program("mlp_gelu", f32(4, 8), f32(8, 16), f32(16), f32(16, 4))
def mlp_gelu(x, w1, b1, w2):
    return jax.nn.gelu(x @ w1 + b1, approximate=False) @ w2


@program("mlp_gelu_tanh", f32(4, 8), f32(8, 16), f32(16, 4))
def mlp_gelu_tanh(x, w1, w2):
    return jax.nn.gelu(x @ w1, approximate=True) @ w2


def _layernorm(x, g, b):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5) * g + b


@program("layernorm", f32(4, 16), f32(16), f32(16))
def layernorm(x, g, b):
    return _layernorm(x, g, b)


@program(
    "transformer_layer",
    f32(8, 16),
    f32(16, 48) * 0.3,
    f32(16, 16) * 0.3,
    f32(16, 32) * 0.3,
    f32(32, 16) * 0.3,
)
def transformer_layer(x, wqkv, wo, w1, w2):
    seq, hidden, heads = 8, 16, 2
    h = _layernorm(x, 1.0, 0.0)
    q, k, v = jnp.split(h @ wqkv, 3, axis=-1)
    q = q.reshape(seq, heads, hidden // heads).transpose(1, 0, 2)
    k = k.reshape(seq, heads, hidden // heads).transpose(1, 0, 2)
    v = v.reshape(seq, heads, hidden // heads).transpose(1, 0, 2)
    s = jnp.einsum("hqd,hkd->hqk", q, k) / jnp.sqrt(hidden // heads)
    mask = jnp.tril(jnp.ones((seq, seq), bool))
    s = jnp.where(mask, s, -1e9)
    a = jnp.einsum("hqk,hkd->hqd", jax.nn.softmax(s, axis=-1), v)
    x = x + a.transpose(1, 0, 2).reshape(seq, hidden) @ wo
    return x + jax.nn.gelu(_layernorm(x, 1.0, 0.0) @ w1) @ w2


@program("cnn_pool", f32(2, 8, 8, 3), f32(3, 3, 3, 4) * 0.5, f32(4))
def cnn_pool(x, w, b):
    y = lax.conv_general_dilated(
        x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
    )
    y = jax.nn.relu(y + b)
    m = lax.reduce_window(y, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    a = lax.reduce_window(m, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4.0
    return a.mean(axis=(1, 2))


@program("softmax", f32(4, 10))
def softmax(x):
    return jax.nn.softmax(x, axis=-1)


@program("log_softmax_logsumexp", f32(4, 10))
def log_softmax_logsumexp(x):
    return jax.nn.log_softmax(x), jax.nn.logsumexp(x, axis=0)


@program("activations", f32(32))
def activations(x):
    return (
        jax.nn.sigmoid(x),
        jax.nn.silu(x),
        jax.nn.softplus(x),
        jax.nn.relu6(x * 4),
        jax.nn.elu(x),
        jnp.tanh(x),
    )


@program("embedding_gather", f32(10, 4), i32(0, 10, 6))
def embedding_gather(table, ids):
    return jnp.take(table, ids, axis=0)


@program("gather_2d", f32(5, 6), i32(0, 5, 4), i32(0, 6, 4))
def gather_2d(x, i, j):
    return x[i, j]


@program("one_hot", i32(0, 5, 6))
def one_hot(ids):
    return jax.nn.one_hot(ids, 5)


# --- scatter, sort, selection ----------------------------------------------------------


@program("scatter_add", f32(8), i32(0, 8, 5), f32(5))
def scatter_add(x, idx, v):
    return x.at[idx].add(v)


@program("scatter_set_2d", f32(4, 5), i32(0, 4, 3), f32(3, 5))
def scatter_set_2d(x, idx, v):
    return x.at[idx].set(v)


@program("scatter_max_int", i32(-50, 50, 6), i32(0, 6, 4), i32(-50, 50, 4))
def scatter_max_int(x, idx, v):
    return x.at[idx].max(v)


@program("segment_sum", f32(10), np.array([0, 0, 1, 2, 2, 2, 3, 3, 4, 4], np.int32))
def segment_sum(x, seg):
    return jax.ops.segment_sum(x, seg, num_segments=5)


@program("argmax", f32(4, 7))
def argmax(x):
    return jnp.argmax(x, axis=-1), jnp.argmin(x, axis=0)


@program("sort", f32(3, 6))
def sort(x):
    return jnp.sort(x, axis=-1)


@program("argsort", f32(10))
def argsort(x):
    return jnp.argsort(x)


@program("sort_multi_operand", i32(0, 4, 8), f32(8))
def sort_multi_operand(k, v):
    return lax.sort((k, v), num_keys=1, is_stable=True)


@program("top_k", f32(3, 10))
def top_k(x):
    return lax.top_k(x, 3)


# --- scans and control flow -------------------------------------------------------------


@program("cumsum", f32(12), i32(-5, 5, 3, 4))
def cumsum(x, n):
    return jnp.cumsum(x), jnp.cumsum(n, axis=1), jnp.cumprod(x[:5])


@program("while_loop", np.array(3.0, np.float32))
def while_loop(x):
    return lax.while_loop(
        lambda c: c[0] < 100.0, lambda c: (c[0] * 1.5, c[1] + 1), (x, 0)
    )


@program("fori_loop", f32(4))
def fori_loop(x):
    return lax.fori_loop(0, 5, lambda i, acc: acc * 0.5 + i, x)


@program("scan_rnn", f32(6, 3), f32(3, 3) * 0.5)
def scan_rnn(xs, w):
    def step(h, x):
        h = jnp.tanh(h @ w + x)
        return h, h.sum()

    return lax.scan(step, jnp.zeros(3, jnp.float32), xs)


@program("cond", np.array(2.0, np.float32), f32(5))
def cond(p, x):
    return lax.cond(p > 0, lambda v: jnp.sin(v), lambda v: jnp.cos(v) * 2, x)


@program("switch", np.array(1, np.int32), f32(5))
def switch(i, x):
    return lax.switch(i, [lambda v: v + 1, lambda v: v * v, lambda v: -v], x)


# --- integer arithmetic -------------------------------------------------------------


@program("int8_matmul", i8(4, 8), i8(8, 3))
def int8_matmul(a, b):
    return lax.dot(a, b, preferred_element_type=jnp.int32)


@program("int8_batched_matmul", i8(2, 3, 4), i8(2, 4, 5))
def int8_batched_matmul(a, b):
    return jnp.einsum("bij,bjk->bik", a, b, preferred_element_type=jnp.int32)


@program("integer_ops", i32(-1000, 1000, 8), i32(1, 8, 8))
def integer_ops(a, b):
    return (
        a + b * 3,
        a & b,
        a | b,
        a ^ b,
        ~a,
        a << b,
        a >> b,
        lax.shift_right_logical(a, b),
        jnp.maximum(a, b),
        jnp.abs(a),
        jnp.sign(a),
    )


@program("bit_counting", i32(-1000, 1000, 8), i8(8).astype(np.uint8))
def bit_counting(a, u):
    return lax.population_count(a), lax.clz(a), lax.population_count(u), lax.clz(u)


@program("bool_logic", f32(8), f32(8))
def bool_logic(a, b):
    p, q = a > 0, b > 0
    return p & q, p | q, p ^ q, ~p, jnp.logical_and(p, ~q).astype(jnp.int32)


@program(
    "remainder_floor_divide",
    i32(-50, 50, 8),
    i32(1, 7, 8) * np.where(RNG.random(8) < 0.5, -1, 1).astype(np.int32),
    f32(8) * 5,
    f32(8) + 3,
)
def remainder_floor_divide(a, b, x, y):
    return (
        jnp.remainder(a, b),
        jnp.floor_divide(a, b),
        jnp.remainder(x, y),
        jnp.floor_divide(x, y),
        lax.rem(a, b),
    )


@program("integer_reductions", i32(-100, 100, 4, 6))
def integer_reductions(a):
    return (
        a.sum(axis=1),
        a.max(axis=0),
        a.min(),
        jnp.prod(a[:, :3] % 5, axis=1),
        jnp.any(a > 90),
        jnp.all(a > -100),
    )


# --- floats: 16-bit, special functions ---------------------------------------------


@program("bf16_matmul", bf16(4, 16), bf16(16, 8))
def bf16_matmul(a, b):
    return a @ b


@program("bf16_matmul_f32_acc", bf16(4, 16), bf16(16, 8))
def bf16_matmul_f32_acc(a, b):
    return lax.dot(a, b, preferred_element_type=jnp.float32)


@program("f16_mlp", f32(4, 8).astype(np.float16), (f32(8, 8) * 0.3).astype(np.float16))
def f16_mlp(x, w):
    return jax.nn.relu(x @ w).sum(axis=-1)


@program("erf_erfc", f32(16) * 2)
def erf_erfc(x):
    return lax.erf(x), lax.erfc(x), jax.scipy.special.erf(x * 0.5)


@program("erf_inv", (RNG.random(16).astype(np.float32) * 1.8 - 0.9))
def erf_inv(x):
    return lax.erf_inv(x)


@program("square_and_powers", f32(8), i32(-20, 20, 8))
def square_and_powers(x, n):
    return jnp.square(x), jnp.square(n), x**3, lax.integer_pow(n, 3), jnp.abs(x) ** 0.5


@program("trig_hyperbolic", RNG.random(8).astype(np.float32) * 1.8 - 0.9)
def trig_hyperbolic(x):
    return (
        jnp.sinh(x),
        jnp.cosh(x),
        jnp.tan(x),
        jnp.arcsin(x),
        jnp.arccos(x),
        jnp.arctan(x),
        jnp.arcsinh(x),
        jnp.arccosh(x + 2),
        jnp.arctanh(x),
    )


@program("float_misc", f32(8) * 3, f32(8))
def float_misc(x, y):
    return (
        jnp.floor(x),
        jnp.ceil(x),
        jnp.round(x),
        jnp.clip(x, -1, 1),
        jnp.arctan2(x, y),
        jnp.exp2(y),
        jnp.log1p(jnp.abs(y)),
        jnp.expm1(y),
        jnp.isfinite(x / y),
        jnp.where(x > y, x, y),
    )


# --- data movement ---------------------------------------------------------------------


@program("slicing_padding", f32(6, 5), np.array(2, np.int32))
def slicing_padding(x, i):
    d = lax.dynamic_slice(x, (i, 1), (3, 3))
    u = lax.dynamic_update_slice(x, d * 0, (i, 0))
    return (
        jnp.pad(x[1:5:2, ::-1], ((1, 0), (0, 2))),
        jnp.concatenate([x, x[:2]], axis=0),
        d,
        u,
        jnp.flip(x, axis=0),
    )


@program("composite_op", f32(6))
def composite_op(x):
    def my_tanh(v):  # decomposed by its own body
        return jnp.tanh(v) * 2.0

    return lax.composite(my_tanh, name="xquant.scaled_tanh")(x) + 1.0


# ------------------------------------------------------------------------------------


def store_array(out: dict[str, np.ndarray], key: str, value: Any) -> None:
    array = np.asarray(value)
    if array.dtype == ml_dtypes.bfloat16:
        out[f"bits_{key}"] = array.view(np.uint16)
        out[f"dtype_{key}"] = np.array("bfloat16")
    else:
        out[key] = array


def main(names: list[str]) -> None:
    selected = names or sorted(PROGRAMS)
    for name in selected:
        fn, args = PROGRAMS[name]
        jitted = jax.jit(fn)
        lowered = jitted.lower(*args)
        (HERE / f"{name}.mlir").write_text(lowered.as_text())
        (HERE / f"{name}.debug.mlir").write_text(lowered.as_text(debug_info=True))
        exported = jax.export.export(jitted)(*args)
        (HERE / f"{name}.export.mlir").write_text(exported.mlir_module())
        outputs = jax.tree_util.tree_leaves(jitted(*args))
        arrays: dict[str, np.ndarray] = {}
        for i, a in enumerate(args):
            store_array(arrays, f"in{i}", a)
        for i, o in enumerate(outputs):
            store_array(arrays, f"out{i}", o)
        np.savez_compressed(HERE / f"{name}.npz", **arrays)
        print(name)
    (HERE / "MANIFEST.txt").write_text(
        f"jax {jax.__version__}, jaxlib {jax.lib.__version__}, numpy {np.__version__}\n"
        + "".join(f"{n}\n" for n in sorted(PROGRAMS))
    )


if __name__ == "__main__":
    main(sys.argv[1:])
