//! A section of the kernel report: what it is about, its verdict, facts and warnings.

use std::fmt;

/// How a section came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// As good as the hardware allows.
    Ok,
    /// Works, but costs more than it must (conflicts, extra sectors).
    Warn,
    /// Will not work (over the shared-memory limit, a tile the MMA does not divide).
    Fail,
}

impl Verdict {
    /// `ok`, `warn`, `fail`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Warn => "warn",
            Verdict::Fail => "fail",
        }
    }
}

/// What a section of the report is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SectionKind {
    /// The pasted host code: a host function's parameters, the lines left out.
    Host,
    /// What a `CollectiveBuilder` line resolved to, step by step.
    Collective,
    /// The shared-memory budget of all buffers.
    Budget,
    /// One operand's shared-memory buffer.
    Smem,
    /// The element types the copies and the MMA give an operand.
    Types,
    /// A global→shared copy (cp.async or plain loads).
    G2s,
    /// A TMA copy.
    Tma,
    /// A shared→register copy of the mainloop.
    S2r,
    /// A TiledMMA.
    Mma,
    /// The GMMA/UMMA shared-memory descriptors an MMA issues.
    Desc,
    /// Tensor-memory columns and copies.
    Tmem,
    /// The epilogue's copy of the accumulators.
    Epilogue,
    /// The kernel-wide totals.
    Kernel,
}

impl SectionKind {
    /// Every kind, in the order of this enum.
    pub const ALL: [SectionKind; 13] = [
        SectionKind::Host,
        SectionKind::Collective,
        SectionKind::Budget,
        SectionKind::Smem,
        SectionKind::Types,
        SectionKind::G2s,
        SectionKind::Tma,
        SectionKind::S2r,
        SectionKind::Mma,
        SectionKind::Desc,
        SectionKind::Tmem,
        SectionKind::Epilogue,
        SectionKind::Kernel,
    ];

    /// The kind's name in the report (`smem`, `g2s`, ...).
    pub fn name(self) -> &'static str {
        match self {
            SectionKind::Host => "host",
            SectionKind::Collective => "collective",
            SectionKind::Budget => "budget",
            SectionKind::Smem => "smem",
            SectionKind::Types => "types",
            SectionKind::G2s => "g2s",
            SectionKind::Tma => "tma",
            SectionKind::S2r => "s2r",
            SectionKind::Mma => "mma",
            SectionKind::Desc => "desc",
            SectionKind::Tmem => "tmem",
            SectionKind::Epilogue => "epilogue",
            SectionKind::Kernel => "kernel",
        }
    }
}

impl fmt::Display for SectionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One object of the kernel and what the models say about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// What the section is about.
    pub kind: SectionKind,
    /// The binding (`sA`, `copyA`, `tiled_mma`), or what the section sums up.
    pub name: String,
    /// The verdict.
    pub verdict: Verdict,
    /// The number behind the verdict, in one line.
    pub headline: String,
    /// Name, value pairs: what the section found.
    pub facts: Vec<(String, String)>,
    /// Why the verdict is not ok, each with a fix where one can be computed.
    pub warnings: Vec<Warning>,
    /// An expression that opens the object in its own view (`bank_conflicts(...)`).
    pub view: Option<String>,
}

/// A problem and, where the project can compute one, its fix.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// What is wrong, with the number.
    pub reason: String,
    /// What to do instead.
    pub fix: Option<String>,
}

/// Bytes as KiB, one decimal where not whole.
///
/// ```
/// assert_eq!(cute_lang::kernel::kib(166_912), "163 KiB");
/// assert_eq!(cute_lang::kernel::kib(1536 + 100), "1.6 KiB");
/// ```
pub fn kib(bytes: i64) -> String {
    if bytes % 1024 == 0 {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    }
}
