// tutorial_sm80.cu -- the kernel report's `sm80_tutorial` preset as a whole GEMM, for checking
// the report's kernel-wide totals against Nsight Compute.
//
// Configuration (crates/cute-lang/kernels/sm80_tutorial.cpp, the CuTe SM80 tutorial's gemm_tn):
//   half A (M x K) and B (N x K), K-major; half C (M x N), M-major (ldC = M);
//   CTA tile 128x128x64 in 3 stages of tile_to_shape(Sw<3,3,3> o (8,(8,8)):(8,(1,64)), ...);
//   G2S: SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, threads (16,8):(8,1), values (1,8);
//   MMA: SM80_16x8x16_F16F16F16F16_TN, warps (2,2), Tile<_32,_32,_16>;
//   S2R: SM75_U32x4_LDSM_N through make_tiled_copy_A/B;
//   epilogue: C = alpha * AB, each thread storing its accumulators one element at a time
//   (axpby's loop with beta = 0).
// The mainloop keeps 2 k-tiles in flight (cp.async groups) and loads each k-tile of A and B
// into shared memory once and each k-block into registers once: the counts the report
// multiplies out (the tutorial's own loop also reads one k-block past the last tile; this
// one does not).
//
// A second launch, `tutorial_plain`, drops the swizzle (Sw<0,3,3>): ldmatrix then conflicts.
//
// Usage: tutorial_sm80 [M N K]   (multiples of 128, 128, 64; default 4096 4096 4096)
// Prints `tutorial[_plain] grid=GxG ctas=C k_tiles=T rel_err=E PASS|FAIL` per launch
// (hw/kernel/summarize.py).
// Build: nvcc -std=c++17 -arch=sm_90 -O3 --expt-relaxed-constexpr -I<cutlass>/include
#include "harness.cuh"

using namespace cute;

using BM = _128;
using BN = _128;
using BK = _64;
using BP = _3;

// The preset's atom, and the same without its swizzle (Sw<0,3,3>: the plain (8,64) rows, which
// ldmatrix reads 8 rows of 128 bytes at a time from the same banks).
template <int SW>
using Atom = decltype(composition(Swizzle<SW, 3, 3>{},
                                  Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{}));
template <int SW>
using SmemA = decltype(tile_to_shape(Atom<SW>{}, make_shape(BM{}, BK{}, BP{})));
template <int SW>
using SmemB = decltype(tile_to_shape(Atom<SW>{}, make_shape(BN{}, BK{}, BP{})));
using G2S = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                     Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                                     Layout<Shape<_1, _8>>{}));
using Mma = decltype(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{},
                                    Tile<_32, _32, _16>{}));
using S2RAtom = Copy_Atom<SM75_U32x4_LDSM_N, half_t>;

template <int SW>
struct Smem {
  alignas(128) half_t a[cosize_v<SmemA<SW>>];
  alignas(128) half_t b[cosize_v<SmemB<SW>>];
};

