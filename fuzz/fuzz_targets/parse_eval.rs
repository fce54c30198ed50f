//! Parse and evaluate arbitrary scripts: never panic, never hang, bounded memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(src) = std::str::from_utf8(data) {
        for line in cute_lang::run_script(src) {
            // Printing is part of the contract: exercise it too.
            let _ = cute_lang::format_result(&line.result);
        }
    }
});
