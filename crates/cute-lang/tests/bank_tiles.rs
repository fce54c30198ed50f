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
