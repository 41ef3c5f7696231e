"""`!quant.double_quantized` (NF4 with double-quantized scales): the builder,
the round trip, the part sizes of torchao's layout, bad input through the API
(VerifyException / ParseError only) and through xquant-opt (located, exit 1).
Every verifier message: `filecheck/dialects/quant/double_quantized_invalid.mlir`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import Float32Type
from xdsl.utils.exceptions import ParseError

import xquant
from tests.tools.test_xquant_opt import run
from xquant.dialects.quant.nf4 import DoubleQuantizedType
from xquant.numerics import nf4_double

GOLDEN = np.load(Path(__file__).parents[2] / "data" / "nf4_double" / "nf4_double.npz")
QUANTILE = (
    "!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,"
    "-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>"
)


def _declare(type_text: str, shape: str = "256x64") -> str:
    return f"func.func private @f(tensor<{shape}x{type_text}>)\n"


@pytest.mark.parametrize("expressed", [None, Float32Type()])
def test_builder_prints_what_parses_back(expressed: Float32Type | None) -> None:
    qtype = DoubleQuantizedType.nf4(1, expressed)
    text = xquant.print_module(xquant.parse_module(_declare(str(qtype))))
    assert str(qtype) in text
    assert "scales i8:" in text and "{1:64}" in text and "{256}" in text


def test_torchao_default_part_sizes() -> None:
    qtype = DoubleQuantizedType.nf4(1)
    assert qtype.part_sizes((4096, 4096)) == (8388608, 262144, 2048, 2)
    assert qtype.storage_shape((4096, 4096)) == (8652802,)
    assert DoubleQuantizedType.nf4(1, Float32Type()).part_sizes((128, 128)) == (
        8192,
        256,
        4,
        4,
    )


def test_bytes_round_trip_torchaos_parts() -> None:
    dtype = nf4_double.DTYPES["bf16"]
    parts = [GOLDEN[f"bf16_{p}"] for p in ("codes", "scalers", "factor", "mean")]
    blob = np.frombuffer(b"".join(p.tobytes() for p in parts), np.uint8)
    t = nf4_double.from_bytes(blob, GOLDEN["bf16_input"].shape, dtype)
    assert np.array_equal(t.codes, parts[0]) and np.array_equal(t.scalers, parts[1])
    assert t.factor.tobytes() == parts[2].tobytes()
    assert t.mean.tobytes() == parts[3].tobytes()
    assert nf4_double.to_bytes(t).tobytes() == blob.tobytes()
    with pytest.raises(ValueError, match="8452 bytes expected"):
        nf4_double.from_bytes(blob[:100], (256, 64), dtype)


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        (
            _declare(
                f'!quant.double_quantized<{QUANTILE}:bf16:{{1:64}}, scales i4:bf16:{{256}}, mean bf16, layout "torchao.nf4">'
            ),
            ParseError,  # a type's verifier runs as it is parsed: located
            "block scales must be stored as i8, got i4",
        ),
        (
            _declare(
                f'!quant.double_quantized<{QUANTILE}:bf16:{{1:64}}, scales i8:bf16, mean bf16, layout "torchao.nf4">'
            ),
            ParseError,
            "Expected ':'",
        ),
    ],
)
def test_bad_types_through_the_api(
    text: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        xquant.parse_module(text)


def test_bad_storage_size_is_located_by_xquant_opt(tmp_path: Path) -> None:
    qtype = DoubleQuantizedType.nf4(1)
    path = tmp_path / "bad.mlir"
    path.write_text(
        f"func.func @f(%b: tensor<8000xi8>) -> tensor<256x64x{qtype}> {{\n"
        f"  %q = quant.scast %b : tensor<8000xi8> to tensor<256x64x{qtype}>\n"
        f"  func.return %q : tensor<256x64x{qtype}>\n}}\n"
    )
    done = run(path)
    assert done.returncode == 1
    want = f"{path}:2:8: error: storage of 256x64 elements must be tensor<8452xi8>"
    assert want in done.stderr, done.stderr
