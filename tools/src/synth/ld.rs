//! Linkage disequilibrium between variants (TopLD, `variants_variants`).

use std::collections::VecDeque;
use std::io;

use super::json::Obj;
use super::sink::Sink;
use super::variants::*;
use super::*;

/// Pairs with earlier variants nearby: `draws` picks among the `recent` ones, repeats skipped
/// (each pair stored once; see [`ld_rows_per_variant`]).
pub(super) fn topld(
    x: &Site,
    recent: &VecDeque<Var>,
    draws: u32,
    s: &mut Sink,
    rng: &mut Rng,
) -> io::Result<()> {
    let Site { plan, c, v, .. } = *x;
    let from = &x.from;
    let gi = v.gi;
    if !recent.is_empty() {
        let mut taken = 0u64;
        for _ in 0..draws {
            let back = rng.below(recent.len() as u64) as usize;
            let bit = 1u64 << back;
            if taken & bit != 0 {
                continue;
            }
            taken |= bit;
            let other = &recent[recent.len() - 1 - back];
            let anc = *rng.pick(&["AFR", "EAS", "EUR", "SAS"]);
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &hex_key(&[plan.seed, gi, other.gi, 41]))
                .s("_from", &format!("variants/{}", other.key))
                .s("_to", from)
                .s("chr", c.name)
                .s("ancestry", anc)
                .f("r2", sig(rng.range(0.2, 1.0), 6))
                .f("d_prime", sig(rng.range(0.5, 1.0), 6))
                .b("negated", rng.chance(0.2))
                .s("variant_1_base_pair", &format!("{}:{}", other.r, other.a))
                .s("variant_2_base_pair", &format!("{}:{}", v.r, v.a))
                .s("variant_1_rsid", other.rsid.as_deref().unwrap_or(""))
                .s("variant_2_rsid", v.rsid.as_deref().unwrap_or(""))
                .s("label", "linkage disequilibrium")
                .s("name", "correlated with")
                .s("inverse_name", "correlated with")
                .s("source", "TopLD")
                .s("source_url", "http://topld.genetics.unc.edu/");
            o.end();
            s.put("variants_variants")?;
        }
    }
    Ok(())
}
