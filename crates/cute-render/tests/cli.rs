//! The `render` binary end to end: default picture, SVG and PNG, every view flag, errors
//! with columns and non-zero exits, unwritable paths.

use std::process::Command;

fn render(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_render"))
        .args(args)
        .output()
        .expect("run render");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("cute-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

#[test]
fn default_picture_is_the_swizzled_tile() {
    let out = tmp("layout.svg");
    let (ok, _, err) = render(&[&out]);
    assert!(ok, "{err}");
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains("data-view=\"swizzle\""));
    assert!(
        svg.contains("composition(Sw&lt;3,2,3&gt;, (8,32):(32,1))"),
        "the title is the default expression"
    );
}

#[test]
fn png_is_the_same_picture_rasterised() {
    let out = tmp("mma.png");
    let (ok, _, err) = render(&[
        "--expr",
        "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN)",
        "--scale",
        "1",
        &out,
    ]);
    assert!(ok, "{err}");
    let png = std::fs::read(&out).unwrap();
    assert_eq!(&png[1..4], b"PNG");
}

#[test]
fn every_view_flag_works() {
    for (args, view) in [
        (vec!["--expr", "(8,8):(8,1)", "--view", "layout"], "layout"),
        (vec!["--expr", "Sw<3,4,3> o 0 o (8,64):(64,1)", "--bit-offset", "72"], "swizzle"),
        (vec!["--expr", "make_layout_tv((4,32):(32,1), (4,8):(8,1))", "--highlight-thread", "5"], "tv"),
        (vec!["--expr", "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (2,2,1))", "--highlight-warp", "1", "--palette", "colorblind"], "mma"),
        (vec!["--expr", "make_tiled_copy_A(atom(SM75_U32x4_LDSM_N, half_t), make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN))", "--theme", "dark"], "copy"),
        (vec!["--expr", "(32,64):(64,1)", "--bits", "32", "--access", "(32,4):(1,32)", "--instr", "LDS128"], "banks"),
        (vec!["--expr", "swizzle_search((32,64):(64,1), 32, (32,4):(1,32), LDS128)", "--palette", "colorblind"], "search"),
        (vec!["--expr", "(8,32):(32,1)", "--view", "search", "--bits", "32", "--access", "(8,4):(1,8)", "--instr", "LDS128"], "search"),
        (vec!["--expr", "composition((4,8):(8,1), (2,4):(4,1))"], "algebra"),
        (vec!["--expr", "logical_divide((4,2,3):(2,1,8), 4:2)", "--view", "algebra", "--theme", "dark"], "algebra"),
        (vec!["--expr", "logical_divide((4,2,3):(2,1,8), 4:2)", "--view", "layout"], "layout"),
    ] {
        let out = tmp(&format!("{view}.svg"));
        let mut a = args.clone();
        a.push(&out);
        let (ok, _, err) = render(&a);
        assert!(ok, "{view}: {err}");
        let svg = std::fs::read_to_string(&out).unwrap();
        assert!(svg.contains(&format!("data-view=\"{view}\"")), "{view}");
        roxmltree::Document::parse(&svg).unwrap();
    }
}

#[test]
fn errors_say_what_and_where_and_exit_non_zero() {
    let (ok, _, err) = render(&["--expr", "(4,8):(8", &tmp("x.svg")]);
    assert!(!ok);
    assert!(
        err.starts_with("error: ") && err.contains("column"),
        "{err}"
    );
    let (ok, _, err) = render(&["--expr", "(4,8):(8,1)", "/nonexistent-dir/x.svg"]);
    assert!(!ok);
    assert!(err.contains("cannot write /nonexistent-dir/x.svg"), "{err}");
    let (ok, _, err) = render(&["--expr", "(4,8):(8,1)", &tmp("x.gif")]);
    assert!(!ok);
    assert!(err.contains(".svg, .png or .tex"), "{err}");
    let (ok, _, err) = render(&["--expr", "(4,8):(8,1)", "--view", "mma", &tmp("x.svg")]);
    assert!(!ok);
    assert!(err.contains("mma view"), "{err}");
    let (ok, _, err) = render(&["--expr", "@/nonexistent-file", &tmp("x.svg")]);
    assert!(!ok);
    assert!(err.contains("cannot read expression file"), "{err}");
    let (ok, out, _) = render(&["--print", "bank_conflicts(8:1)"]);
    assert!(!ok);
    assert!(out.starts_with("error: "), "{out}");
    let (ok, out, _) = render(&[
        "--print",
        "bank_conflicts((32,64):(64,1), 32, (32,4):(1,32), LDS128)",
    ]);
    assert!(ok);
    assert!(out.contains("32 wavefronts, ideal 4"), "{out}");
}

#[test]
fn help_has_an_example_for_every_view() {
    let (ok, out, _) = render(&["--help"]);
    assert!(ok);
    for view in [
        "layout", "swizzle", "tv", "mma", "copy", "banks", "search", "algebra", "kernel",
    ] {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(view) && l.contains("render ")),
            "{view}"
        );
    }
}

