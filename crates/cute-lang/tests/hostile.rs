//! Malformed and hostile input: every line must give `error: …` with a message, never a
//! panic, a hang or an unbounded allocation. Heavy but valid lines must answer exactly.

use std::panic;
use std::path::PathBuf;

fn data(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

#[test]
fn every_bad_line_is_a_clear_error() {
    let text = data("bad-inputs.txt");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() >= 200,
        "the corpus has {} lines, want ≥ 200",
        lines.len()
    );
    let mut bad = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let got = panic::catch_unwind(|| cute_lang::print_one(line));
        match got {
            Err(_) => bad.push(format!("line {}: PANIC on {line:.80}", i + 1)),
            Ok((text, ok)) => {
                let msg = text.strip_prefix("error: ").unwrap_or("");
                if ok || msg.len() < 8 {
                    bad.push(format!("line {}: {line:.80} -> {text:.120}", i + 1));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} lines did not give a clear error:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn parse_errors_name_the_column() {
    for (src, col) in [
        ("composition((6,2):(8,2), (4,3):(3,1)", 37),
        ("(2,3):(1,2))", 12),
        ("8::1", 4),
        ("size(8:1 8:1)", 10),
        ("(4,8)：(8,1)", 6),
    ] {
        let (text, ok) = cute_lang::print_one(src);
        assert!(!ok, "{src}");
        assert!(
            text.ends_with(&format!("(column {col})")),
            "{src} -> {text}"
        );
    }
}

#[test]
fn heavy_valid_lines_answer_exactly() {
    let text = data("heavy-valid.txt");
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let (expr, expect) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("no tab in {line}"));
        let (got, _) = cute_lang::print_one(expr);
        assert_eq!(got, expect, "{expr}");
        n += 1;
    }
    assert!(n >= 20, "only {n} heavy lines");
}

#[test]
fn every_listed_function_is_implemented() {
    for f in cute_lang::function_names() {
        let (text, ok) = cute_lang::print_one(&format!("{f}()"));
        assert!(text.starts_with("error: ") || ok, "{f}() -> {text}");
        let (text, _) = cute_lang::print_one(&format!(
            "{f}(8:1, 8:1, 8:1, 8:1, 8:1, 8:1, 8:1, 8:1, 8:1, 8:1)"
        ));
        assert!(!text.contains("unknown function"), "{f} -> {text}");
    }
}

/// Inputs the fuzzer flagged (crashes, timeouts), replayed as scripts: each must finish
/// with one `error: …` or value line per evaluated line and no panic.
#[test]
fn fuzz_findings_replay() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fuzz");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("fuzz findings directory") {
        let path = entry.expect("entry").path();
        if path.file_name().is_some_and(|n| n == "README") {
            continue;
        }
        let bytes = std::fs::read(&path).expect("readable");
        let src = String::from_utf8_lossy(&bytes);
        let run = panic::catch_unwind(move || cute_lang::print_script(&src));
        let out = run.unwrap_or_else(|_| panic!("panic on {}", path.display()));
        assert!(!out.is_empty(), "{} produced no output", path.display());
        n += 1;
    }
    assert!(n >= 1, "no fuzz findings to replay");
}

/// The C++ / CuTeDSL lines of the corpus (after its marker comment) are parse or evaluation
/// errors that name a column: unclosed templates and `decltype(`, wrong template arity,
/// unknown types and atoms, rejected majors, 10,000-deep nesting.
#[test]
fn pasted_code_errors_name_a_column() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/bad-inputs.txt"),
    )
    .expect("corpus");
    let marker = "# C++ and CuTeDSL spellings";
    let start = text.find(marker).expect("marker line");
    let lines: Vec<&str> = text[start..]
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .collect();
    assert!(
        lines.len() >= 50,
        "only {} C++/DSL hostile lines",
        lines.len()
    );
    for line in lines {
        let (out, ok) = cute_lang::print_one(line);
        assert!(!ok, "{line:.80} -> {out:.80}");
        assert!(out.contains("(column "), "{line:.80} -> {out:.120}");
    }
}

/// `Layout::offsets` refuses what it cannot give: more than its limit, or offsets beyond
/// i64 (checked before the first one is formed), never a wrapped value or a huge allocation.
#[test]
fn offsets_refuse_overflow_and_size() {
    let big: cute_core::Layout = format!("(2,2):(1,{})", i64::MAX / 2 + 1).parse().unwrap();
    assert!(big
        .offsets(0, 16)
        .unwrap_err()
        .to_string()
        .contains("overflow"));
    let many: cute_core::Layout = "(1048576,1048576):(1,1048576)".parse().unwrap();
    assert!(many
        .offsets(0, 1 << 20)
        .unwrap_err()
        .to_string()
        .contains("more than"));
}

