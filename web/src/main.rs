//! The page's entry point (trunk builds this binary to WebAssembly).

fn main() {
    #[cfg(target_arch = "wasm32")]
    cute_web::app::start();
}
