"""Writes `tf_function.mlir`: a tf.function as TensorFlow 2.21 prints it, with
its locations (run by hand; TensorFlow is not a dependency of xquant).

    python3.11 -m venv /tmp/tfvenv && /tmp/tfvenv/bin/pip install tensorflow-cpu==2.21.0
    /tmp/tfvenv/bin/python tests/data/locations/generate_tf.py

TensorFlow writes fused call-site locations through its own frames and
`#loc` aliases after the module; the ops are `tf` ops in generic form, which
`--allow-unregistered-dialect` reads. Absolute paths are shortened.
"""

from __future__ import annotations

import re
from pathlib import Path

import tensorflow as tf

HERE = Path(__file__).resolve().parent


@tf.function
def dense_relu_sum(x, w):
    return tf.reduce_sum(tf.nn.relu(tf.matmul(x, w) + 1.0), axis=-1)


def main() -> None:
    spec = (tf.TensorSpec([2, 4], tf.float32), tf.TensorSpec([4, 3], tf.float32))
    concrete = dense_relu_sum.get_concrete_function(*spec)
    text = tf.mlir.experimental.convert_function(concrete, show_debug_info=True)
    text = re.sub(r'"[^"]*/site-packages/', '"', text)
    text = text.replace(str(HERE.parents[2]) + "/", "")
    (HERE / "tf_function.mlir").write_text(text)


if __name__ == "__main__":
    main()