/// The templated SM100 UMMA, SM120 and sparse GMMA atoms refuse what C++ refuses (its
/// static_asserts: M/N ranges, majors, element types, vector sizes, unspecialised type
/// combinations) with an error that says why, never a panic.
#[test]
fn templated_atoms_refuse_what_cpp_refuses() {
    let mk = |t: &str| format!("make_tiled_mma({t}{{}})");
    let f8 = |op: &str, m: i64, n: i64, b: &str| {
        format!(
            "make_tiled_mma(MMA_Traits<{op}, float_e4m3_t, float_e4m3_t, float, C<{m}>, C<{n}>, integral_constant<UMMA::Major, UMMA::Major::K>, integral_constant<UMMA::Major, UMMA::Major::{b}>, integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>, integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>>{{}})"
        )
    };
    let cases: Vec<(String, &str)> = vec![
        // M out of range, 1 CTA and 2 CTAs
        (mk("SM100_MMA_F8F6F4_TS<float_e4m3_t, float_e4m3_t, float, 256, 128, UMMA::Major::K, UMMA::Major::K>"), "M = 256, but M must be 64 or 128"),
        (mk("SM100_MMA_TF32_2x1SM_SS_SPARSE<tfloat32_t, tfloat32_t, float, 64, 128, UMMA::Major::K, UMMA::Major::K>"), "M must be 128 or 256"),
        (mk("SM100_MMA_MXF8F6F4_SS<float_e4m3_t, float_e4m3_t, float, float_ue8m0_t, 64, 128, UMMA::Major::K, UMMA::Major::K>"), "M must be 128"),
        (mk("SM100_MMA_MXF8F6F4_2x1SM_SS<float_e4m3_t, float_e4m3_t, float, float_ue8m0_t, 128, 128, UMMA::Major::K, UMMA::Major::K>"), "M must be 256"),
        // N out of range or off its step
        (mk("SM100_MMA_F8F6F4_TS<float_e4m3_t, float_e4m3_t, float, 128, 24, UMMA::Major::K, UMMA::Major::K>"), "multiple of 16 between 16 and 256 for M=128"),
        (mk("SM100_MMA_S8_2x1SM_SS_SPARSE<int8_t, int8_t, int32_t, 256, 48, UMMA::Major::K, UMMA::Major::K>"), "multiple of 32"),
        (mk("SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, 128, 264, 16, UMMA::Major::K, UMMA::Major::K>"), "N = 264"),
        (f8("SM100_MMA_F8F6F4_SS", 128, 8, "MN"), "when B is MN major"),
        (f8("SM100_MMA_F8F6F4_2x1SM_SS", 256, 16, "MN"), "multiple of 32 between 32 and 256 when B is MN major"),
        (f8("SM100_MMA_F8F6F4_2x1SM_SS", 64, 64, "K"), "M must be 128 or 256"),
        // wrong majors
        (mk("SM100_MMA_F16BF16_2x1SM_TS_SCALED<half_t, half_t, float, 256, 128, UMMA::Major::MN, UMMA::Major::K, 1>"), "A from TMEM can't be transposed"),
        (mk("SM90::GMMA::SPARSE::GMMA_64x64x32_F16F16F16_RS<GMMA::Major::MN, GMMA::Major::K>"), "K-major A"),
        (mk("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 128, UMMA::Major::K, half_t>"), "expected Major::K or Major::MN for B"),
        // element types, vector sizes, scale factors
        (mk("SM100_MMA_F8F6F4_TS<half_t, half_t, float, 128, 128, UMMA::Major::K, UMMA::Major::K>"), "supports types with leq 8bit types"),
        (mk("SM100_MMA_MXF4_SS<float_e4m3_t, float_e4m3_t, float, float_ue8m0_t, 128, 128, 16, UMMA::Major::K, UMMA::Major::K>"), "supports 4bit types"),
        (mk("SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue4m3_t, 128, 128, 32, UMMA::Major::K, UMMA::Major::K>"), "vector size VS = 32"),
        (mk("SM100_MMA_MXF4NVF4_2x1SM_SS_SPARSE<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, 256, 128, 16, UMMA::Major::K, UMMA::Major::K>"), "VS = 16"),
        (mk("SM100_MMA_MXF8F6F4_SS<float_e4m3_t, float_e4m3_t, float, half_t, 128, 128, UMMA::Major::K, UMMA::Major::K>"), "scale-factor type"),
        (mk("SM100_MMA_S8_SS<int8_t, int8_t, float, 128, 128, UMMA::Major::K, UMMA::Major::K>"), "result type can only be int32_t"),
        (mk("SM120_16x8x32_TN<float_e4m3_t, float_e4m3_t, bfloat16_t>"), "No MMA matches SM120_16x8x32_TN"),
        (mk("SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e4m3_t, float_e4m3_t, float, float_ue8m0_t, 32>"), "No MMA matches SM120_16x8x64_TN_VS"),
        (
            mk("SM103::SM103_MXF4_ULTRA_SS_VS<float_e2m1_t, float_e2m1_t, float, float_ue4m3_t, 128, 128, 32, UMMA::Major::K, UMMA::Major::K>"),
            "VS = 32 can only be 16",
        ),
        (
            mk("SM103::SM103_MXF4_ULTRA_2x1SM_SS_VS<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, 256, 128, 16, UMMA::Major::K, UMMA::Major::MN>"),
            "does not support transpose",
        ),
        // arity and spelling
        (mk("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 128>"), "expected 7 to 9 template arguments"),
        // CUTLASS 4.7+ makes F8F6F4 a template; its traits' checks hold (tests/cutlass_new.rs)
        (mk("SM100_MMA_F8F6F4_SS<float_e4m3_t, float_e4m3_t, float, 96, 128, UMMA::Major::K, UMMA::Major::K>"), "M must be 64 or 128"),
        (mk("SM100_MMA_F8F6F4_SCALED_SS<float_e4m3_t, float_e4m3_t, float, 128, 128, UMMA::Major::K, UMMA::Major::K>"), "unknown type"),
        ("make_tiled_mma(MMA_Traits<SM80_16x8x16_F16F16F16F16_TN, half_t>{})".to_string(), "SM100_MMA_F8F6F4_SS's or SM100_MMA_F8F6F4_2x1SM_SS's form"),
        ("make_tiled_mma(MMA_Traits<SM100_MMA_F8F6F4_SS, float_e4m3_t, float_e4m3_t, float, C<128>, C<128>>{})".to_string(), "expected 9 template arguments"),
        ("integral_constant<UMMA::Major>{}".to_string(), "expected 2 template arguments"),
        ("get(atom(SM80_16x8x16_F16F16F16F16_TN), ELayout)".to_string(), "not ELayout"),
        ("get(atom(SM75_U32x4_LDSM_N), ValID)".to_string(), "not ValID"),
        (mk("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 9223372036854775807, UMMA::Major::K, UMMA::Major::K>"), "N = 9223372036854775807"),
        (mk("SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, -256, 128, UMMA::Major::K, UMMA::Major::K>"), "M = -256"),
    ];
    for (line, want) in &cases {
        let got = panic::catch_unwind(|| cute_lang::print_one(line));
        let (text, ok) = got.unwrap_or_else(|_| panic!("panic on {line}"));
        assert!(!ok, "{line} -> {text}");
        assert!(
            text.starts_with("error: ") && text.contains(want),
            "{line}\n  -> {text}\n  wanted an error containing: {want}"
        );
    }
}

