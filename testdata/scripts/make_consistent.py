#!/usr/bin/env python3
"""Writes testdata/catalog/*.consistent.jsonl: a small, internally consistent, hand-designed set
(genes, variants with frequencies, coding variants with linked variants and scores, and
variant edges) whose references resolve, so every branch of the variant endpoints is tested on
data that joins. Every document is synthetic; `source_url`s point at example.org.

Run from the repository root: python3 testdata/scripts/make_consistent.py
"""
import json
import os

OUT = os.path.join(os.path.dirname(__file__), "..", "catalog")
URL = "https://example.org/varcat-testdata"
ACC = {"chr1": "NC_000001.11", "chr2": "NC_000002.12", "chr3": "NC_000003.12"}
POPS = ["afr", "ami", "amr", "asj", "eas", "fin", "nfe", "oth", "sas"]


def write(coll, docs):
    with open(os.path.join(OUT, f"{coll}.consistent.jsonl"), "w") as f:
        for d in docs:
            f.write(json.dumps(d) + "\n")


def gene(n, name, chr_, start, end, strand="+", **extra):
    d = {
        "_key": f"ENSG9000000000{n}", "gene_id": f"ENSG9000000000{n}.1", "gene_type": "protein_coding",
        "chr": chr_, "start": start, "end": end, "strand": strand, "symbol": name, "name": name,
        "study_sets": None, "collections": None, "source": "varcat-testdata", "version": "v1",
        "source_url": URL, "organism": "Homo sapiens", "version_number": "1",
    }
    d.update(extra)
    return d


genes = [
    gene(1, "TSTA1", "chr1", 10000, 20000, hgnc="HGNC:900001", synonyms=["TSTALPHA"]),
    gene(2, "TST-B", "chr1", 30000, 40000, "-"),
    gene(3, "TSTC", "chr1", 40000, 45000),          # touches TST-B's end
    gene(4, "TSTD", "chr1", 60000, 70000),
    gene(5, "TSTE", "chr1", 60000, 65000),          # same start as TSTD: tie broken by key
    gene(6, "TSTF", "chr2", 5000, 6000),            # alone on chr2; chr3 has no gene
    gene(7, "TSTG", "chr1", 12000, 20000),          # same end as TSTA1: tie broken by key
]
write("genes", genes)


def annotations(base, funseq):
    """FAVOR-style annotations: bravo_af and gnomAD af_* (None = absent)."""
    if base is None:
        return None
    a = {"bravo_af": base, "bravo_an": 264690.0, "funseq_description": funseq, "cadd_phred": 1.5}
    a["af_total"] = round(base * 1.1, 6) if base < 0.9 else base
    a["af_raw"] = a["af_total"]
    a["af_female"] = round(base * 0.9, 6)
    a["af_male"] = round(base * 1.05, 6) if base < 0.9 else base
    for i, p in enumerate(POPS):
        v = round(base * (0.5 + 0.1 * i), 6) if base < 0.5 else base
        a[f"af_{p}"] = v
        a[f"af_{p}_female"] = v
        a[f"af_{p}_male"] = v
    if funseq is None:
        del a["funseq_description"]
    return a


def variant(chr_, pos, ref, alt, rsids, ca, af, funseq, hgvs=None):
    spdi = f"{ACC[chr_]}:{pos}:{ref}:{alt}"
    if hgvs is None:
        hgvs = f"{ACC[chr_]}:g.{pos + 1}{ref}>{alt}"
    d = {
        "_key": spdi, "name": spdi, "chr": chr_, "pos": pos, "ref": ref, "alt": alt,
        "variation_type": "SNP" if len(ref) == len(alt) == 1 else "indel", "spdi": spdi, "hgvs": hgvs,
        "organism": "Homo sapiens", "rsid": rsids, "qual": ".", "ca_id": ca,
        "source": "varcat-testdata", "source_url": URL,
    }
    ann = annotations(af, funseq)
    if ann is not None:
        d["annotations"] = ann
    return d


V = {
    "V1": variant("chr1", 15000, "A", "G", ["rs900001"], "CA800001", 0.1, "coding"),
    "V2": variant("chr1", 15000, "A", "T", ["rs900002", "rs900003"], "CA800002", 0.5, "coding"),
    "V3": variant("chr1", 25000, "C", "T", ["rs900004"], "CA800003", 1.0, "noncoding"),
    "V4": variant("chr1", 25010, "CT", "", ["rs900005"], "CA800004", 0.0, "noncoding",
                  hgvs="NC_000001.11:g.25011_25012del"),
    "V5": variant("chr2", 100, "G", "A", ["rs900004"], "CA800005", None, None),  # shares rs900004 with V3
    "V6": variant("chr2", 10100, "T", "C", ["rs900006"], "CA800006", 0.3, "coding"),
    "V7": variant("chr3", 500, "G", "C", ["rs900007"], "CA800007", 0.2, "noncoding"),
    "V8": variant("chr1", 15500, "", "AAA", ["rs900008"], "CA800008", 0.05, "noncoding",
                  hgvs="NC_000001.11:g.15500_15501insAAA"),
    "V9": variant("chr1", 19999, "C", "G", ["rs900009"], "CA800009", 0.01, "coding"),
}
write("variants", list(V.values()))
write("mm_variants", [
    {"_key": "NC_000067.7:3300000:G:A", "chr": "chr1", "pos": 3300000, "rsid": ["rs580000001"], "ref": "G",
     "alt": "A", "organism": "Mus musculus", "strain": ["129S1_SvImJ", "A_J"], "qual": "999", "filter": "PASS",
     "name": "NC_000067.7:3300000:G:A", "spdi": "NC_000067.7:3300000:G:A", "hgvs": "NC_000067.7:g.3300001G>A",
     "source": "varcat-testdata", "source_url": URL},
])

SCORES = ["SIFT_score", "SIFT4G_score", "Polyphen2_HDIV_score", "Polyphen2_HVAR_score", "VEST4_score",
          "REVEL_score", "MutPred_score", "BayesDel_addAF_score", "BayesDel_noAF_score", "VARITY_R_score",
          "VARITY_ER_score", "VARITY_R_LOO_score", "VARITY_ER_LOO_score", "ESM1b_score", "AlphaMissense_score",
          "CADD_raw_score"]


def coding(key, gene_name, protein, transcript, hgvsp, hgvsc, aapos, ref, alt, sift=None):
    d = {"_key": key, "name": key, "ref": ref, "alt": alt, "aapos": float(aapos), "gene_name": gene_name,
         "protein_name": f"{gene_name.replace('-', '')}_HUMAN", "protein_id": protein, "hgvsc": hgvsc,
         "hgvsp": hgvsp, "refcodon": "ATG", "codonpos": None, "transcript_id": transcript}
    for s in SCORES:
        d[s] = None
    d["SIFT_score"] = sift
    d["REVEL_score"] = 0.25
    d["source"] = "dbNSFP 5.1a"
    d["source_url"] = URL
    return d


