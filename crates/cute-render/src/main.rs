//! `render`: draw CuTe layouts, or (`--print`) evaluate CuTe expressions as text.

use clap::Parser;
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

// The algebra allocates many small vectors; mimalloc roughly halves their cost.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// CuTe Layout Explorer's command line.
#[derive(Parser, Debug)]
#[command(
    name = "render",
    version,
    about = "Evaluate and draw NVIDIA CuTe layouts",
    after_help = "Examples:\n  render --print 'logical_divide((4,2,3):(2,1,8), 4:2)'\n  render --print 'Sw<3,4,3> o 0 o (8,64):(64,1)'\n  echo 'L = (4,8):(8,1)\n  L(13)' | render --print -"
)]
struct Cli {
    /// Evaluate EXPR and print the result in CuTe's format; `-` reads a script from stdin.
    #[arg(long, value_name = "EXPR")]
    print: Option<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
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
            eprintln!("error: nothing to do; try `render --print 'EXPR'` (see --help)");
            ExitCode::from(2)
        }
    }
}
