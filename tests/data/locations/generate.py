"""Writes the location-heavy samples in this folder from JAX (run by hand).

    python3.12 -m venv /tmp/jaxvenv && /tmp/jaxvenv/bin/pip install 'jax==0.12.*'
    XLA_FLAGS=--xla_force_host_platform_device_count=8 \
        /tmp/jaxvenv/bin/python tests/data/locations/generate.py

Not a dependency of xquant: the texts it writes are checked in.
"""

from __future__ import annotations

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

HERE = Path(__file__).resolve().parent
ROOT = str(HERE.parents[2]) + "/"


def write(name: str, text: str) -> None:
    """`text` with this repository's absolute path dropped from file names."""
    (HERE / name).write_text(text.replace(ROOT, ""))


def mlp(x, w, b):
    return jax.nn.gelu(x @ w + b).sum(axis=-1)


def layernorm(x):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + 1e-5)


def loop(x):
    return jax.lax.fori_loop(0, 3, lambda i, v: v * 2.0 + i, x)


def argmax(x):
    return jnp.argmax(x, axis=-1)


def sharded(x, w):
    y = jnp.tanh(x @ w)
    return jax.lax.with_sharding_constraint(y, PartitionSpec("x", None))


def doubled(x):
    return x * 2.0


def main() -> None:
    f32 = np.float32
    x = np.ones((4, 8), f32)
    w = np.ones((8, 16), f32)
    b = np.ones((16,), f32)
    samples = {
        "mlp": (mlp, (x, w, b)),
        "layernorm": (layernorm, (x,)),
        "loop": (loop, (x,)),
        "argmax": (argmax, (x,)),
    }
    for name, (f, args) in samples.items():
        lowered = jax.jit(f).lower(*args)
        write(f"{name}.debug.mlir", lowered.as_text(debug_info=True))
        exported = jax.export.export(jax.jit(f))(*args)
        write(f"{name}.export.mlir", exported.mlir_module())
    mesh = Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("x", "y"))
    in_shardings = (
        NamedSharding(mesh, PartitionSpec("x", None)),
        NamedSharding(mesh, PartitionSpec(None, "y")),
    )
    jitted = jax.jit(sharded, in_shardings=in_shardings)
    with jax.set_mesh(mesh):
        lowered = jitted.lower(x, w)
    write("sharded.debug.mlir", lowered.as_text(debug_info=True))
    write("sharded.mlir", lowered.as_text())
    # shard_map: an sdy.manual_computation over 2 devices (not runnable on one).
    pair = Mesh(np.array(jax.devices()[:2]), ("x",))
    mapped = jax.shard_map(
        doubled, mesh=pair, in_specs=PartitionSpec("x"), out_specs=PartitionSpec("x")
    )
    lowered = jax.jit(mapped).lower(x)
    write("shard_map.mlir", lowered.as_text())
    write("shard_map.debug.mlir", lowered.as_text(debug_info=True))


if __name__ == "__main__":
    main()