CV = {
    "CV1": coding("TSTA1_ENST90000000001_p.M1V_c.1A-G", "TSTA1", "ENSP90000000001", "ENST90000000001", "p.M1V", "c.1A>G", 1, "M", "V", 0.01),
    "CV2": coding("TSTA1_ENST90000000001_p.M1T_c.2T-C", "TSTA1", "ENSP90000000001", "ENST90000000001", "p.M1T", "c.2T>C", 1, "M", "T"),
    "CV3": coding("TSTA1_ENST90000000001_p.M1!_c.3G-A", "TSTA1", "ENSP90000000001", "ENST90000000001", "p.M1?", "c.3G>A", 1, "M", "I"),
    "CV4": coding("TSTA1_ENST90000000002_p.R3W_c.7C-T", "TSTA1", "ENSP90000000002", "ENST90000000002", "p.R3W", "c.7C>T", 3, "R", "W"),
    "CV5": coding("TST-B_ENST90000000003_p.G2D_c.5G-A", "TST-B", "ENSP90000000003", "ENST90000000003", "p.G2D", "c.5G>A", 2, "G", "D"),
    "CV6": coding("TSTA1_ENST90000000001_p.W10*_c.30G-A", "TSTA1", "ENSP90000000001", "ENST90000000001", "p.W10*", "c.30G>A", 10, "W", "*"),
}
write("coding_variants", list(CV.values()))


def vcv(vkey, cvkey):
    v = V.get(vkey)
    chr_, pos, ref, alt = (v["chr"][3:], float(v["pos"]), v["ref"], v["alt"]) if v else ("1", 99999.0, "A", "C")
    from_key = v["_key"] if v else "NC_000001.11:99999:A:C"
    return {"_from": f"variants/{from_key}", "_to": f"coding_variants/{CV[cvkey]['_key']}",
            "_key": f"{from_key}_{CV[cvkey]['_key']}", "source": "dbNSFP 5.1a", "source_url": URL,
            "name": "codes for", "inverse_name": "encoded by", "chr": chr_, "pos": pos, "ref": ref, "alt": alt}


write("variants_coding_variants", [
    vcv("V1", "CV1"), vcv("V1", "CV2"), vcv("V2", "CV2"), vcv("V9", "CV6"), vcv("V3", "CV5"),
    vcv("MISSING", "CV5"),  # a linked variant the catalog lacks
    vcv("V8", "CV4"),
])


def cvp(n, cvkey, method, member, score, files=None, url=URL):
    d = {"_key": f"CVP{n:03d}", "_from": f"coding_variants/{CV[cvkey]['_key'] if cvkey in CV else cvkey}",
         "_to": "ontology_terms/OBA_9000001", "method": method, "class": "observed data",
         "label": "protein variant effect", "name": "has phenotype", "inverse_name": "phenotype of",
         "source": "IGVF", "source_url": f"{url}/{method}", "files_filesets": files,
         "biosample_term": None, "biological_context": None, member: score}
    return d


write("coding_variants_phenotypes", [
    cvp(1, "CV1", "ESM-1v", "esm_1v_score", -3.2),
    cvp(2, "CV1", "MutPred2", "pathogenicity_score", 0.71),
    cvp(3, "CV1", "SGE", "score", 0.0),  # a score of 0 is a score
    cvp(4, "CV2", "VAMP-seq", "score", 0.9, files="files_filesets/IGVFFI9000TEST"),
    cvp(5, "CV2", "ESM-1v", "esm_1v_score", -1.1),
    cvp(6, "CV4", "DUAL-IPA", "dualipa_abun_score", 0.3),
    cvp(7, "CV5", "Variant painting via fluorescence", "localization_score", 0.5),
    cvp(8, "CV6", "ESM-1v", "esm_1v_score", -7.5, files="files_filesets/IGVFFI9000TEST"),
    cvp(9, "TSTZ_ENST99_p.A1B_c.1A-C", "ESM-1v", "esm_1v_score", -2.0),  # dangling coding variant
])

K = {k: v["_key"] for k, v in V.items()}
G = {g["name"]: f"genes/{g['_key']}" for g in genes}


def eqtl(n, vk, gname, label="eQTL", pval=5.0, beta=0.4, context="lymphoblastoid cell line"):
    d = {"_key": f"VG{n:03d}", "_from": f"variants/{K[vk]}", "_to": G[gname], "chr": V[vk]["chr"],
         "neg_log10_pvalue": pval, "p_value": 10 ** -pval, "effect_size": beta, "source": "AFGR",
         "class": "observed data", "method": label, "label": label, "source_url": URL,
         "files_filesets": "files_filesets/IGVFFI9000AFGR", "biological_context": context,
         "biosample_term": "ontology_terms/EFO_0002784", "biological_process": "ontology_terms/GO_0010468",
         "name": "modulates expression of" if label == "eQTL" else "modulates splicing of",
         "inverse_name": "expression modulated by" if label == "eQTL" else "splicing modulated by"}
    if label == "spliceQTL":
        d.update({"intron_chr": V[vk]["chr"], "intron_start": "14000", "intron_end": "14900"})
    return d


write("variants_genes", [
    eqtl(1, "V1", "TSTA1"), eqtl(2, "V1", "TSTG", pval=3.0, beta=-0.2),
    eqtl(3, "V1", "TSTA1", label="spliceQTL", pval=7.5, beta=1.2),
    eqtl(4, "V2", "TSTG", pval=2.0, beta=0.1, context="K562"),
    eqtl(5, "V3", "TST-B", pval=4.5, beta=0.3, context="naive B cell"),
    eqtl(6, "V9", "TSTA1", label="spliceQTL", pval=1.5, beta=-9.5, context="HepG2 (hepatoblastoma)"),
    # IGVF Variant-EFFECTS shape.
    {"_key": "VG007", "_from": f"variants/{K['V2']}", "_to": G["TSTA1"], "effect_size": -0.3, "log2FC": -0.45,
     "neg_log10_pvalue": 6.0, "neg_log10_pvalue_adj": 5.5, "power": 0.9, "posterior_inclusion_probability": None,
     "coefficient_stddev": None, "significant": True, "class": "observed data",
     "label": "variant effect on gene expression", "name": "modulates expression of",
     "inverse_name": "expression modulated by", "source": "IGVF", "files_filesets": "files_filesets/IGVFFI9000VEF",
     "method": "Variant-EFFECTS", "crispr_modality": "prime editing", "biological_context": "K562",
     "biosample_term": "ontology_terms/EFO_0002067", "treatments_term_ids": None, "source_url": URL},
    # EBI (eQTL Catalogue) shape, with a study.
    {"_key": "VG008", "_from": f"variants/{K['V3']}", "_to": G["TST-B"], "study": "studies/QTS900001",
     "molecular_trait_id": "ENSG90000000002", "gene_id": "ENSG90000000002", "credible_set_id": "cs1",
     "variant_chromosome_position_ref_alt": "chr1_25000_C_T", "rsid": "rs900004", "credible_set_size": 3,
     "p_value": 1e-6, "neg_log10_pvalue": 6.0, "effect_size": 0.5, "standard_error": 0.05, "z_score": 10.0,
     "credible_set_min_r2": 0.9, "posterior_inclusion_probability": 0.8, "region": "chr1:24000-26000",
     "source": "EBI", "source_url": URL, "files_filesets": "files_filesets/IGVFFI9000EBI", "label": "eQTL",
     "method": "eQTL", "class": "observed data", "name": "modulates expression of",
     "inverse_name": "expression modulated by", "biological_context": "naive B cell",
     "biosample_term": "ontology_terms/CL_0000788"},
])
write("studies", [
    {"_key": "QTS900001", "name": "TestStudy_2026", "pmid": "900001", "study_type": "bulk", "source": "EBI",
     "source_url": URL, "files_filesets": "files_filesets/IGVFFI9000EBI"},
    {"_key": "GCST900001", "name": "test trait GWAS", "pmid": "900002", "study_type": "gwas", "source": "OpenTargets",
     "source_url": URL, "files_filesets": "files_filesets/IGVFFI9000GWAS", "ancestry_initial": "European=10000",
     "ancestry_replication": "", "n_cases": "5000", "n_initial": "10000", "n_replication": "0",
     "pub_author": "Tester A", "pub_date": "2026-01-01", "pub_journal": "J Test", "pub_title": "A test GWAS",
     "has_sumstats": "True", "num_assoc_loci": "1", "study_source": "GCST", "trait_reported": "test trait",
     "trait_efos": "EFO_0000001", "trait_category": "measurement", "version": "October 2022 (22.10)"},
])
write("proteins", [
    {"_key": f"ENSP9000000000{n}", "name": "TSTA1", "protein_id": f"ENSP9000000000{n}.1", "MANE_Select": n == 1,
     "source": "varcat-testdata", "version": "v1", "source_url": URL, "organism": "Homo sapiens",
     "uniprot_collection": "Swiss-Prot", "uniprot_ids": ["Q90001"], "uniprot_names": ["TSTA1_HUMAN"],
     "dbxrefs": [{"name": "HGNC", "id": "HGNC:900001"}], "uniprot_full_names": ["Test protein A1"]}
    for n in (1, 2)
])
def asb(n, vk, motif, conc, context, source="ADASTRA"):
    return {"_key": f"VP{n:03d}", "_from": f"variants/{K[vk]}", "_to": "proteins/ENSP00000262053",
            "motif": motif, "motif_conc": conc, "label": "allele-specific binding", "method": source,
            "class": "observed data", "source": source, "source_url": URL,
            "files_filesets": "files_filesets/IGVFFI9000ASB", "biological_context": context,
            "biosample_term": "ontology_terms/EFO_0001187", "name": "modulates binding of",
            "inverse_name": "binding modulated by", "neg_log10_pvalue_adj_ref": 2.0}


