// cute_gemm_sm80.cu -- a small CuTe GEMM mainloop for checking the bank model at kernel scale.
//
// C (M x N, f32, row-major) = A (M x K, half, K-major) * B (N x K, half, K-major)^T.
// Per CTA (128 threads) and per 128x128 output tile, a loop over K tiles of 64:
//   global -> shared: a TiledCopy of SM80_CP_ASYNC_CACHEALWAYS<uint128_t> (cp.async.ca,
//                     16 B, SASS LDGSTS), threads (16,8):(8,1), values (1,8): 8 copies of
//                     its (16,64) tile fill each (128,64) smem tile;
//   shared -> registers: make_tiled_copy_A/B of SM75_U32x4_LDSM_N (ldmatrix.x4) for the
//                     tiled MMA SM80_16x8x16_F32F16F16F32_TN, warps (2,2,1), tile (32,32,16);
//   registers -> tensor cores, and at the end registers -> global (no shared memory).
// The only shared-memory instructions are therefore LDGSTS (stores) and LDSM (loads).
//
// Three shared-memory layouts of the (128,64) tiles, one kernel each:
//   sw333: tile_to_shape(Sw<3,3,3> o (8,64):(64,1), (128,64))  (the usual SM80 choice)
//   plain: (128,64):(64,1)                                      (ldmatrix 8-way conflicts)
//   pad72: (128,64):(72,1)                                      (rows padded by 16 bytes)
// and two more with the cp.async threads down the columns, threads (16,8):(1,16):
//   sw333_colcopy, plain_colcopy (each quarter-warp reads 8 global lines).
//
// Usage: cute_gemm_sm80 [M N K [REPS]]  (multiples of 128, 128, 64; default 512 512 512 1;
//        REPS runs of the five kernels, to see which counters repeat exactly)
// Prints one line per variant: name, grid, k tiles, max |C - reference|, PASS/FAIL.
// Build: nvcc -std=c++17 -arch=sm_90 -O3 --expt-relaxed-constexpr -I<cutlass>/include
#include "harness.cuh"

using namespace cute;

using BM = _128;
using BN = _128;
using BK = _64;

using MmaT = decltype(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{},
                                     Tile<_32, _32, _16>{}));
// 8 threads along each 128-byte row (a quarter-warp reads one global line) ...
using G2S = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                     Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                                     Layout<Shape<_1, _8>>{}));
// ... or down the columns (a quarter-warp reads 8 global lines, one 16-byte chunk each)
using G2SCol = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                        Layout<Shape<_16, _8>, Stride<_1, _16>>{},
                                        Layout<Shape<_1, _8>>{}));
using S2RA = decltype(make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, MmaT{}));
using S2RB = decltype(make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, MmaT{}));

using LayoutSw = decltype(tile_to_shape(
    composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, BK>, Stride<BK, _1>>{}), Shape<BM, BK>{}));
using LayoutPlain = Layout<Shape<BM, BK>, Stride<BK, _1>>;
using LayoutPad = Layout<Shape<BM, BK>, Stride<_72, _1>>;

template <class SmemLayout, class G2SCopy>
__global__ void __launch_bounds__(128)
    gemm_kernel(const half_t* __restrict__ A, const half_t* __restrict__ B, float* __restrict__ C,
                int M, int N, int K) {
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(K, _1{}));
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(N, K), make_stride(K, _1{}));
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(M, N), make_stride(N, _1{}));
  auto tiler = make_shape(BM{}, BN{}, BK{});
  auto coord = make_coord(blockIdx.x, blockIdx.y, _);
  Tensor gA = local_tile(mA, tiler, coord, Step<_1, X, _1>{});  // (BM, BK, k)
  Tensor gB = local_tile(mB, tiler, coord, Step<X, _1, _1>{});  // (BN, BK, k)
  Tensor gC = local_tile(mC, tiler, coord, Step<_1, _1, X>{});  // (BM, BN)

  __shared__ alignas(128) half_t smem_a[cosize_v<SmemLayout>];
  __shared__ alignas(128) half_t smem_b[cosize_v<SmemLayout>];
  Tensor sA = make_tensor(make_smem_ptr(smem_a), SmemLayout{});  // (BM, BK)
  Tensor sB = make_tensor(make_smem_ptr(smem_b), SmemLayout{});  // (BN, BK)

  G2SCopy g2s;
  auto g2s_thr = g2s.get_slice(threadIdx.x);
  Tensor tAgA = g2s_thr.partition_S(gA);  // (CPY, CPY_M, CPY_K, k)
  Tensor tAsA = g2s_thr.partition_D(sA);  // (CPY, CPY_M, CPY_K)
  Tensor tBgB = g2s_thr.partition_S(gB);
  Tensor tBsB = g2s_thr.partition_D(sB);

  MmaT mma;
  auto mma_thr = mma.get_slice(threadIdx.x);
  Tensor tCrA = mma_thr.partition_fragment_A(sA);  // (MMA, MMA_M, MMA_K)
  Tensor tCrB = mma_thr.partition_fragment_B(sB);  // (MMA, MMA_N, MMA_K)
  Tensor tCgC = mma_thr.partition_C(gC);
  Tensor tCrC = mma_thr.make_fragment_C(tCgC);
  clear(tCrC);

  S2RA s2r_a;
  auto s2r_a_thr = s2r_a.get_slice(threadIdx.x);
  Tensor tXsA = s2r_a_thr.partition_S(sA);  // (CPY, CPY_M, CPY_K)
  Tensor tXrA = s2r_a_thr.retile_D(tCrA);
  S2RB s2r_b;
  auto s2r_b_thr = s2r_b.get_slice(threadIdx.x);
  Tensor tXsB = s2r_b_thr.partition_S(sB);
  Tensor tXrB = s2r_b_thr.retile_D(tCrB);

  const int k_tiles = size<3>(tAgA);
  for (int kt = 0; kt < k_tiles; ++kt) {
    copy(g2s, tAgA(_, _, _, kt), tAsA);
    copy(g2s, tBgB(_, _, _, kt), tBsB);
    cp_async_fence();
    cp_async_wait<0>();
    __syncthreads();
    CUTE_UNROLL
    for (int kb = 0; kb < size<2>(tCrA); ++kb) {
      copy(s2r_a, tXsA(_, _, kb), tXrA(_, _, kb));
      copy(s2r_b, tXsB(_, _, kb), tXrB(_, _, kb));
      gemm(mma, tCrA(_, _, kb), tCrB(_, _, kb), tCrC);
    }
    __syncthreads();
  }
  copy(tCrC, tCgC);
}

