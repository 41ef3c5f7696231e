"""Generate the quantized Llama-style MLP block: `down(silu(x @ gate) * (x @ up))`.

    python examples/mlp_block/generate.py [--hidden 2048] [--intermediate 5632]
        [--tokens 16] [--seed 0] [--out examples/mlp_block/full]

Writes one module per weight format and activation type, each
`@main(%x: tensor<TxHxA>) -> tensor<TxHxA>` with its weights as `dense_resource`
blobs (bound with `xquant.bind_weights`, never written as literals), plus `x.npy`
and `x_bf16.npy` (the activations):

- `mlp_int4.mlir`: int4 storage, symmetric sub-channel scales in blocks of 32 along
  the contraction axis (`!quant.uniform<i4:f32:{0:32, 1:1}, {...}>`), `quant.dcast`
  to f32, f32 matmuls (weight-only quantization);
- `mlp_mxfp4.mlir`: MXFP4 (`!mx_tensor.tensor<<K/32xNxf8E8M0FNU>, <KxNxf4E2M1FN>>`,
  OCP floor scales) fed to `linalg.matmul` directly;
- `mlp_nvfp4.mlir`: NVFP4 (f8E4M3FN block scales over 16 elements along K, an f32
  per-tensor scale applied to each product afterwards, as torchao);
- `mlp_q4_k.mlir`, `mlp_q6_k.mlir`: GGUF k-quants (llama.cpp's reference
  quantizers), each weight stored as ggml stores it (N x K, super-blocks of 256
  along K) as `!quant.superblock` bytes, `quant.dcast` to f32 and
  `linalg.transpose` to K x N; only written when K is a multiple of 256 (not
  for `small/`);
- `mlp_<format>_bf16.mlir`: the same with bf16 activations, as bf16 inference runs:
  each matmul takes bf16 activations and accumulates in f32 (`linalg.matmul`
  widens its inputs exactly), silu runs in f32, and the activations leaving it and
  the block's result are rounded to bf16 (`arith.truncf`, nearest even).

Weights are seeded normal(0, 0.02) with realistic outliers: 1% of the input
channels of every weight are 8x larger, and a few activation features are 10x
larger. The full-size files (~100 MB of hex) are made on demand; the checked-in
`examples/mlp_block/small/` is `--hidden 32 --intermediate 64 --tokens 4`.
Run `report.py` on a directory to check both paths and print the error table.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import ml_dtypes
import numpy as np
from xdsl.dialects import builtin
from xdsl.dialects.builtin import ModuleOp

import xquant
from xquant.dialects.quant.superblock import SuperblockQuantizedType
from xquant.numerics import mx
from xquant.numerics.gguf.layouts import LAYOUTS, GGMLType, dequantize
from xquant.numerics.gguf.quantize import quantize as gguf_quantize

FORMATS = ("int4", "mxfp4", "nvfp4", "q4_k", "q6_k")
K_QUANTS = {"q4_k": GGMLType.Q4_K, "q6_k": GGMLType.Q6_K}
"""GGUF k-quants: the weight is stored as ggml stores it, N x K (output rows,
blocks of 256 along K), as `!quant.superblock` bytes; `quant.dcast` then
`linalg.transpose` give the K x N f32 operand. Only when K is a multiple of 256."""
ACTIVATIONS = ("f32", "bf16")
INT4_BLOCK = 32
MX_BLOCK = 32
NVFP4_BLOCK = 16
PIPELINES = {
    "int4": "lower-quant-ops{rounding=nearest-even}",
    "mxfp4": "lower-mx-tensor",
    "nvfp4": "lower-mx-tensor",
    "q4_k": "lower-quant-ops{rounding=nearest-even}",
    "q6_k": "lower-quant-ops{rounding=nearest-even}",
}
NAMES = ("gate", "up", "down")


@dataclass(frozen=True)
class Model:
    """The float model: activations and the three projection weights (K x N each)."""

    x: np.ndarray
    gate: np.ndarray
    up: np.ndarray
    down: np.ndarray

    @property
    def weights(self) -> dict[str, np.ndarray]:
        return {"gate": self.gate, "up": self.up, "down": self.down}


def make_model(hidden: int, intermediate: int, tokens: int, seed: int = 0) -> Model:
    """Seeded weights and activations with outlier channels."""
    rng = np.random.default_rng(seed)

    def weight(k: int, n: int) -> np.ndarray:
        w = rng.normal(0.0, 0.02, size=(k, n)).astype(np.float32)
        outliers = rng.choice(k, size=max(1, k // 100), replace=False)
        w[outliers] *= np.float32(8.0)
        return w

    x = rng.normal(0.0, 1.0, size=(tokens, hidden)).astype(np.float32)
    x[:, rng.choice(hidden, size=max(1, hidden // 256), replace=False)] *= 10
    return Model(
        x,
        weight(hidden, intermediate),
        weight(hidden, intermediate),
        weight(intermediate, hidden),
    )


def silu_mul(g: np.ndarray, u: np.ndarray) -> np.ndarray:
    """`g / (1 + exp(-g)) * u` in f32, op for op as the module's body."""
    return (g / (np.exp(-g) + np.float32(1.0)) * u).astype(np.float32)


