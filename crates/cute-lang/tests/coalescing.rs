//! `coalescing(...)` through the language: its forms agree with each other and with the
//! core, a tensor's pointer gives the width and the address, and bad input is a clear error.

fn report(expr: &str) -> cute_core::gmem::CoalesceReport {
    match cute_lang::eval_block(expr) {
        Ok(cute_lang::Value::Coalesce(r)) => *r,
        other => panic!("{expr}: {other:?}"),
    }
}

fn error(expr: &str) -> String {
    match cute_lang::eval_block(expr) {
        Err(e) => e.to_string(),
        Ok(v) => panic!("{expr}: expected an error, got {v}"),
    }
}

const COPY: &str = "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})";

#[test]
fn a_row_major_tile_read_along_its_rows_is_coalesced_and_down_its_columns_is_not() {
    let rows = report(&format!(
        "coalescing(make_tensor(make_gmem_ptr<half_t>(0), make_shape(128, 64), LayoutRight{{}}), {COPY})"
    ));
    // 16 rows x 8 threads x 16 B: each warp reads 4 whole 128-byte rows.
    assert_eq!(
        (rows.warps(), rows.sectors(), rows.min_sectors()),
        (4, 64, 64)
    );
    assert_eq!((rows.lines(), rows.requests()), (16, 4));
    // The same copy over a column-major tile cannot vectorise: a clear error, not a guess.
    let e = error(&format!(
        "coalescing(make_tensor(make_gmem_ptr<half_t>(0), make_shape(128, 64), LayoutLeft{{}}), {COPY})"
    ));
    assert!(e.contains("needs 8 contiguous elements per lane"), "{e}");
}

#[test]
fn the_pointer_gives_the_address_and_a_misaligned_tile_costs_lines() {
    let t = |addr: u64| {
        report(&format!(
            "coalescing(make_tensor(make_gmem_ptr<half_t>({addr}), make_shape(128, 64), LayoutRight{{}}), {COPY})"
        ))
    };
    let (a, b) = (t(0), t(64));
    assert_eq!(b.base, 64);
    assert_eq!(a.sectors(), b.sectors(), "64 B keeps the sectors whole");
    assert_eq!(
        (a.lines(), b.lines()),
        (16, 20),
        "but each warp's 4 rows span 5 lines"
    );
    let e = error(&format!(
        "coalescing(make_tensor(make_gmem_ptr<half_t>(8), make_shape(128, 64), LayoutRight{{}}), {COPY})"
    ));
    assert!(e.contains("not aligned to 16 bytes"), "{e}");
}

#[test]
fn the_forms_agree() {
    // A tensor and a plain layout with its width; the copy's own instruction and the named one.
    let a = report(&format!(
        "coalescing(make_tensor(make_gmem_ptr<half_t>(0), (64,64):(64,1)), {COPY})"
    ));
    let b = report(&format!("coalescing((64,64):(64,1), 16, {COPY})"));
    let c = report(&format!(
        "coalescing((64,64):(64,1), half_t, {COPY}, LDG128)"
    ));
    assert_eq!(a.instrs, b.instrs);
    assert_eq!(b.instrs, c.instrs);
    // A store takes the copy's destination side, and names STG.
    let st = report(&format!("coalescing((64,64):(64,1), 16, {COPY}, STG128)"));
    assert_eq!(st.op.to_string(), "STG.E.128");
    assert_eq!(st.sectors(), a.sectors());
    // cp.async: the atom says it.
    let cp = report("coalescing((64,64):(64,1), 16, make_tiled_copy(atom(SM80_CP_ASYNC_CACHEGLOBAL_128, half_t), (16,8):(8,1), (1,8)))");
    assert_eq!(cp.op.to_string(), "LDGSTS.E.BYPASS.128");
    // The canonical access of an instruction over the whole layout.
    let canon = report("coalescing((64,64):(64,1), 16, LDG128)");
    assert_eq!(
        (canon.threads, canon.sectors(), canon.min_sectors()),
        (512, 256, 256)
    );
}

