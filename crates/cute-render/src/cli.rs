//! The `render` command line: draw CuTe layouts, or (`--print`) evaluate CuTe expressions
//! as text. `src/main.rs` runs it; so does the Python package.

use crate::{Printed, View};
use clap::Parser;
use std::io::{self, BufWriter, Read, Write};

/// The picture `render OUT.svg` draws when no expression is given: the seeds' 8x32 tile of
/// 16-bit elements with its Sw<3,2,3> swizzle.
const DEFAULT_EXPR: &str = "composition(Sw<3,2,3>, (8,32):(32,1))";

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum ThemeArg {
    Light,
    Dark,
}

/// CuTe Layout Explorer's command line.
#[derive(Parser, Debug)]
#[command(
    name = "render",
    version,
    about = "Evaluate and draw NVIDIA CuTe layouts",
    after_help = "Examples (the view is inferred from the value unless --view is given):\n\
  layout   render layout.svg                                        # default: Sw<3,2,3> o 0 o (8,32):(32,1)\n\
  \x20        render --expr '(8,8):(8,1)' --view layout grid.png\n\
  \x20        render --expr '((2,2),(2,4)):((1,4),(2,8))' --labels coord coords.svg\n\
  swizzle  render --expr 'Sw<3,4,3> o 0 o (8,64):(64,1)' --bits 16 --bit-offset 72 sw.svg\n\
  tv       render --expr 'make_layout_tv((4,32):(32,1), (4,8):(8,1))' --highlight-thread 5 tv.svg\n\
  mma      render --expr 'make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (2,2,1))' --highlight-warp 1 mma.svg\n\
  copy     render --expr 'make_tiled_copy_A(atom(SM75_U32x4_LDSM_N, half_t), make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN))' copy.svg\n\
  banks    render --expr '(32,64):(64,1)' --bits 32 --access '(32,4):(1,32)' --instr LDS128 banks.svg\n\
  \x20        render --expr 'bank_conflicts(Sw<3,2,4> o 0 o (32,64):(64,1), 32, (32,4):(1,32), LDS128)' banks.png\n\
  search   render --expr 'swizzle_search((32,64):(64,1), 32, (32,4):(1,32), LDS128)' search.svg\n\
  \x20        render --expr '(32,64):(64,1)' --bits 32 --access '(32,4):(1,32)' --instr LDS128 --view search search.png\n\
  algebra  render --expr 'composition((4,8):(8,1), (2,4):(4,1))' algebra.svg   # operands and result\n\
  \x20        render --expr 'logical_divide((4,2,3):(2,1,8), 4:2)' --view layout result.svg\n\
  scripts  render --expr @script.txt out.svg                        # the last line is drawn\n\
  kernel   render --report mainloop.cpp                             # every buffer, copy and MMA checked (Markdown)\n\
  \x20        render --report mainloop.cpp --format json; render --expr @mainloop.cpp --view kernel kernel.svg\n\
  text     render --print 'logical_divide((4,2,3):(2,1,8), 4:2)'\n\
  latex    render --expr 'make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{})' mma.tex   # CuTe's print_latex\n\
  \x20        echo 'L = (4,8):(8,1)\n  L(13)' | render --print -"
)]
struct Cli {
    /// Evaluate EXPR and print the result in CuTe's format; `-` reads a script from stdin.
    #[arg(long, value_name = "EXPR", conflicts_with_all = ["output", "expr"])]
    print: Option<String>,

    /// Check a whole kernel's configuration block (FILE, or `-` for stdin): every smem
    /// buffer, copy and MMA with a verdict and the number behind it.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["output", "expr", "print"])]
    report: Option<String>,

    /// The report's format: Markdown (for a terminal or a review) or JSON (for scripts).
    #[arg(long, value_enum, default_value = "md", requires = "report")]
    format: ReportFormat,

    /// What to draw: an expression or script (the last line is drawn); `@FILE` reads it
    /// from a file.
    #[arg(long, value_name = "EXPR")]
    expr: Option<String>,

