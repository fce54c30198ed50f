//! CUTLASS's mainloop dispatch policies (`dispatch_policies.tsv`, generated from
//! `cutlass/gemm/dispatch_policy.hpp` by `tools/oracle/policies.py`): a policy's value with
//! its template arguments bound, its members read by a small typed reader of the table's
//! texts (integers, `Shape<_1,_1,_1>`, names).

use crate::types::names::name_value;
use crate::value::Value;
use cute_core::error::Result;

/// The value of a default or member text of the dispatch-policy table: an integer, a
/// `Shape<_1,_1,_1>`, or a name (a schedule tag, an atom, `true`); the table holds no other
/// kind of value that the language has (`arch::Sm90` and the like are refused).
fn policy_text(text: &str) -> Result<Value> {
    let t = text.trim();
    if let Ok(n) = t.parse::<i64>() {
        return Ok(Value::Int(n));
    }
    if let Some(inner) = t.strip_prefix("Shape<").and_then(|r| r.strip_suffix('>')) {
        return inner
            .split(',')
            .map(|x| {
                let x = x.trim();
                x.strip_prefix('_')
                    .unwrap_or(x)
                    .parse()
                    .map(Value::Int)
                    .map_err(|_| cute_core::err!("'{x}' is not a static integer"))
            })
            .collect::<Result<_>>()
            .map(Value::Tuple);
    }
    name_value(t).unwrap_or_else(|| Err(cute_core::err!("unknown name '{t}'")))
}

