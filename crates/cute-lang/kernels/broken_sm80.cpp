// A deliberately broken SM80 configuration: every check of the report fails or warns.
// - 6 stages of 128x128x64 half A and B: 192 KiB, over the 163 KiB an SM80 CTA may use;
// - sA without a swizzle: ldmatrix reads 8 rows of 128 bytes from one bank group;
// - copyB's threads walk down the M mode of a K-major tile: each lane its own sectors;
// - the CTA tile's N (120) is not a multiple of the MMA's 32;
// - s2r_atom_B moves floats into a half MMA.
int k = 4096;
auto dA = make_stride(k, Int<1>{});
auto dB = make_stride(k, Int<1>{});
auto bM = Int<128>{};
auto bN = Int<120>{};
auto bK = Int< 64>{};
auto cta_tiler = make_shape(bM, bN, bK);
auto bP = Int<6>{};
auto sA = tile_to_shape(Layout<Shape<_8,_64>,Stride<_64,_1>>{}, make_shape(bM, bK, bP));
auto sB = tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<128>{}, bK, bP));
TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                  Layout<Shape<_16,_8>,Stride<_8,_1>>{},
                                  Layout<Shape< _1,_8>>{});
TiledCopy copyB = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint32_t>, half_t>{},
                                  Layout<Shape<_32,_4>,Stride<_1,_32>>{},
                                  Layout<Shape< _1,_2>>{});
TiledMMA mmaC = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{},
                               Layout<Shape<_2,_2>>{},
                               Tile<_32,_32,_16>{});
Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_A;
Copy_Atom<SM75_U32x4_LDSM_N, float> s2r_atom_B;