    /// The view (`auto`: layout → layout, composed → swizzle, make_layout_tv → tv,
    /// MMA → mma, copy → copy, bank_conflicts → banks, swizzle_search → search, a layout
    /// from composition/complement/a divide/a product/an inverse/coalesce/filter → algebra).
    #[arg(long, value_enum, default_value = "auto")]
    view: View,

    /// Element width in bits: bank colours of the layout/swizzle views, and --access.
    #[arg(long, value_name = "BITS", default_value_t = 16)]
    bits: u32,

    /// Thread-value layout of an access: draws bank_conflicts(EXPR, BITS, ACCESS, INSTR)
    /// (with `--view search`: swizzle_search(EXPR, BITS, ACCESS, INSTR)).
    #[arg(long, value_name = "TV", requires = "instr")]
    access: Option<String>,

    /// Instruction of --access: LDS32 LDS64 LDS128 STS32 STS64 STS128 LDSM_X1..X4[_T] STSM_X1..X4[_T].
    #[arg(long, value_name = "INSTR", requires = "access")]
    instr: Option<String>,

    /// The offset whose swizzle bits the swizzle view spells out.
    #[arg(long, value_name = "OFFSET")]
    bit_offset: Option<i64>,

    /// Emphasise one thread (TV, MMA, copy, bank views).
    #[arg(long, value_name = "T", conflicts_with = "highlight_warp")]
    highlight_thread: Option<i64>,

    /// Emphasise one warp (threads 32W..32W+31).
    #[arg(long, value_name = "W")]
    highlight_warp: Option<i64>,

    /// Warp whose instructions the bank view draws.
    #[arg(long, value_name = "W", default_value_t = 0)]
    warp: u32,

    /// What each cell says: the view's own (auto), offset, index, natural coordinate
    /// (coord), flat (row,col), thread/value (tv), or nothing.
    #[arg(long, value_enum, default_value = "auto")]
    labels: crate::Labels,

    /// Colour scheme: CuTe's print_latex colours, or colour-blind-safe (Okabe–Ito, cividis).
    #[arg(long, value_enum, default_value = "cute")]
    palette: crate::Palette,

    /// Colour theme of the picture.
    #[arg(long, value_enum, default_value = "light")]
    theme: ThemeArg,

    /// PNG pixels per SVG unit.
    #[arg(long, value_name = "S", default_value_t = 2.0)]
    scale: f32,

    /// Output file: .svg, .png, or .tex (CuTe's print_latex TikZ).
    #[arg(value_name = "OUTPUT")]
    output: Option<std::path::PathBuf>,
}

fn draw(cli: &Cli, output: &std::path::Path) -> Result<(), String> {
    let mut expr = match cli.expr.as_deref() {
        None => DEFAULT_EXPR.to_string(),
        Some(e) => match e.strip_prefix('@') {
            Some(path) => std::fs::read_to_string(path)
                .map_err(|err| format!("cannot read expression file {path}: {err}"))?,
            None => e.to_string(),
        },
    };
    if let (Some(access), Some(instr)) = (&cli.access, &cli.instr) {
        // The last line is the shared-memory layout; wrap it into the analysis.
        let mut lines: Vec<&str> = expr.trim_end().lines().collect();
        let smem = lines.pop().unwrap_or("").to_string();
        // `--view search` ranks swizzles of it for the access instead.
        let f = match cli.view {
            View::Search => "swizzle_search",
            _ => "bank_conflicts",
        };
        let call = format!("{f}({smem}, {}, {access}, {instr})", cli.bits);
        lines.push(&call);
        expr = lines.join("\n");
    }
    let theme = match cli.theme {
        ThemeArg::Light => crate::Theme::Light,
        ThemeArg::Dark => crate::Theme::Dark,
    };
    let opts = crate::Options {
        view: cli.view,
        palette: cli.palette,
        elem_bits: cli.bits,
        elem_from: None,
        bit_offset: cli.bit_offset,
        highlight: match (cli.highlight_thread, cli.highlight_warp) {
            (Some(t), _) => Some(crate::Highlight::Thread(t)),
            (_, Some(w)) => Some(crate::Highlight::Warp(w)),
            _ => None,
        },
        warp: cli.warp,
        labels: cli.labels,
        ..Default::default()
    };
    let ext = output
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase());
    let png = match ext.as_deref() {
        Some("svg") => false,
        Some("png") => true,
        Some("tex") => {
            let tex = crate::render_latex(&expr).map_err(|e| e.to_string())?;
            return std::fs::write(output, tex)
                .map_err(|e| format!("cannot write {}: {e}", output.display()));
        }
        _ => {
            return Err(format!(
                "cannot tell the format of {}: use a .svg, .png or .tex file name",
                output.display()
            ))
        }
    };
    let svg = crate::render_svg(&expr, &opts, theme).map_err(|e| e.to_string())?;
    let bytes = if png {
        if !(cli.scale > 0.0 && cli.scale <= 8.0) {
            return Err(format!("--scale {} must be in (0, 8]", cli.scale));
        }
        crate::svg_to_png(&svg, cli.scale).map_err(|e| e.to_string())?
    } else {
        svg.into_bytes()
    };
    std::fs::write(output, bytes).map_err(|e| format!("cannot write {}: {e}", output.display()))
}

