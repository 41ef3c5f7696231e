"""Write the TF StableHLO-quantizer corpus (run by hand; TensorFlow is not a dependency).

    python3.11 -m venv /tmp/tf211 && /tmp/tf211/bin/pip install tensorflow-cpu==2.21.0
    /tmp/tf211/bin/python tests/data/tf_quantizer/generate.py

For each small model (dense, per-channel dense, conv, conv + pooling, MLP,
residual) and each method (static-range int8 per tensor, static-range int8
per channel, weight-only int8), TF's quantizer (`quantize_model.quantize`,
`op_set=STABLEHLO`) quantizes a SavedModel. Its quantized StableHLO module (the
IR before its own `stablehlo-legalize-quant-to-math`, dumped by the quantizer's
`TF_QUANT_MLIR_DUMP_PREFIX` hook) is written as `<name>.mlir`, locations
stripped; `<name>.npz` holds the input `x` and the output `y` that the
quantized SavedModel computes in TF (the producer's numbers). A model the
quantizer leaves unquantized, or a method it refuses, is listed in
`SKIPPED.txt` with TF's reason.

The quantized SavedModel itself runs one `XlaCallModule` op whose `module`
attribute is a serialized VHLO portable artifact: the integer-only module
TF's own `stablehlo-legalize-quant-to-math` made of the quantized one. It is
deserialized (`tensorflow.compiler.mlir.stablehlo.stablehlo.
deserialize_portable_artifact_str`, VHLO to StableHLO bytecode) and printed with
its locations (`iree-opt --mlir-print-debuginfo`, or `$IREE_OPT`; jaxlib's
`stablehlo.deserialize_portable_artifact` + `get_asm(enable_debug_info=True)`
prints the same text) as `serialized/<name>.mlir`, exactly as printed;
`serialized/<name>.npz` holds its arguments (`platform`, the index of "CPU" in
the op's `platforms`, which the module's first argument selects; `x`) and `y`,
the same output as above. A module equal to one already written for the same
model is not written again (static_int8_per_channel is static_int8: 12
distinct modules). `serialized/<name>.savedmodel.mlir` is the same program as
TF's converter writes the whole SavedModel (`pywrap_tensorflow_to_stablehlo.
savedmodel_to_stablehlo`: StableHLO bytecode, the `XlaCallModule` inlined, no
platform argument), printed the same way.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
METHODS = ("static_int8", "static_int8_per_channel", "weight_only_int8")


def models():
    import numpy as np
    import tensorflow as tf

    rng = np.random.default_rng(0)

    def const(*shape: int):
        return tf.constant(rng.normal(size=shape).astype(np.float32) * 0.5)

    class Dense(tf.Module):
        def __init__(self) -> None:
            self.w, self.b = const(8, 6), const(6)

        @tf.function(input_signature=[tf.TensorSpec([2, 8], tf.float32, name="x")])
        def serve(self, x):
            return {"y": tf.nn.relu(tf.matmul(x, self.w) + self.b)}

    class DenseNoBias(tf.Module):
        def __init__(self) -> None:
            self.w = const(8, 5)

        @tf.function(input_signature=[tf.TensorSpec([3, 8], tf.float32, name="x")])
        def serve(self, x):
            return {"y": tf.matmul(x, self.w)}

    class Conv(tf.Module):
        def __init__(self) -> None:
            self.w, self.b = const(3, 3, 2, 4), const(4)

        @tf.function(
            input_signature=[tf.TensorSpec([1, 6, 6, 2], tf.float32, name="x")]
        )
        def serve(self, x):
            y = tf.nn.conv2d(x, self.w, strides=1, padding="SAME") + self.b
            return {"y": tf.nn.relu(y)}

    class ConvPool(tf.Module):
        def __init__(self) -> None:
            self.w, self.b = const(3, 3, 2, 4), const(4)

        @tf.function(
            input_signature=[tf.TensorSpec([1, 8, 8, 2], tf.float32, name="x")]
        )
        def serve(self, x):
            y = tf.nn.relu(tf.nn.conv2d(x, self.w, strides=1, padding="VALID") + self.b)
            y = tf.nn.max_pool2d(y, ksize=2, strides=2, padding="VALID")
            return {"y": tf.nn.avg_pool2d(y, ksize=1, strides=1, padding="VALID")}

    class Mlp(tf.Module):
        def __init__(self) -> None:
            self.w1, self.b1 = const(8, 16), const(16)
            self.w2, self.b2 = const(16, 4), const(4)

        @tf.function(input_signature=[tf.TensorSpec([2, 8], tf.float32, name="x")])
        def serve(self, x):
            h = tf.nn.relu(tf.matmul(x, self.w1) + self.b1)
            return {"y": tf.matmul(h, self.w2) + self.b2}

    class Residual(tf.Module):
        def __init__(self) -> None:
            self.w1, self.b1 = const(8, 8), const(8)
            self.w2, self.b2 = const(8, 8), const(8)

        @tf.function(input_signature=[tf.TensorSpec([2, 8], tf.float32, name="x")])
        def serve(self, x):
            h = tf.nn.relu(tf.matmul(x, self.w1) + self.b1)
            return {"y": tf.nn.relu(tf.matmul(h, self.w2) + self.b2 + x)}

    return {
        "dense": Dense,
        "dense_no_bias": DenseNoBias,
        "conv": Conv,
        "conv_pool": ConvPool,
        "mlp": Mlp,
        "residual": Residual,
    }


def strip_locations(text: str) -> str:
    """The text without `loc(...)` (balanced, strings respected) and `#loc` alias lines."""
    out: list[str] = []
    i = 0
    while True:
        j = text.find("loc(", i)
        if j < 0:
            out.append(text[i:])
            break
        if j > 0 and (text[j - 1].isalnum() or text[j - 1] in "_.#"):
            out.append(text[i : j + 4])
            i = j + 4
            continue
        out.append(text[i:j].rstrip(" "))
        depth, k, in_string = 0, j + 3, False
        while True:
            c = text[k]
            if in_string:
                if c == "\\":
                    k += 1
                elif c == '"':
                    in_string = False
            elif c == '"':
                in_string = True
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        i = k + 1
    lines = [
        line
        for line in "".join(out).splitlines()
        if not re.match(r"\s*#loc\d* = ", line) and not line.startswith("// -----//")
    ]
    return "\n".join(lines).strip() + "\n"


ELIDED = re.compile(r"dense_resource<__elided__> : (tensor<[0-9x]*i8>)")


def xla_call_module(saved_model: Path):
    """The one `XlaCallModule` node of the SavedModel's graph (or its functions)."""
    from tensorflow.core.protobuf import saved_model_pb2

    proto = saved_model_pb2.SavedModel()
    proto.ParseFromString((saved_model / "saved_model.pb").read_bytes())
    graph = proto.meta_graphs[0].graph_def
    nodes = [*graph.node, *(n for f in graph.library.function for n in f.node_def)]
    (call,) = [n for n in nodes if n.op == "XlaCallModule"]
    return call


