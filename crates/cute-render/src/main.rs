//! `render`: draw CuTe layouts, or (`--print`) evaluate CuTe expressions as text.

use clap::Parser;
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

// The algebra allocates many small vectors; mimalloc roughly halves their cost.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    after_help = "Examples:\n  \
        render layout.svg                                     # the default swizzled 8x32 tile\n  \
        render --expr '(8,8):(8,1)' grid.svg                  # a layout\n  \
        render --expr 'composition(Sw<3,4,3>, (8,64):(64,1))' --theme dark sw.svg\n  \
        render --expr @script.txt out.svg                     # last line of a script\n  \
        render --print 'logical_divide((4,2,3):(2,1,8), 4:2)'\n  \
        echo 'L = (4,8):(8,1)\n  L(13)' | render --print -"
)]
struct Cli {
    /// Evaluate EXPR and print the result in CuTe's format; `-` reads a script from stdin.
    #[arg(long, value_name = "EXPR", conflicts_with_all = ["output", "expr"])]
    print: Option<String>,

    /// What to draw: an expression or script (the last line is drawn); `@FILE` reads it
    /// from a file.
    #[arg(long, value_name = "EXPR")]
    expr: Option<String>,

    /// Colour theme of the picture.
    #[arg(long, value_enum, default_value = "light")]
    theme: ThemeArg,

    /// Output file (.svg).
    #[arg(value_name = "OUTPUT")]
    output: Option<std::path::PathBuf>,
}

fn draw(cli: &Cli, output: &std::path::Path) -> Result<(), String> {
    let expr = match cli.expr.as_deref() {
        None => DEFAULT_EXPR.to_string(),
        Some(e) => match e.strip_prefix('@') {
            Some(path) => std::fs::read_to_string(path)
                .map_err(|err| format!("cannot read expression file {path}: {err}"))?,
            None => e.to_string(),
        },
    };
    let theme = match cli.theme {
        ThemeArg::Light => cute_render::Theme::Light,
        ThemeArg::Dark => cute_render::Theme::Dark,
    };
    match output.extension().and_then(|e| e.to_str()) {
        Some(ext) if ext.eq_ignore_ascii_case("svg") => {}
        _ => {
            return Err(format!(
                "cannot tell the format of {}: use a .svg file name",
                output.display()
            ))
        }
    }
    let svg = cute_render::render_svg(&expr, theme).map_err(|e| e.to_string())?;
    std::fs::write(output, svg).map_err(|e| format!("cannot write {}: {e}", output.display()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(output) = cli.output.as_deref() {
        return match draw(&cli, output) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    match cli.print.as_deref() {
        Some("-") => {
            let mut src = String::new();
            if let Err(e) = io::stdin().read_to_string(&mut src) {
                eprintln!("error: cannot read stdin: {e}");
                return ExitCode::from(2);
            }
            let stdout = io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            let failed = match cute_render::print_script(&src, &mut out)
                .and_then(|f| out.flush().map(|_| f))
            {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("error: cannot write output: {e}");
                    return ExitCode::from(2);
                }
            };
            if failed == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Some(expr) => {
            let (text, ok) = cute_render::print_one(expr);
            println!("{text}");
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        None => {
            eprintln!("error: nothing to do; try `render layout.svg` or `render --print 'EXPR'` (see --help)");
            ExitCode::from(2)
        }
    }
}
