"""xDSL 0.74 loses `dense_resource` blobs when a process parses a second module.

xDSL keeps resource blobs in the `builtin` dialect's `OpAsmDialectInterface`, one
store per process. Each parse declares every handle it meets, renaming a name the
store already holds (`blob1` -> `blob1_0`), but it declares the attribute's handle
and the `{-# dialect_resources #-}` entry separately: the second parse of

    func.func @f() -> tensor<2xi32> {
      %0 = arith.constant dense_resource<blob1> : tensor<2xi32>
      func.return %0 : tensor<2xi32>
    }
    {-# dialect_resources: { builtin: { blob1: "0x040000000100000002000000" } } #-}

gives the attribute `dense_resource<blob1_0>` (an empty blob) and stores the data
under `blob1_1`. The fix remembers, per parser, which key each written name was
declared as, so the attribute and its data agree on one key (still renamed when
the store already holds the name, so earlier modules keep their blobs).
"""

from __future__ import annotations

from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.parser.attribute_parser import AttrParser


def _parse_dialect_resource_handle(
    self: AttrParser, dialect_name: str, interface: OpAsmDialectInterface
) -> str:
    name = self.parse_identifier(" for resource handle")
    keys: dict[tuple[str, str], str] = self.__dict__.setdefault(
        "_xquant_resource_keys", {}
    )
    key = keys.get((dialect_name, name))
    if key is None:
        key = interface.declare_resource(name)
        keys[(dialect_name, name)] = key
        self.dialect_resources.add((dialect_name, key))
    return key


def install() -> None:
    """Make every parser map a resource name to one key (idempotent)."""
    AttrParser._parse_dialect_resource_handle = _parse_dialect_resource_handle  # pyright: ignore[reportPrivateUsage]
