//! Tensors written as CuTeDSL writes them give the values of their C++ spellings (the C++
//! spellings are checked against the headers in golden.rs's tensor cases).

use cute_lang::session::eval_block;

fn same(dsl: &str, cpp: &str) {
    let d = eval_block(dsl)
        .map(|v| v.to_string())
        .unwrap_or_else(|e| panic!("{dsl}: {}", e.msg));
    let c = eval_block(cpp)
        .map(|v| v.to_string())
        .unwrap_or_else(|e| panic!("{cpp}: {}", e.msg));
    assert_eq!(d, c, "{dsl}\n  vs {cpp}");
}

/// Each block prints its expectation (or `error: ...`).
fn prints_as(cases: &[(&str, &str)]) {
    for (block, want) in cases {
        let got = eval_block(block)
            .map(|v| v.to_string())
            .unwrap_or_else(|e| format!("error: {}", e.msg));
        assert_eq!(got, *want, "{block}");
    }
}

#[test]
fn cutedsl_spellings_equal_cpp() {
    same(
        "cute.make_tensor(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.gmem), cute.make_layout((512, 256), stride=(256, 1)))",
        "make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(512, 256), make_stride(256, 1))",
    );
    same(
        "cute.local_tile(cute.make_identity_tensor((128, 64)), tiler=(32, 32), coord=(1, 1))",
        "local_tile(make_identity_tensor(make_shape(128, 64)), make_shape(Int<32>{}, Int<32>{}), make_coord(1, 1))",
    );
    same(
        "mA = cute.make_tensor(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.gmem), cute.make_layout((512, 256), stride=(256, 1)))\ncute.local_tile(mA, (128, 128, 32), (1, 2, None), proj=(1, None, 1))",
        "auto mA = make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(512, 256), make_stride(256, _1{}));\nlocal_tile(mA, make_shape(Int<128>{}, Int<128>{}, Int<32>{}), make_coord(1, 2, _), Step<_1, X, _1>{})",
    );
    same(
        "tiled_mma = cute.make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (2, 2, 1))\nsA = cute.make_tensor(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.smem), cute.make_layout((64, 32), stride=(32, 1)))\ntiled_mma.get_slice(37).partition_A(sA)",
        "auto tiled_mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), make_shape(Int<64>{}, Int<32>{}), LayoutRight{});\ntiled_mma.get_slice(37).partition_A(sA)",
    );
}

/// `TMA::to_CUtensorMapSwizzle` is not in a host-only build of the headers: checked here
/// against its switch in `cute/arch/copy_sm90_desc.hpp` (as nvcc 12.7+ compiles it, with the
/// 32B/64B-atom modes).
#[test]
fn to_cu_tensor_map_swizzle_follows_the_header() {
    let line = |s: &str| {
        cute_lang::eval_line(s)
            .map(|v| v.to_string())
            .map_err(|e| e.msg)
    };
    for (bits, base, want) in [
        (
            "DISABLE",
            "SWIZZLE_BASE_16B",
            Ok("CU_TENSOR_MAP_SWIZZLE_NONE"),
        ),
        ("B32", "SWIZZLE_BASE_16B", Ok("CU_TENSOR_MAP_SWIZZLE_32B")),
        ("B64", "SWIZZLE_BASE_16B", Ok("CU_TENSOR_MAP_SWIZZLE_64B")),
        ("B128", "SWIZZLE_BASE_16B", Ok("CU_TENSOR_MAP_SWIZZLE_128B")),
        (
            "B128",
            "SWIZZLE_BASE_32B",
            Ok("CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B"),
        ),
        (
            "B128",
            "SWIZZLE_BASE_64B",
            Ok("CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B"),
        ),
        (
            "B64",
            "SWIZZLE_BASE_32B",
            Err("Expected 16B swizzle base for 64B swizzle bits."),
        ),
        (
            "DISABLE",
            "SWIZZLE_BASE_64B",
            Err("Expected 16B swizzle base for 0B swizzle bits."),
        ),
    ] {
        let got = line(&format!(
            "TMA::to_CUtensorMapSwizzle(TMA::SmemSwizzleBits::{bits}, TMA::SmemSwizzleBase::{base})"
        ));
        match (got, want) {
            (Ok(g), Ok(w)) => assert_eq!(g, w, "{bits} {base}"),
            (Err(g), Err(w)) => assert!(g.contains(w), "{bits} {base}: {g}"),
            (g, w) => panic!("{bits} {base}: {g:?}, want {w:?}"),
        }
    }
    // From a layout, as CuTe's make_tma_copy does it.
    assert_eq!(
        line("TMA::to_CUtensorMapSwizzle(detail::get_tma_swizzle_bits(GMMA::Layout_K_SW128_Atom<half_t>{}), detail::get_tma_swizzle_base(GMMA::Layout_K_SW128_Atom<half_t>{}))").unwrap(),
        line("tma_swizzle(GMMA::Layout_K_SW128_Atom<half_t>{})").unwrap()
    );
}