/// `--print TEXT` reads what `--print -` reads: declarations, bindings, several lines.
#[test]
fn print_text_and_stdin_read_the_same_language() {
    use std::io::Write;
    let scripts = [
        ("auto A = (4,8):(8,1);", "(4,8):(8,1)\n"),
        ("A = (4,8):(8,1)", "(4,8):(8,1)\n"),
        ("A = 8:1\nsize(A)", "8\n"),
        (
            "auto L = make_layout(make_shape(Int<4>{}, 8));\ncosize(L)\nfoo(1)",
            "32\nerror: unknown function 'foo' (column 1)\n",
        ),
    ];
    for (src, want) in scripts {
        let (_, text, _) = render(&["--print", src]);
        assert_eq!(text, want, "--print {src:?}");
        let mut child = Command::new(env!("CARGO_BIN_EXE_render"))
            .args(["--print", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("run render");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(src.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), want, "stdin {src:?}");
    }
    // Basis strides, as the line writes them, and their prints read back.
    for (line, want) in [
        (
            "composition(make_layout(make_shape(Int<32>{}, Int<64>{}), make_stride(E<0>{}, E<1>{})), 8:1)",
            "8:1@0\n",
        ),
        ("make_identity_layout(make_shape(32, 64))(3, 5)", "(3,5)\n"),
        ("ArithTuple(0,0) o (8,4):(1@0,1@1)", "ArithTuple(0,0) o (8,4):(1@0,1@1)\n"),
        ("make_identity_tensor(make_shape(32, 64))(3, 5)", "(3,5)\n"),
    ] {
        let (ok, text, _) = render(&["--print", line]);
        assert!(ok, "{line}");
        assert_eq!(text, want, "{line}");
    }
    let (ok, text, _) = render(&["--print", "  // nothing here"]);
    assert!(!ok);
    assert_eq!(text, "error: empty expression\n");
}

#[test]
fn tex_output_is_print_latex_and_print_explains() {
    // A TV layout to LaTeX, as a newcomer would: the file is CuTe's print_latex.
    let out = tmp("tv.tex");
    let expr = "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_2>>{})";
    let (ok, _, err) = render(&["--expr", expr, &out]);
    assert!(ok, "{err}");
    let tex = std::fs::read_to_string(&out).unwrap();
    assert!(tex.starts_with("% Layout S TV: "), "{tex}");
    assert!(tex.contains("\\begin{tikzpicture}"));
    assert!(tex.ends_with("\\end{document}\n"));
    // C++ refuses print_latex of a rank-3 layout; so does the export, naming why.
    let (ok, _, err) = render(&["--expr", "(2,2,2):(1,2,4)", &tmp("r3.tex")]);
    assert!(!ok);
    assert!(err.contains("rank 2 at most"), "{err}");
    // explain prints its steps, one a line, ending in the result C++ prints.
    let (ok, text, err) = render(&["--print", "explain(logical_divide((4,2,3):(2,1,8), 4:2))"]);
    assert!(ok, "{err}");
    assert!(
        text.starts_with("logical_divide((4,2,3):(2,1,8), 4:2)\n"),
        "{text}"
    );
    assert!(text.ends_with("=> ((2,2),(2,3)):((4,1),(2,8))\n"), "{text}");
    let (ok, text, _) = render(&["--print", "functionally_equal((4,8):(1,4), 32:1)"]);
    assert!(ok);
    assert_eq!(text, "true\n");
}
