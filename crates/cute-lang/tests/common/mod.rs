//! What the hardware-fixture tests share: the repository root and the jsonl readers.
#![allow(dead_code)]

use serde_json::Value as Json;
use std::path::PathBuf;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn jsonl(path: &str) -> Vec<Json> {
    let text = std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}: {e}: {l}")))
        .collect()
}

/// A pattern's 32 byte addresses (-1: an inactive lane).
pub fn addrs(v: &Json) -> Vec<Option<u64>> {
    v.as_array()
        .expect("32 addresses")
        .iter()
        .map(|a| {
            let a = a.as_i64().expect("integer address");
            (a >= 0).then_some(a as u64)
        })
        .collect()
}
