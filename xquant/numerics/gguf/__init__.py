"""GGUF (llama.cpp) block formats: layouts, bit-exact dequantization and
llama.cpp's reference quantizers, on numpy arrays of raw block bytes."""