/// Kernel set-up lines: raw pointer declarations (a parameter without a value is null, as
/// here), `make_gmem_ptr(A)` of one, pointer arithmetic, the CUDA indices, projected
/// `local_partition`, `make_fragment_C` and an RS GMMA's register A; every expectation is
/// what CuTe C++ printed for the same block (tools/oracle/snippets.py, host g++).
/// Register arrays of sub-byte elements (C++'s `array_subbyte`, iterated by a
/// `subbyte_iterator`): slices move the iterator in bits; `t.data()` is the iterator and a
/// tensor over it a view of the same array. The byte offsets are what g++ printed against
/// the array's own address (`0x...990` then `0x...994` for `t(_, 1)`).
#[test]
fn sub_byte_register_arrays_move_in_bits() {
    prints_as(&[
        (
            "make_tensor<int4_t>(Shape<_8,_4>{})(_, 1)",
            "subptr[4b](stack+4.0) o (8):(1)",
        ),
        (
            "make_tensor<int4_t>(Shape<_8,_4>{})(3, _)",
            "subptr[4b](stack+1.4) o (4):(8)",
        ),
        (
            "make_tensor<uint1b_t>(Shape<_8,_4>{})(_, 3)",
            "subptr[1b](stack+3.0) o (8):(1)",
        ),
        (
            "make_tensor<half_t>(Shape<_8,_4>{})(_, 1)",
            "ptr[16b](stack+16) o (8):(1)",
        ),
        (
            "make_tensor<half_t>(Shape<_8,_4>{})(_, 1).data()",
            "ptr[16b](stack+16)",
        ),
        (
            "make_tensor(make_tensor<int4_t>(Shape<_8,_4>{}).data() + 3, Layout<Shape<_4,_2>>{})",
            "subptr[4b](stack+1.4) o (4,2):(1,4)",
        ),
        (
            "make_identity_tensor(make_shape(4, 8)).data()",
            "ArithTuple(0,0)",
        ),
    ]);
}

