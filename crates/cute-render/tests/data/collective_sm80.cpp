// CUTLASS's SM80 collective (sm80_mma_multistage), its type list as a GEMM configuration writes it
using ElementA = cutlass::half_t;
using ElementB = cutlass::half_t;
using TileShape = Shape<_128, _128, _32>;
static constexpr int Stages = 3;
using TiledMma = TiledMMA<MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_16>>;
using SmemLayoutAtomA = decltype(composition(Swizzle<2,3,3>{}, Layout<Shape<_8,_32>, Stride<_32,_1>>{}));
using SmemCopyAtomA = Copy_Atom<SM75_U32x4_LDSM_N, half_t>;
using GmemTiledCopyA = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{}, Layout<Shape<_32,_4>, Stride<_4,_1>>{}, Layout<Shape<_1,_8>>{}));
using SmemLayoutAtomB = decltype(composition(Swizzle<2,3,3>{}, Layout<Shape<_8,_32>, Stride<_32,_1>>{}));
using SmemCopyAtomB = Copy_Atom<SM75_U32x4_LDSM_N, half_t>;
using GmemTiledCopyB = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{}, Layout<Shape<_32,_4>, Stride<_4,_1>>{}, Layout<Shape<_1,_8>>{}));