/// A CUTLASS mainloop dispatch policy (`dispatch_policies.tsv`, generated from the headers)
/// with its template arguments bound: members that are a parameter take its value (or its
/// default), members that name no parameter are evaluated; others are left out.
pub(crate) fn policy(name: &str, targs: &[Value]) -> Option<Result<Value>> {
    let row = include_str!("dispatch_policies.tsv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .find(|l| l.split('\t').next() == Some(name))?;
    let mut cols = row.split('\t').skip(1);
    let params: Vec<&str> = cols
        .next()
        .unwrap_or("")
        .split(';')
        .filter(|p| !p.is_empty())
        .collect();
    let members = cols.next().unwrap_or("");
    Some((|| {
        if targs.len() > params.len() {
            return Err(cute_core::err!(
                "{name} takes at most {} template arguments, got {}",
                params.len(),
                targs.len()
            ));
        }
        let mut bound: Vec<(&str, Value)> = Vec::new();
        for (i, p) in params.iter().enumerate() {
            let (pname, default) = match p.split_once('=') {
                Some((n, d)) => (n, Some(d)),
                None => (*p, None),
            };
            let v = match (targs.get(i), default) {
                (Some(v), _) => v.clone(),
                (None, Some(d)) => policy_text(d)?,
                (None, None) => {
                    return Err(cute_core::err!(
                        "{name} needs its template argument {pname}"
                    ))
                }
            };
            bound.push((pname, v));
        }
        let mut out = Vec::new();
        for m in members.split(';').filter(|m| !m.is_empty()) {
            let Some((mname, text)) = m.split_once('=') else {
                continue;
            };
            let v = match bound.iter().find(|(p, _)| *p == text) {
                Some((_, v)) => Some(v.clone()),
                None if !bound.iter().any(|(p, _)| text.contains(p)) => policy_text(text).ok(),
                None => None,
            };
            if let Some(v) = v {
                out.push((mname.to_string(), v));
            }
        }
        let args: Vec<String> = targs.iter().map(|t| t.to_string()).collect();
        Ok(Value::Policy(Box::new(crate::value::Policy {
            name: format!("{name}<{}>", args.join(",")),
            members: out,
        })))
    })())
}

/// `DispatchPolicy`: the policy of the dispatch-policy table with the builder's arguments.
pub(crate) fn of_mainloop(m: &cute_core::collective::Mainloop) -> Result<Value> {
    use cute_core::arch::Arch;
    let p = &m.policy;
    // The schedule tag the policy is written with (SM120's carries its scheduler stages).
    let tag_name = p.schedule.split('<').next().unwrap_or_default();
    let tag = crate::words::ScheduleTag::parse(tag_name)
        .ok_or_else(|| cute_core::err!("unknown schedule {}", p.schedule))?;
    let tag = Value::Word(crate::words::Word::Schedule(tag));
    let cluster = Value::Tuple(m.config.cluster.iter().map(|&x| Value::Int(x)).collect());
    let (s, sch) = (
        Value::Int(m.stages),
        Value::Int(p.scheduler_stages.unwrap_or(0)),
    );
    let args = match m.config.arch {
        Arch::Sm100 => vec![s, sch, Value::Int(p.acc_stages.unwrap_or(0)), cluster],
        Arch::Sm120 => vec![s, sch, cluster, tag.clone()],
        _ => vec![s, cluster, tag.clone()],
    };
    match policy(p.template, &args) {
        Some(Ok(Value::Policy(mut pol))) => {
            pol.name = m.policy_name();
            // SM100's schedule is a template carrying the pipelines' stage counts.
            if let (Some(sch), Some(acc)) = (p.scheduler_stages, p.acc_stages) {
                let schedule = Value::Policy(Box::new(crate::value::Policy {
                    name: p.schedule.clone(),
                    members: vec![
                        ("SchedulerPipelineStageCount".to_string(), Value::Int(sch)),
                        ("AccumulatorPipelineStageCount".to_string(), Value::Int(acc)),
                    ],
                }));
                pol.members.retain(|(n, _)| n != "Schedule");
                pol.members.push(("Schedule".to_string(), schedule));
            }
            // The FP8 policies derive their members from the plain one's.
            for (k, v) in [("Stages", Value::Int(m.stages)), ("Schedule", tag)] {
                if !pol.members.iter().any(|(n, _)| n == k) {
                    pol.members.push((k.to_string(), v));
                }
            }
            Ok(Value::Policy(pol))
        }
        Some(r) => r,
        None => Err(cute_core::err!("no dispatch policy {}", p.template)),
    }
}

/// An SM90 epilogue's `DispatchPolicy`: `Sm90TmaWarpSpecialized<StagesC, StagesD,
/// FragmentSize, ReuseSmemC, DelayTmaStore>` with those members, or the no-smem
/// epilogue's `gemm::EpilogueDefault` (which has none).
pub(crate) fn of_epilogue(e: &cute_core::epilogue::Epilogue) -> Value {
    let members = match &e.tma {
        None => Vec::new(),
        Some(t) => vec![
            ("StagesC".to_string(), Value::Int(t.stages_c)),
            ("StagesD".to_string(), Value::Int(t.stages_d)),
            ("FragmentSize".to_string(), Value::Int(t.fragment_size)),
            ("ReuseSmemC".to_string(), Value::Bool(t.reuse_smem_c)),
            ("DelayTmaStore".to_string(), Value::Bool(t.delay_tma_store)),
        ],
    };
    Value::Policy(Box::new(crate::value::Policy {
        name: e.policy_name(),
        members,
    }))
}

#[cfg(test)]
mod tests {
    /// Every default and member text of the dispatch-policy table reads as the evaluator
    /// reads it (the same value, or an error both ways).
    #[test]
    fn policy_texts_read_as_the_evaluator_reads_them() {
        let mut n = 0;
        for row in include_str!("dispatch_policies.tsv")
            .lines()
            .filter(|l| !l.starts_with('#'))
        {
            let cols: Vec<&str> = row.split('\t').collect();
            for item in cols[1..].iter().flat_map(|c| c.split(';')) {
                let Some((_, text)) = item.split_once('=') else {
                    continue;
                };
                let (typed, evaluated) = (super::policy_text(text), crate::eval_line(text));
                assert_eq!(typed.as_ref().ok(), evaluated.as_ref().ok(), "{text}");
                n += 1;
            }
        }
        assert!(n > 100, "{n} texts");
    }
}