#[test]
fn kernel_declarations_print_as_cpp() {
    let cases = [
        ("cute::half_t const* A = nullptr;\nA;", "ptr[16b]((nil))"),
        ("float const* A;\nA;", "ptr[32b]((nil))"),
        ("float const* A = nullptr;\nauto p = make_gmem_ptr(A) + 8;", "gmem_ptr[32b](0x20)"),
        ("float* A = nullptr;\nauto q = A + 3;", "ptr[32b](0xc)"),
        (
            "using TA = cute::half_t;\nTA const* A = nullptr;\nTensor mA = make_tensor(A + 64, make_shape(8, 4));",
            "ptr[16b](0x80) o (8,4):(1,8)",
        ),
        ("threadIdx.x = 5;\nauto t = threadIdx.x + 1;", "6"),
        ("blockIdx.y;", "0"),
        ("int8_t * const P = nullptr;\nauto r = make_rmem_ptr(P);", "ptr[8b]((nil))"),
        (
            "TiledMMA mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2>>{});\nTensor gC = make_tensor(make_gmem_ptr<float>(nullptr), make_shape(Int<64>{}, Int<64>{}));\nTensor tCgC = mma.get_slice(7).partition_C(gC);\nauto f = mma.make_fragment_C(tCgC);",
            "ptr[32b](stack) o ((2,2),2,4):((1,2),4,8)",
        ),
        (
            "TiledMMA mma = make_tiled_mma(SM90_64x64x16_F32F16F16_RS<GMMA::Major::K, GMMA::Major::K>{});\nTensor sA = make_tensor(make_smem_ptr<cute::half_t>(nullptr), make_shape(Int<64>{}, Int<32>{}), LayoutRight{});\nauto f = mma.get_slice(3).partition_fragment_A(sA);",
            "ptr[16b](stack) o ((2,2,2),1,2):((1,2,4),0,8)",
        ),
        (
            "auto sB = make_tensor(make_smem_ptr<float>(nullptr), make_layout(make_shape(Int<64>{}, Int<8>{})));\nauto tC = make_layout(make_shape(Int<16>{}, Int<16>{}), LayoutRight{});\nauto t = local_partition(sB, tC, 37, Step< X,_1>{});",
            "smem_ptr[32b](0x14) o (4,8):(16,64)",
        ),
        // `T x;` is the type's value; `a * b;` stays a product when `a` is no type.
        (
            "Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom;\ns2r_atom.ValLayoutSrc{};",
            "(32,8):(8,1)",
        ),
        ("int a = 6;\nint b = 7;\na * b;", "42"),
    ];
    prints_as(&cases);
}

