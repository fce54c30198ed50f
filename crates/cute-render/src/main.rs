//! `render`: draw CuTe layouts, or (`--print`) evaluate CuTe expressions as text
//! ([`cute_render::cli`]).

use std::process::ExitCode;

// The algebra allocates many small vectors; mimalloc roughly halves their cost.
#[global_allocator]
static GLOBAL: cute_render::alloc::MiMalloc = cute_render::alloc::MiMalloc;

fn main() -> ExitCode {
    ExitCode::from(cute_render::cli::run(std::env::args_os()))
}
