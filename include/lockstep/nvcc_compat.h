/* Force-included by lockstep check and lockstep-clangd, after clang's CUDA
 * runtime wrapper, into units compiled with nvcc: nvcc defines __CUDACC__
 * as 1 and clang as empty, and headers that test `#if __CUDACC__` (NCCL
 * 2.28's nccl_device.h) only parse with nvcc's definition. */
#undef __CUDACC__
#define __CUDACC__ 1