#[test]
fn an_unknown_function_is_named_before_its_arguments() {
    // Not "unknown name 'ptr_A'": the function is what is missing.
    let e = cute_lang::eval_line("make_wide_tensor(ptr_A, (8,8):(8,1))").unwrap_err();
    assert!(
        e.msg.starts_with("unknown function 'make_wide_tensor'"),
        "{}",
        e.msg
    );
    // A known function still reports its argument's unknown name.
    let e = cute_lang::eval_line("size(ptr_A)").unwrap_err();
    assert_eq!(e.msg, "unknown name 'ptr_A'");
}

/// Hostile tensor lines: each a clear error naming what is wrong, with a column.
#[test]
fn hostile_tensor_lines_are_clear_errors() {
    let g = "make_tensor(make_gmem_ptr<float>(nullptr), make_shape(64, 64))";
    let mma = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{})";
    let cases = [
        // A coordinate of the wrong rank, a tile past the end, a slice out of bounds.
        (format!("local_tile({g}, make_shape(Int<16>{{}}, Int<16>{{}}), make_coord(1, 2, 3))"), "the coordinate (1,2,3) has 3 modes"),
        (format!("local_tile({g}, make_shape(Int<16>{{}}, Int<16>{{}}), make_coord(9, 0))"), "coordinate 9 is outside a mode of size 4"),
        (format!("{g}(64, _)"), "coordinate 64 is outside a mode of size 64"),
        (format!("{g}(3, 4)"), "names one element (offset 259)"),
        (format!("local_tile({g}, make_shape(Int<16>{{}}, Int<16>{{}}, Int<8>{{}}), make_coord(0, 0, 0), Step<_1, X>{{}})"), "the projection has 2 modes, the tiler has 3"),
        // Thread ids out of range.
        (format!("{mma}.get_slice(32)"), "thread 32 is outside the TiledMMA's 32 threads"),
        (format!("local_partition({g}, Layout<Shape<_16,_8>>{{}}, 128)"), "thread 128 is outside the thread layout"),
        // A tile the MMA does not divide; partition on the TiledMMA itself.
        (format!("{mma}.get_slice(0).partition_A(make_tensor(make_smem_ptr<half_t>(nullptr), make_shape(Int<24>{{}}, Int<16>{{}})))"), "mode 0 of the tensor (24) is not a multiple of the TiledMMA's tile (16"),
        (format!("{mma}.partition_C({g})"), "partition_C is a member of a thread's slice"),
        // Pointers of the wrong address space or width for a smem atom; bad addresses.
        ("make_tensor(make_gmem_ptr<half_t>(nullptr), GMMA::Layout_K_SW128_Atom<half_t>{})".to_string(), "it needs a make_smem_ptr, not a gmem_ptr"),
        ("make_tensor(make_smem_ptr<float>(nullptr), GMMA::Layout_K_SW128_Atom<half_t>{})".to_string(), "the layout is for 16-bit elements (smem_ptr[16b]), the pointer's are 32-bit"),
        ("make_gmem_ptr<half_t>(-4)".to_string(), "must not be negative"),
        // A sub-byte pointer inside a byte recast to bytes; a width no iterator takes.
        ("recast<uint8_t>(make_tensor(make_gmem_ptr<int4_t>(0x1000), make_shape(Int<8>{}, Int<4>{}))(1, _))".to_string(), "the pointer is inside a byte"),
        ("make_tensor<uint8_t>(Shape<_4,_8>{}).data() - 1".to_string(), "an iterator takes `it + n`"),
        ("make_tensor(make_identity_tensor(make_shape(4, 8)).data(), make_shape(4, 8))".to_string(), "is a counting iterator"),
        ("coalescing(make_tensor(make_gmem_ptr<int4_t>(0x1000), make_shape(Int<8>{}, Int<512>{}))(1, _), 4, (32,16):(16,1), LDG16)".to_string(), "the tensor starts inside a byte"),
        ("make_tensor<float>(make_shape(4, 8))".to_string(), "Dynamic owning tensors not supported"),
        ("make_tensor(make_shape(4, 8), LayoutRight{})".to_string(), "expected a pointer"),
        // Identity tensors: integer strides do not exist; a rank-0 shape; too many leaves.
        ("stride(make_identity_tensor(make_shape(128, 64)))".to_string(), "strides are basis vectors"),
        (
            "domain_offset(3, make_identity_tensor(Int<32>{}))(2)".to_string(),
            "no operator+ of int and ScaledBasis<int>",
        ),
        (
            "SM90_64x64x16_F32F16F16_SS{}".to_string(),
            "write SM90_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{}",
        ),
        ("make_identity_tensor(make_shape(1048576, 1048576, 1048576))".to_string(), "do not fit a 64-bit integer"),
        ("make_identity_tensor(make_shape(4, -2))".to_string(), "extent -2 of (4,-2) is negative"),
        ("make_fragment_like(make_identity_tensor(make_shape(8, 8)))".to_string(), "holds coordinates"),
        // Basis strides: indices out of range, nesting past 8, overflow, an integer added,
        // a stride naming no coordinate, what C++ refuses of them.
        ("E<-1>{}".to_string(), "basis index -1 is out of range"),
        ("E<64>{}".to_string(), "basis index 64 is out of range"),
        (format!("1{}", "@0".repeat(9)), "nests at most 8 modes deep"),
        (format!("1{}", "@0".repeat(40_000)), "binary operators in a row"),
        (format!("1{}", "+1".repeat(40_000)), "binary operators in a row"),
        ("E<0>{} * 4611686018427387904 * 4".to_string(), "does not fit in 64 bits"),
        ("E<0>{} + 3".to_string(), "adds to basis vectors and coordinates only"),
        ("E<0>{} * E<1>{}".to_string(), "scales by an integer"),
        ("make_layout(make_shape(4,8), make_stride(E<0>{}, E<0,1>{}))(1,1)".to_string(), "do not add"),
        ("ArithTuple(0,0) o (8,4):(1@0,1@5)".to_string(), "names no coordinate"),
        ("ArithTuple(0,0) o (8,4):(1@0,3)".to_string(), "not the integer 3"),
        ("(8,4):(1@0)".to_string(), "not congruent"),
        ("complement(make_identity_layout(make_shape(4,8)))".to_string(), "got a layout with basis strides"),
        ("logical_product(make_identity_layout(make_shape(4,8)), 2:1)".to_string(), "got a layout with basis strides"),
        ("composition(make_identity_layout(make_shape(4,8)), make_identity_layout(make_shape(4,8)))".to_string(), "basis strides"),
        // CollectiveBuilder lines: wrong arity, arguments of the wrong kind, stage counts
        // that are not counts, a builder not resolved yet.
        ("cutlass::gemm::collective::CollectiveBuilder<cutlass::arch::Sm90>::CollectiveOp{}".to_string(), "CollectiveBuilder<...>: expected 13 to 16 template arguments, got 1"),
        (format!("CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, half_t, 8, 8, half_t, cutlass::layout::ColumnMajor, 8, float, Shape<_128,_128,_64>, Shape<_1,_1,_1>, {sa}, {ka}>{{}}", sa = "cutlass::gemm::collective::StageCountAuto", ka = "cutlass::gemm::collective::KernelScheduleAuto"), "GmemLayoutATag must be cutlass::layout::RowMajor or ColumnMajor"),
        // A zero-row tile divided by nothing (found by fuzzing the SM100 epilogue's auto tile).
        ("cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::Sm100, cutlass::arch::OpClassTensorOp, Shape<Int<0>,_128,_64>, Shape<_1,_1,_1>, cutlass::epilogue::collective::EpilogueTileAuto, float, float, cutlass::half_t, cutlass::layout::RowMajor, 8, cutlass::half_t, cutlass::layout::RowMajor, 8, cutlass::epilogue::collective::EpilogueScheduleAuto>::CollectiveOp::SharedStorage".to_string(), "must be positive"),
        ("cutlass::gemm::kernel::GemmUniversal<Shape<int,int,int,int>, int, int>{}".to_string(), "GemmUniversal's argument 2 is the CollectiveMainloop"),
        ("cutlass::gemm::device::GemmUniversalAdapter<int>{}".to_string(), "GemmUniversalAdapter takes a GemmUniversal<...> kernel"),
        (format!("CollectiveBuilder<cutlass::arch::Sm103, cutlass::arch::OpClassTensorOp, half_t, cutlass::layout::RowMajor, 8, half_t, cutlass::layout::ColumnMajor, 8, float, Shape<_128,_128,_64>, Shape<_1,_1,_1>, {sa}, {ka}>{{}}", sa = "cutlass::gemm::collective::StageCountAuto", ka = "cutlass::gemm::collective::KernelScheduleAuto"), "the cutlass::arch::Sm103 builders are not resolved"),
        (format!("CollectiveBuilder<cutlass::arch::Sm120, cutlass::arch::OpClassTensorOp, half_t, cutlass::layout::RowMajor, 8, half_t, cutlass::layout::ColumnMajor, 8, float, Shape<_128,_128,_64>, Shape<_1,_1,_1>, {sa}, {ka}>{{}}", sa = "cutlass::gemm::collective::StageCountAuto", ka = "cutlass::gemm::collective::KernelScheduleAuto"), "SM120 TmaWarpSpecialized builder currently only supports F8F6F4 MMA."),
        (format!("CollectiveBuilder<cutlass::arch::Sm100, cutlass::arch::OpClassTensorOp, half_t, cutlass::layout::RowMajor, 8, half_t, cutlass::layout::ColumnMajor, 8, float, Shape<_128,_128,_64>, Shape<_1,_1,_1>, {sa}, {ka}>{{}}", sa = "cutlass::gemm::collective::StageCountAutoCarveout<2000000000>", ka = "cutlass::gemm::collective::KernelScheduleAuto"), "Smem usage is too high"),
        (format!("CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, half_t, cutlass::layout::RowMajor, 8, half_t, cutlass::layout::ColumnMajor, 8, float, Shape<int,_128,_64>, Shape<_1,_1,_1>, {sa}, {ka}>{{}}", sa = "cutlass::gemm::collective::StageCountAuto", ka = "cutlass::gemm::collective::KernelScheduleAuto"), "TileShape_MNK must be static"),
        ("cutlass::gemm::collective::StageCount<0>{}".to_string(), "a stage count is positive"),
        (format!("cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Shape<_128,_128,_64>, Shape<_1,_1,_1>, {ta}, float, float, half_t, cutlass::layout::RowMajor, 4, half_t, cutlass::layout::RowMajor, 8, cutlass::epilogue::TmaWarpSpecialized>::CollectiveOp{{}}", ta = "cutlass::epilogue::collective::EpilogueTileAuto"), "C/D Should meet TMA alignment requirement"),
        (format!("cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Shape<_128,_128,_64>, Shape<_1,_1,_1>, {ta}, float, float, half_t, cutlass::layout::RowMajor, 8, half_t, cutlass::layout::RowMajor, 8, cutlass::epilogue::NoSmemWarpSpecialized>::CollectiveOp::EpilogueTile{{}}", ta = "cutlass::epilogue::collective::EpilogueTileAuto"), "has no EpilogueTile"),
        (format!("cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Shape<_128,_128,_64>, Shape<_1,_1,_1>, {ta}, float, float, half_t, cutlass::layout::RowMajor, 8, half_t, cutlass::layout::RowMajor, 8, cutlass::epilogue::TmaWarpSpecialized>::CollectiveOp::SmemLayoutC{{}}", ta = "cutlass::epilogue::collective::EpilogueTileAuto"), "private member"),
        // Block-scaled operands: a data type the wrapper refuses, a plain type under the
        // block-scaled class, a zero vector size, a huge tile, sizeof_bits of a pair.
        ("cutlass::nv_float4_t<cutlass::half_t>{}".to_string(), "can have scale factors for NVFP4"),
        ("cutlass::mx_float6_t<cutlass::float_e4m3_t>{}".to_string(), "can have scale factors for MXFP6"),
        ("cutlass::sizeof_bits<cutlass::mx_float8_t<cutlass::float_e4m3_t>>::value".to_string(), "take sizeof_bits of its ::DataType"),
        (bs("cutlass::float_e4m3_t", 16, "cutlass::float_e4m3_t", 16, "Shape<_128,_128,_128>", "cutlass::gemm::collective::KernelScheduleAuto"), "is nv_float4_t<T>, mx_float4_t<T>"),
        (bs("cute::tuple<cutlass::float_e2m1_t, cutlass::float_ue8m0_t, cute::Int<0>>", 32, "cute::tuple<cutlass::float_e2m1_t, cutlass::float_ue8m0_t, cute::Int<0>>", 32, "Shape<_128,_128,_256>", "cutlass::gemm::collective::KernelScheduleAuto"), "scale vector size is positive"),
        (bs("cutlass::mx_float8_t<cutlass::float_e4m3_t>", 16, "cutlass::mx_float8_t<cutlass::float_e4m3_t>", 16, "Shape<_128,_128,Int<4611686018427387904>>", "cutlass::gemm::collective::KernelScheduleAuto"), "error"),
        (bs("cutlass::mx_float8_t<cutlass::float_e4m3_t>", 16, "cutlass::mx_float8_t<cutlass::float_e4m3_t>", 16, "Shape<_128,_128,_160>", "cutlass::gemm::collective::KernelScheduleAuto"), "Shape Divisibility Condition"),
        (bs("cutlass::mx_float8_t<cutlass::float_e4m3_t>", 16, "cutlass::mx_float8_t<cutlass::float_e4m3_t>", 16, "Shape<_128,_128,_128>", "cutlass::gemm::KernelTmaWarpSpecializedPingpong"), "no SM100 mainloop builder takes"),
        // SM120's block-scaled builder: pingpong below N = 16, a vector size it cannot
        // permute, an N between 16 and 32, an SM100 tag, a 2^62 K.
        (bs_on("Sm120", "cutlass::nv_float4_t<cutlass::float_e2m1_t>", 32, "cutlass::nv_float4_t<cutlass::float_e2m1_t>", 32, "Shape<_128,_8,_128>", "cutlass::gemm::KernelTmaWarpSpecializedPingpong"), "no SM120 mainloop builder takes"),
        (bs_on("Sm120", "cute::tuple<cutlass::float_e2m1_t, cutlass::float_ue8m0_t, cute::Int<64>>", 32, "cute::tuple<cutlass::float_e2m1_t, cutlass::float_ue8m0_t, cute::Int<64>>", 32, "Shape<_128,_128,_256>", "cutlass::gemm::collective::KernelScheduleAuto"), "Unsupported SFVectorSize for SM120 collective builder."),
        (bs_on("Sm120", "cutlass::nv_float4_t<cutlass::float_e2m1_t>", 32, "cutlass::nv_float4_t<cutlass::float_e2m1_t>", 32, "Shape<_128,_24,_128>", "cutlass::gemm::collective::KernelScheduleAuto"), "TileShape_N must be at least 8 for SM120 blockscaled."),
        (bs_on("Sm120", "cutlass::mx_float8_t<cutlass::float_e4m3_t>", 16, "cutlass::mx_float8_t<cutlass::float_e4m3_t>", 16, "Shape<_128,_128,_128>", "cutlass::gemm::KernelTmaWarpSpecialized1SmBlockScaledSm100"), "no SM120 mainloop builder takes"),
        (bs_on("Sm120", "cutlass::mx_float8_t<cutlass::float_e4m3_t>", 16, "cutlass::mx_float8_t<cutlass::float_e4m3_t>", 16, "Shape<_128,_128,Int<4611686018427387904>>", "cutlass::gemm::collective::KernelScheduleAuto"), "error"),
        // Epilogue fusions: an activation that is not one, a fusion with its own buffers,
        // a 15th argument that is no fusion, a fusion on SM90's no-smem epilogue.
        ("cutlass::epilogue::fusion::LinCombEltAct<int, cutlass::half_t, float>{}".to_string(), "LinCombEltAct's ActivationFn is an activation"),
        ("cutlass::epilogue::fusion::LinCombTopKSoftmaxCol<2, cutlass::half_t, float>{}".to_string(), "this epilogue fusion is not resolved yet"),
        ("cutlass::epilogue::fusion::LinCombPerRowBias<cutlass::half_t>{}".to_string(), "expected 2 to 6 template arguments, got 1"),
        ("cutlass::epilogue::fusion::LinCombPerRowBias<cutlass::half_t, float, 3>{}".to_string(), "LinCombPerRowBias's ElementBias must be an element type"),
        ("cutlass::epilogue::fusion::LinCombPerRowBias<cutlass::half_t, float, half_t, half_t, float, -3>{}".to_string(), "AlignmentBias = -3: it is positive"),
        ("cutlass::epilogue::fusion::LinCombPerRowBias<cutlass::half_t, float>::Foo".to_string(), "no member"),
        ("cutlass::detail::Sm1xxBlockScaledConfig<7>{}".to_string(), "a scale factor covers 16, 32 or 64 elements"),
        ("cutlass::detail::Sm1xxBlockScaledOutputConfig<16, int>{}".to_string(), "the scale factors' major"),
        (format!("cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Shape<_128,_128,_64>, Shape<_1,_1,_1>, {ta}, float, float, half_t, cutlass::layout::RowMajor, 8, half_t, cutlass::layout::RowMajor, 8, cutlass::epilogue::TmaWarpSpecialized, 7>::CollectiveOp{{}}", ta = "cutlass::epilogue::collective::EpilogueTileAuto"), "the 15th argument is the epilogue's fusion"),
        (format!("cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Shape<_128,_128,_64>, Shape<_1,_1,_1>, {ta}, float, float, half_t, cutlass::layout::RowMajor, 8, half_t, cutlass::layout::RowMajor, 8, cutlass::epilogue::NoSmemWarpSpecialized, cutlass::epilogue::fusion::LinCombEltAct<cutlass::epilogue::thread::GELU, half_t, float>>::CollectiveOp{{}}", ta = "cutlass::epilogue::collective::EpilogueTileAuto"), "Could not build a collective epilogue for given parameters."),
        ("static_cast<float>(3)".to_string(), "a cast here is to a pointer type"),
        ("cutlass::gemm::collective::StageCountAutoCarveout<-5>{}".to_string(), "not negative"),
        // A GMMA operand's descriptor fragment of a layout that is not a canonical GMMA
        // block (C++'s static_assert).
        ("make_tiled_mma(SM90_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{}).get_slice(0).partition_fragment_A(make_tensor(make_smem_ptr<half_t>(nullptr), make_shape(Int<64>{}, Int<16>{})))".to_string(), "Not a canonical GMMA_K Layout: Expected K-size 2"),
        // ... or of a tensor that is not in shared memory, or of the wrong element type.
        ("make_tiled_mma(SM90_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{}).get_slice(0).partition_fragment_A(make_tensor(make_gmem_ptr<half_t>(nullptr), tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<64>{}, Int<64>{})).layout_b()))".to_string(), "Expected SMEM Tensor to construct a GMMA Desc Tensor"),
        ("make_tiled_mma(SM90_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{}).get_slice(0).partition_fragment_B(make_tensor(make_smem_ptr<float>(nullptr), make_shape(Int<64>{}, Int<16>{})))".to_string(), "Expecting ValTypeB type"),
    ];
    for (line, want) in &cases {
        let got = panic::catch_unwind(|| cute_lang::print_one(line));
        let (text, ok) = got.unwrap_or_else(|_| panic!("panic on {line}"));
        assert!(!ok, "{line} -> {text}");
        assert!(
            text.starts_with("error: ") && text.contains(want) && text.contains("(column "),
            "{line}\n  -> {text}\n  wanted an error containing: {want}"
        );
    }
}

