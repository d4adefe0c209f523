"""genesel.papers.guyon2002: the paper's subset sizes, preprocessing and the aggregation of in-fold LOO outputs."""

import numpy as np
import pandas as pd

from genesel.metrics import quality_metrics
from genesel.papers.guyon2002 import guyon_preprocess, guyon_sizes, loo_metrics_from_outputs


def test_guyon_sizes_and_loo_aggregation():
    assert guyon_sizes(7129) == [7129] + [2**k for k in range(12, -1, -1)]
    assert guyon_sizes(2048) == [2048] + [2**k for k in range(10, -1, -1)]
    df = pd.DataFrame({"dataset": "d", "method": "m", "n_genes": [4] * 5, "y": [1, 1, 1, -1, -1],
                       "output": [2.0, 0.5, -0.2, -1.0, 0.3]})
    out = loo_metrics_from_outputs(df).iloc[0]
    ref = quality_metrics(df.y, df.output)
    assert out.V_suc == ref["suc"] and out.V_acc == ref["acc"] and out.V_ext == ref["ext"] and out.n_folds == 5


def test_guyon_preprocess_uses_training_statistics():
    rng = np.random.default_rng(0)
    Xtr = rng.uniform(50, 5000, size=(12, 30))
    Xte = rng.uniform(50, 5000, size=(5, 30))
    A, B, kept = guyon_preprocess(Xtr, Xte, "alon")  # alon: log with floor 1
    assert kept.size == 30
    np.testing.assert_allclose(A.mean(0), 0, atol=1e-12)
    np.testing.assert_allclose(A.std(0), 1)
    # by hand: log10, rows standardised, then genes with the training mean and sd
    L = np.log10(Xtr)
    R = (L - L.mean(1, keepdims=True)) / L.std(1, keepdims=True)
    Lt = np.log10(Xte)
    Rt = (Lt - Lt.mean(1, keepdims=True)) / Lt.std(1, keepdims=True)
    np.testing.assert_allclose(B, (Rt - R.mean(0)) / R.std(0))