#[test]
fn a_transposed_read_is_measured_not_refused() {
    // Threads down the columns of a row-major float tile, 4 bytes each: a sector per lane.
    let r = report("coalescing((32,32):(32,1), float, make_tiled_copy(atom(UniversalCopy_32, float), (32,1):(1,32), (1,1)))");
    assert_eq!((r.sectors(), r.min_sectors(), r.lines()), (32, 4, 32));
    assert!(r.to_string().contains("12% of fetched bytes used"), "{r}");
}

#[test]
fn bad_input_names_what_is_wrong() {
    for (expr, want) in [
        ("coalescing((128,32):(1,128), LDG128)", "does not say its element width"),
        ("coalescing((128,32):(1,128), 16, LDS128)", "is a shared-memory instruction"),
        ("coalescing(make_tensor(make_smem_ptr<half_t>(0), make_shape(128,32)), LDG128)", "for shared memory use bank_conflicts"),
        ("coalescing(make_identity_tensor(make_shape(128,32)), LDG128)", "no memory behind it"),
        ("coalescing(Sw<3,3,3> o 0 o (64,64):(64,1), 16, LDG128)", "swizzled"),
        ("coalescing((64,64):(64,1), 32, make_tiled_copy(atom(UniversalCopy_128, half_t), (16,8):(8,1), (1,8)))", "16-bit values but the global tensor holds 32-bit"),
        ("coalescing((64,64):(64,1), 16, make_tiled_copy(atom(SM75_U32x4_LDSM_N, half_t), (16,8):(8,1), (1,8)))", "does not access global memory"),
        ("coalescing((16,16):(16,1), 16, make_tiled_copy(atom(UniversalCopy_128, half_t), (16,8):(8,1), (1,8)))", "must cover the tile"),
        ("coalescing((64,64):(64,1), 16, (32,8):(8,1))", "name the instruction"),
        ("coalescing(make_tensor(make_gmem_ptr<half_t>(0), (64,64):(64,1)), 32, LDG128)", "holds 16-bit elements, not 32-bit"),
    ] {
        let e = error(expr);
        assert!(e.contains(want), "{expr}: {e}");
        assert!(e.contains("column"), "{expr}: no column in {e}");
    }
}

/// A 4-bit tensor touches the bytes a byte tensor of half the width does: the same access
/// in bytes, so the same sectors and lines (the hardware sees byte addresses).
#[test]
fn a_sub_byte_tensor_costs_what_its_bytes_cost() {
    let int4 = report(
        "coalescing(make_tensor(make_gmem_ptr<int4_t>(0x1000), make_shape(Int<32>{}, Int<256>{}), LayoutRight{}), make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, int4_t>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_32>>{}))",
    );
    let bytes = report(
        "coalescing(make_tensor(make_gmem_ptr<uint8_t>(0x1000), make_shape(Int<32>{}, Int<128>{}), LayoutRight{}), make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, uint8_t>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_16>>{}))",
    );
    let key = |r: &cute_core::gmem::CoalesceReport| {
        (
            r.warps(),
            r.sectors(),
            r.min_sectors(),
            r.lines(),
            r.requests(),
        )
    };
    assert_eq!((int4.vec, bytes.vec), (32, 16));
    assert_eq!(key(&int4), key(&bytes));
    assert_eq!(key(&int4), (8, 128, 128, 32, 8));
    // Down the columns, each lane's 32 values are 32 rows apart: no vector reads them.
    let e = error("coalescing(make_tensor(make_gmem_ptr<int4_t>(0x1000), make_shape(Int<32>{}, Int<256>{}), LayoutLeft{}), make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, int4_t>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_32>>{}))");
    assert!(e.contains("needs 32 contiguous elements per lane"), "{e}");
}
