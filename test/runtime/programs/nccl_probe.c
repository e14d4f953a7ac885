/* Exit 0 when a CUDA device is usable (the NCCL tests then run). */
#include <cuda_runtime.h>
#include <stdio.h>

int main(void) {
  int devices = 0;
  cudaError_t rc = cudaGetDeviceCount(&devices);
  if (rc != cudaSuccess || devices == 0) {
    printf("cudaGetDeviceCount: %s, %d device(s)\n", cudaGetErrorString(rc), devices);
    return 1;
  }
  printf("%d CUDA device(s)\n", devices);
  return 0;
}
