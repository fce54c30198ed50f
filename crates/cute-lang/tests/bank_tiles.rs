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
    let e = line("bank_conflicts((32,64):(64,1), 16, LDSM_X4)").unwrap_err();
    assert!(e.contains("give the TiledCopy that issues it"), "{e}");
    let e = line("bank_conflicts((32,64,2):(64,1,2048), 16, LDS128)").unwrap_err();
    assert!(e.contains("2-D layout"), "{e}");
}
