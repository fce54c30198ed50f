//! Presets: expressions CUDA engineers reach for, grouped as the menu shows them.

use cute_render::View;

/// One preset: menu group, label, expression (a script), view.
pub struct Preset {
    /// Menu group.
    pub group: &'static str,
    /// What the menu says.
    pub label: &'static str,
    /// The expression or script.
    pub expr: &'static str,
    /// The view it is best seen in.
    pub view: View,
}

const fn p(group: &'static str, label: &'static str, expr: &'static str, view: View) -> Preset {
    Preset {
        group,
        label,
        expr,
        view,
    }
}

/// A kernel preset: [`cute_lang::kernel::PRESETS`]' block `i`, checked whole.
const fn kernel(i: usize) -> Preset {
    let (_, label, expr) = cute_lang::kernel::PRESETS[i];
    p("Whole kernel", label, expr, View::Kernel)
}

/// Every preset, in menu order.
pub const PRESETS: &[Preset] = &[
    // Whole kernels: every smem buffer, copy and MMA of a mainloop set-up, checked.
    kernel(0),
    kernel(1),
    kernel(2),
    kernel(3),
    kernel(4),
    kernel(5),
    kernel(6),
    kernel(7),
    kernel(8),
    kernel(9),
    kernel(10),
    kernel(11),
    kernel(12),
    kernel(13),
    // The seeds' examples (the swizzling articles the project was conceived from).
    p("Seeds", "8x32 half tile under Sw<3,2,3> (render's default)", "composition(Sw<3,2,3>, (8,32):(32,1))", View::Swizzle),
    p("Seeds", "8x64 half tile under Sw<3,4,3>", "Sw<3,4,3> o 0 o (8,64):(64,1)", View::Swizzle),
    p("Seeds", "32x64 floats: column reads, 8-way conflicts", "bank_conflicts((32,64):(64,1), 32, (32,4):(1,32), LDS128)", View::Banks),
    p("Seeds", "32x64 halves, vec8 column reads under Sw<3,3,3>", "bank_conflicts(Sw<3,3,3> o 0 o (32,64):(64,1), 16, make_layout_tv((32,1):(1,0), (1,8):(0,1)), LDS128)", View::Banks),
    p("Seeds", "Which swizzle fixes the column reads?", "swizzle_search((32,64):(64,1), 16, make_layout_tv((32,1):(1,0), (1,8):(0,1)), LDS128)", View::Search),
    p("Seeds", "TV layout: 4x8 threads, 4x1 values", "make_layout_tv((4,8):(8,1), (4,1):(1,0))", View::Tv),
    // SM90 GMMA shared-memory atoms for 16-bit elements (K-major, rows of 8 x 16 B chunks).
    p("Swizzle atoms (16-bit)", "INTER: no swizzle, 8x8", "(8,8):(8,1)", View::Layout),
    p("Swizzle atoms (16-bit)", "32B: Sw<1,4,3> o (8,16):(16,1)", "Sw<1,4,3> o 0 o (8,16):(16,1)", View::Swizzle),
    p("Swizzle atoms (16-bit)", "64B: Sw<2,4,3> o (8,32):(32,1)", "Sw<2,4,3> o 0 o (8,32):(32,1)", View::Swizzle),
    p("Swizzle atoms (16-bit)", "128B: Sw<3,4,3> o (8,64):(64,1)", "Sw<3,4,3> o 0 o (8,64):(64,1)", View::Swizzle),
    p("Swizzle atoms (16-bit)", "128B MN-major: Sw<3,4,3> o (64,8):(1,64)", "Sw<3,4,3> o 0 o (64,8):(1,64)", View::Swizzle),
    // Hopper/Blackwell smem layouts as CUTLASS builds them: tile_to_shape of a GMMA/UMMA
    // atom over (BLK_M, BLK_K, Stages), drawn in elements (the swizzle acts on bytes).
    p("Hopper/Blackwell smem", "GMMA K-major SW128, half_t: 128x64x3", "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<128>{}, Int<64>{}, Int<3>{}))", View::Swizzle),
    p("Hopper/Blackwell smem", "GMMA K-major SW64, half_t: 128x32x3", "tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>{}, make_shape(Int<128>{}, Int<32>{}, Int<3>{}))", View::Swizzle),
    p("Hopper/Blackwell smem", "GMMA K-major SW32, half_t: 128x16x3", "tile_to_shape(GMMA::Layout_K_SW32_Atom<half_t>{}, make_shape(Int<128>{}, Int<16>{}, Int<3>{}))", View::Swizzle),
    p("Hopper/Blackwell smem", "GMMA MN-major SW128, half_t: 128x64x3 (Step<_2,_1,_3>)", "tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(Int<128>{}, Int<64>{}, Int<3>{}), Step<_2,_1,_3>{})", View::Swizzle),
    p("Hopper/Blackwell smem", "GMMA MN-major SW64, half_t: 128x64x3 (Step<_2,_1,_3>)", "tile_to_shape(GMMA::Layout_MN_SW64_Atom<half_t>{}, make_shape(Int<128>{}, Int<64>{}, Int<3>{}), Step<_2,_1,_3>{})", View::Swizzle),
    p("Hopper/Blackwell smem", "GMMA MN-major SW32, half_t: 128x64x3 (Step<_2,_1,_3>)", "tile_to_shape(GMMA::Layout_MN_SW32_Atom<half_t>{}, make_shape(Int<128>{}, Int<64>{}, Int<3>{}), Step<_2,_1,_3>{})", View::Swizzle),
    p("Hopper/Blackwell smem", "UMMA MN-major SW128_32B, float: 128x32", "tile_to_shape(UMMA::Layout_MN_SW128_32B_Atom<float>{}, make_shape(Int<128>{}, Int<32>{}))", View::Swizzle),
    p("Hopper/Blackwell smem", "Pasted block: Hopper GEMM smem A (C++)", "// a mainloop's shared memory, as the kernel writes it\nusing Element = cutlass::half_t;\nconstexpr int kStages = 4;\nusing SmemLayoutAtomA = GMMA::Layout_K_SW128_Atom<Element>;\nusing SmemLayoutA = decltype(tile_to_shape(SmemLayoutAtomA{},\n    make_shape(Int<128>{}, Int<64>{}, Int<kStages>{})));", View::Swizzle),
    // GMMA/UMMA descriptors: what wgmma / tcgen05.mma read for an operand block.
    p("Descriptors", "Hopper 128x128x64 F16 GEMM: smem A (K-major SW128) and its GMMA descriptor", "// Hopper GEMM 128x128x64 of half_t: K-major A, one SM90_64x128x16_F32F16F16_SS per k-block\nusing SmemLayoutA = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_64>{}));\n// the A block of one wgmma: 64 rows (M) x 16 halves (K)\nmake_gmma_desc<GMMA::Major::K>(composition(SmemLayoutA{}, make_tile(_64{}, _16{})))", View::Descriptor),
    p("Descriptors", "Hopper 128x128x64 F16 GEMM: smem B (MN-major SW128) and its GMMA descriptor", "// N-major B of the same GEMM: the 128x16 B block of one SM90_64x128x16 wgmma\nusing SmemLayoutB = decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_128,_64>{}));\nmake_gmma_desc<GMMA::Major::MN>(composition(SmemLayoutB{}, make_tile(_128{}, _16{})))", View::Descriptor),
    p("Descriptors", "Blackwell UMMA 128x256x16 F16: smem A descriptor", "// SM100_MMA_F16BF16_SS 128x256: the 128x16 A block of one tcgen05.mma\nusing SmemLayoutA = decltype(tile_to_shape(UMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_64>{}));\nUMMA::make_umma_desc<UMMA::Major::K>(composition(SmemLayoutA{}, make_tile(_128{}, _16{})))", View::Descriptor),
    p("Descriptors", "Blackwell UMMA 128x256 F16 -> F32: instruction descriptor", "UMMA::make_instr_desc<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>()", View::Descriptor),
    // Hopper TMA: the box make_tma_copy derives and where it lands in swizzled smem.
    p("TMA", "TMA 128B swizzle: K-major 64x64 half tile of an (M,K) row-major matrix", "// make_tma_copy(SM90_TMA_LOAD{}, gA, sA): one box per tile, rows land swizzled\nauto gA = make_layout(make_shape(4096, 4096), make_stride(4096, _1{}));\nauto sA = tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{});\nmake_tma_copy(gA, sA)", View::Tma),
    p("TMA", "wgmma_tma_sm90 TN: make_tma_atom, get_tma_tensor, tma_partition", "// examples/cute/tutorial/hopper/wgmma_tma_sm90.cu (host and kernel lines)\nusing TA = cute::half_t;\nTA const* A = nullptr;\nint M = 5120;\nint K = 4096;\nauto bM = Int<128>{};\nauto bN = Int<128>{};\nauto bK = Int< 64>{};\nauto cta_tiler = make_shape(bM, bN, bK);\nauto sA = tile_to_shape(GMMA::Layout_K_SW128_Atom<TA>{}, make_shape(bM,bK,Int<3>{}));\nTensor mA = make_tensor(A, make_shape(M,K), make_stride(K, Int<1>{}));\nCopy_Atom tmaA = make_tma_atom(SM90_TMA_LOAD{}, mA, sA(_,_,0), make_shape(bM,bK));\n// in the kernel: the TMA coordinate tensor, the CTA tile, each TMA instruction's part\nTensor mA_tma = tmaA.get_tma_tensor(make_shape(M,K));   // ArithTuple(0,0) o (5120,4096):(1@1,1@0)\nTensor gA = local_tile(mA_tma, cta_tiler, make_coord(1, 2, _), Step<_1, X,_1>{});\nTensor sA_t = make_tensor(make_smem_ptr<TA>(nullptr), sA);\nauto [tAgA, tAsA] = tma_partition(tmaA, Int<0>{}, Layout<_1>{}, group_modes<0,2>(sA_t), group_modes<0,2>(gA));\ntmaA", View::Tma),
    p("TMA", "TMA MN-major SW64 tile: four (32,8) boxes", "make_tma_copy(make_layout(make_shape(4096, 4096), make_stride(_1{}, 4096)), tile_to_shape(GMMA::Layout_MN_SW64_Atom<half_t>{}, Shape<_64,_16>{}))", View::Tma),
    // Blackwell tensor memory.
    p("TMEM", "Blackwell 128x256 UMMA accumulator (float) in TMEM", "// SM100_MMA_F16BF16_SS 128x256: C lives in 128 lanes x 256 columns of tensor memory\nauto tiled_mma = make_tiled_mma(SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>{});\npartition_fragment_C(tiled_mma, Shape<_128,_256>{})", View::Tmem),
    p("TMEM", "UMMA M=64: two MMAs share each sub-partition", "partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t, half_t, float, 64, 64, UMMA::Major::K, UMMA::Major::K>{}), Shape<_128,_64>{})", View::Tmem),
    p("TMEM", "tcgen05.ld 32dp32b4x: one lane per thread, 4 columns", "atom(SM100_TMEM_LOAD_32dp32b4x)", View::Tmem),
    p("TMEM", "tcgen05.ld 16dp256b1x: 2 lanes x 2 columns per thread", "atom(SM100_TMEM_LOAD_16dp256b1x)", View::Tmem),
    // Tensors: a mainloop's tiles and what each thread of the MMA and the copies owns.
    p("Tensors", "SM80 mainloop: thread 37's part of sA (partition_A)", "// the CuTe SM80 tutorial: a 2x2-warp MMA reads a 64x32 half tile of shared memory\nauto tiled_mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), make_shape(Int<64>{}, Int<32>{}), LayoutRight{});\nauto thr_mma = tiled_mma.get_slice(37);\nauto tCsA = thr_mma.partition_A(sA);", View::Partition),
    p("Tensors", "G2S copy: thread 9's 16-byte vectors of a 128x64 gA tile (partition_S)", "// 128 threads, 16x8 of them row-major, each moving 8 halves (cp.async 16 B)\nauto copy = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{});\nauto mA = make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(4096, 4096), LayoutRight{});\nauto gA = local_tile(mA, make_shape(Int<128>{}, Int<128>{}, Int<64>{}), make_coord(0, 0, 0), Step<_1, X, _1>{});\ncopy.get_slice(9).partition_S(gA)", View::Partition),
    p("Tensors", "local_tile of a GMMA SW128 smem tensor (the swizzle in the pointer)", "auto sA = make_tensor(make_smem_ptr<half_t>(nullptr), tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<128>{}, Int<64>{})));\nlocal_tile(sA, make_shape(Int<128>{}, Int<16>{}), make_coord(0, 1))", View::Layout),
    // Global memory: the sectors and lines each warp instruction of a copy costs.
    p("Global memory", "G2S cp.async of a 128x64 gA tile: coalesced", "// 128 threads, 16x8 of them row-major, each moving 8 halves (cp.async 16 B)\nauto copy = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{});\nauto mA = make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(4096, 4096), LayoutRight{});\nauto gA = local_tile(mA, make_shape(Int<128>{}, Int<128>{}, Int<64>{}), make_coord(0, 0, 0), Step<_1, X, _1>{});\ncoalescing(gA, copy)", View::Coalescing),
    p("Global memory", "Rows of 40 halves from byte 48: 80% of fetched bytes used", "// 8-byte vectors along rows that are not a multiple of 32 bytes, 48 bytes into a line\nauto copy = make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_4>>{});\nauto gA = make_tensor(make_gmem_ptr<half_t>(48), make_shape(64, 32), make_stride(40, 1));\ncoalescing(gA, copy)", View::Coalescing),
    p("Global memory", "Threads down the columns of a float tile: a sector per lane", "// the transposed read: 32 lanes, 32 rows, 4 bytes each\nauto copy = make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32,_4>>{}, Layout<Shape<_1,_1>>{});\nauto gB = make_tensor(make_gmem_ptr<float>(nullptr), make_shape(Int<32>{}, Int<32>{}), LayoutRight{});\ncoalescing(gB, copy)", View::Coalescing),
    // SM80 smem layouts from CUTLASS's default GEMM configurations.
    p("SM80 smem", "half_t K-major atom Sw<3,3,3> o (8,64):(64,1)", "composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})", View::Swizzle),
    p("SM80 smem", "half_t 32-wide atom Sw<2,3,3> o (8,32):(32,1)", "composition(Swizzle<2,3,3>{}, Layout<Shape<_8,_32>,Stride<_32,_1>>{})", View::Swizzle),
    p("SM80 smem", "tile_to_shape: 128x64 from the 8x64 atom", "A = Sw<3,3,3> o 0 o (8,64):(64,1)\nblocked_product(A, (16,1):(1,0))", View::Swizzle),
    p("SM80 smem", "ldmatrix of A (32x16 of 64-wide rows): 8-way", "M = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (2,2,1))\nbank_conflicts((32,16):(64,1), make_tiled_copy_A(atom(SM75_U32x4_LDSM_N, half_t), M))", View::Banks),
    p("SM80 smem", "ldmatrix of A under Sw<3,3,3>: conflict-free", "M = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (2,2,1))\nbank_conflicts(Sw<3,3,3> o 0 o (32,16):(64,1), make_tiled_copy_A(atom(SM75_U32x4_LDSM_N, half_t), M))", View::Banks),
    // ldmatrix / stmatrix atoms.
    p("ldmatrix", "SM75_U32x4_LDSM_N (x4)", "atom(SM75_U32x4_LDSM_N, half_t)", View::Copy),
    p("ldmatrix", "SM75_U16x8_LDSM_T (x4, transposed)", "atom(SM75_U16x8_LDSM_T, half_t)", View::Copy),
    p("ldmatrix", "SM75_U32x1_LDSM_N (x1)", "atom(SM75_U32x1_LDSM_N, half_t)", View::Copy),
    p("ldmatrix", "make_tiled_copy_A for a 2x2 SM80 MMA", "M = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (2,2,1))\nmake_tiled_copy_A(atom(SM75_U32x4_LDSM_N, half_t), M)", View::Copy),
    // MMA atoms.
    p("MMA", "SM80_16x8x16_F16F16F16F16_TN", "atom(SM80_16x8x16_F16F16F16F16_TN)", View::Mma),
    p("MMA", "SM80_16x8x8_F32TF32TF32F32_TN", "atom(SM80_16x8x8_F32TF32TF32F32_TN)", View::Mma),
    p("MMA", "SM80 2x2 warps (TiledMMA 32x16x16)", "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (2,2,1))", View::Mma),
    p("MMA", "SM70_8x8x4_F32F16F16F32_NT", "atom(SM70_8x8x4_F32F16F16F32_NT)", View::Mma),
    p("MMA", "SM90 GMMA 64x64x16 F32 += F16 (SS)", "atom(SM90_64x64x16_F32F16F16_SS)", View::Mma),
    // The algebra.
    p("Algebra", "composition", "composition((6,2):(8,2), (4,3):(3,1))", View::Algebra),
    p("Algebra", "complement", "complement((2,2):(1,6), 24)", View::Algebra),
    p("Algebra", "logical_divide", "logical_divide((4,2,3):(2,1,8), 4:2)", View::Algebra),
    p("Algebra", "zipped_divide", "zipped_divide((8,16):(16,1), (2:1,4:1))", View::Algebra),
    p("Algebra", "logical_product", "logical_product((2,2):(4,1), 6:1)", View::Algebra),
    p("Algebra", "raked_product", "raked_product((2,2):(1,2), (3,4):(4,1))", View::Algebra),
    p("Algebra", "right_inverse", "right_inverse((4,(2,4)):(2,(1,8)))", View::Algebra),
    p("Algebra", "script with bindings", "# NAME = expr binds a name; the last line is drawn.\nA = (8,64):(64,1)\nT = (4:1,16:1)\nlogical_divide(A, T)", View::Algebra),
];

/// The menu's groups, in the order they first appear in [`PRESETS`].
pub fn groups() -> Vec<&'static str> {
    let mut g: Vec<&'static str> = Vec::new();
    for p in PRESETS {
        if !g.contains(&p.group) {
            g.push(p.group);
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kernel preset of the language is in the menu.
    #[test]
    fn every_kernel_preset_is_offered() {
        let offered: Vec<&str> = PRESETS
            .iter()
            .filter(|p| p.view == View::Kernel)
            .map(|p| p.expr)
            .collect();
        let all: Vec<&str> = cute_lang::kernel::PRESETS.iter().map(|k| k.2).collect();
        assert_eq!(offered, all);
    }

    /// Every preset evaluates and draws in its view.
    #[test]
    fn presets_draw() {
        for p in PRESETS {
            let (mut s, _) = crate::state::State::from_query("");
            s.expr = p.expr.to_string();
            s.opts.view = p.view;
            let r = cute_render::render_svg(&s.expr, &s.options(), cute_render::Theme::Light);
            assert!(r.is_ok(), "{}: {:?}", p.label, r.err());
        }
    }
}
