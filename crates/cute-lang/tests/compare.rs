//! `functionally_equal`: what it prints for each kind of function, the laws that make a
//! pair equal (coalesce, composition with the identity, a divide undone), and the errors.

use cute_lang::session::eval_block;

fn prints(block: &str) -> String {
    eval_block(block)
        .map(|v| v.to_string())
        .unwrap_or_else(|e| format!("error: {}", e.msg))
}

#[test]
fn prints_true_or_the_first_difference() {
    for (block, want) in [
        ("functionally_equal((4,8):(1,4), 32:1)", "true"),
        (
            "functionally_equal((4,2):(1,4), (4,2):(2,1))",
            "false: at index 1 = (1,0), A = 1 and B = 2; 6 of 8 differ",
        ),
        (
            "functionally_equal(8:1, 4:1)",
            "false: the domains differ (A has 8 elements, B has 4)",
        ),
        // Shapes differ, sizes agree: the index's coordinate in each.
        ("functionally_equal((2,4):(1,2), (4,2):(1,4))", "true"),
        (
            "functionally_equal((2,4):(1,2), (4,2):(1,8))",
            "false: at index 4 (A (0,2), B (0,1)), A = 4 and B = 8; 4 of 8 differ",
        ),
        (
            "functionally_equal(Sw<3,4,3> o 0 o (8,64):(64,1), (8,64):(64,1))",
            "false: at index 2 = (2,0), A = 144 and B = 128; 384 of 512 differ",
        ),
        (
            "functionally_equal(GMMA::Layout_K_SW128_Atom<half_t>{}, GMMA::Layout_MN_SW128_Atom<half_t>{})",
            "false: at index 1 = (1,0), A = 64 and B = 1; 504 of 512 differ",
        ),
        (
            "functionally_equal(make_layout_tv((4,8):(8,1), (2,2):(2,1)), make_layout_tv((4,8):(1,4), (2,2):(2,1)))",
            "false: at index 1 = ((1,0),(0,0)), A = (0,2) and B = (2,0); 120 of 128 differ",
        ),
        (
            "functionally_equal(make_identity_tensor(make_shape(4,8)), make_identity_tensor(make_shape(_4{},_8{})))",
            "true",
        ),
        (
            "functionally_equal(make_tensor(make_smem_ptr((half_t*)nullptr), (4,8):(8,1)), make_tensor(make_smem_ptr((half_t*)nullptr), (4,8):(1,4)))",
            "false: at index 1 = (1,0), A = smem_ptr[16b](0x10) and B = smem_ptr[16b](0x2); 30 of 32 differ",
        ),
    ] {
        assert_eq!(prints(block), want, "{block}");
    }
}

#[test]
fn the_algebras_identities_are_functionally_equal() {
    // Each pair is one function written two ways, by CuTe's definitions.
    let layouts = [
        "(2,(2,4)):(1,(2,4))",
        "((2,2),(4,2)):((1,8),(2,32))",
        "(4,8):(8,1)",
        "(3,(2,5)):(10,(1,30))",
        "(8,(2,2)):(2,(1,16))",
    ];
    for l in layouts {
        for pair in [
            format!("functionally_equal(coalesce({l}), {l})"),
            format!("functionally_equal(composition({l}, make_layout(shape({l}))), {l})"),
            format!("functionally_equal(flatten({l}), {l})"),
            format!("functionally_equal(composition({l}, right_inverse({l})), make_layout(size(right_inverse({l}))))"),
        ] {
            assert_eq!(prints(&pair), "true", "{pair}");
        }
    }
    // A divide's modes, flattened back, are the layout's modes regrouped.
    assert_eq!(
        prints("functionally_equal(coalesce(zipped_divide(16:1, 4:1)), 16:1)"),
        "true"
    );
}

#[test]
fn a_condition_may_ask_it() {
    assert_eq!(prints("functionally_equal(8:1, 8:1) ? 1 : 2"), "1");
    assert_eq!(prints("functionally_equal(8:1, 8:2) ? 1 : 2"), "2");
}

#[test]
fn errors_name_what_cannot_be_compared() {
    for (block, want) in [
        (
            "functionally_equal(3, 4)",
            "error: line 1: functionally_equal compares layouts, composed layouts, thread-value layouts (tile, tv) and tensors, got an integer",
        ),
        (
            "functionally_equal((4,8):(1,4), make_identity_tensor(make_shape(4,8)))",
            "error: line 1: functionally_equal compares functions with the same kind of value: a layout gives offsets, a tensor gives coordinates",
        ),
        (
            "functionally_equal((2048,1024):(1,2048), (2048,1024):(1,2048))",
            "error: line 1: functionally_equal: cannot compare a function of 2097152 elements (shape (2048,1024)): at most 1048576",
        ),
    ] {
        let got = prints(block);
        assert!(got.starts_with(want), "{block}: {got}");
    }
}
