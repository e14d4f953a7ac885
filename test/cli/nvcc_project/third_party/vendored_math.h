// A vendored header, included as a system directory (-isystem= for nvcc).
#pragma once

inline int vendored_blocks(int n, int block) { return (n + block - 1) / block; }
