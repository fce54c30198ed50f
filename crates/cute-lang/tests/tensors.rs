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
    for (block, want) in cases {
        let got = eval_block(block)
            .map(|v| v.to_string())
            .unwrap_or_else(|e| format!("error: {}", e.msg));
        assert_eq!(got, want, "{block}");
    }
}
