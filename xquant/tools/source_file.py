"""Reading an input file for the command-line tools: MLIR text, or a clear error.

xDSL reads MLIR's text form only. Producers also write MLIR *bytecode*
(`jax.export`'s serialized form, TensorFlow's `XlaCallModule` artifacts, VHLO
portable artifacts); fed to a text parser it fails with "unexpected character"
at some byte. This module recognizes bytecode by its magic number and says what
it is and how to turn it into text instead.
"""

from __future__ import annotations

import sys

__all__ = ["BYTECODE_MAGIC", "SourceError", "bytecode_producer", "read_source"]

BYTECODE_MAGIC = b"ML\xefR"
"""The first four bytes of every MLIR bytecode file."""


class SourceError(Exception):
    """An input the tools cannot read; the text is the whole diagnostic line."""


def bytecode_producer(data: bytes) -> str | None:
    """The producer string of MLIR bytecode (`StableHLO_v1.13.4`), or None if `data`
    is not bytecode. After the magic come the version (a varint) and the producer,
    NUL-terminated."""
    if not data.startswith(BYTECODE_MAGIC):
        return None
    position = len(BYTECODE_MAGIC)
    if position < len(data):
        # MLIR's prefix varint: the first byte's trailing zeros count the bytes
        # that follow it (a zero byte: eight).
        first = data[position]
        position += 1 + ((first & -first).bit_length() - 1 if first else 8)
    end = data.find(b"\0", position)
    if end < 0:
        return ""
    return data[position:end].decode("utf-8", errors="replace")


def _bytecode_message(name: str, producer: str) -> str:
    made_by = f" written by '{producer}'" if producer else ""
    how = (
        "`stablehlo-translate --deserialize FILE` prints it as text"
        if producer.startswith("StableHLO")
        else "`mlir-opt FILE` (or `stablehlo-opt FILE`) prints it as text"
    )
    return (
        f"{name}:1:1: error: this is MLIR bytecode{made_by}; xquant reads MLIR "
        f"text: {how} (docs/producers.md)"
    )


def read_source(name: str, *, strict: bool = True) -> str:
    """The text of `name` (`-` is standard input); SourceError when it cannot be
    opened, is MLIR bytecode, or (if `strict`) is not UTF-8. Not `strict`, bad
    bytes become U+FFFD, as xquant-opt has always read them."""
    if name == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream put in place by a test or an embedder
            return sys.stdin.read()
        data = stream.read()
        name = "<stdin>"
    else:
        try:
            with open(name, "rb") as file:
                data = file.read()
        except OSError as err:
            raise SourceError(f"cannot open input file '{name}': {err.strerror}")
    producer = bytecode_producer(data)
    if producer is not None:
        raise SourceError(_bytecode_message(name, producer))
    if not strict:
        return data.decode("utf-8", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise SourceError(
            f"{name}:{line}:{column}: error: the input is not UTF-8 text "
            f"(byte 0x{data[err.start]:02x})"
        ) from None