write("variants_proteins", [
    asb(2, "V2", "motifs/ATF1_HUMAN_HOCOMOCOv11", "Concordant", "HepG2 (hepatoblastoma)"),
    asb(3, "V2", "motifs/ATF1_HUMAN_HOCOMOCOv11", "Discordant", "K562"),
    asb(4, "V2", "motifs/ATF1_HUMAN_HOCOMOCOv11", "No Hit", "K562"),  # no motif hit: not counted
    asb(5, "V2", "motifs/CTCF_HUMAN_HOCOMOCOv11", "Concordant", None, source="GVATdb"),
    # GVATdb as its adapter writes it: no motif, no motif_conc, no cell type (counted under "").
    {"_key": "VP006", "_from": f"variants/{K['V2']}", "_to": "proteins/ENSP90000000001",
     "p_value": 0.01, "neg_log10_pvalue": 2.0, "experiment": "FL.6.0.G12", "pbs": 2.7,
     "source": "GVATdb", "source_url": "https://renlab.sdsc.edu/GVATdb/", "label": "allele-specific binding",
     "method": "GVATdb", "class": "observed data", "files_filesets": "files_filesets/IGVFFI8897VGII",
     "name": "modulates binding of", "inverse_name": "binding modulated by",
     "biological_process": "ontology_terms/GO_0051101"},
    {"_key": "VP001", "_from": f"variants/{K['V1']}", "_to": "proteins/ENSP90000000001", "label": "pQTL",
     "method": "pQTL", "class": "observed data", "source": "UKB", "source_url": URL,
     "files_filesets": "files_filesets/IGVFFI9000UKB", "biological_context": "blood plasma",
     "biosample_term": "ontology_terms/UBERON_0001969", "name": "associated with levels of",
     "inverse_name": "level associated with", "neg_log10_pvalue": 12.0, "beta": 0.3, "se": 0.01},
    # SEMVAR binding of a complex TSTA1's protein belongs to (/proteins/variants finds it through
    # the complex).
    {"_key": "VP007", "_from": f"variants/{K['V2']}", "_to": "complexes/CPX-9001",
     "label": "predicted allele-specific binding", "method": "SEMVAR", "class": "prediction", "source": "IGVF",
     "source_url": URL, "files_filesets": "files_filesets/IGVFFI9000SEM", "biological_context": None,
     "biosample_term": None, "motif": "motifs/TSTA1_SEMpl", "SEMpl_annotation": "binding ablated",
     "SEMpl_baseline": -0.5, "alt_score": -1.2, "ref_score": 0.4, "p_value": 0.002,
     "name": "modulates binding of", "inverse_name": "binding modulated by"},
])
def vge(n, from_, to, context, pval):
    return {"_key": f"VE{n:03d}", "_from": from_, "_to": to, "label": "caQTL", "method": "caQTL",
            "class": "observed data", "source": "ENCODE", "source_url": URL,
            "files_filesets": "files_filesets/IGVFFI9000ENC", "biological_context": context,
            "biosample_term": "ontology_terms/EFO_0002067", "name": "modulates accessibility of",
            "inverse_name": "accessibility modulated by", "neg_log10_pvalue": pval, "p_value": 10 ** -pval, "log2FC": 0.8}


