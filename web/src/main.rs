//! The page's entry point (trunk builds this binary to WebAssembly).

fn main() {
    #[cfg(all(target_arch = "wasm32", feature = "app"))]
    cute_web::app::start();
}
