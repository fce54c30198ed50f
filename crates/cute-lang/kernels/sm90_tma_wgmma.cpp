// A Hopper GEMM: half A and B, K-major, a 128x128x64 CTA tile in 4 stages of
// 128B-swizzled GMMA smem, TMA loads, two warpgroups of SM90_64x128x16 WGMMA (the set-up
// of examples/cute/tutorial/hopper/wgmma_tma_sm90.cu grown to 2 warpgroups), and an smem
// epilogue: the accumulators as half through stmatrix into a swizzled C tile, then a TMA
// store to the N-major C.
using TA = cute::half_t;
using TB = cute::half_t;
using TC = cute::half_t;
TA const* A = nullptr;
TB const* B = nullptr;
TC * C = nullptr;
int M = 4096;
int N = 4096;
int K = 4096;
auto bM = Int<128>{};
auto bN = Int<128>{};
auto bK = Int< 64>{};
auto cta_tiler = make_shape(bM, bN, bK);
auto bP = Int<4>{};
auto sA = tile_to_shape(GMMA::Layout_K_SW128_Atom<TA>{}, make_shape(bM,bK,bP));
auto sB = tile_to_shape(GMMA::Layout_K_SW128_Atom<TB>{}, make_shape(bN,bK,bP));
auto sC = tile_to_shape(GMMA::Layout_K_SW128_Atom<TC>{}, make_shape(bM,bN));
TiledMMA tiled_mma = make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{},
                                    Layout<Shape<_2,_1,_1>>{});
Tensor mA = make_tensor(A, make_shape(M,K), make_stride(K, Int<1>{}));
Tensor mB = make_tensor(B, make_shape(N,K), make_stride(K, Int<1>{}));
Copy_Atom tmaA = make_tma_atom(SM90_TMA_LOAD{}, mA, sA(_,_,0), make_shape(bM,bK));
Copy_Atom tmaB = make_tma_atom(SM90_TMA_LOAD{}, mB, sB(_,_,0), make_shape(bN,bK));
Tensor mC = make_tensor(C, make_shape(M,N), make_stride(N, Int<1>{}));
Copy_Atom<SM90_U32x4_STSM_N, TC> r2s_atom_C;
Copy_Atom tmaC = make_tma_atom(SM90_TMA_STORE{}, mC, sC, make_shape(bM,bN));
