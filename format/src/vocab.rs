//! Names the builder and the server both use, spelled once: the builder stores what the
//! server reads by these names.

/// Declares the allele-frequency sources once: their names and their members in variant records.
macro_rules! af_sources {
    ($($name:ident),* $(,)?) => {
        /// Allele-frequency sources of a variant's `annotations`, in IGVF's output order (the
        /// values of 4.2 `source`, the first members of the annotations shape).
        pub const AF_SOURCES: &[&str] = &[$(stringify!($name)),*];
        /// Their members in variant records: members of the object member `annotations`
        /// (numbers or null; format v3 keeps no numeric column of them).
        pub const AF_MEMBERS: &[&str] = &[$(concat!("annotations.", stringify!($name))),*];
    };
}

af_sources!(
    bravo_af,
    gnomad_af_total,
    gnomad_af_afr,
    gnomad_af_afr_female,
    gnomad_af_afr_male,
    gnomad_af_ami,
    gnomad_af_ami_female,
    gnomad_af_ami_male,
    gnomad_af_amr,
    gnomad_af_amr_female,
    gnomad_af_amr_male,
    gnomad_af_asj,
    gnomad_af_asj_female,
    gnomad_af_asj_male,
    gnomad_af_eas,
    gnomad_af_eas_female,
    gnomad_af_eas_male,
    gnomad_af_female,
    gnomad_af_fin,
    gnomad_af_fin_female,
    gnomad_af_fin_male,
    gnomad_af_male,
    gnomad_af_nfe,
    gnomad_af_nfe_female,
    gnomad_af_nfe_male,
    gnomad_af_oth,
    gnomad_af_oth_female,
    gnomad_af_oth_male,
    gnomad_af_sas,
    gnomad_af_sas_male,
    gnomad_af_sas_female,
    gnomad_af_raw,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_members_follow_sources() {
        assert_eq!(AF_SOURCES.len(), AF_MEMBERS.len());
        for (s, c) in AF_SOURCES.iter().zip(AF_MEMBERS) {
            assert_eq!(c.strip_prefix("annotations."), Some(*s));
        }
    }
}
