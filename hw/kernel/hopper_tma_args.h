// The cuTensorMapEncodeTiled arguments the kernel report prints for the sm90_tma_wgmma
// preset's TMA atoms (its `cuTensorMapEncodeTiled` facts, word for word; a test in
// crates/cute-lang/tests/banks_hw.rs keeps them equal), and one box the report calls illegal
// (the preset with sA's swizzle cut to 64 bytes: 128-byte rows under CU_TENSOR_MAP_SWIZZLE_64B).
// hopper_sm90.cu encodes each: the legal ones must give CuTe's own descriptors byte for byte,
// the illegal one must be refused by the driver.
#pragma once
struct ReportTmaArgs {
  const char* name;
  const char* args;
  bool legal;
};
static const ReportTmaArgs kReportTmaArgs[] = {
    {"tmaA", "rank 2, globalDim {4096, 4096}, globalStrides {8192} bytes, boxDim {64, 128}, elementStrides {1, 1}, 16-bit elements, CU_TENSOR_MAP_SWIZZLE_128B", true},
    {"tmaB", "rank 2, globalDim {4096, 4096}, globalStrides {8192} bytes, boxDim {64, 128}, elementStrides {1, 1}, 16-bit elements, CU_TENSOR_MAP_SWIZZLE_128B", true},
    {"tmaC", "rank 2, globalDim {4096, 4096}, globalStrides {8192} bytes, boxDim {64, 128}, elementStrides {1, 1}, 16-bit elements, CU_TENSOR_MAP_SWIZZLE_128B", true},
    {"tmaA_sw64", "rank 2, globalDim {4096, 4096}, globalStrides {8192} bytes, boxDim {64, 128}, elementStrides {1, 1}, 16-bit elements, CU_TENSOR_MAP_SWIZZLE_64B", false},
};