/// Tensors over swizzles in element units (`make_tensor(p, composition(Swizzle{}, L))`:
/// printed, sliced at static and run-time coordinates (a `MixedBits` offset), tiled,
/// partitioned), GMMA/UMMA descriptor fragments (`make_fragment_A/B` of `_SS` MMAs and
/// their elements), `make_tensor_like<T>`, `recast_ptr<T>`: every expectation is what CuTe
/// C++ printed for the same block (host g++ against the headers; `_` dropped, the stack
/// address as `(stack)`).
#[test]
fn swizzled_and_descriptor_tensors_print_as_cpp() {
    let cases = [
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nsA;",
            "smem_ptr[16b]((nil)) o Sw<2,3,3> o 0 o ((8,8),(32,1)):((32,256),(1,0))",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nsA(_, _9{});",
            "smem_ptr[16b](0x12) o (((2,2,2),8)):(((32,56,144),256))",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nsA(_3{}, _);",
            "smem_ptr[16b](0xd0) o (((8,2,2),1)):(((1,-8,16),0))",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nsA(make_coord(_2{}, _1{}), _);",
            "smem_ptr[16b](0x290) o (((8,2,2),1)):(((1,-8,16),0))",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nlocal_tile(sA, make_shape(_32{}, _16{}), make_coord(_1{}, _1{}));",
            "smem_ptr[16b](0x800) o Sw<2,3,3> o 16 o (32,16):(32,1)",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nzipped_divide(sA, make_shape(_32{}, _16{}));",
            "smem_ptr[16b]((nil)) o Sw<2,3,3> o 0 o ((32,16),(2,2)):((32,1),(1024,16))",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nlocal_partition(sA, make_layout(make_shape(_8{}, _4{})), 5);",
            "smem_ptr[16b](0x160) o (8,(2,2,2)):(256,(4,8,-16))",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\ncoalesce(sA);",
            "smem_ptr[16b]((nil)) o Sw<2,3,3> o 0 o (64,32):(32,1)",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nlayout(sA);",
            "Sw<2,3,3> o 0 o ((8,8),(32,1)):((32,256),(1,0))",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nsize(sA);",
            "2048",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nshape(sA);",
            "((8,8),(32,1))",
        ),
        (
            "auto t = make_tensor(make_gmem_ptr<half_t>(4096), make_layout(make_shape(_8{}, _16{}), make_stride(_16{}, _1{})));\nmake_tensor_like<float>(t);",
            "ptr[32b](stack) o (8,16):(16,1)",
        ),
        (
            "auto t = make_tensor(make_gmem_ptr<half_t>(4096), make_layout(make_shape(_8{}, _16{}), make_stride(_16{}, _1{})));\nmake_fragment_like<float>(t);",
            "ptr[32b](stack) o (8,(16)):(1,(8))",
        ),
        (
            "auto t = make_tensor(make_gmem_ptr<half_t>(4096), make_layout(make_shape(_8{}, _16{}), make_stride(_16{}, _1{})));\nmake_tensor_like(t);",
            "ptr[16b](stack) o (8,16):(16,1)",
        ),
        (
            "recast_ptr<float>(make_smem_ptr<half_t>(4096));",
            "smem_ptr[32b](0x1000)",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nauto tc = make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, Layout<Shape<_16,_4>,Stride<_4,_1>>{}, Layout<Shape<_1,_2>>{});\ntc.get_slice(5).partition_S(sA);",
            "smem_ptr[16b](0x44) o ((2,1),4,(2,2)):((1,0),512,(8,16))",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nauto tc = make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, Layout<Shape<_16,_4>,Stride<_4,_1>>{}, Layout<Shape<_1,_2>>{});\ntc.get_slice(5).partition_D(sA);",
            "smem_ptr[16b](0x44) o ((2,1),4,(2,2)):((1,0),512,(8,16))",
        ),
        (
            "auto tiled_mma = make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{}, Layout<Shape<_2,_1,_1>>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(_128{}, _64{}, _3{})));\nauto thr_mma = tiled_mma.get_slice(37);\nauto tCsA = thr_mma.partition_A(sA);\nauto tCrA = thr_mma.make_fragment_A(tCsA);\ntCsA;",
            "Sw<3,4,3>_smem_ptr[16b]((nil)) o ((64,16),1,4,(1,3)):((64,1),0,16,(0,8192))",
        ),
        (
            "auto tiled_mma = make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{}, Layout<Shape<_2,_1,_1>>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(_128{}, _64{}, _3{})));\nauto thr_mma = tiled_mma.get_slice(37);\nauto tCsA = thr_mma.partition_A(sA);\nauto tCrA = thr_mma.make_fragment_A(tCsA);\ntCrA;",
            "GMMA::DescriptorIterator o (1,1,4,(1,3)):(0,0,2,(0,1024))",
        ),
        (
            "auto tiled_mma = make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{}, Layout<Shape<_2,_1,_1>>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(_128{}, _64{}, _3{})));\nauto thr_mma = tiled_mma.get_slice(37);\nauto tCsA = thr_mma.partition_A(sA);\nauto tCrA = thr_mma.make_fragment_A(tCsA);\ntCrA(0,0,0,0);",
            "GmmaDescriptor: 0x4000004000010000\n  start_addr :  0x0000\n  leading_off:  0x0001 (1)\n  stride_off :  0x0040 (64)\n  base_offset:  0x0\n  layout_type:  0x1 (B128)",
        ),
        (
            "auto tiled_mma = make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{}, Layout<Shape<_2,_1,_1>>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(_128{}, _64{}, _3{})));\nauto thr_mma = tiled_mma.get_slice(37);\nauto tCsA = thr_mma.partition_A(sA);\nauto tCrA = thr_mma.make_fragment_A(tCsA);\ntCrA(0,0,1,2);",
            "GmmaDescriptor: 0x4000004000010802\n  start_addr :  0x0802\n  leading_off:  0x0001 (1)\n  stride_off :  0x0040 (64)\n  base_offset:  0x0\n  layout_type:  0x1 (B128)",
        ),
        (
            "auto tiled_mma = make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{}, Layout<Shape<_2,_1,_1>>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(_128{}, _64{}, _3{})));\nauto thr_mma = tiled_mma.get_slice(37);\nauto tCsA = thr_mma.partition_A(sA);\nauto tCrA = thr_mma.make_fragment_A(tCsA);\ntCrA(_,_,1,_);",
            "GMMA::DescriptorIterator o (1,1,(1,3)):(0,0,(0,1024))",
        ),
        (
            "auto tiled_mma = make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{}, Layout<Shape<_2,_1,_1>>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(_128{}, _64{}, _3{})));\nauto thr_mma = tiled_mma.get_slice(37);\nauto tCsA = thr_mma.partition_A(sA);\nauto tCrA = thr_mma.make_fragment_A(tCsA);\nthr_mma.partition_fragment_A(sA);",
            "GMMA::DescriptorIterator o (1,1,4,(1,3)):(0,0,2,(0,1024))",
        ),
        (
            "auto tiled_mma2 = make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::MN, GMMA::Major::MN>{});\nauto sB = make_tensor(make_smem_ptr<half_t>(nullptr), tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(_128{}, _64{})));\nauto tb = tiled_mma2.get_slice(0).partition_B(sB);\nauto fb = tiled_mma2.make_fragment_B(tb);\ntb;",
            "Sw<3,4,3>_smem_ptr[16b]((nil)) o (((64,2),(8,2)),1,4):(((1,512),(64,1024)),0,2048)",
        ),
        (
            "auto tiled_mma2 = make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::MN, GMMA::Major::MN>{});\nauto sB = make_tensor(make_smem_ptr<half_t>(nullptr), tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(_128{}, _64{})));\nauto tb = tiled_mma2.get_slice(0).partition_B(sB);\nauto fb = tiled_mma2.make_fragment_B(tb);\nfb;",
            "GMMA::DescriptorIterator o (1,1,4):(0,0,256)",
        ),
        (
            "auto tiled_mma2 = make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::MN, GMMA::Major::MN>{});\nauto sB = make_tensor(make_smem_ptr<half_t>(nullptr), tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(_128{}, _64{})));\nauto tb = tiled_mma2.get_slice(0).partition_B(sB);\nauto fb = tiled_mma2.make_fragment_B(tb);\nfb(0,0,1);",
            "GmmaDescriptor: 0x4000008000400100\n  start_addr :  0x0100\n  leading_off:  0x0040 (64)\n  stride_off :  0x0080 (128)\n  base_offset:  0x0\n  layout_type:  0x1 (B128)",
        ),
        (
            "auto tiled_mma = make_tiled_mma(SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 128, UMMA::Major::K, UMMA::Major::K>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), coalesce(UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{}, append(partition_shape_A(tiled_mma, make_shape(_128{}, _64{})), _3{})), make_tuple(make_tuple(_1{}, _1{}), _1{}, _1{}, _1{})));\nauto f = tiled_mma.make_fragment_A(sA);\nsA;",
            "Sw<3,4,3>_smem_ptr[16b]((nil)) o ((128,16),1,4,3):((64,1),0,16,8192)",
        ),
        (
            "auto tiled_mma = make_tiled_mma(SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 128, UMMA::Major::K, UMMA::Major::K>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), coalesce(UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{}, append(partition_shape_A(tiled_mma, make_shape(_128{}, _64{})), _3{})), make_tuple(make_tuple(_1{}, _1{}), _1{}, _1{}, _1{})));\nauto f = tiled_mma.make_fragment_A(sA);\nf;",
            "UMMA::DescriptorIterator o (1,1,4,3):(0,0,2,1024)",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nint one = 1;\nint k = 9;\nint r = 3;\nauto t1 = local_tile(sA, make_shape(_32{}, _16{}), make_coord(one, one));\nauto C = composition(Swizzle<3,3,3>{}, make_layout(make_shape(_64{}, _64{}), make_stride(_64{}, _1{})));\nt1;",
            "smem_ptr[16b](0x800) o Sw<2,3,3> o M_0|(16&16)=16 o (32,16):(32,1)",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nint one = 1;\nint k = 9;\nint r = 3;\nauto t1 = local_tile(sA, make_shape(_32{}, _16{}), make_coord(one, one));\nauto C = composition(Swizzle<3,3,3>{}, make_layout(make_shape(_64{}, _64{}), make_stride(_64{}, _1{})));\nt1(_, 5);",
            "smem_ptr[16b](0x82a) o ((2,2,2,4)):((32,72,112,256))",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nint one = 1;\nint k = 9;\nint r = 3;\nauto t1 = local_tile(sA, make_shape(_32{}, _16{}), make_coord(one, one));\nauto C = composition(Swizzle<3,3,3>{}, make_layout(make_shape(_64{}, _64{}), make_stride(_64{}, _1{})));\nt1(r, _);",
            "smem_ptr[16b](0x8f0) o ((8,2)):((1,-8))",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nint one = 1;\nint k = 9;\nint r = 3;\nauto t1 = local_tile(sA, make_shape(_32{}, _16{}), make_coord(one, one));\nauto C = composition(Swizzle<3,3,3>{}, make_layout(make_shape(_64{}, _64{}), make_stride(_64{}, _1{})));\nlocal_tile(t1, make_shape(_8{}, _8{}), make_coord(one, one));",
            "smem_ptr[16b](0xa30) o ((2,2,2),8):((32,56,112),1)",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nint one = 1;\nint k = 9;\nint r = 3;\nauto t1 = local_tile(sA, make_shape(_32{}, _16{}), make_coord(one, one));\nauto C = composition(Swizzle<3,3,3>{}, make_layout(make_shape(_64{}, _64{}), make_stride(_64{}, _1{})));\nsA(_, k);",
            "smem_ptr[16b](0x12) o (((2,2,2),8)):(((32,56,144),256))",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nint one = 1;\nint k = 9;\nint r = 3;\nauto t1 = local_tile(sA, make_shape(_32{}, _16{}), make_coord(one, one));\nauto C = composition(Swizzle<3,3,3>{}, make_layout(make_shape(_64{}, _64{}), make_stride(_64{}, _1{})));\nsA(r, _);",
            "smem_ptr[16b](0xd0) o (((8,2,2),1)):(((1,-8,16),0))",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nint one = 1;\nint k = 9;\nint r = 3;\nauto t1 = local_tile(sA, make_shape(_32{}, _16{}), make_coord(one, one));\nauto C = composition(Swizzle<3,3,3>{}, make_layout(make_shape(_64{}, _64{}), make_stride(_64{}, _1{})));\nzipped_divide(C, make_shape(_16{}, _16{}))(_, make_coord(one, r));",
            "Sw<3,3,3> o M_0|(48&48)=48 o ((16,16)):((64,1))",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));\nauto sl = tile_to_shape(composition(Swizzle<2,3,3>{}, L), make_shape(_64{}, _32{}), Step<_1, _2>{});\nauto sA = make_tensor(make_smem_ptr<half_t>(nullptr), sl);\nint one = 1;\nint k = 9;\nint r = 3;\nauto t1 = local_tile(sA, make_shape(_32{}, _16{}), make_coord(one, one));\nauto C = composition(Swizzle<3,3,3>{}, make_layout(make_shape(_64{}, _64{}), make_stride(_64{}, _1{})));\nzipped_divide(C, make_shape(_16{}, _16{}))(_, make_coord(_1{}, _3{}));",
            "Sw<3,3,3> o 48 o ((16,16)):((64,1))",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{}));\nauto sA = make_tensor(make_smem_ptr(make_smem_ptr<half_t>(nullptr), Swizzle<3,4,3>{}), composition(Swizzle<3,4,3>{}, L));\nsA;",
            "Sw<3,4,3>_smem_ptr[16b]((nil)) o Sw<3,4,3> o 0 o (8,64):(64,1)",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{}));\nauto sB = make_tensor(make_smem_ptr<half_t>(nullptr), composition(Swizzle<3,4,3>{}, L));\nsB(1, _);",
            "smem_ptr[16b](0x80) o ((16,2,2)):((1,16,32))",
        ),
        (
            "auto L = make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{}));\nauto sB = make_tensor(make_smem_ptr<half_t>(nullptr), composition(Swizzle<3,4,3>{}, L));\nmake_fragment_like(sB);",
            "ptr[16b](stack) o (8,(64)):(1,(8))",
        ),
    ];
    prints_as(&cases);
}