def float_forward(model: Model) -> np.ndarray:
    """The float model in numpy (f32)."""
    x = model.x
    return silu_mul(x @ model.gate, x @ model.up) @ model.down


# ---------------------------------------------------------------------------------------
# quantized weights: (arguments to bind, the weight's type text, numpy dequantized f32)


def _scale_list(scales: np.ndarray) -> str:
    return ", ".join(
        "{" + ", ".join(repr(float(s)) for s in row) + "}" for row in scales.tolist()
    )


def quantize_int4(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric int4 blocks of 32 along K: (storage ints, f32 scales (K/32) x N)."""
    k, n = w.shape
    blocks = w.reshape(k // INT4_BLOCK, INT4_BLOCK, n)
    scales = (np.abs(blocks).max(axis=1) / np.float32(7.0)).astype(np.float32)
    scales[scales == 0] = 1.0
    q = np.clip(np.rint(blocks / scales[:, None, :]), -8, 7).astype(np.int8)
    return q.reshape(k, n), scales


def _per_block(values: np.ndarray, scales: np.ndarray) -> np.ndarray:
    """`values * scale of its block` (blocks along axis 0), without repeating the scales."""
    k, n = values.shape
    blocks = values.reshape(scales.shape[0], -1, n)
    return (blocks * scales[:, None, :]).reshape(k, n)


def int4_dequantized(q: np.ndarray, scales: np.ndarray) -> np.ndarray:
    return _per_block(q.astype(np.float32), scales)


def quantize_mxfp4(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(E8M0 scales (K/32) x N, f4E2M1FN elements) by the OCP floor recipe."""
    k, n = w.shape
    scale_bytes, data = mx.quantize(w, (k // MX_BLOCK, n), builtin.f4E2M1FN)
    return scale_bytes.astype(np.uint8).view(ml_dtypes.float8_e8m0fnu), data


def quantize_nvfp4(w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.float32]:
    """(f8E4M3FN scales (K/16) x N, f4E2M1FN elements, f32 per-tensor scale)."""
    k, n = w.shape
    g = mx.nvfp4_tensor_scale(np.abs(w).max())
    scale, data = mx.quantize_nvfp4(w, (k // NVFP4_BLOCK, n), g)
    return scale, data, g


def _decode(codes: np.ndarray) -> np.ndarray:
    """A one-byte float array (ml_dtypes) in f32, through a 256-entry table of its
    codes (exact, and ~10x faster than ml_dtypes' element-wise `astype`)."""
    table = np.arange(256, dtype=np.uint8).view(codes.dtype).astype(np.float32)
    return table[codes.view(np.uint8)]


def mx_dequantized(scale: np.ndarray, data: np.ndarray, block: int) -> np.ndarray:
    """`decode(element) * block scale` in f32 (the per-tensor scale applies later)."""
    assert data.shape[0] == scale.shape[0] * block
    return _per_block(_decode(data), _decode(scale))


def k_quant_dequantized(raw: np.ndarray, t: GGMLType, k: int, n: int) -> np.ndarray:
    """The K x N f32 weight of N x K k-quant blocks."""
    return np.ascontiguousarray(dequantize(raw, LAYOUTS[t], (n, k)).T)


def fits(fmt: str, sizes: dict[str, int]) -> bool:
    """Whether format `fmt` can hold the model's weights (k-quants: K % 256 == 0)."""
    if fmt not in K_QUANTS:
        return True
    return sizes["hidden"] % 256 == 0 and sizes["intermediate"] % 256 == 0


# ---------------------------------------------------------------------------------------
# modules


def _weight_ops(fmt: str, name: str, k: int, n: int, extra: dict[str, str]) -> str:
    """The ops that turn the bound blobs of weight `name` into a matmul operand `%{name}`."""
    if fmt in K_QUANTS:
        qtype = SuperblockQuantizedType.ggml(K_QUANTS[fmt], 1)
        nbytes = k // 256 * LAYOUTS[K_QUANTS[fmt]].type_size
        q = f"tensor<{n}x{k}x{qtype}>"
        return (
            f"  %{name}_q = quant.scast %{name}_blocks : tensor<{n}x{nbytes}xi8> to {q}\n"
            f"  %{name}_t = quant.dcast %{name}_q : {q} to tensor<{n}x{k}xf32>\n"
            f"  %{name}_e = tensor.empty() : tensor<{k}x{n}xf32>\n"
            f"  %{name} = linalg.transpose ins(%{name}_t : tensor<{n}x{k}xf32>) "
            f"outs(%{name}_e : tensor<{k}x{n}xf32>) permutation = [1, 0]\n"
        )
    if fmt == "int4":
        q = f"!q_{name}"
        return (
            f"  %{name}_s = quant.scast %{name}_i4 : tensor<{k}x{n}xi4> to tensor<{k}x{n}x{q}>\n"
            f"  %{name} = quant.dcast %{name}_s : tensor<{k}x{n}x{q}> to tensor<{k}x{n}xf32>\n"
        )
    block, scale_type = (
        (MX_BLOCK, "f8E8M0FNU") if fmt == "mxfp4" else (NVFP4_BLOCK, "f8E4M3FN")
    )
    mx_type = f"!mx_tensor.tensor<<{k // block}x{n}x{scale_type}>, <{k}x{n}xf4E2M1FN>>"
    extra[name] = mx_type
    return f"  %{name} = mx_tensor.construct %{name}_scale, %{name}_data : {mx_type}\n"


def _matmul(
    out: str,
    a: str,
    b: str,
    shape: tuple[int, int, int],
    a_type: str,
    b_type: str,
    g: float | None,
) -> str:
    """`out = a @ b` in f32 (then times the NVFP4 per-tensor scale `g`); `a` is a
    tensor of `a_type` (f32 or bf16, widened exactly by the matmul)."""
    m, k, n = shape
    text = (
        f"  %{out}_zero = arith.constant dense<0.000000e+00> : tensor<{m}x{n}xf32>\n"
        f"  %{out}{'_p' if g is not None else ''} = linalg.matmul ins(%{a}, %{b} : "
        f"tensor<{m}x{k}x{a_type}>, {b_type}) outs(%{out}_zero : tensor<{m}x{n}xf32>) "
        f"-> tensor<{m}x{n}xf32>\n"
    )
    if g is None:
        return text
    return text + (
        f"  %{out}_g = arith.constant {float(g)!r} : f32\n"
        f"  %{out} = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, "
        f'affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} '
        f"ins(%{out}_p : tensor<{m}x{n}xf32>) outs(%{out}_zero : tensor<{m}x{n}xf32>) {{\n"
        f"  ^bb0(%v: f32, %o: f32):\n"
        f"    %s = arith.mulf %v, %{out}_g : f32\n"
        f"    linalg.yield %s : f32\n"
        f"  }} -> tensor<{m}x{n}xf32>\n"
    )


def _to_bf16(out: str, value: str, m: int, n: int) -> str:
    """`out = truncf(value)`: an f32 tensor rounded to bf16 (nearest even)."""
    return (
        f"  %{out}_init = tensor.empty() : tensor<{m}x{n}xbf16>\n"
        f"  %{out} = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, "
        f'affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} '
        f"ins(%{value} : tensor<{m}x{n}xf32>) outs(%{out}_init : tensor<{m}x{n}xbf16>) {{\n"
        f"  ^bb0(%v: f32, %o: bf16):\n"
        f"    %t = arith.truncf %v : f32 to bf16\n"
        f"    linalg.yield %t : bf16\n"
        f"  }} -> tensor<{m}x{n}xbf16>\n"
    )


@dataclass
class Quantized:
    """One format's module text (weights still arguments), the blobs to bind, and
    the dequantized weights / per-tensor scales numpy uses for the same arithmetic."""

    text: str
    blobs: dict[str, np.ndarray]
    dequantized: dict[str, np.ndarray]
    tensor_scales: dict[str, np.float32]
    dequantizers: dict[str, Callable[[], np.ndarray]]  # recompute from the stored parts
    activations: str = "f32"

    def inputs(self, model: Model) -> np.ndarray:
        """The module's argument: the model's activations in its activation type."""
        if self.activations == "bf16":
            return model.x.astype(ml_dtypes.bfloat16)
        return model.x


def build(fmt: str, model: Model, activations: str = "f32") -> Quantized:
    """The module of format `fmt` with `activations` (f32 or bf16) and its weights as
    function arguments, and the blobs."""
    t, h = model.x.shape
    i = model.gate.shape[1]
    shapes = {"gate": (h, i), "up": (h, i), "down": (i, h)}
    blobs: dict[str, np.ndarray] = {}
    deq: dict[str, np.ndarray] = {}
    gs: dict[str, np.float32] = {}
    again: dict[str, Callable[[], np.ndarray]] = {}
    aliases: list[str] = []
    args: list[str] = []
    for name in NAMES:
        w = model.weights[name]
        k, n = shapes[name]
        if fmt in K_QUANTS:
            gt = K_QUANTS[fmt]
            raw = gguf_quantize(np.ascontiguousarray(w.T), gt)
            blobs[f"{name}_blocks"] = raw.view(np.int8)
            deq[name] = k_quant_dequantized(raw, gt, k, n)
            again[name] = lambda r=raw, g=gt, k=k, n=n: k_quant_dequantized(r, g, k, n)
            args.append(f"%{name}_blocks: tensor<{n}x{raw.shape[1]}xi8>")
        elif fmt == "int4":
            q, scales = quantize_int4(w)
            blobs[f"{name}_i4"] = q
            deq[name] = int4_dequantized(q, scales)
            again[name] = lambda q=q, s=scales: int4_dequantized(q, s)
            aliases.append(
                f"!q_{name} = !quant.uniform<i4:f32:{{0:{INT4_BLOCK}, 1:1}}, "
                f"{{{_scale_list(scales)}}}>"
            )
            args.append(f"%{name}_i4: tensor<{k}x{n}xi4>")
        elif fmt == "mxfp4":
            scale, data = quantize_mxfp4(w)
            blobs[f"{name}_scale"], blobs[f"{name}_data"] = scale, data
            deq[name] = mx_dequantized(scale, data, MX_BLOCK)
            again[name] = lambda s=scale, d=data: mx_dequantized(s, d, MX_BLOCK)
            args.append(f"%{name}_scale: tensor<{k // MX_BLOCK}x{n}xf8E8M0FNU>")
            args.append(f"%{name}_data: tensor<{k}x{n}xf4E2M1FN>")
        else:
            scale, data, g = quantize_nvfp4(w)
            blobs[f"{name}_scale"], blobs[f"{name}_data"] = scale, data
            deq[name], gs[name] = mx_dequantized(scale, data, NVFP4_BLOCK), g
            again[name] = lambda s=scale, d=data: mx_dequantized(s, d, NVFP4_BLOCK)
            args.append(f"%{name}_scale: tensor<{k // NVFP4_BLOCK}x{n}xf8E4M3FN>")
            args.append(f"%{name}_data: tensor<{k}x{n}xf4E2M1FN>")
    mx_types: dict[str, str] = {}
    body = "".join(_weight_ops(fmt, name, *shapes[name], mx_types) for name in NAMES)

    def typ(name: str) -> str:
        k, n = shapes[name]
        return mx_types.get(name, f"tensor<{k}x{n}xf32>")

    a = activations
    body += _matmul("hg", "x", "gate", (t, h, i), a, typ("gate"), gs.get("gate"))
    body += _matmul("hu", "x", "up", (t, h, i), a, typ("up"), gs.get("up"))
    act = "act" if a == "f32" else "act_f32"
    body += (
        f"  %{act}_init = tensor.empty() : tensor<{t}x{i}xf32>\n"
        f"  %{act} = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, "
        f"affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], "
        f'iterator_types = ["parallel", "parallel"]}} '
        f"ins(%hg, %hu : tensor<{t}x{i}xf32>, tensor<{t}x{i}xf32>) "
        f"outs(%{act}_init : tensor<{t}x{i}xf32>) {{\n"
        f"  ^bb0(%g: f32, %u: f32, %o: f32):\n"
        f"    %neg = arith.negf %g : f32\n"
        f"    %e = math.exp %neg : f32\n"
        f"    %one = arith.constant 1.000000e+00 : f32\n"
        f"    %den = arith.addf %e, %one : f32\n"
        f"    %silu = arith.divf %g, %den : f32\n"
        f"    %prod = arith.mulf %silu, %u : f32\n"
        f"    linalg.yield %prod : f32\n"
        f"  }} -> tensor<{t}x{i}xf32>\n"
    )
    y = "y" if a == "f32" else "y_f32"
    if a == "bf16":
        body += _to_bf16("act", act, t, i)
    body += _matmul(y, "act", "down", (t, i, h), a, typ("down"), gs.get("down"))
    if a == "bf16":
        body += _to_bf16("y", y, t, h)
    text = (
        f"// Llama MLP block, {fmt} weights, {a} activations: "
        f"down(silu(x @ gate) * (x @ up)), x: {t}x{h}, intermediate {i}\n"
        f"// Generated by examples/mlp_block/generate.py; run report.py on this directory.\n"
        + "".join(alias + "\n" for alias in aliases)
        + f"func.func @main(%x: tensor<{t}x{h}x{a}>, {', '.join(args)}) -> tensor<{t}x{h}x{a}> {{\n"
        + body
        + f"  func.return %y : tensor<{t}x{h}x{a}>\n}}\n"
    )
    return Quantized(text, blobs, deq, gs, again, activations)


def numpy_forward(
    model: Model,
    q: Quantized,
    fresh: bool = False,
    matmul: Callable[[np.ndarray, np.ndarray], np.ndarray] = np.matmul,
) -> np.ndarray:
    """The quantized model's arithmetic in plain numpy (dequantize, f32 matmuls, bf16
    activations widened and rounded where the module does); `fresh` dequantizes the
    stored parts again (as the modules do on every run); `matmul` sums the f32
    products (numpy's BLAS by default)."""

    def mm(a: np.ndarray, name: str) -> np.ndarray:
        w = q.dequantizers[name]() if fresh else q.dequantized[name]
        r = matmul(a.astype(np.float32), w)
        return r * q.tensor_scales[name] if name in q.tensor_scales else r

    def to_activations(v: np.ndarray) -> np.ndarray:
        return v.astype(ml_dtypes.bfloat16) if q.activations == "bf16" else v

    x = q.inputs(model)
    return to_activations(
        mm(to_activations(silu_mul(mm(x, "gate"), mm(x, "up"))), "down")
    )


def bound_module(fmt: str, model: Model, activations: str = "f32") -> ModuleOp:
    """The parsed module of format `fmt` with its weights bound as blobs."""
    q = build(fmt, model, activations)
    return xquant.bind_weights(xquant.parse_module(q.text), q.blobs)


def module_name(fmt: str, activations: str) -> str:
    """`mlp_int4.mlir`, `mlp_int4_bf16.mlir`, ..."""
    return f"mlp_{fmt}{'' if activations == 'f32' else '_' + activations}.mlir"


def input_name(activations: str) -> str:
    """`x.npy` (f32), `x_bf16.npy` (numpy saves bf16 as raw 2-byte `V2`; `xquant-run`
    reads it back as the function's bf16)."""
    return "x.npy" if activations == "f32" else f"x_{activations}.npy"


def write(
    out: Path,
    sizes: dict[str, int],
    formats: tuple[str, ...] = FORMATS,
) -> Model:
    """Write `model.json` (the sizes and seed), the activations and one module per
    format and activation type."""
    model = make_model(**sizes)
    out.mkdir(parents=True, exist_ok=True)
    (out / "model.json").write_text(json.dumps(sizes, sort_keys=True) + "\n")
    np.save(out / input_name("f32"), model.x)
    np.save(out / input_name("bf16"), model.x.astype(ml_dtypes.bfloat16))
    # Blob names are unique per process (gate_scale, gate_scale_0, ...): f32 first
    # keeps the f32 files' names whether or not the bf16 ones are written.
    for activations in ACTIVATIONS:
        for fmt in formats:
            if not fits(fmt, sizes):
                continue
            (out / module_name(fmt, activations)).write_text(
                xquant.print_module(bound_module(fmt, model, activations))
            )
    return model


def load_model(directory: Path) -> Model:
    """The float model a directory was generated from (regenerated from its seed)."""
    return make_model(**json.loads((directory / "model.json").read_text()))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hidden", type=int, default=2048)
    parser.add_argument("--intermediate", type=int, default=5632)
    parser.add_argument("--tokens", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "full")
    args = parser.parse_args()
    sizes = {
        "hidden": args.hidden,
        "intermediate": args.intermediate,
        "tokens": args.tokens,
        "seed": args.seed,
    }
    write(args.out, sizes)
    names = [module_name(f, a) for f in FORMATS for a in ACTIVATIONS]
    print(f"wrote {', '.join(names)}, x.npy and x_bf16.npy to {args.out}")


if __name__ == "__main__":
    main()
