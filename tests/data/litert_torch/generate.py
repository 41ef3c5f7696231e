"""Write the litert-torch PT2E corpus (run by hand; PyTorch and litert-torch are not dependencies).

    python3.11 -m venv /tmp/lt && /tmp/lt/bin/pip install litert-torch
    /tmp/lt/bin/python tests/data/litert_torch/generate.py

Each small model (dense, per-channel dense, conv, MLP) is exported with
`torch.export`, quantized with litert-torch's `PT2EQuantizer` (symmetric int8,
per tensor or per channel; torchao's `prepare_pt2e`/`convert_pt2e` with
`fold_quantize=False`, calibrated on random inputs) and lowered with
litert-torch's `exported_program_to_mlir`: the StableHLO text it writes, with
`custom_call @odml_torch.uniform_quantize/uniform_dequantize` for Q/DQ, is
`<name>.mlir` (constants in full: `large_elements_limit=None`); `<name>.npz`
holds an input `x` and the quantized PyTorch model's output `y` on it (the
producer's numbers).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import torch
from litert_torch.backend import export
from litert_torch.quantize import pt2e_quantizer
from torch import nn
from torchao.quantization.pt2e import quantize_pt2e

HERE = Path(__file__).resolve().parent


class Dense(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(8, 6)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.fc(x))


class Conv(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.conv(x))


class Mlp(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(8, 16), nn.Linear(16, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


MODELS = {
    "dense": (Dense, (2, 8)),
    "conv": (Conv, (1, 2, 6, 6)),
    "mlp": (Mlp, (2, 8)),
}


def one(name: str, per_channel: bool) -> None:
    torch.manual_seed(0)
    cls, shape = MODELS[name]
    model = cls().eval()
    example = (torch.randn(*shape),)
    graph = torch.export.export(model, example).module()
    quantizer = pt2e_quantizer.PT2EQuantizer().set_global(
        pt2e_quantizer.get_symmetric_quantization_config(is_per_channel=per_channel)
    )
    graph = quantize_pt2e.prepare_pt2e(graph, quantizer)
    for _ in range(16):
        graph(torch.randn(*shape))
    graph = quantize_pt2e.convert_pt2e(graph, fold_quantize=False)
    x = torch.randn(*shape)
    with torch.no_grad():
        y = graph(x)
    program = torch.export.export(graph, (x,))
    lowered = export.exported_program_to_mlir(program)
    text = lowered.get_text(large_elements_limit=None)
    stem = f"{name}__{'per_channel' if per_channel else 'per_tensor'}"
    (HERE / f"{stem}.mlir").write_text(text)
    np.savez(HERE / f"{stem}.npz", x=x.numpy(), y=y.numpy())
    print(stem, "ok", text.count("odml_torch.uniform_quantize"), "quantize calls")


def main() -> int:
    for name in MODELS:
        for per_channel in (False, True):
            one(name, per_channel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
