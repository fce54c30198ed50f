//! The search view: every candidate ranked, rows capped, coloured by quality.

mod common;

use common::*;
use cute_core::bank::format_candidates;
use cute_lang::{eval_line, Value};
use cute_render::views::SEARCH_ROWS;
use cute_render::{render_figure, render_svg, Options, Palette, Theme};

/// The search of the cap test: 68 candidates.
const BIG_SEARCH: &str = "swizzle_search((32,64):(64,1), 32, (32,4):(1,32), LDS128)";

#[test]
fn search_view_ranks_every_candidate() {
    let expr = EXAMPLES[6].1;
    let Value::Ranked(cs) = eval_line(expr).unwrap() else {
        panic!()
    };
    assert!(cs.len() <= SEARCH_ROWS);
    let s = svg(expr);
    let doc = parse(&s);
    let p = panel(&doc, "ranking");
    assert_eq!(attr(&p, "data-rows"), cs.len() as i64);
    let cols = attr(&p, "data-cols");
    let all = cells(&doc, "ranking");
    assert_eq!(all.len() as i64, cs.len() as i64 * cols);
    // The first row is the best candidate, as format_candidates ranks it.
    let first = format_candidates(&cs, 1);
    let (label, rest) = first.split_once(": ").unwrap();
    let w: i64 = rest.split(' ').next().unwrap().parse().unwrap();
    for c in all.iter().filter(|c| attr(c, "data-row") == 0) {
        assert_eq!(c.attribute("data-candidate"), Some(label));
        assert_eq!(attr(c, "data-rank"), 1);
        assert_eq!(attr(c, "data-wavefronts"), w);
    }
    // Every cell carries its candidate's numbers; rows follow the ranking.
    for c in &all {
        let k = attr(c, "data-row") as usize;
        let cand = &cs[k];
        assert_eq!(attr(c, "data-rank"), k as i64 + 1);
        assert_eq!(c.attribute("data-candidate"), Some(cand.label.as_str()));
        assert_eq!(attr(c, "data-wavefronts"), cand.wavefronts as i64);
        assert_eq!(attr(c, "data-ideal"), cand.ideal as i64);
        assert_eq!(
            attr(c, "data-conflicts"),
            (cand.wavefronts - cand.ideal) as i64
        );
        assert_eq!(attr(c, "data-extra-elems"), cand.extra_elems);
        assert_eq!(
            c.attribute("data-smem"),
            Some(cand.smem.to_string().as_str())
        );
    }
    let text = |row: i64, field: &str| -> String {
        let c = all
            .iter()
            .find(|c| attr(c, "data-row") == row && c.attribute("data-field") == Some(field))
            .unwrap();
        c.descendants()
            .find(|n| n.has_tag_name("text"))
            .and_then(|t| t.text())
            .unwrap()
            .to_string()
    };
    assert_eq!(text(0, "candidate"), label);
    assert_eq!(text(0, "wavefronts"), w.to_string());
    assert!(!s.contains("more candidates"));
    let best = format!("best: {} (#1)", cs[0].smem);
    assert!(
        doc.descendants()
            .any(|n| n.attribute("class") == Some("note")
                && n.text().is_some_and(|t| t.trim().starts_with(&best))),
        "{best}"
    );
}

#[test]
fn search_view_caps_rows_and_colours_by_quality() {
    let Value::Ranked(cs) = eval_line(BIG_SEARCH).unwrap() else {
        panic!()
    };
    assert!(cs.len() > SEARCH_ROWS);
    let s = svg(BIG_SEARCH);
    let doc = parse(&s);
    assert_eq!(
        attr(&panel(&doc, "ranking"), "data-rows"),
        SEARCH_ROWS as i64
    );
    assert!(s.contains(&format!(
        "{} more candidates (#{}..#{}) are not drawn",
        cs.len() - SEARCH_ROWS,
        SEARCH_ROWS + 1,
        cs.len()
    )));
    let fill = |s: &str, rank: usize| -> String {
        let doc = parse(s);
        let c = cells(&doc, "ranking")
            .into_iter()
            .find(|c| attr(c, "data-rank") == rank as i64)
            .unwrap();
        c.descendants()
            .find(|n| n.has_tag_name("rect"))
            .unwrap()
            .attribute("fill")
            .unwrap()
            .to_string()
    };
    // Best and worst drawn rows differ; the colour-blind ramp is cividis (yellow = best).
    let worst_drawn = SEARCH_ROWS;
    assert_eq!(
        cs[worst_drawn - 1].wavefronts,
        cs.iter().map(|c| c.wavefronts).max().unwrap()
    );
    assert_ne!(fill(&s, 1), fill(&s, worst_drawn));
    let cb = Options {
        palette: Palette::ColorBlind,
        ..Options::default()
    };
    let s_cb = render_svg(BIG_SEARCH, &cb, Theme::Dark).unwrap();
    assert_eq!(fill(&s_cb, 1), "#fde737");
    assert_eq!(fill(&s_cb, worst_drawn), "#00224e");
    assert_ne!(fill(&s, 1), fill(&s_cb, 1));
}

#[test]
fn snapshot() {
    let f = render_figure(example("search"), &Options::default()).unwrap();
    assert_eq!(f.view.name(), "search");
    insta::assert_snapshot!("view_search", f.to_svg(Theme::Light));
}
