// hopper_sm90.cu -- the kernel report's `sm90_tma_wgmma` preset as a whole GEMM, for checking
// the report's kernel-wide totals and its TMA boxes against the H100.
//
// Configuration (crates/cute-lang/kernels/sm90_tma_wgmma.cpp):
//   half A (M x K) and B (N x K), K-major; half C (M x N), N-major;
//   CTA tile 128x128x64, 4 stages of tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, ...);
//   TMA loads of A and B (make_tma_atom(SM90_TMA_LOAD, ...)), one mbarrier per stage;
//   MMA: SM90_64x128x16_F32F16F16_SS, 2 warpgroups (256 threads);
//   epilogue: the accumulators as half through SM90_U32x4_STSM_N (make_tiled_copy_C) into
//   sC = tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (128,128)), then a TMA store
//   (make_tma_atom(SM90_TMA_STORE, ...)).
// Each k-tile of A and B is loaded once, each C tile stored once.
//
// Usage: hopper_sm90 [M N K]   (multiples of 128, 128, 64; default 4096 4096 4096)
// Prints `hopper grid=GxG ctas=C k_tiles=T rel_err=E PASS|FAIL` (hw/kernel/summarize.py).
// Build: nvcc -std=c++17 -arch=sm_90a -O3 --expt-relaxed-constexpr -I<cutlass>/include -lcuda
#include <cuda.h>
#include <cutlass/arch/barrier.h>

#include <cstring>
#include <string>

#include "harness.cuh"
#include "hopper_tma_args.h"

using namespace cute;

using TA = half_t;
using TB = half_t;
using TC = half_t;
using BM = _128;
using BN = _128;
using BK = _64;
using BP = _4;

using SmemA = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<TA>{}, make_shape(BM{}, BK{}, BP{})));
using SmemB = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<TB>{}, make_shape(BN{}, BK{}, BP{})));
using SmemC = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<TC>{}, make_shape(BM{}, BN{})));
using Mma = decltype(make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{},
                                    Layout<Shape<_2, _1, _1>>{}));
using R2SAtom = Copy_Atom<SM90_U32x4_STSM_N, TC>;

struct SharedStorage {
  alignas(1024) TA a[cosize_v<SmemA>];
  alignas(1024) TB b[cosize_v<SmemB>];
  alignas(1024) TC c[cosize_v<SmemC>];
  uint64_t tma_barrier[BP::value];
  uint64_t mma_barrier[BP::value];
};