/// `--format` of `--report`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum ReportFormat {
    /// Markdown.
    Md,
    /// JSON.
    Json,
}

/// `render --report FILE`: the kernel report of the block in FILE (`-`: stdin); exit 0
/// when every section is ok, 1 when one warns or fails, 2 when the block is refused.
fn report(path: &str, format: ReportFormat) -> u8 {
    let src = if path == "-" {
        let mut s = String::new();
        io::stdin().read_to_string(&mut s).map(|_| s)
    } else {
        std::fs::read_to_string(path)
    };
    let src = match src {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot read {path}: {e}");
            return 2;
        }
    };
    match cute_lang::kernel::report(&src) {
        Ok(r) => {
            let text = match format {
                ReportFormat::Md => r.to_string(),
                ReportFormat::Json => format!("{:#}\n", crate::report::to_json(&r)),
            };
            // A closed pipe (`| head`) ends the output, not the program.
            let mut out = io::stdout().lock();
            if out
                .write_all(text.as_bytes())
                .and_then(|_| out.flush())
                .is_err()
            {
                return 2;
            }
            u8::from(r.verdict() != cute_lang::kernel::Verdict::Ok)
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// Run the command line on `args` (the program name first), as `render` does; returns the
/// exit status. The Python package's `python -m cute_explorer` is this too.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            // --help and --version print and succeed; a usage error prints and fails.
            let _ = e.print();
            return u8::from(e.use_stderr()) * 2;
        }
    };
    if let Some(output) = cli.output.as_deref() {
        return match draw(&cli, output) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("error: {e}");
                1
            }
        };
    }
    if let Some(path) = cli.report.as_deref() {
        return report(path, cli.format);
    }
    match cli.print.as_deref() {
        // TEXT and stdin are the same language (a declaration, a binding, several lines),
        // read by one path as the page reads its editor.
        Some(arg) => {
            let src = if arg == "-" {
                let mut src = String::new();
                if let Err(e) = io::stdin().read_to_string(&mut src) {
                    eprintln!("error: cannot read stdin: {e}");
                    return 2;
                }
                src
            } else {
                arg.to_string()
            };
            let stdout = io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            let printed = crate::print_script(&src, &mut out).and_then(|f| out.flush().map(|_| f));
            if let Ok(p) = &printed {
                for n in &p.notes {
                    eprintln!("note: {n}");
                }
            }
            match printed {
                Ok(Printed { lines: 0, .. }) if arg != "-" => {
                    println!("error: empty expression");
                    1
                }
                Ok(Printed { failed, .. }) => u8::from(failed != 0),
                Err(e) => {
                    eprintln!("error: cannot write output: {e}");
                    2
                }
            }
        }
        None => {
            eprintln!("error: nothing to do; try `render layout.svg` or `render --print 'EXPR'` (see --help)");
            2
        }
    }
}