template <class SmemLayout, class G2SCopy>
static bool run(const char* name, int M, int N, int K, const half_t* dA, const half_t* dB,
                float* dC, const std::vector<float>& ref) {
  CK(cudaMemset(dC, 0xff, sizeof(float) * M * N));  // poison: NaN everywhere
  dim3 grid(M / 128, N / 128);
  gemm_kernel<SmemLayout, G2SCopy><<<grid, 128>>>(dA, dB, dC, M, N, K);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<float> c(size_t(M) * N);
  CK(cudaMemcpy(c.data(), dC, sizeof(float) * c.size(), cudaMemcpyDeviceToHost));
  double err = 0, norm = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    double d = double(c[i]) - ref[i];
    if (!std::isfinite(c[i])) d = INFINITY;
    err += d * d;
    norm += double(ref[i]) * ref[i];
  }
  double rel = std::sqrt(err / norm);
  bool ok = rel < 1e-3;
  printf("%s grid=%dx%d ctas=%d k_tiles=%d rel_err=%.3g %s\n", name, grid.x, grid.y,
         grid.x * grid.y, K / 64, rel, ok ? "PASS" : "FAIL");
  return ok;
}

int main(int argc, char** argv) {
  int M = 512, N = 512, K = 512, reps = 1;
  if (argc >= 4) {
    M = atoi(argv[1]);
    N = atoi(argv[2]);
    K = atoi(argv[3]);
  }
  if (argc >= 5) reps = atoi(argv[4]);
  if (M <= 0 || N <= 0 || K <= 0 || M % 128 || N % 128 || K % 64 || reps <= 0 || reps > 100) {
    fprintf(stderr, "M, N, K must be positive multiples of 128, 128, 64; reps in 1..100\n");
    return 1;
  }
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<half_t> a(size_t(M) * K), b(size_t(N) * K);
  std::vector<float> af(a.size()), bf(b.size());
  for (size_t i = 0; i < a.size(); ++i) { a[i] = half_t(dist(rng)); af[i] = float(a[i]); }
  for (size_t i = 0; i < b.size(); ++i) { b[i] = half_t(dist(rng)); bf[i] = float(b[i]); }
  std::vector<float> ref(size_t(M) * N);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double s = 0;
      for (int k = 0; k < K; ++k) s += double(af[size_t(m) * K + k]) * bf[size_t(n) * K + k];
      ref[size_t(m) * N + n] = float(s);
    }
  half_t *dA, *dB;
  float* dC;
  CK(cudaMalloc(&dA, sizeof(half_t) * a.size()));
  CK(cudaMalloc(&dB, sizeof(half_t) * b.size()));
  CK(cudaMalloc(&dC, sizeof(float) * ref.size()));
  CK(cudaMemcpy(dA, a.data(), sizeof(half_t) * a.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, b.data(), sizeof(half_t) * b.size(), cudaMemcpyHostToDevice));
  bool ok = true;
  for (int r = 0; r < reps; ++r) {
    ok &= run<LayoutSw, G2S>("sw333", M, N, K, dA, dB, dC, ref);
    ok &= run<LayoutPlain, G2S>("plain", M, N, K, dA, dB, dC, ref);
    ok &= run<LayoutPad, G2S>("pad72", M, N, K, dA, dB, dC, ref);
    ok &= run<LayoutSw, G2SCol>("sw333_colcopy", M, N, K, dA, dB, dC, ref);
    ok &= run<LayoutPlain, G2SCol>("plain_colcopy", M, N, K, dA, dB, dC, ref);
  }
  CK(cudaFree(dA));
  CK(cudaFree(dB));
  CK(cudaFree(dC));
  return ok ? 0 : 3;
}
