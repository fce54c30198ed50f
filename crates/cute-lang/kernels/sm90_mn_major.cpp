// A Hopper GEMM with MN-major operands: half A stored M-major and B stored N-major, a
// 128x128x64 CTA tile in 3 stages of 128B-swizzled MN-major GMMA smem, TMA loads, and one
// warpgroup of SM90_64x64x16 WGMMA walking the CTA tile as 2 x 2 M/N tiles, so each stage
// issues a descriptor per (M or N tile, k-block).
using TA = cute::half_t;
using TB = cute::half_t;
TA const* A = nullptr;
TB const* B = nullptr;
int M = 4096;
int N = 4096;
int K = 4096;
auto bM = Int<128>{};
auto bN = Int<128>{};
auto bK = Int< 64>{};
auto cta_tiler = make_shape(bM, bN, bK);
auto bP = Int<3>{};
auto sA = tile_to_shape(GMMA::Layout_MN_SW128_Atom<TA>{}, make_shape(bM,bK,bP));
auto sB = tile_to_shape(GMMA::Layout_MN_SW128_Atom<TB>{}, make_shape(bN,bK,bP));
TiledMMA tiled_mma = make_tiled_mma(SM90_64x64x16_F32F16F16_SS<GMMA::Major::MN,GMMA::Major::MN>{});
Tensor mA = make_tensor(A, make_shape(M,K), make_stride(Int<1>{}, M));
Tensor mB = make_tensor(B, make_shape(N,K), make_stride(Int<1>{}, N));
Copy_Atom tmaA = make_tma_atom(SM90_TMA_LOAD{}, mA, sA(_,_,0), make_shape(bM,bK));
Copy_Atom tmaB = make_tma_atom(SM90_TMA_LOAD{}, mB, sB(_,_,0), make_shape(bN,bK));