template <int SW>
__global__ void __launch_bounds__(128)
    tutorial_gemm(const half_t* __restrict__ A, const half_t* __restrict__ B, half_t* __restrict__ C,
                  int M, int N, int K, half_t alpha) {
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(K, _1{}));
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(N, K), make_stride(K, _1{}));
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(M, N), make_stride(_1{}, M));
  auto tiler = make_shape(BM{}, BN{}, BK{});
  auto coord = make_coord(blockIdx.x, blockIdx.y, _);
  Tensor gA = local_tile(mA, tiler, coord, Step<_1, X, _1>{});  // (BM,BK,k)
  Tensor gB = local_tile(mB, tiler, coord, Step<X, _1, _1>{});  // (BN,BK,k)
  Tensor gC = local_tile(mC, tiler, coord, Step<_1, _1, X>{});  // (BM,BN)

  extern __shared__ char smem_raw[];
  Smem<SW>& smem = *reinterpret_cast<Smem<SW>*>(smem_raw);
  Tensor sA = make_tensor(make_smem_ptr(smem.a), SmemA<SW>{});  // (BM,BK,PIPE)
  Tensor sB = make_tensor(make_smem_ptr(smem.b), SmemB<SW>{});  // (BN,BK,PIPE)

  G2S g2s;
  auto g2s_thr = g2s.get_slice(threadIdx.x);
  Tensor tAgA = g2s_thr.partition_S(gA);  // (CPY,CPY_M,CPY_K,k)
  Tensor tAsA = g2s_thr.partition_D(sA);  // (CPY,CPY_M,CPY_K,PIPE)
  Tensor tBgB = g2s_thr.partition_S(gB);
  Tensor tBsB = g2s_thr.partition_D(sB);

  Mma mma;
  auto thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCrA = thr_mma.partition_fragment_A(sA(_, _, 0));  // (MMA,MMA_M,MMA_K)
  Tensor tCrB = thr_mma.partition_fragment_B(sB(_, _, 0));  // (MMA,MMA_N,MMA_K)
  Tensor tCgC = thr_mma.partition_C(gC);                    // (MMA,MMA_M,MMA_N)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);
  clear(tCrC);

  auto s2r_a = make_tiled_copy_A(S2RAtom{}, mma);
  auto s2r_a_thr = s2r_a.get_slice(threadIdx.x);
  Tensor tXsA = s2r_a_thr.partition_S(sA);  // (CPY,CPY_M,CPY_K,PIPE)
  Tensor tXrA = s2r_a_thr.retile_D(tCrA);
  auto s2r_b = make_tiled_copy_B(S2RAtom{}, mma);
  auto s2r_b_thr = s2r_b.get_slice(threadIdx.x);
  Tensor tXsB = s2r_b_thr.partition_S(sB);
  Tensor tXrB = s2r_b_thr.retile_D(tCrB);

  constexpr int PIPE = BP::value;
  const int k_tiles = size<3>(tAgA);
  // Prologue: the first PIPE-1 k-tiles, one cp.async group each.
  CUTE_UNROLL
  for (int s = 0; s < PIPE - 1; ++s) {
    if (s < k_tiles) {
      copy(g2s, tAgA(_, _, _, s), tAsA(_, _, _, s));
      copy(g2s, tBgB(_, _, _, s), tBsB(_, _, _, s));
    }
    cp_async_fence();
  }
  for (int kt = 0; kt < k_tiles; ++kt) {
    cp_async_wait<PIPE - 2>();  // k-tile kt has landed
    __syncthreads();            // ... for every thread, and stage (kt-1)%PIPE is free
    const int next = kt + PIPE - 1;
    if (next < k_tiles) {
      copy(g2s, tAgA(_, _, _, next), tAsA(_, _, _, next % PIPE));
      copy(g2s, tBgB(_, _, _, next), tBsB(_, _, _, next % PIPE));
    }
    cp_async_fence();
    const int stage = kt % PIPE;
    CUTE_UNROLL
    for (int kb = 0; kb < size<2>(tCrA); ++kb) {
      copy(s2r_a, tXsA(_, _, kb, stage), tXrA(_, _, kb));
      copy(s2r_b, tXsB(_, _, kb, stage), tXrB(_, _, kb));
      gemm(mma, tCrA(_, _, kb), tCrB(_, _, kb), tCrC);
    }
  }
  // Epilogue: axpby(alpha, tCrC, 0, tCgC), one element per store.
  CUTE_UNROLL
  for (int i = 0; i < size(tCrC); ++i) tCgC(i) = alpha * tCrC(i);
}

// One launch of the variant with swizzle bits SW; its line for summarize.py.
template <int SW>
bool run(const char* name, int M, int N, int K, const half_t* dA, const half_t* dB, half_t* dC) {
  CK(cudaMemset(dC, 0xff, sizeof(half_t) * size_t(M) * N));  // poison: NaN everywhere
  int smem = int(sizeof(Smem<SW>));
  CK(cudaFuncSetAttribute(tutorial_gemm<SW>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  dim3 grid(M / 128, N / 128);
  tutorial_gemm<SW><<<grid, 128, smem>>>(dA, dB, dC, M, N, K, half_t(1.0f));
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  // C is M-major; half accumulation over K: a few parts in a thousand
  double rel = harness::rel_error(dA, dB, dC, M, N, K, 1, M);
  return harness::report(name, grid, K, rel, 2e-2);
}

int main(int argc, char** argv) {
  int M, N, K;
  harness::problem_size(argc, argv, M, N, K);
  half_t *dA, *dB, *dC;
  harness::random_inputs(M, N, K, &dA, &dB);
  CK(cudaMalloc(&dC, sizeof(half_t) * size_t(M) * N));
  bool ok = run<3>("tutorial", M, N, K, dA, dB, dC);
  ok &= run<0>("tutorial_plain", M, N, K, dA, dB, dC);
  CK(cudaFree(dA));
  CK(cudaFree(dB));
  CK(cudaFree(dC));
  return ok ? 0 : 3;
}
