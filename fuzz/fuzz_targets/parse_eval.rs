//! Parse and evaluate arbitrary scripts: never panic, never hang, bounded memory. The same
//! script as a kernel configuration: its report (or its error) and the report's Markdown.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(src) = std::str::from_utf8(data) {
        for line in cute_lang::run_script(src) {
            // Printing is part of the contract: exercise it too.
            let _ = cute_lang::format_result(&line.result);
        }
        if let Ok(r) = cute_lang::kernel::report(src) {
            let _ = r.to_string();
        }
    }
});