/// Hostile kernel set-up blocks (pointer declarations, the CUDA indices, projections,
/// fragments): each a clear error naming what is wrong, with its line and column.
#[test]
fn hostile_kernel_declarations_are_clear_errors() {
    let g = "auto g = make_tensor(make_gmem_ptr<float>(nullptr), make_shape(64, 64));";
    let cases = [
        ("void const* p = nullptr;".to_string(), "a void pointer has no element type"),
        ("float const* p;\nvoid* q;".to_string(), "a void pointer has no element type"),
        ("auto n = 4;\nn const* p;".to_string(), "pointee must be an element type"),
        ("using T = int4_t;\nT* p = nullptr;\nauto r = make_tensor<T>(make_shape(4, 8));".to_string(), "Dynamic owning tensors not supported"),
        ("half_t const* A = 5;".to_string(), "C++ does not convert an integer to a pointer"),
        ("half_t const* A = nullptr;\nfloat const* B = A;".to_string(), "does not convert ptr[16b]((nil)) to a raw 32-bit pointer"),
        ("half_t const* A = nullptr;\nA * 2;".to_string(), "a raw pointer takes `p + n`"),
        ("half_t const* A = nullptr;\nA - 1;".to_string(), "pointer arithmetic out of range"),
        ("half_t const* A = nullptr;\nauto p = 2 + make_gmem_ptr(A);".to_string(), "only `p + n` for a gmem_ptr"),
        ("make_gmem_ptr(nullptr);".to_string(), "has no element type: write make_gmem_ptr<T>(nullptr)"),
        ("make_smem_ptr(256);".to_string(), "takes a raw pointer"),
        ("make_smem_ptr(make_gmem_ptr<half_t>(nullptr));".to_string(), "wraps one tagged pointer in another"),
        ("half_t x;".to_string(), "declared without a value"),
        ("threadIdx.w = 3;".to_string(), "'w' is a member: only plain names can be bound"),
        (format!("{g}\nlocal_partition(g, Layout<Shape<_16,_16>>{{}}, 300, Step<_1, X>{{}});"), "thread 300 is outside the thread layout"),
        (format!("{g}\nlocal_partition(g, Layout<Shape<_16,_16>>{{}}, 3, 7);"), "expected a projection"),
        (format!("{g}\nlocal_partition(g, Layout<Shape<_16,_16>>{{}}, 3, Step<_1, X, _1>{{}});"), "the projection has 3 modes, the thread layout (16,16):(1,16) has 2"),
        (format!("{g}\nauto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{{}});\nmma.make_fragment_C(g);"), "takes a tensor partition_C returned"),
        (format!("{g}\nmake_fragment_A(g, g);"), "is a member of a TiledMMA or its thread slice"),
        ("auto c = make_coord(1, _, 2);\nselect<0,3>(c);".to_string(), "mode 3 is out of range"),
    ];
    for (block, want) in &cases {
        let got = panic::catch_unwind(|| cute_lang::eval_block(block));
        let got = got.unwrap_or_else(|_| panic!("panic on {block}"));
        let e = match got {
            Ok(v) => panic!("{block} -> {v}, wanted an error containing: {want}"),
            Err(e) => e,
        };
        let text = e.to_string();
        assert!(
            text.contains(want) && text.contains("(column "),
            "{block}\n  -> {text}\n  wanted an error containing: {want}"
        );
    }
}

