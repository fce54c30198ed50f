// Which TMA boxes the driver's cuTensorMapEncodeTiled refuses, for the rules CuTe leaves to
// it: the inner box extent in bytes must be a multiple of 16, and with a 32/64/128-byte
// swizzle it must not exceed the swizzle span. One line per case: rule, parameters, result.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>

static int encode(CUtensorMapSwizzle sw, int elem_bytes, unsigned box0, unsigned box1) {
  CUtensorMap map;
  void* gmem = nullptr;
  cudaMalloc(&gmem, 1 << 24);
  cuuint64_t dims[2] = {1024, 256};
  cuuint64_t strides[1] = {1024ull * elem_bytes};
  cuuint32_t box[2] = {box0, box1};
  cuuint32_t estr[2] = {1, 1};
  CUtensorMapDataType t = elem_bytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                        : elem_bytes == 4 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_UINT8;
  CUresult r = cuTensorMapEncodeTiled(&map, t, 2, gmem, dims, strides, box, estr,
                                      CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                                      CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cudaFree(gmem);
  return int(r);
}

int main() {
  cudaFree(0);
  const char* names[] = {"NONE", "32B", "64B", "128B"};
  CUtensorMapSwizzle sws[] = {CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B,
                              CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B};
  for (int s = 0; s < 4; ++s)
    for (int eb : {1, 2, 4})
      for (unsigned inner_bytes : {4u, 8u, 16u, 24u, 32u, 48u, 64u, 96u, 128u, 256u})
        for (unsigned box1 : {8u, 256u}) {
          unsigned box0 = inner_bytes / eb;
          if (box0 == 0 || box0 > 256) continue;
          int r = encode(sws[s], eb, box0, box1);
          printf("{\"swizzle\": \"%s\", \"elem_bytes\": %d, \"box\": [%u, %u], \"inner_bytes\": %u, \"result\": %d}\n",
                 names[s], eb, box0, box1, inner_bytes, r);
        }
}