def print_bytecode(bytecode: bytes, work: Path, *flags: str) -> str:
    """StableHLO bytecode as text, printed by `iree-opt` with `flags`."""
    path = work / "module.mlirbc"
    path.write_bytes(bytecode)
    iree_opt = os.environ.get("IREE_OPT") or shutil.which("iree-opt") or "iree-opt"
    return subprocess.run(
        [iree_opt, *flags, str(path)], check=True, capture_output=True, text=True
    ).stdout


def print_artifact(artifact: bytes, work: Path, *flags: str) -> str:
    """A VHLO portable artifact as StableHLO text (TF deserializes it to
    bytecode, `iree-opt` prints it with `flags`)."""
    from tensorflow.compiler.mlir.stablehlo import stablehlo

    bytecode = stablehlo.deserialize_portable_artifact_str(artifact)
    return print_bytecode(bytecode, work, *flags)


def converted_module(saved_model: Path, work: Path) -> str:
    """The SavedModel as one StableHLO module, by TF's own converter
    (`savedmodel_to_stablehlo`: StableHLO bytecode, the `XlaCallModule` inlined),
    printed with its locations."""
    from tensorflow.compiler.mlir.tensorflow_to_stablehlo.python import (
        pywrap_tensorflow_to_stablehlo as tf_to_stablehlo,
    )

    bytecode = tf_to_stablehlo.savedmodel_to_stablehlo(str(saved_model))
    return print_bytecode(bytecode, work, "--mlir-print-debuginfo")


def integer_module(saved_model: Path, work: Path) -> str:
    """The text of the serialized (integer-only) StableHLO module TF saved in the
    `XlaCallModule` op, read back from its VHLO bytecode with `iree-opt`."""
    return print_artifact(xla_call_module(saved_model).attr["module"].s, work)


def restore_elided(text: str, integer_text: str) -> str:
    """The quantizer's dump elides constants over 16 elements (`dense_resource<__elided__>`);
    put back the storage integers of the serialized module's constants of the
    same type, in order (the corpus test checks the result against TF's)."""
    pools: dict[str, list[str]] = {}
    for match in re.finditer(
        r"stablehlo.constant (dense<.*?>) : (tensor<[0-9x]*i8>)", integer_text
    ):
        pools.setdefault(match.group(2), []).append(match.group(1))

    def put_back(match: re.Match[str]) -> str:
        pool = pools.get(match.group(1), [])
        return f"{pool.pop(0)} : {match.group(1)}" if pool else match.group(0)

    return ELIDED.sub(put_back, text)


