"""Which slices of an MX tensor a scale tensor can still describe.

Per dimension, with source block `B`, tile size `n` and tile scale count `s`
(tile block `b = n / s`), a slice is one of:

- *aligned*: `b == B`; the offset is a multiple of `B` and the tile's scales
  are the source scales `[offset / B, offset / B + s)`;
- *broadcast*: the tile lies inside one source block (`s == 1`, `n` divides
  `B`, the offset is a multiple of `n`); its single scale is the source scale
  `offset // B`, which is how a 32x32 tile of 256x256 blocks gets a 1x1 scale.

Anything else would put elements of different source blocks under one tile
scale, which no scale tensor can express. Unit strides only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.utils.exceptions import VerifyException

from xquant.dialects.mx_tensor.types import MxTensorType

__all__ = ["DimSlice", "check_offsets", "plan_slice"]


@dataclass(frozen=True)
class DimSlice:
    """How one dimension of a tile relates to the source blocks."""

    dim: int
    size: int
    block: int
    """The source block size."""
    tile_block: int
    """The tile's block size (`size / tile scale count`)."""

    @property
    def broadcast(self) -> bool:
        """The tile lies in one source block, whose scale it takes."""
        return self.tile_block != self.block

    @property
    def scale_size(self) -> int:
        return self.size // self.tile_block

    def offset_error(self, offset: int, data_size: int) -> str | None:
        """Why `offset` is not allowed, or None."""
        if offset < 0 or offset + self.size > data_size:
            return f"dimension {self.dim}: slice [{offset}, {offset + self.size}) is out of bounds of size {data_size}"
        if not self.broadcast and offset % self.block != 0:
            return f"dimension {self.dim}: offset {offset} is not a multiple of the block size {self.block}"
        if self.broadcast and offset % self.size != 0:
            return (
                f"dimension {self.dim}: offset {offset} is not a multiple of the tile size {self.size}, "
                f"so the tile straddles two blocks of {self.block}"
            )
        return None

    def scale_offset(self, offset: int) -> int:
        return offset // self.block


def plan_slice(
    source: MxTensorType,
    tile: MxTensorType,
    sizes: Sequence[int],
    strides: Sequence[int],
    inserting: bool = False,
) -> list[DimSlice]:
    """The per-dimension plan of a slice, or a VerifyException saying which dimension cannot work."""
    rank = source.get_num_dims()
    if len(sizes) != rank or len(strides) != rank:
        raise VerifyException(
            f"expected {rank} sizes and strides, got {len(sizes)} and {len(strides)}"
        )
    if tile.get_num_dims() != rank:
        raise VerifyException(
            f"the tile has rank {tile.get_num_dims()} but the source has rank {rank}"
        )
    if tile.with_shapes(tile.scale_shape, source.get_shape()) != source.with_shapes(
        tile.scale_shape, source.get_shape()
    ):
        raise VerifyException(
            "the tile and the source must have the same scale, storage and compute types"
        )
    plans: list[DimSlice] = []
    for dim in range(rank):
        size, stride = sizes[dim], strides[dim]
        if size == DYNAMIC_INDEX or stride == DYNAMIC_INDEX:
            raise VerifyException(f"dimension {dim}: sizes and strides must be static")
        if stride != 1:
            raise VerifyException(
                f"dimension {dim}: stride {stride} is not supported; MX slices have unit strides"
            )
        if tile.get_shape()[dim] != size:
            raise VerifyException(
                f"dimension {dim}: the tile has data size {tile.get_shape()[dim]} but the slice size is {size}"
            )
        block, tile_block = source.block_shape[dim], tile.block_shape[dim]
        plan = DimSlice(dim, size, block, tile_block)
        aligned = tile_block == block
        broadcast = tile.scale_shape[dim] == 1 and block % size == 0
        if not aligned and not broadcast:
            raise VerifyException(
                f"dimension {dim}: a tile of {size} elements with {tile.scale_shape[dim]} scale(s) (block "
                f"{tile_block}) cannot describe source blocks of {block}; the tile block must equal the source "
                f"block, or the tile must have one scale and divide the block"
            )
        if inserting and plan.broadcast:
            raise VerifyException(
                f"dimension {dim}: the tile's block ({tile_block}) differs from the destination's block "
                f"({block}); inserting it would change the scale of elements outside the tile"
            )
        plans.append(plan)
    return plans


def check_offsets(
    plans: Sequence[DimSlice], offsets: Sequence[int], data_shape: Sequence[int]
) -> str | None:
    """The first problem with known offsets (DYNAMIC_INDEX entries are skipped), or None."""
    for plan, offset, data_size in zip(plans, offsets, data_shape, strict=True):
        if offset == DYNAMIC_INDEX:
            continue
        if (error := plan.offset_error(offset, data_size)) is not None:
            return error
    return None
