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
    eqtl(4, "V2", "TSTG", pval=2.0, beta=0.1),
])
write("variants_proteins", [
    {"_key": "VP001", "_from": f"variants/{K['V1']}", "_to": "proteins/ENSP90000000001", "label": "pQTL",
     "method": "pQTL", "class": "observed data", "source": "UKB", "source_url": URL,
     "files_filesets": "files_filesets/IGVFFI9000UKB", "biological_context": "blood plasma",
     "biosample_term": "ontology_terms/UBERON_0001969", "name": "associated with levels of",
     "inverse_name": "level associated with", "neg_log10_pvalue": 12.0, "beta": 0.3, "se": 0.01},
])
write("variants_genomic_elements", [
    {"_key": "VE001", "_from": f"variants/{K['V3']}", "_to": "genomic_elements/TSTELEMENT_chr1_24900_25100",
     "label": "caQTL", "method": "caQTL", "class": "observed data", "source": "AFGR", "source_url": URL,
     "files_filesets": "files_filesets/IGVFFI9000CAQ", "biological_context": "lymphoblastoid cell line",
     "biosample_term": "ontology_terms/EFO_0002784", "name": "modulates accessibility of",
     "inverse_name": "accessibility modulated by", "neg_log10_pvalue": 4.0, "p_value": 1e-4, "beta": 0.5},
])
write("variants_phenotypes", [
    {"_key": "VPH001", "_from": f"variants/{K['V1']}", "_to": "ontology_terms/EFO_0000001", "label": "GWAS",
     "method": "GWAS", "class": "observed data", "source": "OpenTargets", "source_url": URL,
     "files_filesets": "files_filesets/IGVFFI9000GWAS", "name": "associated with",
     "inverse_name": "associated with", "neg_log10_pvalue": 9.0, "p_value": 1e-9,
     "phenotype_term": "test trait", "study": "studies/GCST900001", "version": "October 2022 (22.10)"},
])
write("variants_biosamples", [
    {"_key": "VB001", "_from": f"variants/{K['V2']}", "_to": "ontology_terms/CL_0000001", "label": "variant effect",
     "method": "MPRA", "class": "observed data", "source": "IGVF", "source_url": URL,
     "files_filesets": "files_filesets/IGVFFI9000MPRA", "biological_context": "K562",
     "biosample_term": "ontology_terms/CL_0000001", "name": "has regulatory activity in",
     "inverse_name": "regulatory activity of", "log2FC": 1.5, "neg_log10_pvalue": 3.0, "significant": True},
])
print("wrote", OUT)