def one(name: str, method: str, dump: Path) -> str:
    """Quantize model `name` with `method`, in this process (TF logs a lot)."""
    import numpy as np
    import tensorflow as tf
    from tensorflow.compiler.mlir.quantization.tensorflow import (
        quantization_options_pb2 as qo,
    )
    from tensorflow.compiler.mlir.quantization.tensorflow.python import (
        quantize_model,
    )

    model = models()[name]()
    work = Path(tempfile.mkdtemp())
    src, dst = work / "src", work / "dst"
    tf.saved_model.save(model, str(src), signatures={"serving_default": model.serve})
    spec = model.serve.input_signature[0]
    preset = qo.QuantizationMethod.PresetMethod
    options = qo.QuantizationOptions(
        quantization_method=qo.QuantizationMethod(
            preset_method=preset.METHOD_STATIC_RANGE_WEIGHT_ONLY_INT8
            if method == "weight_only_int8"
            else preset.METHOD_STATIC_RANGE_INT8
        ),
        op_set=qo.OpSet.STABLEHLO,
        tags={"serve"},
        signature_keys=["serving_default"],
        enable_per_channel_quantization=method != "static_int8",
    )
    if method == "weight_only_int8":
        options.min_num_elements_for_weights = 1
    rng = np.random.default_rng(1)
    data = [{"x": rng.normal(size=spec.shape).astype(np.float32)} for _ in range(32)]
    quantize_model.quantize(
        str(src),
        str(dst),
        options,
        representative_dataset={"serving_default": data}
        if method != "weight_only_int8"
        else None,
        overwrite_output_directory=True,
    )
    befores = sorted(dump.glob("*StablehloLegalizeQuantToMathPass_before.mlir"))
    if not befores:
        return "no quantized module was dumped"
    text = strip_locations(befores[-1].read_text())
    if "quant.uniform" not in text:
        return "the quantizer left the model unquantized"
    text = restore_elided(text, integer_module(dst, work))
    if "__elided__" in text:
        return "an elided constant has no match in the serialized module"
    x = rng.normal(size=spec.shape).astype(np.float32)
    loaded = tf.saved_model.load(str(dst))
    y = loaded.signatures["serving_default"](x=tf.constant(x))["y"].numpy()
    stem = f"{name}__{method}"
    (HERE / f"{stem}.mlir").write_text(text)
    np.savez(HERE / f"{stem}.npz", x=x, y=y)
    call = xla_call_module(dst)
    platforms = [p.decode() for p in call.attr["platforms"].list.s]
    serialized = print_artifact(call.attr["module"].s, work, "--mlir-print-debuginfo")
    out = HERE / "serialized"
    out.mkdir(exist_ok=True)
    for old in out.glob(f"{stem}.*"):
        old.unlink()
    # One file per distinct module: with op_set=STABLEHLO, TF quantizes weights
    # per channel whatever `enable_per_channel_quantization` says, so
    # static_int8_per_channel is static_int8 byte for byte.
    if not any(p.read_text() == serialized for p in out.glob(f"{name}__*.mlir")):
        (out / f"{stem}.mlir").write_text(serialized)
        # With several platforms the module's first argument is the platform index.
        platform = platforms.index("CPU")
        args = {"platform": np.int32(platform)} if len(platforms) > 1 else {}
        np.savez(out / f"{stem}.npz", **args, x=x, y=y)
        (out / f"{stem}.savedmodel.mlir").write_text(converted_module(dst, work))
    shutil.rmtree(work, ignore_errors=True)
    return "ok"


def main() -> int:
    if len(sys.argv) == 3:  # a child: one model, one method
        print(
            "RESULT:",
            one(
                sys.argv[1], sys.argv[2], Path(os.environ["TF_QUANT_MLIR_DUMP_PREFIX"])
            ),
        )
        return 0
    skipped: list[str] = []
    for name in models():
        for method in METHODS:
            dump = Path(tempfile.mkdtemp())
            env = dict(
                os.environ,
                TF_QUANT_MLIR_DUMP_PREFIX=str(dump),
                TF_CPP_VMODULE="mlir_dump=1",
            )
            run = subprocess.run(
                [sys.executable, __file__, name, method],
                env=env,
                capture_output=True,
                text=True,
            )
            lines = [ln for ln in run.stdout.splitlines() if ln.startswith("RESULT:")]
            result = (
                lines[-1][8:]
                if lines
                else (run.stderr.strip().splitlines() or ["crashed"])[-1]
            )
            print(f"{name} {method}: {result}", flush=True)
            if result != "ok":
                skipped.append(f"{name} {method}: {result}")
            shutil.rmtree(dump, ignore_errors=True)
    (HERE / "SKIPPED.txt").write_text("".join(f"{s}\n" for s in skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
