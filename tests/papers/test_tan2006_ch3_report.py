"""papers/tan2006_ch3_report: 05a's number-quoting sentences come from the tables they are given (a changed number
changes the text; ties at two decimals are printed with three)."""

import numpy as np
import pandas as pd

from genesel.papers import tan2006_ch3_report as R


def _ard_rows(sd_laplace, sd_ep, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for approx, sd in (("laplace", sd_laplace), ("ep", sd_ep)):
        z = rng.normal(size=200)
        z = (z - z.mean()) / z.std() * sd - 8.0  # log10 relevances with exactly this sd
        rel = 10.0 ** z
        rel[:3] = [1.0, 0.5, 0.25]  # three dominant genes
        rel[-1] = 0.0  # constant in training: left out
        rows.append({"dataset": "alon", "approximation": approx, "relevances": rel.tolist(),
                     "optimizer_converged": approx == "ep"})
    return pd.DataFrame(rows)


def test_spread_is_read_from_the_relevances():
    s = R.ard_spread(_ard_rows(1.5, 1.2))
    sd = dict(zip(s.approximation, s.sd))
    # the three dominant genes shift the sd a little; the order Laplace > EP is what the sentence reports
    assert sd["laplace"] > sd["ep"]
    text = R.spread_sentence(s, {"alon": "Colon"})
    assert text.startswith("**Laplace more spread out than EP?** Colon: yes")
    flipped = R.spread_sentence(R.ard_spread(_ard_rows(1.1, 1.4)), {"alon": "Colon"})
    assert "Colon: no" in flipped


def test_ties_at_two_decimals_get_three():
    assert R.fmt_pair(1.6721, 1.6668) == ("1.672", "1.667")
    assert R.fmt_pair(1.74, 1.67) == ("1.74", "1.67")


def test_bullets_quote_the_run():
    cpu = pd.DataFrame({"SVM": [0.2, 0.5], "DWD": [0.3, 0.7], "GP-Laplace": [0.1, 0.9], "GP-EP": [0.09, 0.6],
                        "RVM": [0.01, 0.03], "SMLR": [4.5, 7.4]}, index=["alon", "golub"])
    text = R.cpu_bullet(cpu)
    assert "the GPs 0.09–0.90 s" in text and "SMLR 4.50–7.40 s" in text and "the RVM 0.01–0.03 s" in text
    s = R.ard_spread(_ard_rows(1.5, 1.2))
    tops = {("Colon", "GP-Laplace"): ["— (X601)", "— (X43)", "— (X9)"], ("Colon", "GP-EP"): ["ZYX (X95735_at)", "B"]}
    text = R.ard_bullet(s, tops, {"alon": "Colon"})
    assert "holds on 1 of 1 data sets" in text
    assert "Colon, GP-Laplace: X601, X43" in text and "Colon, GP-EP: ZYX (X95735_at), B" in text
    assert "1 of 2 fits stopped at the optimiser's iteration cap" in text


def test_the_data_table_has_no_empty_cell_when_the_classes_are_named_differently(mirror, tmp_path):
    """Prostate ('Normal', 'Tumor') beside a user's Colon file ('normal', 'tumour'): one class column for both,
    holding the names and the counts (a column per naming left NaN in the other's row)."""
    from genesel.datasets import load_dataset

    colon = load_dataset("alon")
    path = tmp_path / "colon.csv"
    pd.DataFrame(colon.X[:, :300], columns=[f"g{i}" for i in range(300)]).assign(
        tissue=np.where(colon.y > 0, "tumour", "normal")).to_csv(path, index=False)
    from genesel.papers.presentation import dataset_list

    t = R.data_table(dataset_list(["prostate", str(path)], ["golub"], label="tissue"), max_genes=200)
    assert not t.isna().any().any(), t
    assert list(t["classes (samples)"]) == ["Tumor 52 / Normal 50", "tumour 40 / normal 22"]


def _folds(warnings_by_fold, method="SMLR", dataset="alon", chosen='{"lam": 0.01}'):
    return pd.DataFrame({"dataset": dataset, "method": method, "fold": range(len(warnings_by_fold)),
                         "accuracy": 0.8, "best_params": chosen, "warnings": warnings_by_fold})


def test_capped_folds_count_the_convergence_warnings_of_one_method():
    cap = "ConvergenceWarning: SMLR: stopped at max_iter=20000 sweeps"
    one_class = "DegenerateModelWarning: SMLR: the fitted model predicts 1 for every training sample (lam=0.5)"
    res = pd.concat([_folds([cap, "", f"{cap} | {one_class}", one_class]),
                     _folds([cap, cap], method="SVM"), _folds([cap], dataset="golub")])
    assert R.capped_folds(res, "alon", "SMLR") == (2, 4)
    assert R.capped_folds(res, "alon", "RVM") == (0, 0)
    assert R._capped_note(res, "alon", "SMLR")["note"].startswith("in 2 of 4 folds a fit")
    assert R._capped_note(res, "alon", "RVM") == {} and R._capped_note(None, "alon", "SMLR") == {}


def test_warned_folds_say_the_inner_cv_fits_are_among_them_and_show_the_choice():
    """A cell's warnings are those of every fit of its fold (GridSearchCV's inner fits too): SMLR's lam=0.5
    predicting one class was listed as if the scored model did, with lam=0.01 chosen."""
    text, table = R.warned_fits(_folds(["DegenerateModelWarning: ... lam=0.5 ...", ""]))
    assert "inner CV" in text and "final fit" not in text.replace("final one", "")
    assert list(table["chosen by the inner CV"]) == ["lam = 0.01"]
    assert list(table.fold) == [1]
