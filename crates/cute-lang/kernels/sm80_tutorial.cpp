// The CuTe SM80 tutorial GEMM (examples/cute/tutorial/sgemm_sm80.cu, gemm_tn): half
// A and B, K-major, a 128x128x64 CTA tile in 3 stages, cp.async 16-byte copies, ldmatrix
// and a 2x2-warp SM80 MMA. The problem size and leading dimensions stand for gemm_tn's
// arguments.
int m = 4096;
int n = 4096;
int k = 4096;
int ldA = k;
int ldB = k;
int ldC = m;
auto dA = make_stride(ldA, Int<1>{});
auto dB = make_stride(ldB, Int<1>{});
auto dC = make_stride(Int<1>{}, ldC);
auto bM = Int<128>{};
auto bN = Int<128>{};
auto bK = Int< 64>{};
auto cta_tiler = make_shape(bM, bN, bK);
auto bP = Int<3>{};
auto swizzle_atom = composition(Swizzle<3,3,3>{},
                                Layout<Shape <_8,Shape <_8, _8>>,
                                       Stride<_8,Stride<_1,_64>>>{});
auto sA = tile_to_shape(swizzle_atom, make_shape(bM,bK,bP));
auto sB = tile_to_shape(swizzle_atom, make_shape(bN,bK,bP));
TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, cute::half_t>{},
                                  Layout<Shape<_16,_8>,Stride<_8,_1>>{},
                                  Layout<Shape< _1,_8>>{});
TiledCopy copyB = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, cute::half_t>{},
                                  Layout<Shape<_16,_8>,Stride<_8,_1>>{},
                                  Layout<Shape< _1,_8>>{});
TiledMMA mmaC = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{},
                               Layout<Shape<_2,_2>>{},
                               Tile<_32,_32,_16>{});
Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_A;
Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_B;
