"""`xquant-gguf`: import, run and export a GGUF file written by the `gguf`
package (`tests/data/gguf/tiny.gguf`, made by `tests/data/gguf/generate.py`),
and every kind of bad file, each a located error without a traceback."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

import xquant
from xquant.tools import xquant_gguf
from xquant.tools.xquant_gguf import function_name, main
from xquant.tools.xquant_run import main as run_main

gguf = pytest.importorskip(
    "gguf", reason="the gguf extra is not installed (pip install -e '.[gguf]')"
)

DATA = Path(__file__).parents[1] / "data" / "gguf"
TINY = DATA / "tiny.gguf"
GOLDEN = np.load(DATA / "golden.npz")
TENSORS = [
    "blk.0.ffn_down.weight",  # Q8_0
    "blk.0.attn_q.weight",  # Q4_K
    "output.weight",  # Q6_K
    "output_norm.weight",  # F32
    "token_embd.weight",  # F16
]


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gguf") / "tiny.mlir"
    assert main(["import", str(TINY), "-o", str(out)]) == 0
    return out


def test_function_names() -> None:
    taken: set[str] = set()
    assert function_name("blk.0.ffn_down.weight", taken) == "blk_0_ffn_down_weight"
    assert function_name("blk.0.ffn_down.weight", taken) == "blk_0_ffn_down_weight_1"
    assert function_name("0.w", taken) == "t_0_w"


def test_import_runs_every_tensor_bit_exact_with_gguf(imported: Path) -> None:
    module = xquant.parse_module(imported.read_text())
    for name in TENSORS:
        fn = function_name(name, set())
        (got,) = xquant.run(module, fn)
        want = GOLDEN[f"tiny_{name}"]
        assert got.dtype == np.float32 and got.shape == want.shape, name
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), name


def test_xquant_run_prints_every_tensor(imported: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert run_main([str(imported)]) == 0
    out = capsys.readouterr().out
    for name in TENSORS:
        assert f"// @{function_name(name, set())}\n" in out


def test_export_is_byte_identical(imported: Path, tmp_path: Path) -> None:
    out = tmp_path / "back.gguf"
    assert main(["export", str(imported), "-o", str(out)]) == 0
    assert out.read_bytes() == TINY.read_bytes()


def test_selected_tensors(tmp_path: Path) -> None:
    mlir = tmp_path / "one.mlir"
    assert (
        main(["import", str(TINY), "-o", str(mlir), "--tensor", "output.weight"]) == 0
    )
    text = mlir.read_text()
    assert "@output_weight()" in text and "@blk_0_attn_q_weight" not in text
    assert '"ggml.Q6_K"' in text


def test_gguf_package_reads_the_export(imported: Path, tmp_path: Path) -> None:
    out = tmp_path / "back.gguf"
    assert main(["export", str(imported), "-o", str(out)]) == 0
    reader = gguf.GGUFReader(str(out))
    assert [t.name for t in reader.tensors] == TENSORS


# ------------------------------------------------------------------ bad files


def _tensor_info_offsets(data: bytes) -> dict[str, tuple[int, int]]:
    """name -> (offset of its ggml type field, offset of its data offset field)."""
    from xquant.tools.gguf_file import GGUFFile

    f = GGUFFile.open(TINY)
    out: dict[str, tuple[int, int]] = {}
    for t in f.tensors:
        pos = t.info_offset + 8 + len(t.name.encode()) + 4 + 8 * len(t.shape)
        out[t.name] = (pos, pos + 4)
    return out


def _data_start(name: str) -> int:
    from xquant.tools.gguf_file import GGUFFile

    f = GGUFFile.open(TINY)
    info = next(t for t in f.tensors if t.name == name)
    start = f.data_offset + info.offset
    return start


def _bad(tmp_path: Path, data: bytes, capsys, *args: str) -> str:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.gguf"
    path.write_bytes(data)
    rc = main(["import", str(path), "-o", str(tmp_path / "bad.mlir"), *args])
    err = capsys.readouterr().err
    assert rc == 1
    assert "Traceback" not in err
    assert err.startswith(f"{path}: error: ")
    return err


def test_bad_magic(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    err = _bad(tmp_path, b"GGUX" + TINY.read_bytes()[4:], capsys)
    assert "not a GGUF file: magic b'GGUX'" in err


def test_corrupt_header_counts(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    data = bytearray(TINY.read_bytes())
    data[16:24] = struct.pack("<Q", 1 << 40)  # metadata count
    err = _bad(tmp_path, bytes(data), capsys)
    assert "corrupt header" in err


def test_truncated_header(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    err = _bad(tmp_path, TINY.read_bytes()[:200], capsys)
    assert "truncated header" in err


def test_unknown_ggml_type(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    data = bytearray(TINY.read_bytes())
    type_at, _ = _tensor_info_offsets(bytes(data))["output.weight"]
    data[type_at : type_at + 4] = struct.pack("<I", 99)
    err = _bad(tmp_path, bytes(data), capsys)
    assert "tensor 'output.weight': unknown GGML type 99" in err


def test_truncated_tensor_data(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    data = TINY.read_bytes()
    cut = _data_start("token_embd.weight") + 10
    err = _bad(tmp_path, data[:cut], capsys)
    assert "tensor 'token_embd.weight': F16 data of 192 bytes" in err
    assert "truncated" in err


def test_rows_not_whole_blocks(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    data = bytearray(TINY.read_bytes())
    type_at, _ = _tensor_info_offsets(bytes(data))["output.weight"]
    ne0_at = type_at - 16  # ne[0] of a rank-2 tensor
    data[ne0_at : ne0_at + 8] = struct.pack("<Q", 200)
    err = _bad(tmp_path, bytes(data), capsys)
    assert (
        "tensor 'output.weight': a row of 200 elements is not a whole number of "
        "Q6_K blocks of 256" in err
    )


@pytest.mark.parametrize("value", [np.nan, np.inf])
def test_non_finite_super_block_scale(tmp_path: Path, capsys, value: float) -> None:  # type: ignore[no-untyped-def]
    data = bytearray(TINY.read_bytes())
    start = _data_start("blk.0.attn_q.weight")
    block = start + 144  # super-block 1: row 0, second block; d is its first 2 bytes
    data[block : block + 2] = np.float16(value).tobytes()
    err = _bad(tmp_path, bytes(data), capsys)
    assert (
        "tensor 'blk.0.attn_q.weight': super-block 1 (row 0) has a non-finite scale"
        in err
    )
    assert f"at offset {block}" in err


def test_unknown_tensor_name(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    err = _bad(tmp_path, TINY.read_bytes(), capsys, "--tensor", "nope")
    assert "no tensor named 'nope'" in err


def test_corrupt_array_count(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """gguf alone loops for ever over a huge count of an array whose elements
    lie past the end of the file; xquant-gguf stops at the first short read."""
    field = gguf.GGUFReader(TINY).fields["tokenizer.ggml.scores"]
    count_at = field.offset + 8 + len(field.name) + 4 + 4
    data = bytearray(TINY.read_bytes())
    data[count_at : count_at + 8] = struct.pack("<Q", 1 << 40)
    err = _bad(tmp_path, bytes(data), capsys)
    assert "truncated header: 1 x float32 at offset" in err


def test_without_the_extra(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(xquant_gguf, "HAVE_GGUF", False)
    err = _bad(tmp_path, TINY.read_bytes(), capsys)
    assert "pip install 'xquant[gguf]'" in err


def _iq_blocks(name: str, size: int) -> np.ndarray:
    """Random i-quant blocks, 4 rows x 2, with a finite f16 `d` (0.1): the
    importer rejects NaN/Inf scales (IQ1_M spreads `d` over the top nibbles
    of its four u16 scale words)."""
    rng = np.random.default_rng(len(name) * size)
    raw = rng.integers(0, 256, (8, size), dtype=np.uint8)
    d = 0x2E66
    if name == "IQ1_M":
        words = raw[:, 48:56].copy().view("<u2")
        for k in range(4):
            words[:, k] = (words[:, k] & 0x0FFF) | (((d >> (4 * k)) & 0xF) << 12)
        raw[:, 48:56] = words.view(np.uint8)
    else:
        raw[:, 0:2] = np.array([d], "<u2").view(np.uint8)
    return raw.reshape(4, 2 * size)


def test_every_layout_round_trips(tmp_path: Path) -> None:
    """A file `gguf.GGUFWriter` writes with a tensor of every layout xquant
    reads from GGUF files (gguf's quantizers where it has them, else ggml's
    C quantizer bytes from golden.npz) imports, runs equal to gguf's
    dequantize and exports back byte-identical."""
    from xquant.numerics.gguf.layouts import IQ_TYPES, LAYOUTS, GGMLType

    x = GOLDEN["quant_x"][:4]
    path = tmp_path / "all.gguf"
    w = gguf.GGUFWriter(str(path), "llama")
    want: dict[str, np.ndarray] = {}
    for layout in LAYOUTS.values():
        if layout.ggml_type == GGMLType.Q8_1:
            continue  # not a GGUF storage type (test below)
        name = layout.name
        t = gguf.GGMLQuantizationType[name]
        if f"quant_{name}" in GOLDEN.files:
            raw = GOLDEN[f"quant_{name}"][:4]
        elif layout.ggml_type in IQ_TYPES:  # gguf has no i-quant quantizer
            raw = _iq_blocks(name, layout.type_size)
        else:
            raw = gguf.quants.quantize(x, t)
        w.add_tensor(f"w.{name.lower()}", raw, raw_dtype=t)
        want[f"w.{name.lower()}"] = gguf.quants.dequantize(raw, t)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    mlir = tmp_path / "all.mlir"
    assert main(["import", str(path), "-o", str(mlir)]) == 0
    text = mlir.read_text()
    for name, values in want.items():
        (got,) = xquant.run(xquant.parse_module(text), function_name(name, set()))
        assert got.tobytes() == values.astype(np.float32).tobytes(), name
    back = tmp_path / "back.gguf"
    assert main(["export", str(mlir), "-o", str(back)]) == 0
    assert back.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("name", ["Q8_K", "MXFP4", "I32", "Q8_1"])
def test_unsupported_layouts_are_reported(tmp_path: Path, capsys, name: str) -> None:  # type: ignore[no-untyped-def]
    """Q8_K (ggml's dot-product intermediate), MXFP4 and the integer types
    have no `!quant.superblock` spelling here, and Q8_1 (an IR type) has no
    agreed GGUF block size: a located error naming the tensor and the type,
    never a traceback."""
    t = gguf.GGMLQuantizationType[name]
    block, size = gguf.GGML_QUANT_SIZES[t]
    path = tmp_path / "iq.gguf"
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_tensor("w.iq", np.zeros((2, 256 // block * size), np.uint8), raw_dtype=t)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    rc = main(["import", str(path), "-o", str(tmp_path / "iq.mlir")])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err
    assert err.startswith(f"{path}: error: ")
    assert f"tensor 'w.iq': GGML type {name} is not supported" in err
    if name != "Q8_1":
        assert "Q8_1" not in err.split("supported:")[-1]


@pytest.mark.parametrize("name", ["IQ2_XXS", "IQ1_M"])
def test_non_finite_i_quant_scale(tmp_path: Path, capsys, name: str) -> None:  # type: ignore[no-untyped-def]
    """A NaN `d` in an i-quant block (IQ1_M: spread over its scale words) is
    the located error naming the tensor and the block."""
    t = gguf.GGMLQuantizationType[name]
    size = gguf.GGML_QUANT_SIZES[t][1]
    raw = _iq_blocks(name, size)
    bad = raw.reshape(-1, size)[3]  # row 1, second block
    if name == "IQ1_M":
        words = bad[48:56].copy().view("<u2")
        words[:] = words | 0xF000  # every nibble of d: 0xFFFF, a NaN
        bad[48:56] = words.view(np.uint8)
    else:
        bad[0:2] = np.array([0x7E00], "<u2").view(np.uint8)
    path = tmp_path / "iq.gguf"
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_tensor("w.iq", raw, raw_dtype=t)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    err = _bad(tmp_path, path.read_bytes(), capsys)
    assert (
        "tensor 'w.iq': super-block 3 (row 1) has a non-finite scale (d = nan)" in err
    )