/// Hostile CuTeDSL tensor blocks (subscripts, run-time integers, pointers with swizzles,
/// copy atoms, register tensors, descriptor fragments, element-unit swizzles): each a clear
/// error naming what is wrong, with its line and column.
#[test]
fn hostile_dsl_tensor_blocks_are_clear_errors() {
    let t = "t = cute.make_tensor(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.smem), cute.make_layout((64, 8)))";
    let p = "p = cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.smem)";
    let mma = "tiled_mma = cute.make_tiled_mma(warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16)), (2, 2, 1))";
    let sw = "sl = cute.tile_to_shape(cute.make_composed_layout(cute.make_swizzle(2, 3, 3), 0, cute.make_layout((8, 32), stride=(32, 1))), (64, 32), (0, 1))\nsA = cute.make_tensor(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.smem), sl)";
    let gmma = "tiled_mma = cute.make_tiled_mma(warpgroup.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (64, 64, 16), warpgroup.OperandSource.SMEM, cute.nvgpu.OperandMajorMode.K, cute.nvgpu.OperandMajorMode.K), (1, 1, 1))\nsl = cute.tile_to_shape(warpgroup.make_smem_layout_atom(warpgroup.SmemLayoutAtomKind.K_SW128, cutlass.Float16), (64, 64), (0, 1))";
    let cases = [
        // Subscripts: out of bounds, too many modes, one element, a tuple given two indices.
        (format!("{t}\nt[None, 8]"), "coordinate 8 is outside a mode of size 8"),
        (format!("{t}\nt[None, 1, 2]"), "does not match the profile of shape (64,8)"),
        (format!("{t}\nt[3, 2]"), "names one element"),
        ("x = (1, 2, 3)\nx[0, 1]".to_string(), "a tuple takes one integer index"),
        // Run-time integers the type cannot hold.
        ("cutlass.Int8(300)".to_string(), "300 does not fit Int8 (range [-128, 127])"),
        ("cutlass.Uint32(-1)".to_string(), "does not fit Uint32"),
        ("cutlass.Int32((1, 2))".to_string(), "expected an integer"),
        // Pointers: not a pointer, a swizzle that is not one, a swizzled pointer under a
        // smem atom's swizzle.
        ("cute.recast_ptr(5, None, dtype=cutlass.Float16)".to_string(), "recast_ptr takes a pointer"),
        (format!("{p}\ncute.recast_ptr(p, 3)"), "swizzle_ is a swizzle"),
        ("auto p = make_smem_ptr(make_smem_ptr<half_t>(nullptr), Swizzle<3,4,3>{});\nmake_tensor(p, GMMA::Layout_K_SW128_Atom<half_t>{});".to_string(), "already swizzles its addresses"),
        ("auto p = make_smem_ptr(make_smem_ptr<half_t>(nullptr), Swizzle<3,4,3>{});\nmake_smem_ptr(p, Swizzle<2,4,3>{});".to_string(), "would nest two swizzle pointers"),
        // Copy atoms.
        ("cute.make_copy_atom(cpasync.CopyG2SOp(), cutlass.Float16)".to_string(), "expects a 'num_bits_per_copy' kw argument"),
        ("cute.make_copy_atom(cpasync.CopyG2SOp(cache_mode=cpasync.LoadCacheMode.GLOBAL), cutlass.Float16, num_bits_per_copy=64)".to_string(), "CACHEGLOBAL"),
        ("cute.make_copy_atom(warp.LdMatrix8x8x16bOp(False, 3), cutlass.Float16)".to_string(), "one of [1,2,4]"),
        ("cute.make_copy_atom(warp.LdMatrix8x8x16bOp(4), cutlass.Float16)".to_string(), "'transpose' Op parameter to be a bool"),
        ("cute.make_copy_atom(warp.LdMatrix8x8x16bOp(False, 4), cutlass.Float16, num_bits_per_copy=128)".to_string(), "takes no num_bits_per_copy"),
        ("cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float16, num_bits_per_copy=-8)".to_string(), "non-negative"),
        ("cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float16, num_bits_per_copy=24)".to_string(), "UniversalCopy_24"),
        ("cute.make_copy_atom(warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16)), cutlass.Float16)".to_string(), "is an MMA op"),
        ("cute.make_copy_atom(7, cutlass.Float16)".to_string(), "takes a copy op"),
        (format!("{mma}\ncute.make_tiled_copy_B(cute.make_copy_atom(warp.LdMatrix8x8x16bOp(False, 4), cutlass.Float16), tiled_mma)"), "TiledCopy uses too few"),
        // Register tensors.
        ("cute.make_rmem_tensor_like(cute.make_layout((4, 8)))".to_string(), "dtype must be provided when src is a layout"),
        ("cute.make_rmem_tensor_like(cute.make_identity_tensor((4, 8)))".to_string(), "dtype must be provided when src is a coordinate tensor"),
        (format!("{t}\ncute.recast_tensor(t, cutlass.Float32, cute.make_swizzle(1, 2, 3))"), "swizzle_ is reserved"),
        (format!("{t}\ncute.make_fragment_like(t, 7)"), "7-bit elements"),
        (format!("{t}\ncute.make_fragment_like(t, (8, 8))"), "expected an element width"),
        (format!("{mma}\ntiled_mma.make_fragment_C((2, 1, 1))"), "(or its shape)"),
        // Descriptor fragments: a gmem operand, an element out of range.
        (format!("{gmma}\ns = cute.make_tensor(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.gmem), sl.outer)\ntiled_mma.get_slice(0).make_fragment_A(tiled_mma.get_slice(0).partition_A(s))"), "Expected SMEM Tensor"),
        (format!("{gmma}\ns = cute.make_tensor(cute.recast_ptr(cute.make_ptr(cutlass.Float16, 8, cute.AddressSpace.smem), sl.inner, dtype=cutlass.Float16), sl.outer)\ntiled_mma.make_fragment_A(tiled_mma.get_slice(0).partition_A(s))"), "not 16-byte aligned"),
        (format!("{gmma}\ns = cute.make_tensor(cute.recast_ptr(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.smem), sl.inner, dtype=cutlass.Float16), sl.outer)\nf = tiled_mma.make_fragment_A(tiled_mma.get_slice(0).partition_A(s))\nf[0, 0, 4]"), "coordinate 4 is outside a mode of size 4"),
        // Tensors over element-unit swizzles: C++ has no make_layout_like of a composed
        // layout (cute.make_fragment_like of a tensor is make_tensor_like).
        (format!("{sw}\ncute.make_fragment_like(sA)"), "C++ has no make_layout_like of a composed layout"),
    ];
    let mut bad = Vec::new();
    for (block, want) in &cases {
        let got = panic::catch_unwind(|| cute_lang::eval_block(block));
        let got = got.unwrap_or_else(|_| panic!("panic on {block}"));
        let e = match got {
            Ok(v) => {
                bad.push(format!(
                    "{block} -> {v}, wanted an error containing: {want}"
                ));
                continue;
            }
            Err(e) => e,
        };
        let text = e.to_string();
        if !(text.contains(want) && text.contains("(column ")) {
            bad.push(format!(
                "{block}\n  -> {text}\n  wanted an error containing: {want}"
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Host code that is not whole or not sane: an error or notes, never a panic, a hang or a
/// quadratic walk (unclosed braces and templates, a brace in every line, a thousand
/// parameters, deep `#if` nests, launch code alone).
#[test]
fn hostile_host_code_is_an_error_or_a_note() {
    let many_params: String = (0..1000).map(|i| format!("int p{i}, ")).collect();
    let cases = [
        "void f(int m) {\n  auto M = int(m);\n".to_string(),
        "template <class T\nvoid f(T x) { }".to_string(),
        "void f(int m {\n}".to_string(),
        "}}}}\nvoid f() { auto x = make_layout(8); }".to_string(),
        format!("void f({many_params}int last) {{ auto L = make_layout(8); }}"),
        "{".repeat(20_000),
        format!(
            "{}auto L = make_layout(8);\n{}",
            "#if 0\n".repeat(5_000),
            "#endif\n".repeat(5_000)
        ),
        "cute::Layout<cute::Shape<_8>>{}\n".repeat(3_000),
        "dim3 g(1);\nk<<<g, 1>>>\n(a, b);\ncudaDeviceSynchronize();".to_string(),
        "struct S { int a; } void g() { }".to_string(),
        "namespace { void f(int m) { auto L = make_layout(m); } }".to_string(),
        "int a = 1, b = , c = 2;".to_string(),
        "int = 1, b = 2;".to_string(),
    ];
    for src in &cases {
        let mut s = cute_lang::Session::default();
        let out = s.run(src);
        for l in &out {
            if let Err(e) = &l.result {
                assert!(!e.to_string().is_empty(), "{src:.60}");
            }
        }
        let _ = cute_lang::kernel::report(src);
    }
}

/// CuTeDSL's Blackwell epilogue helpers refuse what they cannot compute, by name: an
/// overflowing TMEM-warp shape, an empty CTA tile, warps that do not split the tile, a
/// major mode no atom takes.
#[test]
fn dsl_epilogue_helpers_refuse_hostile_arguments() {
    let head = "import cutlass\n";
    for (line, words) in [
        ("sm100_utils.compute_epilogue_tile_shape((128, 256), False, utils.LayoutEnum.ROW_MAJOR, cutlass.Float16, tmem_warp_shape_mn=(1, 4611686018427387904))", "integer overflow"),
        ("sm100_utils.compute_epilogue_tile_shape((0, 256), False, utils.LayoutEnum.ROW_MAJOR, cutlass.Float16)", "must be positive"),
        ("sm100_utils.compute_epilogue_tile_shape((128,), False, utils.LayoutEnum.ROW_MAJOR, cutlass.Float16)", "cta_tile_shape must be (M, N[, K])"),
        ("sm100_utils.compute_epilogue_tile_shape((128, 256), 1, utils.LayoutEnum.ROW_MAJOR, cutlass.Float16)", "use_2cta_instrs must be True or False"),
        ("sm100_utils.get_tmem_load_op((128, 256), utils.LayoutEnum.ROW_MAJOR, cutlass.Float16, cutlass.Float32, (128, 64), False, tmem_warp_shape_mn=(0, 1))", "does not split over"),
        ("sm100_utils.make_smem_layout_epi(cutlass.Float16, utils.LayoutEnum.ROW_MAJOR, (make_layout(128), make_layout(7)), 2)", "must be a multiple of 8 elements"),
    ] {
        let e = cute_lang::eval_block(&format!("{head}{line}")).unwrap_err().to_string();
        assert!(e.contains(words), "{line:.60}: {e}");
    }
}

/// A block-scaled SM100 mainloop line's `DispatchPolicy::Stages`.
fn bs(a: &str, aa: i64, b: &str, ab: i64, tile: &str, sched: &str) -> String {
    bs_on("Sm100", a, aa, b, ab, tile, sched)
}

/// A block-scaled mainloop line of `arch`: its `DispatchPolicy::Stages`.
fn bs_on(arch: &str, a: &str, aa: i64, b: &str, ab: i64, tile: &str, sched: &str) -> String {
    format!(
        "cutlass::gemm::collective::CollectiveBuilder<cutlass::arch::{arch}, cutlass::arch::OpClassBlockScaledTensorOp, {a}, cutlass::layout::RowMajor, {aa}, {b}, cutlass::layout::ColumnMajor, {ab}, float, {tile}, Shape<_1,_1,_1>, cutlass::gemm::collective::StageCountAuto, {sched}>::CollectiveOp::DispatchPolicy::Stages"
    )
}
