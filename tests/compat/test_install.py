"""`xquant.compat.install()`: explicit, idempotent, version-checked; importing xquant patches nothing."""

from __future__ import annotations

import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from xdsl.dialects.test import TestOp
from xdsl.ir import Attribute
from xdsl.printer import Printer

from xquant.compat import check_xdsl_version, install
from xquant.compat.printer import XQuantPrinter

ROOT = Path(__file__).resolve().parents[2]

# A fingerprint of everything the fixes replace in xDSL, printed by a subprocess.
FINGERPRINT = """
from xdsl.dialects import tensor
from xdsl.dialects.builtin import Float16Type, Float32Type, MemRefType, VectorType
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.ops import AddOp, BroadcastOp, GenericOp, MatmulOp, TransposeOp
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRLexer

def fingerprint():
    return [
        MLIRLexer._unescaped_characters_regex.pattern,
        [op.__qualname__ for op in tensor.Tensor.operations],
        [op.__qualname__ for op in Linalg.operations],
        NamedOperation.body_arg_types, AddOp.verify_, AddOp.get_hidden_region,
        MatmulOp.get_hidden_region, GenericOp.parse, Float16Type.pack,
        Float32Type.pack_into, AttrParser._TensorLiteralElement.to_type,
        AttrParser.parse_dense_int_or_fp_elements_attr, VectorType.verify,
        MemRefType.verify, Printer.print_attr_dict, tensor.EmptyOp.verify_,
        tensor.verify_reshape_like_types,
        TransposeOp.print, TransposeOp.parse, BroadcastOp.print, BroadcastOp.parse,
    ]

before = repr(fingerprint())
"""


def run_python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_importing_xquant_patches_nothing() -> None:
    """Nor does loading the multiverse (what xdsl-opt does at startup), only install()."""
    code = FINGERPRINT + (
        "import xquant, xquant.universe, xquant.dialects.quant, xquant.dialects.mx_tensor\n"
        "import xquant.dialects.stablehlo, xquant.dialects.upstream.linalg, xquant.compat.printer\n"
        "from xdsl.universe import Universe\n"
        "Universe.get_multiverse()\n"
        "print(before == repr(fingerprint()))\n"
        "from xquant.compat import install\n"
        "install()\n"
        "print(before == repr(fingerprint()))\n"
    )
    assert run_python(code).split() == ["True", "False"]


def test_loading_an_xquant_dialect_installs_the_fixes() -> None:
    """Stock xdsl-opt gets the fixes (and sorted attribute dicts) from the universe factories."""
    code = FINGERPRINT + (
        "from xdsl.universe import Universe\n"
        "multiverse = Universe.get_multiverse()\n"
        "multiverse.all_dialects['tensor']()\n"
        "print(before == repr(fingerprint()))\n"
        "multiverse.all_dialects['quant']()\n"
        "print(before == repr(fingerprint()))\n"
    )
    assert run_python(code).split() == ["True", "False"]


def test_install_is_idempotent() -> None:
    from xdsl.dialects.linalg import Linalg
    from xdsl.dialects.linalg.ops import GenericOp
    from xdsl.parser import AttrParser

    install()
    state = (
        list(Linalg.operations),
        GenericOp.parse,
        AttrParser.parse_dense_int_or_fp_elements_attr,
    )
    install()
    assert state == (
        list(Linalg.operations),
        GenericOp.parse,
        AttrParser.parse_dense_int_or_fp_elements_attr,
    )


@pytest.mark.parametrize("version", ["0.74.0", "0.74.3", "0.74.0.dev2"])
def test_xdsl_0_74_is_accepted(version: str) -> None:
    check_xdsl_version(version)


@pytest.mark.parametrize("version", ["0.75.0", "0.73.1", "1.74.0"])
def test_other_xdsl_versions_are_refused(version: str) -> None:
    with pytest.raises(
        RuntimeError, match=f"written for xDSL 0.74.x, but xDSL {version}"
    ):
        check_xdsl_version(version)


def test_installed_xdsl_is_supported() -> None:
    check_xdsl_version()


def _printed(printer: type[Printer], attributes: dict[str, Attribute]) -> str:
    stream = StringIO()
    printer(stream=stream).print_op(TestOp(attributes=attributes))
    return stream.getvalue()


def test_xquant_printer_combines_by_multiple_inheritance() -> None:
    """Another printer placed before XQuantPrinter in the MRO still gets sorted dicts."""
    from xdsl.dialects.builtin import IntegerAttr, StringAttr

    seen: list[list[str]] = []

    class Recording(Printer):
        def print_attr_dict(self, attr_dict: dict[str, Attribute]) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
            seen.append(list(attr_dict))
            super().print_attr_dict(attr_dict)

    class Combined(Recording, XQuantPrinter):
        pass

    attrs = {"zeta": IntegerAttr(1, 64), "alpha": StringAttr("a")}
    assert '{alpha = "a", zeta = 1 : i64}' in _printed(Combined, attrs)
    assert seen == [["zeta", "alpha"]]
