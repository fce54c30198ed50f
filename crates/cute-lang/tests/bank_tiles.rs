//! A bank check of a TiledCopy reads the copy's tile of the shared-memory layout, as
//! `partition_S` does: a layout larger than the tile is cut to it, one that does not cover
//! it is refused with both shapes named.

use cute_lang::session::eval_block;

fn check(smem: &str) -> Result<String, String> {
    let src = format!(
        "M = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (2,2,1))\nbank_conflicts({smem}, make_tiled_copy_A(atom(SM75_U32x4_LDSM_N, half_t), M))"
    );
    eval_block(&src).map(|v| v.to_string()).map_err(|e| e.msg)
}

#[test]
fn a_layout_bigger_than_the_copys_tile_is_read_on_its_first_tile() {
    // The 32x16 tile of a 128x64 stage gives exactly the tile's own result.
    let tile = check("Sw<3,3,3> o 0 o (32,16):(64,1)").unwrap();
    let stage = check("Sw<3,3,3> o 0 o (128,64):(64,1)").unwrap();
    assert_eq!(tile, stage);
    assert!(
        tile.contains("16 wavefronts, ideal 16, conflict-free"),
        "{tile}"
    );
    // Unswizzled, the same tile conflicts: the cut keeps the layout's strides.
    let plain = check("(128,64):(64,1)").unwrap();
    assert!(
        plain.contains("wavefronts, ideal 16") && !plain.contains("conflict-free"),
        "{plain}"
    );
}

#[test]
fn a_layout_that_does_not_cover_the_tile_names_both_shapes() {
    let e = check("GMMA::Layout_K_SW128_Atom<half_t>{}").unwrap_err();
    assert!(e.contains("the copy's tile is 32x16"), "{e}");
    assert!(e.contains("the shared-memory layout is 8x64"), "{e}");
}

/// `bank_conflicts(smem[, bits], INSTR)`: the instruction's canonical warp access over the
/// whole layout, the width from the layout's smem_ptr when not given.
#[test]
fn one_line_bank_checks_use_the_instructions_canonical_access() {
    let line = |s: &str| {
        cute_lang::eval_line(s)
            .map(|v| v.to_string())
            .map_err(|e| e.msg)
    };
    let plain = line("bank_conflicts((32,64):(64,1), 16, LDS128)").unwrap();
    assert!(
        plain.starts_with("LDS.128, 16-bit elements, 8 per lane: 256 threads (8 warps)"),
        "{plain}"
    );
    assert!(plain.contains("conflict-free"), "{plain}");
    // The same access written as a TV layout by hand gives the same report.
    let by_hand =
        line("bank_conflicts((32,64):(64,1), 16, ((8,32),8):((256,1),32), LDS128)").unwrap();
    assert_eq!(plain, by_hand);
    // The width of a GMMA atom's smem_ptr[16b]; a store.
    let atom = line("bank_conflicts(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{}), STS128)").unwrap();
    assert!(atom.starts_with("STS.128, 16-bit elements"), "{atom}");
    // Column reads of a column-major tile: lanes go down the contiguous mode.
    let col = line("bank_conflicts((64,32):(1,64), 32, LDS32)").unwrap();
    assert!(col.contains("conflict-free"), "{col}");
    // What it cannot know, it says.
    let e = line("bank_conflicts((32,64):(64,1), LDS128)").unwrap_err();
    assert!(
        e.contains("give it, e.g. bank_conflicts(smem, 16, LDS128)"),
        "{e}"
    );
    let e = line("bank_conflicts((32,60):(60,1), 16, LDSM_X4)").unwrap_err();
    assert!(e.contains("16x16-element tiles"), "{e}");
    let e = line("bank_conflicts((32,64,2):(64,1,2048), 16, LDS128)").unwrap_err();
    assert!(e.contains("2-D layout"), "{e}");
}

/// `bank_conflicts(smem, LDSM_Xn[_T])`: ldmatrix's canonical access (N 8x8 matrices of
/// 16-byte rows a warp) finds what the TiledCopy of an MMA's A operand finds on the same
/// tile: 8-way conflicts on 128-byte rows, none under the 128-byte swizzle.
#[test]
fn one_line_ldmatrix_checks_agree_with_the_tiled_copy() {
    let report = |s: &str| {
        eval_block(s)
            .map(|v| v.to_string())
            .unwrap_or_else(|e| panic!("{s}: {}", e.msg))
    };
    // (wavefronts, ideal) of a report's summary line.
    let counts = |r: &str| -> (u64, u64) {
        let n = |after: &str| -> u64 {
            let i = r
                .find(after)
                .unwrap_or_else(|| panic!("no '{after}' in {r}"))
                + after.len();
            r[i..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
                .parse()
                .unwrap()
        };
        (n("; "), n("ideal "))
    };
    let mma = "M = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (1,1,1))\n";
    for (smem, per_instr) in [
        ("(16,16):(64,1)", 32),
        ("Sw<3,3,3> o 0 o (16,16):(64,1)", 4),
    ] {
        // One 16x16 tile: the tiled copy's, and the canonical x4's (one instruction each).
        let tiled = report(&format!(
            "{mma}bank_conflicts({smem}, make_tiled_copy_A(atom(SM75_U32x4_LDSM_N, half_t), M))"
        ));
        let one = report(&format!("bank_conflicts({smem}, 16, LDSM_X4)"));
        let t = report(&format!("bank_conflicts({smem}, 16, LDSM_X4_T)"));
        assert!(one.starts_with("ldmatrix.x4"), "{one}");
        assert_eq!(counts(&one), counts(&tiled), "{smem}: {one} vs {tiled}");
        assert_eq!(counts(&one), (per_instr, 4), "{smem}: {one}");
        // .trans moves the same rows.
        assert_eq!(counts(&t), counts(&one), "{smem}");
    }
    // x2 and x1 over an 8x64 SW128 atom (all its 16-byte rows): conflict-free.
    for x in ["LDSM_X1", "LDSM_X2", "LDSM_X4", "STSM_X4"] {
        let r = report(&format!(
            "bank_conflicts(GMMA::Layout_K_SW128_Atom<half_t>{{}}, {x})"
        ));
        assert!(r.contains("conflict-free"), "{x}: {r}");
    }
}
