//! Drawing speed: evaluate + build the figure + write the SVG, for a 256x256 swizzled
//! layout (65,536 cells, overview) and a 128x256 TV layout (32,768 cells), plus the
//! default 8x32 swizzle picture; and the page's 1024x1024 layout, computed on demand (the
//! figure, its fills drawing and its bitmap). Throughput is reported in cells per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use cute_render::grid::Detail;
use cute_render::{render_figure, render_svg, Options, Theme};
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

    let mut g = c.benchmark_group("page_lazy");
    g.sample_size(20);
    let opts = Options {
        cell_text_cap: cute_render::views::CELL_HARD_CAP,
        lazy_cap: cute_render::views::LAZY_CAP,
        ..Options::default()
    };
    g.throughput(Throughput::Elements(1 << 20));
    g.bench_function("layout_1024x1024", |b| {
        b.iter(|| {
            let f = render_figure(black_box("(1024,1024):(1,1024)"), &opts).unwrap();
            let svg = f.to_svg_with(Theme::Light, Detail::Fills);
            (svg.len(), f.pixels(0).map(|p| p.len()))
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