/// Hostile TMA lines: each is an error that names the problem, with a column.
#[test]
fn tma_mistakes_name_what_is_wrong() {
    let g = "make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(256, 256), make_stride(256, Int<1>{}))";
    let s = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<64>{}, Int<64>{}))";
    let tma = format!("make_tma_copy(SM90_TMA_LOAD{{}}, {g}, {s})");
    for (expr, want) in [
        (
            format!("make_tma_copy(SM90_TMA_LOAD{{}}, make_tensor(make_smem_ptr<half_t>(nullptr), make_shape(256, 256), make_stride(256, Int<1>{{}})), {s})"),
            "needs a global-memory tensor",
        ),
        (format!("make_tma_copy(SM90_TMA_LOAD{{}}, {g}, {s}, Int<2>{{}})"), "use SM90_TMA_LOAD_MULTICAST"),
        (format!("make_tma_copy(SM90_TMA_LOAD_MULTICAST{{}}, {g}, {s}, Int<3>{{}})"), "power of two"),
        (format!("make_tma_copy(SM75_U32x4_LDSM_N{{}}, {g}, {s})"), "takes a TMA operation"),
        (format!("{tma}.get_tma_tensor(make_shape(256, 256, 4))"), "not congruent"),
        (
            format!("make_tma_copy(SM90_TMA_LOAD{{}}, make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(1024, 64, make_shape(2, 2, 2, 2)), make_stride(64, 1, make_stride(65536, 131072, 262144, 524288))), {s})"),
            "6 TMA modes; the hardware takes at most 5",
        ),
        (
            format!("make_tma_copy(SM90_TMA_LOAD{{}}, make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(256, 64, make_shape(2, 3)), make_stride(64, 1, make_stride(16384, 32768))), {s}).get_tma_tensor(make_shape(256, 64, 6))"),
            "not congruent with the TMA's gmem shape (256,64,(2,3))",
        ),
        (
            format!("tma_partition({tma}, 2, make_layout(Int<2>{{}}), make_tensor(make_smem_ptr<half_t>(nullptr), {s}), make_identity_tensor(make_shape(64, 64)))"),
            "outside the CTA layout",
        ),
        (
            format!("tma_partition({tma}, group_modes<0,2>(make_tensor(make_smem_ptr<half_t>(nullptr), {s})), group_modes<0,2>(make_identity_tensor(make_shape(Int<64>{{}}, Int<32>{{}}))))"),
            "mode 0 of the smem tensor has 4096 elements",
        ),
        (
            format!("tma_partition(make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{{}}, Layout<Shape<_16,_8>,Stride<_8,_1>>{{}}, Layout<Shape<_1,_8>>{{}}), {g}, {g})"),
            "expected a TMA copy",
        ),
        (format!("make_tma_copy(SM90_TMA_LOAD{{}}, {g}, {s}, make_shape(Int<64>{{}}, Int<32>{{}}), Int<1>{{}})"), "size equivalence"),
    ] {
        let e = cute_lang::eval_line(&expr).expect_err(&expr).to_string();
        assert!(e.contains(want), "{expr}: {e}");
        assert!(e.contains("column"), "{expr}: no column in {e}");
    }
}
