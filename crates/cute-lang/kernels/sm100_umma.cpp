// A Blackwell UMMA GEMM's set-up (examples/cute/tutorial/blackwell/02_mma_tma_sm100.cu):
// half A and B, K-major, one SM100_MMA_F16BF16_SS 128x256 UMMA, an MMA tile of 128x256x64,
// smem tiled to the MMA's partitioned shapes, TMA loads, a float accumulator in TMEM.
using TypeA = half_t;
using TypeB = half_t;
using TypeC = float;
TypeA const* device_ptr_A = nullptr;
TypeB const* device_ptr_B = nullptr;
Tensor mA = make_tensor(make_gmem_ptr(device_ptr_A), make_layout(make_shape(4096, 4096), make_stride(4096, Int<1>{})));
Tensor mB = make_tensor(make_gmem_ptr(device_ptr_B), make_layout(make_shape(4096, 4096), make_stride(4096, Int<1>{})));
TiledMMA tiled_mma = make_tiled_mma(SM100_MMA_F16BF16_SS<TypeA, TypeB, TypeC, 128, 256,
                                                         UMMA::Major::K, UMMA::Major::K>{});
auto bM = tile_size<0>(tiled_mma);
auto bN = tile_size<1>(tiled_mma);
auto bK = tile_size<2>(tiled_mma) * Int<4>{};
auto mma_tiler = make_shape(bM, bN, bK);
auto mma_shape_A = partition_shape_A(tiled_mma, make_shape(size<0>(mma_tiler), size<2>(mma_tiler)));
auto mma_shape_B = partition_shape_B(tiled_mma, make_shape(size<1>(mma_tiler), size<2>(mma_tiler)));
auto sA_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<TypeA>{}, mma_shape_A);
auto sB_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<TypeB>{}, mma_shape_B);
Copy_Atom tma_atom_A = make_tma_atom(SM90_TMA_LOAD{}, mA, sA_layout, select<0,2>(mma_tiler));
Copy_Atom tma_atom_B = make_tma_atom(SM90_TMA_LOAD{}, mB, sB_layout, select<1,2>(mma_tiler));
TypeC * device_ptr_C = nullptr;
Tensor mC = make_tensor(make_gmem_ptr(device_ptr_C), make_layout(make_shape(4096, 4096), make_stride(4096, Int<1>{})));
Tensor gC = local_tile(mC, mma_tiler, make_coord(0, 0, _), Step<_1,_1, X>{});
Tensor tCtAcc = tiled_mma.get_slice(0).make_fragment_C(tiled_mma.get_slice(0).partition_C(gC));
TiledCopy tiled_t2r_copy = make_tmem_copy(SM100_TMEM_LOAD_32dp32b1x{}, tCtAcc);