template <class TmaA, class TmaB, class TmaC>
__global__ void __launch_bounds__(256)
    hopper_gemm(int M, int N, int K, CUTE_GRID_CONSTANT TmaA const tma_a,
                CUTE_GRID_CONSTANT TmaB const tma_b, CUTE_GRID_CONSTANT TmaC const tma_c,
                float alpha) {
  Tensor mA = tma_a.get_tma_tensor(make_shape(M, K));
  Tensor mB = tma_b.get_tma_tensor(make_shape(N, K));
  Tensor mC = tma_c.get_tma_tensor(make_shape(M, N));
  auto tiler = make_shape(BM{}, BN{}, BK{});
  auto coord = make_coord(blockIdx.x, blockIdx.y, _);
  Tensor gA = local_tile(mA, tiler, coord, Step<_1, X, _1>{});  // (BM,BK,k)
  Tensor gB = local_tile(mB, tiler, coord, Step<X, _1, _1>{});  // (BN,BK,k)
  Tensor gC = local_tile(mC, tiler, coord, Step<_1, _1, X>{});  // (BM,BN)

  extern __shared__ __align__(1024) char shared_memory[];
  SharedStorage& smem = *reinterpret_cast<SharedStorage*>(shared_memory);
  Tensor sA = make_tensor(make_smem_ptr(smem.a), SmemA{});  // (BM,BK,PIPE)
  Tensor sB = make_tensor(make_smem_ptr(smem.b), SmemB{});  // (BN,BK,PIPE)
  Tensor sC = make_tensor(make_smem_ptr(smem.c), SmemC{});  // (BM,BN)

  auto [tAgA, tAsA] = tma_partition(tma_a, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sA),
                                    group_modes<0, 2>(gA));  // (TMA,k), (TMA,PIPE)
  auto [tBgB, tBsB] = tma_partition(tma_b, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sB),
                                    group_modes<0, 2>(gB));
  auto [tCgC, tCsC] = tma_partition(tma_c, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sC),
                                    group_modes<0, 2>(gC));  // (TMA,REST)
  constexpr int kTxBytes =
      CUTE_STATIC_V(size<0>(tAsA)) * sizeof(TA) + CUTE_STATIC_V(size<0>(tBsB)) * sizeof(TB);
  constexpr int PIPE = BP::value;

  using ProducerBar = cutlass::arch::ClusterTransactionBarrier;  // TMA arrivals
  using ConsumerBar = cutlass::arch::ClusterBarrier;             // MMA done with a stage
  const int warp_idx = cutlass::canonical_warp_idx_sync();
  const bool leader = warp_idx == 0 && cute::elect_one_sync();
  if (leader) {
    CUTE_UNROLL
    for (int p = 0; p < PIPE; ++p) {
      ProducerBar::init(&smem.tma_barrier[p], 1);
      ConsumerBar::init(&smem.mma_barrier[p], 256);
    }
    cutlass::arch::fence_barrier_init();
  }
  __syncthreads();

  const int k_tiles = size<1>(tAgA);
  if (leader) {
    for (int p = 0; p < PIPE && p < k_tiles; ++p) {
      ProducerBar::arrive_and_expect_tx(&smem.tma_barrier[p], kTxBytes);
      copy(tma_a.with(smem.tma_barrier[p]), tAgA(_, p), tAsA(_, p));
      copy(tma_b.with(smem.tma_barrier[p]), tBgB(_, p), tBsB(_, p));
    }
  }

  Mma mma;
  ThrMMA thr_mma = mma.get_thread_slice(threadIdx.x);
  Tensor tCsA = thr_mma.partition_A(sA);  // (MMA,MMA_M,MMA_K,PIPE)
  Tensor tCsB = thr_mma.partition_B(sB);
  Tensor tCrA = thr_mma.make_fragment_A(tCsA);  // GMMA descriptors
  Tensor tCrB = thr_mma.make_fragment_B(tCsB);
  Tensor accum = partition_fragment_C(mma, Shape<BM, BN>{});  // (MMA,MMA_M,MMA_N) float
  clear(accum);

  for (int kt = 0; kt < k_tiles; ++kt) {
    const int pipe = kt % PIPE;
    const int phase = (kt / PIPE) & 1;
    ProducerBar::wait(&smem.tma_barrier[pipe], phase);
    warpgroup_fence_operand(accum);
    warpgroup_arrive();
    gemm(mma, tCrA(_, _, _, pipe), tCrB(_, _, _, pipe), accum);
    warpgroup_commit_batch();
    warpgroup_wait<0>();
    warpgroup_fence_operand(accum);
    ConsumerBar::arrive(&smem.mma_barrier[pipe]);
    if (leader && kt + PIPE < k_tiles) {
      ConsumerBar::wait(&smem.mma_barrier[pipe], phase);
      ProducerBar::arrive_and_expect_tx(&smem.tma_barrier[pipe], kTxBytes);
      copy(tma_a.with(smem.tma_barrier[pipe]), tAgA(_, kt + PIPE), tAsA(_, pipe));
      copy(tma_b.with(smem.tma_barrier[pipe]), tBgB(_, kt + PIPE), tBsB(_, pipe));
    }
  }

  // Epilogue: half accumulators -> stmatrix -> sC -> one TMA store of the tile.
  Tensor accum_h = make_tensor_like<TC>(accum);
  CUTE_UNROLL
  for (int i = 0; i < size(accum); ++i) accum_h(i) = TC(alpha * accum(i));
  auto r2s = make_tiled_copy_C(R2SAtom{}, mma);
  auto r2s_thr = r2s.get_slice(threadIdx.x);
  Tensor tRS_r = r2s_thr.retile_S(accum_h);
  Tensor tRS_s = r2s_thr.partition_D(sC);
  copy(r2s, tRS_r, tRS_s);
  tma_store_fence();  // the stmatrix writes, visible to the TMA unit
  __syncthreads();
  if (leader) {
    copy(tma_c, tCsC, tCgC);
    tma_store_arrive();
    tma_store_wait<0>();
  }
}

// The numbers in `{...}` after `key` in a report's encode-argument line.
static std::vector<cuuint64_t> braces(const std::string& s, const char* key) {
  std::vector<cuuint64_t> out;
  size_t at = s.find(key);
  if (at == std::string::npos) return out;
  const char* p = s.c_str() + at + strlen(key);
  while (*p && *p != '}') {
    char* end;
    out.push_back(strtoull(p, &end, 10));
    p = end;
    while (*p == ',' || *p == ' ') ++p;
  }
  return out;
}

