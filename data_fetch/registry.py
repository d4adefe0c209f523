"""The registry of public data sets: one entry per data set (files, parser, labels, expected shape, citation).

``classes`` gives the label names of the two classes in the order (-1, +1) for binary tasks; ``merge`` maps raw
labels onto those two names where a task groups several raw classes (lymphoma); ``None`` keeps a multi-class set
(labels coded 0..K-1 in sorted order). ``shape`` and ``counts`` are what the parsed data must show; the loader
checks them, so a changed upstream file can never pass silently. ``title`` is the data set's name for titles and
tables ("Leukemia (Golub 1999)"; :func:`genesel.datasets.display_name` reads it, empty: the registry name is used).

The facts of the values, in the entry too: ``scale`` says what the published values are (``"raw"``: unlogged
intensities; ``"log"``: log intensities or log ratios; ``"standardised"``: scaled per sample; ``"fraction"``: values
in [0, 1], methylation beta values or pixels / 255); the tests check it against the values themselves by GEO2R's rule
(:func:`genesel.preprocessing.needs_log`: a raw set needs a log, no other does). ``log`` is the customary log
transform before standardisation (the arguments of :class:`genesel.preprocessing.LogTransform`;
:func:`genesel.datasets.recommended_preprocessing` reads it; None: no log step): raw Affymetrix MAS intensities (with
zeros and negatives) are floored, capped and logged (Dudoit, Fridlyand & Speed 2002, JASA 97:77: floor 20 / ceiling
16000 for Golub's Hu6800; the Kent Ridge prostate copies hold much smaller values, median 6, so floor 10); Alon's
positive intensities are logged; sets already on a log or standardised scale are left as they are. Three raw
HG-U133A sets (chowdary, borovecki, nakayama) have no ``log`` yet: their recommended preprocessing standardises the
raw values, as the committed leaderboard run did (``tests/test_own_data.py`` lists them). ``measures`` says what the
values measure (``"expression"``, ``"copy number"``, ``"methylation"`` or ``"pixels"``); the leaderboard leaves out
the sets that are not measurements of tissue (pixels).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from . import parsers as P


@dataclass(frozen=True)
class DatasetSpec:
    name: str
    files: tuple[str, ...]
    parser: Callable
    classes: tuple[str, str] | None
    shape: tuple[int, int]
    counts: dict
    description: str
    citation: str
    aliases: tuple[str, ...] = ()
    merge: dict = field(default_factory=dict)
    papers: tuple[str, ...] = ()
    missing_values: bool = False
    title: str = ""
    scale: str = ""
    log: dict | None = None
    measures: str = "expression"


#: the values of DatasetSpec.scale and DatasetSpec.measures
SCALES = ("raw", "log", "standardised", "fraction")
MEASURES = ("expression", "copy number", "methylation", "pixels")


_specs = [
    DatasetSpec(
        "alon", ("alon.RData",), P.datamicroarray("alon.RData"), ("normal", "tumour"), (62, 2000),
        {"tumour": 40, "normal": 22},
        "Colon adenocarcinoma (tumour, 40; raw label t) vs normal colon tissue (normal, 22; raw label n); "
        "Affymetrix Hum6000, 2000 genes of highest minimal intensity, raw positive intensities, not logged. No "
        "predefined split.",
        "Alon U, Barkai N, Notterman DA et al. Broad patterns of gene expression revealed by clustering analysis of "
        "tumor and normal colon tissues probed by oligonucleotide arrays. PNAS 96:6745-6750, 1999.",
        aliases=("colon",), papers=("Guyon2002", "Gentile2003", "Tan2006", "Shah2011"),
        merge={"t": "tumour"},  # the raw labels t / n, spelled out
        title="Colon (Alon 1999)",
        scale="raw", log=dict(floor=1.0),
    ),
    DatasetSpec(
        "golub", ("golub.RData",), P.golub, ("ALL", "AML"), (72, 7129), {"ALL": 47, "AML": 25},
        "Acute lymphoblastic (ALL) vs myeloid (AML) leukaemia; Affymetrix Hu6800, 7129 probes, raw values "
        "(negatives occur). Rows: Golub's 38 training samples (27 ALL / 11 AML) then the 34 test samples "
        "(20 ALL / 14 AML); train_idx / test_idx give that original split.",
        "Golub TR, Slonim DK, Tamayo P et al. Molecular classification of cancer: class discovery and class "
        "prediction by gene expression monitoring. Science 286:531-537, 1999.",
        aliases=("leukemia", "leukaemia"), papers=("Guyon2002", "Gentile2003", "Tan2006"),
        title="Leukemia (Golub 1999)",
        scale="raw", log=dict(floor=20.0, ceiling=16000.0),
    ),
    DatasetSpec(
        "singh", ("singh.RData", "05_prostata.tab"), P.singh, ("Normal", "Tumor"), (102, 12600),
        {"Tumor": 52, "Normal": 50},
        "Prostate tumour (52) vs normal (50); Affymetrix HG-U95Av2, 12600 columns: 67 AFFX controls (names lost, "
        "called AFFX_control_V1..V67) then 12533 probe sets with their IDs (from the Orange .tab copy). Raw MAS "
        "intensities, not logged.",
        "Singh D, Febbo PG, Ross K et al. Gene expression correlates of clinical prostate cancer behavior. "
        "Cancer Cell 1:203-209, 2002.",
        aliases=("prostate",), papers=("Gentile2003", "Helleputte2009", "Tan2006", "Shah2011"),
        title="Prostate (Singh 2002)",
        scale="raw", log=dict(floor=10.0, ceiling=16000.0),
    ),
    DatasetSpec(
        "west", ("west.RData",), P.datamicroarray("west.RData"), ("negative", "positive"), (49, 7129),
        {"negative": 25, "positive": 24},
        "Breast cancer oestrogen-receptor status (25 ER- / 24 ER+); Hu6800, 7129 unnamed genes, already "
        "standardised per sample (mean 0, sd 1). Stands in for Gruvberger's breast set, which is not public.",
        "West M, Blanchette C, Dressman H et al. Predicting the clinical status of human breast cancer by using "
        "gene expression profiles. PNAS 98:11462-11467, 2001.",
        aliases=("breast_er", "breast"), papers=("Shah2011", "Gentile2003 (substitute)"),
        title="Breast ER (West 2001)",
        scale="standardised",
    ),
    DatasetSpec(
        "pomeroy", ("pomeroy.RData",), P.datamicroarray("pomeroy.RData"), ("survived", "died"), (60, 7128),
        {"survived": 39, "died": 21},
        "Medulloblastoma treatment outcome (C_MD): 39 survivors vs 21 failures; Hu6800, 7128 probes (one fewer "
        "than the paper), already standardised per sample.",
        "Pomeroy SL, Tamayo P, Gaasenbeek M et al. Prediction of central nervous system embryonal tumour outcome "
        "based on gene expression. Nature 415:436-442, 2002.",
        aliases=("cmd", "c_md", "medulloblastoma"), papers=("Shah2011",),
        title="Medulloblastoma outcome (Pomeroy 2002)",
        scale="standardised",
    ),
    DatasetSpec(
        "alizadeh", ("lymphoma.matrix", "lymphoma.mat"), P.alizadeh, ("other", "malignant"), (96, 4026),
        {"malignant": 66, "other": 30},
        "Lymphoma, 96 samples x 4026 cDNA genes, log2(Cy5/Cy3) with 5.1% missing values. Binary task built from "
        "the nine class codes available: malignant = DLBCL + FL + CLL (66) vs other = normal/activated B and T "
        "cells, cell lines, germinal-centre B, lymph node/tonsil (30). NOT identical to the 62/34 split of Weston "
        "2003 / Gentile 2003, which cannot be rebuilt from public labels. Missing values are imputed by "
        "gene-wise k-nearest neighbours (Troyanskaya 2001, k=10, label-free) unless load_dataset(impute=None).",
        "Alizadeh AA, Eisen MB, Davis RE et al. Distinct types of diffuse large B-cell lymphoma identified by gene "
        "expression profiling. Nature 403:503-511, 2000.",
        aliases=("lymphoma",), papers=("Gentile2003",), missing_values=True,
        merge={"DLBCL": "malignant", "FL": "malignant", "CLL": "malignant"},
        title="Lymphoma (Alizadeh 2000)",
        scale="log",
    ),
    DatasetSpec(
        "welsh", ("prostate.test.rda", "05_prostata.tab"), P.welsh, ("Normal", "Tumor"), (34, 12600),
        {"Tumor": 25, "Normal": 9},
        "Welsh 2001 prostate tumour vs normal (Singh's independent test set, Kent Ridge copy): same 12600 columns "
        "as singh; intensities about 11x those of the singh file: normalise before transfer.",
        "Welsh JB, Sapinoso LM, Su AI et al. Analysis of gene expression identifies candidate markers and "
        "pharmacological targets in prostate cancer. Cancer Res 61:5974-5978, 2001.",
        aliases=("prostate_test",), papers=("Helleputte2009",),
        title="Prostate (Welsh 2001)",
        scale="raw", log=dict(floor=10.0, ceiling=16000.0),
    ),
    DatasetSpec(
        "chandran_primary", ("prostate_GDS2545_p_nf.RData", "GPL8300_limpo.txt.gz"), P.chandran("p"),
        ("normal", "primary"), (83, 12558), {"primary": 65, "normal": 18},
        "Chandran 2007 / Yu 2004 (GEO GDS2545, HG-U95Av2): 65 primary prostate tumours vs 18 normal donor "
        "prostates; MAS5 values floored at 0.1, 12558 probe sets (IDs recovered by position from GPL8300).",
        "Chandran UR, Ma C, Dhir R et al. Gene expression profiles of prostate cancer reveal involvement of "
        "multiple molecular pathways in the metastatic process. BMC Cancer 7:64, 2007.",
        papers=("Helleputte2009",),
        title="Prostate, primary (Chandran 2007)",
        scale="raw", log=dict(floor=10.0),
    ),
    DatasetSpec(
        "chandran_metastasis", ("prostate_GDS2545_m_nf.RData", "GPL8300_limpo.txt.gz"), P.chandran("m"),
        ("normal", "metastasis"), (43, 12558), {"metastasis": 25, "normal": 18},
        "Chandran 2007 (GDS2545): 25 prostate-cancer metastases vs the same 18 normal prostates.",
        "Chandran UR et al. BMC Cancer 7:64, 2007.", papers=("Helleputte2009",),
        title="Prostate, metastasis (Chandran 2007)",
        scale="raw", log=dict(floor=10.0),
    ),
    DatasetSpec(
        "gordon", ("gordon.RData",), P.datamicroarray("gordon.RData"), ("adenocarcinoma", "mesothelioma"),
        (181, 12533), {"adenocarcinoma": 150, "mesothelioma": 31},
        "Lung adenocarcinoma vs malignant pleural mesothelioma; HG-U95Av2, 12533 probes, raw values.",
        "Gordon GJ, Jensen RV, Hsiao LL et al. Translation of microarray data into clinically relevant cancer "
        "diagnostic tests using gene expression ratios in lung cancer and mesothelioma. Cancer Res 62:4963, 2002.",
        title="Lung adenocarcinoma vs mesothelioma (Gordon 2002)",
        scale="raw", log=dict(floor=10.0, ceiling=16000.0),
    ),
    DatasetSpec(
        "shipp", ("shipp.RData",), P.datamicroarray("shipp.RData"), ("DLBCL", "FL"), (77, 7129),
        {"DLBCL": 58, "FL": 19},
        "Diffuse large B-cell vs follicular lymphoma; Hu6800, 7129 unnamed columns, raw values.",
        "Shipp MA, Ross KN, Tamayo P et al. Diffuse large B-cell lymphoma outcome prediction by gene-expression "
        "profiling and supervised machine learning. Nat Med 8:68-74, 2002.",
        title="Lymphoma, DLBCL vs FL (Shipp 2002)",
        scale="raw", log=dict(floor=20.0, ceiling=16000.0),
    ),
    DatasetSpec(
        "chowdary", ("chowdary.RData",), P.datamicroarray("chowdary.RData"), ("breast", "colon"), (104, 22283),
        {"breast": 62, "colon": 42},
        "Breast vs colon tumours (GEO GSE3726); HG-U133A, 22283 probes.",
        "Chowdary D, Lathrop J, Skelton J et al. Prognostic gene expression signatures can be measured in tissues "
        "collected in RNAlater preservative. J Mol Diagn 8:31-39, 2006.",
        title="Breast vs colon tumours (Chowdary 2006)",
        scale="raw",
    ),
    DatasetSpec(
        "gravier", ("gravier.RData",), P.datamicroarray("gravier.RData"), ("good", "poor"), (168, 2905),
        {"good": 111, "poor": 57},
        "Small invasive ductal breast carcinoma, good vs poor prognosis; array-CGH log ratios (not expression).",
        "Gravier E, Pierron G, Vincent-Salomon A et al. A prognostic DNA signature for T1T2 node-negative breast "
        "cancer patients. Genes Chromosomes Cancer 49:1125-1134, 2010.",
        title="Breast cancer prognosis, aCGH (Gravier 2010)",
        scale="log", measures="copy number",
    ),
    DatasetSpec(
        "subramanian", ("subramanian.RData",), P.datamicroarray("subramanian.RData"), ("WT", "MUT"),
        (50, 10100), {"MUT": 33, "WT": 17},
        "NCI-60 cell lines, p53 mutant vs wild type (GSEA paper); 10100 features.",
        "Subramanian A, Tamayo P, Mootha VK et al. Gene set enrichment analysis. PNAS 102:15545-15550, 2005.",
        title="NCI-60, p53 mutant vs wild type (Subramanian 2005)",
        scale="log",
    ),
    DatasetSpec(
        "borovecki", ("borovecki.RData",), P.datamicroarray("borovecki.RData"), ("control", "symptomatic"),
        (31, 22283), {"symptomatic": 17, "control": 14},
        "Huntington's disease (symptomatic) vs control blood samples (GEO GSE1751); HG-U133A.",
        "Borovecki F, Lovrecic L, Zhou J et al. Genome-wide expression profiling of human blood reveals "
        "biomarkers for Huntington's disease. PNAS 102:11023-11028, 2005.",
        title="Huntington's disease, blood (Borovecki 2005)",
        scale="raw",
    ),
    DatasetSpec(
        "khan", ("khan.RData",), P.datamicroarray("khan.RData"), None, (63, 2308),
        {"EWS": 23, "RMS": 20, "NB": 12, "BL": 8},
        "Small round blue cell tumours, 4 classes; 2308 cDNA genes, log ratios. Multi-class (y = 0..3).",
        "Khan J, Wei JS, Ringner M et al. Classification and diagnostic prediction of cancers using gene "
        "expression profiling and artificial neural networks. Nat Med 7:673-679, 2001.",
        title="Small round blue cell tumours (Khan 2001)",
        scale="log",
    ),
    DatasetSpec(
        "sorlie", ("sorlie.RData",), P.datamicroarray("sorlie.RData"), None, (85, 456),
        {"5": 32, "4": 15, "1": 14, "3": 13, "2": 11},
        "Breast tumour subtypes, 5 classes coded 1-5; 456 genes, centred log ratios. Multi-class (y = 0..4).",
        "Sorlie T, Perou CM, Tibshirani R et al. Gene expression patterns of breast carcinomas distinguish tumor "
        "subclasses with clinical implications. PNAS 98:10869-10874, 2001.",
        title="Breast tumour subtypes (Sørlie 2001)",
        scale="log",
    ),
    DatasetSpec(
        "su", ("su.RData",), P.datamicroarray("su.RData"), None, (102, 5565), {"3": 28, "2": 26, "1": 25, "4": 23},
        "Multi-tissue carcinomas, 4 classes coded 1-4; 5565 genes. Multi-class (y = 0..3).",
        "Su AI, Welsh JB, Sapinoso LM et al. Molecular classification of human carcinomas by use of gene "
        "expression signatures. Cancer Res 61:7388-7393, 2001.",
        title="Multi-tissue carcinomas (Su 2001)",
        scale="log",
    ),
    DatasetSpec(
        "nakayama", ("nakayama.RData",), P.datamicroarray("nakayama.RData"), None, (105, 22283),
        {"malignant fibrous histiocytoma": 21, "myxoid liposarcoma": 19, "synovial sarcoma": 16,
         "dedifferentiated liposarcoma": 15, "myxofibrosarcoma": 15, "leiomyosarcoma": 6, "fibrosarcoma": 4,
         "lipoma": 3, "malignant peripheral nerve sheath tumor": 3, "well-differentiated liposarcoma": 3},
        "Soft-tissue sarcomas, 10 classes (GEO GDS2736); HG-U133A. Multi-class.",
        "Nakayama R, Nemoto T, Takahashi H et al. Gene expression analysis of soft tissue sarcomas. Mod Pathol "
        "20:749-759, 2007.",
        title="Soft-tissue sarcomas (Nakayama 2007)",
        scale="raw",
    ),
    DatasetSpec(
        "christensen", ("christensen.RData",), P.datamicroarray("christensen.RData"), None, (217, 1413),
        {"other": 113, "blood": 85, "placenta": 19},
        "DNA methylation of normal tissues, 3 classes; 1413 CpG loci. Multi-class.",
        "Christensen BC, Houseman EA, Marsit CJ et al. Aging and environmental exposures alter tissue-specific DNA "
        "methylation dependent upon CpG island context. PLoS Genet 5:e1000602, 2009.",
        title="Normal tissues, DNA methylation (Christensen 2009)",
        scale="fraction", measures="methylation",
    ),
    DatasetSpec(
        "chiaretti", ("ALL.rda",), P.eset("ALL.rda", P.chiaretti_lineage), ("B", "T"), (128, 12625),
        {"B": 95, "T": 33},
        "Adult acute lymphoblastic leukaemia, B- vs T-lineage (Bioconductor ALL); HG-U95Av2, RMA log2.",
        "Chiaretti S, Li X, Gentleman R et al. Gene expression profile of adult T-cell acute lymphocytic leukemia "
        "identifies distinct subsets of patients with different response to therapy and survival. Blood "
        "103:2771-2778, 2004.",
        title="ALL, B vs T lineage (Chiaretti 2004)",
        scale="log",
    ),
    DatasetSpec(
        "armstrong", ("leukemia.RData",), P.eset("leukemia.RData", P.armstrong_subtype), ("ALL", "MLL"),
        (37, 12626), {"ALL": 20, "MLL": 17},
        "MLL-rearranged vs conventional childhood ALL (Bioconductor GSVAdata); HG-U95A, RMA log2.",
        "Armstrong SA, Staunton JE, Silverman LB et al. MLL translocations specify a distinct gene expression "
        "profile that distinguishes a unique leukemia. Nat Genet 30:41-47, 2002.",
        title="ALL vs MLL leukaemia (Armstrong 2002)",
        scale="log",
    ),
    DatasetSpec(
        "garber", ("stanford.rda",), P.eset("stanford.rda", P.stanford_histology), ("adenocarcinoma", "squamous"),
        (47, 3171), {"adenocarcinoma": 37, "squamous": 10},
        "Garber 2001 lung tumours (Bioconductor lungExpression 'stanford'), adenocarcinoma vs squamous by sample "
        "prefix; 3171 UniGene clusters, log ratios. NOT Shah 2011's 52 x 918 lung set.",
        "Garber ME, Troyanskaya OG, Schluens K et al. Diversity of gene expression in adenocarcinoma of the lung. "
        "PNAS 98:13784-13789, 2001.",
        aliases=("stanford", "lung"),
        title="Lung, adenocarcinoma vs squamous (Garber 2001)",
        scale="log",
    ),
    DatasetSpec(
        "harvard", ("harvard.rda",), P.eset("harvard.rda", P.outcome("dead")), ("alive", "dead"), (125, 3171),
        {"dead": 72, "alive": 53},
        "Bhattacharjee 2001 lung adenocarcinomas, death vs survival (14 without outcome dropped); 3171 UniGene "
        "clusters shared with michigan and garber.",
        "Bhattacharjee A, Richards WG, Staunton J et al. Classification of human lung carcinomas by mRNA "
        "expression profiling reveals distinct adenocarcinoma subclasses. PNAS 98:13790-13795, 2001.",
        title="Lung adenocarcinoma outcome (Bhattacharjee 2001)",
        scale="log",
    ),
    DatasetSpec(
        "michigan", ("michigan.rda",), P.eset("michigan.rda", P.outcome("death")), ("alive", "dead"), (86, 3171),
        {"alive": 62, "dead": 24},
        "Beer 2002 lung adenocarcinomas, death vs survival; 3171 UniGene clusters shared with harvard and garber.",
        "Beer DG, Kardia SL, Huang CC et al. Gene-expression profiles predict survival of patients with lung "
        "adenocarcinoma. Nat Med 8:816-824, 2002.",
        title="Lung adenocarcinoma outcome (Beer 2002)",
        scale="log",
    ),
]

for _a, _b, _n in [(0, 8, 1954), (1, 7, 2163), (1, 8, 2109), (2, 3, 2042)]:
    _specs.append(DatasetSpec(
        f"mnist_{_a}v{_b}", ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"), P.mnist_pair(_a, _b),
        (str(_a), str(_b)), (_n, 784), None,
        f"MNIST digits {_a} vs {_b} from the 10000-image test set (pixels / 255). The 60000-image training file "
        "is not in the mirror, so pair tasks are test-set sized.",
        "LeCun Y, Bottou L, Bengio Y, Haffner P. Gradient-based learning applied to document recognition. "
        "Proc IEEE 86:2278-2324, 1998.", papers=("Shah2011",), scale="fraction", measures="pixels",
    ))

DATASETS: dict[str, DatasetSpec] = {s.name: s for s in _specs}
ALIASES: dict[str, str] = {a: s.name for s in _specs for a in s.aliases}
FAMILIES: dict[str, tuple[str, ...]] = {"mnist_pairs": ("mnist_0v8", "mnist_1v7", "mnist_1v8", "mnist_2v3")}


def resolve(name: str) -> DatasetSpec:
    """The spec of a data set by name or alias (case-insensitive); a clear error listing the names otherwise."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key in DATASETS:
        return DATASETS[key]
    if key in FAMILIES:
        raise ValueError(f"{name!r} is a family of data sets: choose one of {', '.join(FAMILIES[key])}")
    raise ValueError(f"unknown data set {name!r}; known: {', '.join(sorted(DATASETS))} "
                     f"(aliases: {', '.join(sorted(ALIASES))})")