write("variants_genomic_elements", [
    vge(2, f"variants/{K['V1']}", "genomic_elements/TSTELEMENT2_chr1_14900_15100", "K562", 3.0),
    vge(3, f"variants/{K['V2']}", "genomic_elements/TSTELEMENT2_chr1_14900_15100", "HepG2", 2.0),
    vge(4, "variants/NC_000001.11:99999:A:C", "genomic_elements/TSTELEMENT_chr1_24900_25100", "K562", 5.0),
    vge(5, f"variants/{K['V9']}", "genomic_elements/TSTMISSING_chr1_19000_20000", "K562", 1.0),
    {"_key": "VE001", "_from": f"variants/{K['V3']}", "_to": "genomic_elements/TSTELEMENT_chr1_24900_25100",
     "label": "caQTL", "method": "caQTL", "class": "observed data", "source": "AFGR", "source_url": URL,
     "files_filesets": "files_filesets/IGVFFI9000CAQ", "biological_context": "lymphoblastoid cell line",
     "biosample_term": "ontology_terms/EFO_0002784", "name": "modulates accessibility of",
     "inverse_name": "accessibility modulated by", "neg_log10_pvalue": 4.0, "p_value": 1e-4, "beta": 0.5},
])
write("variants_phenotypes", [
    {"_key": "VPH002", "_from": f"variants/{K['V2']}", "_to": "ontology_terms/EFO_9000002", "label": "variant effect on phenotype",
     "method": "CRISPR screen", "class": "observed data", "source": "IGVF", "source_url": URL,
     "files_filesets": "files_filesets/IGVFFI9000CRS", "biological_context": "K562",
     "biosample_term": "ontology_terms/EFO_0002067", "name": "modulates", "inverse_name": "modulated by",
     "effect_size": -1.2, "z_score": -3.1, "significant": True, "num_guides": 4, "edit_rate_mean": 0.6,
     "effect_size_ci95_lower": -1.5, "effect_size_ci95_upper": -0.9, "crispr_modality": "base editing"},
    {"_key": "VPH003", "_from": f"variants/{K['V9']}", "_to": "ontology_terms/OBA_9000001", "label": "protein variant effect",
     "method": "SGE", "class": "observed data", "source": "IGVF", "source_url": URL,
     "files_filesets": "files_filesets/IGVFFI9000SGE", "biological_context": "HAP1",
     "biosample_term": "ontology_terms/EFO_0007598", "name": "has phenotype", "inverse_name": "phenotype of",
     "score": -2.5},
    {"_key": "VPH004", "_from": f"variants/{K['V3']}", "_to": "ontology_terms/EFO_9000003", "label": "predicted variant effect on phenotype",
     "method": "cV2F", "class": "prediction", "source": "IGVF", "source_url": URL,
     "files_filesets": "files_filesets/IGVFFI9000CV2", "biological_context": None, "biosample_term": None,
     "name": "predicted to affect", "inverse_name": "predicted to be affected by", "score": 0.0},
    {"_key": "VPH005", "_from": "variants/NC_000001.11:99999:A:C", "_to": "ontology_terms/EFO_0000001", "label": "GWAS",
     "method": "GWAS", "class": "observed data", "source": "OpenTargets", "source_url": URL,
     "files_filesets": "files_filesets/IGVFFI9000GWAS", "name": "associated with", "inverse_name": "associated with",
     "neg_log10_pvalue": 8.0, "p_value": 1e-8, "phenotype_term": "test trait", "study": "studies/GCST900001",
     "lead_chrom": "1", "lead_pos": 99999, "lead_ref": "A", "lead_alt": "C", "direction": "+", "beta": 0.1,
     "beta_ci_lower": 0.05, "beta_ci_upper": 0.15, "oddsr_ci_lower": None, "oddsr_ci_upper": None},
    {"_key": "VPH001", "_from": f"variants/{K['V1']}", "_to": "ontology_terms/EFO_0000001", "label": "GWAS",
     "method": "GWAS", "class": "observed data", "source": "OpenTargets", "source_url": URL,
     "files_filesets": "files_filesets/IGVFFI9000GWAS", "name": "associated with",
     "inverse_name": "associated with", "neg_log10_pvalue": 9.0, "p_value": 1e-9,
     "phenotype_term": "test trait", "study": "studies/GCST900001", "version": "October 2022 (22.10)",
     "lead_chrom": "1", "lead_pos": 15000, "lead_ref": "A", "lead_alt": "G", "direction": "+", "beta": 0.2,
     "beta_ci_lower": 0.1, "beta_ci_upper": 0.3, "oddsr_ci_lower": 1.1, "oddsr_ci_upper": 1.3},
])

def term(key, name, **extra):
    d = {"_key": key, "uri": f"http://purl.obolibrary.org/obo/{key}", "term_id": key, "name": name,
         "synonyms": None, "description": None, "source": "varcat-testdata", "source_url": URL}
    d.update(extra)
    return d


# An ontology slice: VCT_0000001..VCT_0000300 as a subclass tree (node k's children are
# 3k-1, 3k and 3k+1), "part of" shortcuts, cross-references to terms the catalog lacks, a
# diamond (VCT_0000301 is a subclass of both VCT_0000005 and VCT_0000006) and a "part of"
# cycle (VCT_0000310 -> 311 -> 312 -> 310, attached to the tree at VCT_0000300).
def vct(n):
    return f"VCT_{n:07d}"


slice_terms = []
for n in range(1, 313):
    if 300 < n < 310 and n != 301:
        continue
    extra = {"subontology": "test", "class": "ontology term", "method": None, "files_filesets": "files_filesets/IGVFFI9000ONT"}
    if n % 7 == 0:
        extra["synonyms"] = [f"synonym {n}", f"alias {n}"]
    if n % 5 == 0:
        extra["description"] = f"Test term {n}, for closure tests."
    slice_terms.append(term(vct(n), f"test term {n}", **extra))
slice_terms.append(term("CVCL_T001", "test cell line", subontology="cell line"))


def rel(a, b, name, inverse):
    return {"_key": f"{a}_{name.replace(' ', '_')}_{b}", "_from": f"ontology_terms/{a}", "_to": f"ontology_terms/{b}",
            "name": name, "inverse_name": inverse, "source": "varcat-testdata", "source_url": URL,
            "class": "ontology relationship", "method": None, "files_filesets": "files_filesets/IGVFFI9000ONT"}


