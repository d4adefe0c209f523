"""A researcher's file rewritten in place (a label corrected, then the notebook's cells run again in the same kernel)
is read again. The in-process caches that take a reference string (the leaderboard's ``load``, the papers'
``load_task`` and the stump learners' task) were keyed by the string alone: they served the old values, which the
grid then computed under the cache key of the file's new content (its sha256), a wrong number kept on disk."""

import numpy as np
import pandas as pd

from genesel.dataref import cached_by_content


def _write(path, flip=False):
    rng = np.random.default_rng(0)
    X = np.exp(rng.normal(size=(12, 30)))
    labels = np.repeat(["tumour", "normal"], 6)
    if flip:
        labels[0] = "normal"
    frame = pd.DataFrame(X, index=[f"s{i}" for i in range(12)], columns=[f"g{j}" for j in range(30)])
    frame.insert(0, "class", labels)
    frame.to_csv(path)


def test_the_leaderboards_and_the_papers_loads_read_a_rewritten_file_again(tmp_path):
    from genesel.leaderboard import cells as C
    from genesel.papers import shah2012
    from genesel.papers.common import load_task

    path = tmp_path / "study.csv"
    _write(path)
    ref = f"{path}?label=class"
    before = (C.load(ref).y.copy(), load_task(ref).y.copy(), shah2012._task(ref)[1].copy())
    assert C.load(ref) is C.load(ref)  # still cached while the file is unchanged
    _write(path, flip=True)
    after = (C.load(ref).y, load_task(ref).y, shah2012._task(ref)[1])
    for b, a in zip(before, after):
        assert np.sum(b != a) == 1, (b, a)  # sample s0's label changed: read again


def test_a_tuple_of_references_is_keyed_by_every_files_content(tmp_path):
    calls = []

    @cached_by_content(maxsize=4)
    def first_labels(names: tuple, row: int):
        calls.append(names)
        return tuple(pd.read_csv(n.partition("?")[0], index_col=0)["class"].iloc[row] for n in names)

    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    _write(a)
    _write(b)
    names = (f"{a}?label=class", f"{b}?label=class")
    assert first_labels(names, 0) == ("tumour", "tumour") == first_labels(names, row=0)
    assert len(calls) == 2  # positional and keyword: two keys, as lru_cache's
    assert first_labels(names, 0) == ("tumour", "tumour") and len(calls) == 2
    _write(b, flip=True)
    assert first_labels(names, 0) == ("tumour", "normal") and len(calls) == 3
