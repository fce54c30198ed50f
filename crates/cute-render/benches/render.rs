//! Drawing speed: evaluate + build the figure + write the SVG, for a 256x256 swizzled
//! layout (65,536 cells, overview) and a 128x256 TV layout (32,768 cells), plus the
//! default 8x32 swizzle picture. Throughput is reported in cells per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use cute_render::{render_svg, Options, Theme};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("render_svg");
    g.sample_size(20);
    for (name, expr, cells) in [
        (
            "swizzled_256x256",
            "Sw<3,4,3> o 0 o (256,256):(256,1)",
            2 * 65_536u64,
        ),
        (
            "tv_128x256",
            "make_layout_tv((32,32):(32,1), (4,8):(8,1))",
            128 * 256,
        ),
        (
            "default_8x32_swizzle",
            "composition(Sw<3,2,3>, (8,32):(32,1))",
            2 * 256,
        ),
    ] {
        // Sanity: the expression draws what the name says.
        render_svg(expr, &Options::default(), Theme::Light).expect(name);
        g.throughput(Throughput::Elements(cells));
        g.bench_function(name, |b| {
            b.iter(|| render_svg(black_box(expr), &Options::default(), Theme::Light).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