relations = []
for n in range(2, 301):
    relations.append(rel(vct(n), vct((n + 1) // 3), "subclass", "superclass"))
for n in range(25, 301, 25):
    relations.append(rel(vct(n), vct(n // 25), "part of", "has part"))
for n in range(3, 301, 40):
    relations.append(rel(vct(n), f"Wikidata_Q{900000 + n}", "database cross-reference", "database cross-reference"))
relations += [
    rel(vct(301), vct(5), "subclass", "superclass"),
    rel(vct(301), vct(6), "subclass", "superclass"),
    rel(vct(310), vct(311), "part of", "has part"),
    rel(vct(311), vct(312), "part of", "has part"),
    rel(vct(312), vct(310), "part of", "has part"),
    rel(vct(310), vct(300), "derives from", "derived into"),
    rel("CVCL_T001", vct(3), "subclass", "superclass"),
    rel(vct(300), "VCT_9999999", "subclass", "superclass"),  # the parent is missing: not a child row
]
write("ontology_terms_ontology_terms", relations)

write("ontology_terms", [
    term("EFO_0000001", "test trait", synonyms=["trait one"], description="A trait for tests."),
    term("EFO_9000002", "cell fitness"),
    term("EFO_9000003", "test predicted phenotype"),
    term("OBA_9000001", "protein function"),
    term("MONDO_9000001", "test disease one", description="A disease for tests."),
    term("MONDO_9000002", "test disease two"),
    term("MONDO_9000003", "Rare test syndrome type 2"),
    term("EFO_0002067", "K562", synonyms=["K-562"]),
    term("GO_9000001", "test receptor signaling process", subontology="biological_process"),
    term("GO_9000002", "test membrane compartment", subontology="cellular_component"),
] + slice_terms)

def dg_gencc(n, disease, gene, term_name, classification):
    g = next(x for x in genes if x["name"] == gene)
    return {"_key": f"SGC-900{n}_{g['_key']}", "_from": f"ontology_terms/{disease}", "_to": f"genes/{g['_key']}",
            "sgc_id": f"SGC-900{n}.1", "name": "associated_with", "inverse_name": "associated_with",
            "hgnc": g.get("hgnc"), "gene_symbol": gene, "term_name": term_name, "classification": classification,
            "moi_id": "HP:0000006", "moi_name": "Autosomal dominant", "submitter": "Test Lab",
            "pmids": ["900031"], "source": "GenCC", "source_url": URL, "class": "observed data", "method": "GenCC",
            "label": "GenCC", "files_filesets": "files_filesets/IGVFFI9000GCC"}


def dg_orpha(n, disease, gene, term_name):
    g = next(x for x in genes if x["name"] == gene)
    return {"_key": f"Orphanet_900{n}_{g['_key']}", "_from": f"ontology_terms/{disease}", "_to": f"genes/{g['_key']}",
            "name": "associated_with", "inverse_name": "associated_with", "pmids": ["900032"], "term_name": term_name,
            "gene_symbol": gene, "association_type": "Disease-causing germline mutation(s) in",
            "association_status": "Assessed", "source": "Orphanet", "source_url": URL, "class": "observed data",
            "method": "Orphanet", "label": "Orphanet", "files_filesets": "files_filesets/IGVFFI9000ORP"}


write("diseases_genes", [
    dg_gencc(1, "MONDO_9000001", "TSTA1", "test disease one", "Definitive"),
    dg_orpha(2, "MONDO_9000001", "TST-B", "test disease one"),
    dg_orpha(3, "MONDO_9000002", "TSTA1", "test disease two"),
    dg_gencc(4, "MONDO_9000003", "TSTC", "Rare test syndrome type 2", "Moderate"),
])
write("variants_diseases_genes", [
    {"_key": "VDG001", "_from": "variants_diseases/VDI001", "_to": G["TSTA1"],
     "inheritance_mode": "Autosomal dominant inheritance", "name": "associated with", "inverse_name": "associated with",
     "source": "ClinGen", "source_url": URL, "class": "observed data", "method": "ClinGen", "label": "ClinGen",
     "files_filesets": "files_filesets/IGVFFI9000CLG"},
])

def pathway(key, name, aliases, disease=False, top=False, diseases=None, go=None):
    return {"_key": key, "name": name, "organism": "Homo sapiens", "source": "Reactome", "source_url": URL,
            "class": "biological relationship", "method": None, "label": None,
            "files_filesets": "files_filesets/IGVFFI9000RCT", "id_version": f"{key}.1", "is_in_disease": disease,
            "name_aliases": aliases, "is_top_level_pathway": top, "disease_ontology_terms": diseases,
            "go_biological_process": go}


write("pathways", [
    pathway("R-HSA-9000001", "Signaling by test receptor", ["Test receptor signaling"], top=True,
            go="ontology_terms/GO_9000001"),
    pathway("R-HSA-9000002", "Test receptor disease", ["TRD", "Test receptor disease"], disease=True,
            diseases=["ontology_terms/MONDO_9000001", "ontology_terms/MONDO_9000002"], go="ontology_terms/GO_9000001"),
    pathway("R-HSA-9000003", "Glycosylation of test proteins", ["Test glycosylation"]),
])

write("motifs", [
    {"_key": "TSTA1_HUMAN_HOCOMOCOv11", "name": "TSTA1_HUMAN_HOCOMOCOv11", "tf_name": "TSTA1_HUMAN",
     "source": "HOCOMOCOv11", "source_url": URL, "pwm": [["0.1", "0.2", "0.3", "0.4"], ["0.4", "0.3", "0.2", "0.1"]],
     "length": 2, "class": "observed data", "method": "HOCOMOCO", "files_filesets": "files_filesets/IGVFFI9000MOT"},
    {"_key": "TSTA1_SEMpl", "name": "TSTA1_SEMpl", "tf_name": "TSTA1", "source": "IGVF", "source_url": URL,
     "pwm": [["1", "0", "0", "0"]], "length": 1, "class": "prediction", "method": "SEMpl",
     "files_filesets": "files_filesets/IGVFFI9000SEM", "baseline": 0.5},
])
write("complexes", [
    {"_key": "CPX-9001", "name": "TSTA1-TSTB complex", "alias": ["TST complex"], "molecules": ["Q90001(1)", "Q90002(1)"],
     "evidence_code": "ECO:0000353", "experimental_evidence": None, "description": "A complex for tests.",
     "complex_assembly": "Heterodimer", "complex_source": "varcat-testdata", "reactome_xref": [],
     "source": "EBI", "source_url": URL, "class": "biological relationship", "method": None, "label": None,
     "files_filesets": "files_filesets/IGVFFI9000CPX"},
])
write("motifs_proteins", [
    {"_key": "TSTA1_HUMAN_HOCOMOCOv11_ENSP90000000001", "_from": "motifs/TSTA1_HUMAN_HOCOMOCOv11",
     "_to": "proteins/ENSP90000000001", "name": "is used by", "inverse_name": "uses", "source": "HOCOMOCOv11",
     "source_url": URL, "class": "observed data", "method": "HOCOMOCO", "files_filesets": "files_filesets/IGVFFI9000MOT",
     "biological_process": "ontology_terms/GO_0003677"},
    {"_key": "TSTA1_SEMpl_CPX-9001", "_from": "motifs/TSTA1_SEMpl", "_to": "complexes/CPX-9001", "name": "is used by",
     "inverse_name": "uses", "source": "IGVF", "source_url": URL, "class": "prediction", "method": "SEMpl",
     "files_filesets": "files_filesets/IGVFFI9000SEM"},
    {"_key": "TSTA1_SEMpl_CPX-9999", "_from": "motifs/TSTA1_SEMpl", "_to": "complexes/CPX-9999", "name": "is used by",
     "inverse_name": "uses", "source": "IGVF", "source_url": URL, "class": "prediction", "method": "SEMpl",
     "files_filesets": "files_filesets/IGVFFI9000SEM"},
])

write("variants_drugs", [
    {"_key": "VD001", "_from": f"variants/{K['V1']}", "_to": "drugs/PA451906", "gene_symbol": ["TSTA1"],
     "pmid": "900011", "study_parameters": [{"study_parameter_id": "SP900001", "study_type": "cohort",
     "study_cases": "120", "study_controls": "300", "p-value": "= 0.001", "biogeographical_groups": "European"}],
     "phenotype_categories": ["Efficacy", "Toxicity"], "name": "associated with", "inverse_name": "associated with",
     "source": "pharmGKB", "source_url": URL, "class": "observed data", "method": "PharmGKB",
     "files_filesets": "files_filesets/IGVFFI9000PGK"},
    {"_key": "VD002", "_from": f"variants/{K['V2']}", "_to": "drugs/PA999999", "gene_symbol": [],
     "pmid": "900012", "study_parameters": [], "phenotype_categories": ["Dosage"], "name": "associated with",
     "inverse_name": "associated with", "source": "pharmGKB", "source_url": URL, "class": "observed data",
     "method": "PharmGKB", "files_filesets": "files_filesets/IGVFFI9000PGK"},
    {"_key": "VD003", "_from": f"variants/{K['V1']}", "_to": "drugs/PA451906", "gene_symbol": ["TSTA1", "TSTG"],
     "pmid": "900013", "study_parameters": [], "phenotype_categories": ["Dosage", "Metabolism/PK"],
     "name": "associated with", "inverse_name": "associated with", "source": "pharmGKB", "source_url": URL,
     "class": "observed data", "method": "PharmGKB", "files_filesets": "files_filesets/IGVFFI9000PGK"},
])

write("variants_diseases", [
    {"_key": "VDI001", "_from": f"variants/{K['V1']}", "_to": "ontology_terms/MONDO_9000001",
     "gene_id": G["TSTA1"], "assertion": "Pathogenic",
     "pmids": ["http://pubmed.ncbi.nlm.nih.gov/900021", "http://pubmed.ncbi.nlm.nih.gov/900022"],
     "name": "associated with", "inverse_name": "associated with", "source": "ClinGen", "source_url": URL,
     "class": "observed data", "method": "ClinGen", "label": "ClinGen", "files_filesets": "files_filesets/IGVFFI9000CLG"},
    {"_key": "VDI002", "_from": f"variants/{K['V3']}", "_to": "ontology_terms/MONDO_9000002",
     "gene_id": "genes/ENSG99999999999", "assertion": "Benign", "pmids": [],
     "name": "associated with", "inverse_name": "associated with", "source": "ClinGen", "source_url": URL,
     "class": "observed data", "method": "ClinGen", "label": "ClinGen", "files_filesets": "files_filesets/IGVFFI9000CLG"},
    {"_key": "VDI003", "_from": f"variants/{K['V6']}", "_to": "ontology_terms/MONDO_9000001",
     "gene_id": G["TSTF"], "assertion": "Likely Pathogenic", "pmids": ["http://pubmed.ncbi.nlm.nih.gov/900021"],
     "name": "associated with", "inverse_name": "associated with", "source": "ClinGen", "source_url": URL,
     "class": "observed data", "method": "ClinGen", "label": "ClinGen", "files_filesets": "files_filesets/IGVFFI9000CLG"},
])


def element(key, chr_, start, end, type_):
    return {"_key": key, "name": key.split("_")[0], "chr": chr_, "start": start, "end": end,
            "source_annotation": "test element", "method": "varcat-testdata", "type": type_,
            "source": "varcat-testdata", "source_url": URL, "files_filesets": "files_filesets/IGVFFI9000ELE"}


E1 = "TSTELEMENT_chr1_24900_25100"
E2 = "TSTELEMENT2_chr1_14900_15100"
E3 = "TSTELEMENT3_chr1_14990_15000"
EP = "TSTPROMOTER_chr1_14950_15050"
EPK = "TSTPEAK_chr1_50000_50400"


def geb(n, elem, term_key, log2fc, significant, source="ENCODE"):
    return {"_key": f"GEB{n:03d}", "_from": f"genomic_elements/{elem}", "_to": f"ontology_terms/{term_key}",
            "strand": "+", "log2FC": log2fc, "bed_score": 100, "DNA_count": 1.5, "RNA_count": 2.5,
            "neg_log10_pvalue": 2.0 if significant else None, "neg_log10_pvalue_adj": 1.5 if significant else None,
            "significant": significant, "class": "observed data", "label": "regulatory element activity",
            "name": "expression effect in", "inverse_name": "has expression effect from", "method": "MPRA",
            "source": source, "source_url": URL, "files_filesets": f"files_filesets/IGVFFI9000MP{n}",
            "biological_context": "K562", "biosample_term": f"ontology_terms/{term_key}", "treatments_term_ids": None}


write("genomic_elements_biosamples", [
    geb(1, E1, "EFO_0002067", 1.2, True),
    geb(2, E2, "EFO_0002067", -0.4, False, source="IGVF"),
    geb(3, E3, "CL_9999999", 0.1, False),  # biosample term missing
])
write("genomic_elements", [
    element(E1, "chr1", 24900, 25100, "accessible dna elements"),
    element(E2, "chr1", 14900, 15100, "candidate cis regulatory element"),
    element(E3, "chr1", 14990, 15000, "tested elements"),  # ends where V1 and V2 start: contains neither
    # TSTA1's promoter, perturbed in a Perturb-seq screen; contains V1 and V2 (position 15000).
    dict(element(EP, "chr1", 14950, 15050, "accessible dna elements"), method="Perturb-seq",
         promoter_of=G["TSTA1"]),
    # A peak whose accessibility perturbing TSTA1's promoter changes (Multiome Perturb-seq).
    dict(element(EPK, "chr1", 50000, 50400, "accessible dna elements"), method="Multiome Perturb-seq"),
])


def e2g(n, elem, gname, method, score, cell=None, files="files_filesets/IGVFFI9000E2G"):
    return {"_key": f"EG{n:03d}", "_from": f"genomic_elements/{elem}", "_to": G.get(gname, f"genes/{gname}"),
            "method": method, "label": "predicted regulatory element effect on gene expression",
            "class": "prediction", "score": score, "source": "ENCODE", "source_url": f"{URL}/{method}",
            "files_filesets": files, "biological_context": "K562", "cell_annotation": cell,
            "biosample_term": "ontology_terms/EFO_0002067", "name": "regulates", "inverse_name": "regulated by"}


def perturb(n, gname, label, log2fc, padj, significant):
    return {"_key": f"EG{n:03d}", "_from": f"genomic_elements/{EP}", "_to": G[gname], "method": "Perturb-seq",
            "label": label, "class": "observed data", "log2FC": log2fc, "effect_size": log2fc,
            "p_value": 10 ** -(padj + 0.5), "p_value_adj": 10 ** -padj, "neg_log10_pvalue": padj + 0.5,
            "neg_log10_pvalue_adj": padj, "significant": significant, "crispr_modality": "interference",
            "source": "IGVF", "source_url": f"{URL}/Perturb-seq", "files_filesets": "files_filesets/IGVFFI9000PSQ",
            "biological_context": "K562", "biosample_term": "ontology_terms/EFO_0002067", "treatments_term_ids": None,
            "cell_annotation_term": None, "name": "modulates expression of", "inverse_name": "expression modulated by"}


write("genomic_elements_genes", [
    e2g(1, E1, "TST-B", "ENCODE-rE2G", 0.4),
    e2g(2, E1, "TSTA1", "scE2G", 0.2, cell="T cell", files="files_filesets/IGVFFI9000SCE"),
    e2g(3, E1, "TSTC", "CRISPR screen", 0.9),            # not a prediction method: excluded by default
    e2g(4, E2, "TSTA1", "ENCODE-rE2G", 0.7),
    e2g(5, E2, "ENSG99999999998", "ENCODE-rE2G", 0.5),   # target gene missing: row dropped
    e2g(6, E3, "TSTA1", "ENCODE-rE2G", 0.1),
    # Perturb-seq of TSTA1's promoter: the response gene and the perturbation efficiency (same file set).
    perturb(7, "TST-B", "variant effect on gene expression", -0.8, 4.2, True),
    perturb(8, "TSTA1", "perturbation efficiency", -2.1, 9.0, True),
])


def ld(n, a, b, ancestry, r2, dp, pairs=True):
    ka = K.get(a, a)
    kb = K.get(b, b)
    d = {"_key": f"LD{n:03d}", "_from": f"variants/{ka}", "_to": f"variants/{kb}", "chr": "chr1",
         "ancestry": ancestry, "r2": r2, "d_prime": dp, "negated": False, "label": "linkage disequilibrium",
         "name": "correlated with", "inverse_name": "correlated with", "source": "TopLD", "source_url": URL}
    if pairs:
        # TopLD's members: the base pair as chr:pos(1-based):ref:alt and the first rsid.
        for i, (k, key) in enumerate(((a, ka), (b, kb)), 1):
            v = V.get(k)
            d[f"variant_{i}_base_pair"] = (f"{v['chr']}:{v['pos'] + 1}:{v['ref']}:{v['alt']}" if v
                                           else "chr1:100000:A:C")
            d[f"variant_{i}_rsid"] = v["rsid"][0] if v else "rs900099"
    return d


write("variants_variants", [
    ld(1, "V1", "V2", "EUR", 0.8, 0.9),
    ld(2, "V3", "V1", "AFR", 0.5, 0.7),
    ld(3, "V1", "NC_000001.11:99999:A:C", "SAS", 0.3, 0.4),  # partner missing from the catalog
    ld(4, "V5", "V6", "EAS", 0.95, 1.0),
    ld(5, "V2", "V9", "EUR", 0.2, 0.5, pairs=False),  # no TopLD pair members: answers fill ""
])
write("variants_biosamples", [
    {"_key": "VB001", "_from": f"variants/{K['V2']}", "_to": "ontology_terms/CL_0000001", "label": "variant effect",
     "method": "MPRA", "class": "observed data", "source": "IGVF", "source_url": URL,
     "files_filesets": "files_filesets/IGVFFI9000MPRA", "biological_context": "K562",
     "biosample_term": "ontology_terms/CL_0000001", "name": "has regulatory activity in",
     "inverse_name": "regulatory activity of", "log2FC": 1.5, "neg_log10_pvalue": 3.0, "significant": True},
    # STARR-seq as its adapter writes it: input*/output* counts (stored as DNA_/RNA_count_*).
    {"_key": "VB002", "_from": f"variants/{K['V1']}", "_to": "ontology_terms/EFO_0002067", "label": "variant effect",
     "method": "STARR-seq", "class": "observed data", "source": "IGVF", "source_url": URL,
     "files_filesets": "files_filesets/IGVFFI9000STR", "biological_context": "K562",
     "biosample_term": "ontology_terms/EFO_0002067", "name": "has regulatory activity in",
     "inverse_name": "regulatory activity of", "log2FC": -0.7, "inputCountRef": 120.0, "outputCountRef": 80.0,
     "inputCountAlt": 110.0, "outputCountAlt": 45.0, "postProbEffect": 0.93, "CI_lower_95": -1.1,
     "CI_upper_95": -0.3, "significant": True, "treatments_term_ids": None},
    # MPRA naming the tested element.
    {"_key": "VB003", "_from": f"variants/{K['V3']}", "_to": "ontology_terms/EFO_0002067", "label": "variant effect",
     "method": "MPRA", "class": "observed data", "source": "IGVF", "source_url": URL,
     "files_filesets": "files_filesets/IGVFFI9000MPRA", "biological_context": "K562",
     "biosample_term": "ontology_terms/EFO_0002067", "name": "has regulatory activity in",
     "inverse_name": "regulatory activity of", "genomic_element": f"genomic_elements/{E1}", "strand": "+",
     "bed_score": 200, "log2FC": 0.4, "DNA_count_ref": 30.0, "RNA_count_ref": 40.0, "DNA_count_alt": 28.0,
     "RNA_count_alt": 52.0, "neg_log10_pvalue": 1.2, "neg_log10_pvalue_adj": 0.8, "significant": False},
])

# Transcripts of TSTA1 and TST-B (the ids the coding variants name), their genes and proteins.
def transcript(n, gname, chr_, start, end, strand="+"):
    g = next(x for x in genes if x["name"] == gname)
    return {"_key": f"ENST9000000000{n}", "transcript_id": f"ENST9000000000{n}.1",
            "name": f"{gname}-20{n}", "transcript_type": "protein_coding", "chr": chr_, "start": start, "end": end,
            "strand": strand, "gene_name": gname, "source": "varcat-testdata", "version": "v1",
            "source_url": URL, "organism": "Homo sapiens", "_gene": g["_key"]}


TX = [transcript(1, "TSTA1", "chr1", 10000, 20000), transcript(2, "TSTA1", "chr1", 12000, 20000),
      transcript(3, "TST-B", "chr1", 30000, 40000, "-")]
write("genes_transcripts", [
    {"_key": f"{t['_gene']}_{t['_key']}", "_from": f"genes/{t['_gene']}", "_to": f"transcripts/{t['_key']}",
     "name": "transcribes", "inverse_name": "transcribed by", "source": "varcat-testdata", "source_url": URL,
     "version": "v1", "organism": "Homo sapiens"} for t in TX])
write("transcripts", [{k: v for k, v in t.items() if k != "_gene"} for t in TX])
write("transcripts_proteins", [
    {"_from": f"transcripts/ENST9000000000{n}", "_to": f"proteins/ENSP9000000000{n}", "name": "translates to",
     "inverse_name": "translated from", "source": "varcat-testdata", "source_url": URL, "version": "v1",
     "organism": "Homo sapiens"} for n in (1, 2)])


# MORF overexpression screen: a construct (a genes_transcripts edge) and a readout gene. The last
# three rows have no row in the answers: a construct missing from the catalog, and rows without
# the log2FC / significant the client requires. One row spells its standard error as the router
# does (log2FC_se).
def morf(n, construct, readout, log2fc, pval, padj, significant, **extra):
    d = {"_key": f"MORF{n:03d}", "_from": f"genes_transcripts/{construct}", "_to": readout,
         "morf_id": f"ccsbBroad304_9{n:04d}", "transcript_mapping_method": "exact ORF match",
         "log2FC": log2fc, "standard_error": 0.15, "base_mean": 250.0 + n, "p_value": pval, "p_value_adj": padj,
         "neg_log10_pvalue": round(-__import__("math").log10(pval), 6),
         "neg_log10_pvalue_adj": round(-__import__("math").log10(padj), 6), "significant": significant,
         "name": "modulates expression of", "inverse_name": "expression modulated by",
         "label": "MORF overexpression effect", "class": "observed data", "method": "MORF screen",
         "source": "IGVF", "source_url": URL, "files_filesets": "files_filesets/IGVFFI9000MRF",
         "biological_context": "K562", "biosample_term": "ontology_terms/EFO_0002067",
         "treatments_term_ids": None, "organism": "Homo sapiens"}
    d.update(extra)
    return d


write("genes_transcripts_genes", [
    morf(1, "ENSG90000000001_ENST90000000001", G["TST-B"], 1.8, 1e-6, 1e-4, True),
    morf(2, "ENSG90000000001_ENST90000000002", G["TSTC"], -0.3, 0.4, 0.7, False, standard_error=None,
         log2FC_se=0.31),
    morf(3, "ENSG90000000002_ENST90000000003", G["TSTA1"], 0.9, 1e-3, 0.02, True),
    morf(4, "ENSG99999999997_ENST99999999997", G["TSTA1"], 2.0, 1e-5, 1e-3, True),  # construct missing
    morf(5, "ENSG90000000001_ENST90000000001", G["TSTC"], None, 0.5, 0.9, False),  # no log2FC
    morf(6, "ENSG90000000002_ENST90000000003", G["TST-B"], 0.2, 0.5, 0.9, None),  # no significant
])


def interaction(key, a, b, source, types, codes, detection, **extra):
    d = {"_key": key, "_from": a, "_to": b, "detection_method": detection, "detection_method_code": "MI:0000",
         "interaction_type": types, "interaction_type_code": codes, "confidence_value_biogrid": None,
         "confidence_value_intact": None, "source": source, "pmids": ["900041"], "organism": "Homo sapiens",
         "name": "physically interacts with", "inverse_name": "physically interacts with",
         "molecular_function": "ontology_terms/GO_0005515", "method": detection, "label": "interaction",
         "class": "observed data", "source_url": URL, "files_filesets": f"files_filesets/IGVFFI9000{source[:3].upper()}"}
    d.update(extra)
    return d


write("genes_genes", [
    interaction("GG001", G["TSTA1"], G["TST-B"], "BioGRID", ["positive genetic interaction (sensu BioGRID)"],
                ["MI:2373"], "genetic interference", z_score=None, name="interacts with",
                inverse_name="interacts with", label="genetic interference",
                method="positive genetic interaction (sensu BioGRID)"),
    interaction("GG002", G["TSTA1"], G["TSTC"], "COXPRESdb", [], [], "coexpression", z_score=3.4, pmids=[],
                detection_method="coexpression", name="coexpressed with", inverse_name="coexpressed with",
                label="co-expression", method="COXPRESdb", associated_process=None),
    interaction("GG003", G["TST-B"], "genes/ENSG99999999997", "BioGRID",
                ["negative genetic interaction (sensu BioGRID)"], ["MI:2374"], "genetic interference",
                z_score=None, name="interacts with", inverse_name="interacts with", label="genetic interference",
                method="negative genetic interaction (sensu BioGRID)"),  # partner missing
])
P1, P2 = "proteins/ENSP90000000001", "proteins/ENSP90000000002"
write("proteins_proteins", [
    interaction("PP001", P1, P2, "IntAct", ["physical association"], ["MI:0915"], "two hybrid",
                confidence_value_intact=0.56, label="two hybrid", method="physical association"),
    interaction("PP002", P1, "proteins/ENSP99999999996", "BioGRID", ["direct interaction"], ["MI:0407"],
                "affinity chromatography technology", confidence_value_biogrid=0.9,
                label="affinity chromatography technology", method="direct interaction"),  # partner missing
    interaction("PP003", P2, P1, "IntAct", ["association", "not a client interaction type"],
                ["MI:0914", "MI:9999"], "pull down", confidence_value_intact=0.35, label="pull down",
                method="association"),  # one type dropped at build
])
write("complexes_proteins", [
    {"_key": "CPX-9001_ENSP90000000001", "_from": "complexes/CPX-9001", "_to": P1, "name": "contains",
     "inverse_name": "belongs to", "stoichiometry": 1, "chain_id": "A", "isoform_id": None, "number_of_paralogs": 0,
     "paralogs": None, "linked_features": [{"participantId": P2, "ranges": ["10-50"]}], "source": "EBI",
     "source_url": URL, "class": "biological relationship", "method": None, "label": None,
     "files_filesets": "files_filesets/IGVFFI9000CPX"},
    {"_key": "CPX-9001_ENSP99999999995", "_from": "complexes/CPX-9001", "_to": "proteins/ENSP99999999995",
     "name": "contains", "inverse_name": "belongs to", "stoichiometry": 2, "chain_id": None, "isoform_id": None,
     "number_of_paralogs": None, "paralogs": None, "linked_features": [], "source": "EBI", "source_url": URL,
     "class": "biological relationship", "method": None, "label": None,
     "files_filesets": "files_filesets/IGVFFI9000CPX"},  # protein missing
])


def membership(coll, a, b, name, inverse):
    return {"_key": f"{a.split('/')[1]}_{b.split('/')[1]}", "_from": a, "_to": b, "name": name,
            "inverse_name": inverse, "source": "Reactome", "source_url": URL, "organism": "Homo sapiens",
            "class": "biological relationship", "method": None, "label": None,
            "files_filesets": "files_filesets/IGVFFI9000RCT"}


write("genes_pathways", [
    membership("genes_pathways", G["TSTA1"], "pathways/R-HSA-9000001", "belongs to", "has part"),
    membership("genes_pathways", G["TST-B"], "pathways/R-HSA-9000002", "belongs to", "has part"),
])
write("pathways_pathways", [
    membership("pathways_pathways", "pathways/R-HSA-9000001", "pathways/R-HSA-9000003", "parent of", "child of"),
])


def go(n, product, term, qualifier, symbol, ptype, product_id):
    return {"_key": f"GPT{n:03d}", "_from": product, "_to": f"ontology_terms/{term}", "db": "UniProtKB",
            "gene_product_id": product_id, "gene_product_symbol": symbol, "gene_product_name": "Test protein A1",
            "gene_product_type": ptype, "qualifier": [qualifier], "go_id": term.replace("_", ":"),
            "db_reference": ["GO_REF:0000043"], "evidence": "IEA", "with": [], "aspect": "P", "synonyms": [symbol],
            "taxon_id": ["taxon:9606"], "date": "20260101", "assigned_by": "UniProt", "annotation_extension": "",
            "gene_product_form_id": "", "organism": "Homo sapiens", "source": "Gene Ontology", "source_url": URL,
            "class": "biological relationship", "method": None, "label": None,
            "files_filesets": "files_filesets/IGVFFI9000GOA", "name": qualifier, "inverse_name": f"{qualifier} (inverse)"}


write("gene_products_terms", [
    go(1, P1, "GO_9000001", "involved in", "TSTA1", "protein", "Q90001"),
    go(2, "transcripts/ENST90000000001", "GO_9000002", "is located in", "TSTA1", "RNA", "ENST90000000001"),
    go(3, P1, "GO_9999999", "enables", "TSTA1", "protein", "Q90001"),  # GO term missing
])


def gege(n, to, log2fc, padj, significant):
    """A Multiome Perturb-seq edge: perturbing TSTA1's promoter changes accessibility at `to`."""
    return {"_key": f"GEGE{n:03d}", "_from": f"genomic_elements/{EP}", "_to": f"genomic_elements/{to}",
            "name": "modulates accessibility of", "inverse_name": "accessibility modulated by",
            "label": "promoter perturbation effect on chromatin accessibility", "class": "observed data",
            "method": "Multiome Perturb-seq", "source": "IGVF", "source_url": f"{URL}/Multiome-Perturb-seq",
            "files_filesets": "files_filesets/IGVFFI9000MPS", "biological_context": "K562",
            "biosample_term": "ontology_terms/EFO_0002067", "treatments_term_ids": None,
            "crispr_modality": "interference", "log2FC": log2fc, "p_value": 10 ** -(padj + 0.5),
            "p_value_adj": 10 ** -padj, "neg_log10_pvalue": padj + 0.5, "neg_log10_pvalue_adj": padj,
            "significant": significant}


write("genomic_elements_genomic_elements", [
    gege(1, EPK, -0.6, 3.0, True),
    gege(2, E1, 0.1, 0.2, False),
    gege(3, "TSTMISSING_chr1_90000_90400", -0.3, 1.5, True),  # accessible element missing: verbose keeps the id
])
write("genomic_elements_phenotypes", [
    {"_key": f"GEP00{n}", "_from": f"genomic_elements/{E1}", "_to": f"ontology_terms/{term}", "z_score": z,
     "p_value": p, "neg_log10_pvalue": round(-__import__("math").log10(p), 6), "significant": sig,
     "num_guides": 20, "num_guides_hit": hit, "num_guides_nonhit": 20 - hit, "fraction_guides_hit": hit / 20,
     "method": "CRISPR screen", "crispr_modality": "interference", "class": "observed data",
     "label": "regulatory element effect on phenotype", "name": "associated with", "inverse_name": "associated with",
     "source": "IGVF", "source_url": URL, "files_filesets": "files_filesets/IGVFFI9000CRS",
     "biological_context": "K562", "biosample_term": "ontology_terms/EFO_0002067", "treatments_term_ids": None}
    for n, term, z, p, sig, hit in ((1, "EFO_9000002", -4.2, 1e-5, True, 14),
                                    (2, "EFO_9999998", 0.3, 0.6, False, 1))  # second: term missing
])
print("wrote", OUT)