// Encode the report's arguments for the tensor at `gaddr` (16-bit elements) and compare the
// descriptor with CuTe's (`cute_desc`, null for a box CuTe never built). Prints one
// `tma_args` line; true when the driver's verdict is the report's and a legal box's
// descriptor is CuTe's byte for byte.
static bool check_tma_args(const ReportTmaArgs& r, void* gaddr, const void* cute_desc) {
  std::string a(r.args);
  auto dims = braces(a, "globalDim {"), strides = braces(a, "globalStrides {");
  auto box64 = braces(a, "boxDim {");
  std::vector<cuuint32_t> box(box64.begin(), box64.end()), elem(box.size(), 1);
  CUtensorMapSwizzle swz = a.find("SWIZZLE_128B") != std::string::npos  ? CU_TENSOR_MAP_SWIZZLE_128B
                           : a.find("SWIZZLE_64B") != std::string::npos ? CU_TENSOR_MAP_SWIZZLE_64B
                           : a.find("SWIZZLE_32B") != std::string::npos ? CU_TENSOR_MAP_SWIZZLE_32B
                                                                        : CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMap map{};
  CUresult res = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, cuuint32_t(box.size()), gaddr, dims.data(),
      strides.data(), box.data(), elem.data(), CU_TENSOR_MAP_INTERLEAVE_NONE, swz,
      CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  bool same = res == CUDA_SUCCESS && cute_desc && memcmp(&map, cute_desc, sizeof(map)) == 0;
  printf("tma_args %s legal=%d encode=%d same_descriptor=%d\n", r.name, int(r.legal), int(res),
         int(same));
  return r.legal ? same : res != CUDA_SUCCESS;
}

int main(int argc, char** argv) {
  int M, N, K;
  harness::problem_size(argc, argv, M, N, K);
  TA* dA;
  TB* dB;
  TC* dC;
  harness::random_inputs(M, N, K, &dA, &dB);
  CK(cudaMalloc(&dC, sizeof(TC) * size_t(M) * N));
  CK(cudaMemset(dC, 0xff, sizeof(TC) * size_t(M) * N));  // poison: NaN everywhere

  Tensor mA = make_tensor(make_gmem_ptr(dA), make_shape(M, K), make_stride(K, _1{}));
  Tensor mB = make_tensor(make_gmem_ptr(dB), make_shape(N, K), make_stride(K, _1{}));
  Tensor mC = make_tensor(make_gmem_ptr(dC), make_shape(M, N), make_stride(N, _1{}));
  auto tma_a = make_tma_atom(SM90_TMA_LOAD{}, mA, SmemA{}(_, _, 0), make_shape(BM{}, BK{}));
  auto tma_b = make_tma_atom(SM90_TMA_LOAD{}, mB, SmemB{}(_, _, 0), make_shape(BN{}, BK{}));
  auto tma_c = make_tma_atom(SM90_TMA_STORE{}, mC, SmemC{}, make_shape(BM{}, BN{}));

  // The report's encode arguments against CuTe's descriptors and the driver.
  bool args_ok = check_tma_args(kReportTmaArgs[0], dA, tma_a.get_tma_descriptor());
  args_ok &= check_tma_args(kReportTmaArgs[1], dB, tma_b.get_tma_descriptor());
  args_ok &= check_tma_args(kReportTmaArgs[2], dC, tma_c.get_tma_descriptor());
  args_ok &= check_tma_args(kReportTmaArgs[3], dA, nullptr);

  auto kernel = hopper_gemm<decltype(tma_a), decltype(tma_b), decltype(tma_c)>;
  int smem = int(sizeof(SharedStorage));
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  dim3 grid(M / 128, N / 128);
  kernel<<<grid, 256, smem>>>(M, N, K, tma_a, tma_b, tma_c, 1.0f);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  // C is N-major; float accumulation, a half result
  double rel = harness::rel_error(dA, dB, dC, M, N, K, N, 1);
  bool ok = harness::report("hopper", grid, K, rel, 1e-2) && args_ok;
  CK(cudaFree(dA));
  CK(cudaFree(dB));
  CK(cudaFree(dC));
  return ok ? 0 : 3;
}
