"""Memory and time of reading a researcher's delimited file (issue 37: "a 179 MB CSV peaks at 2 GB").

Data (seeded, written once into ``--folder``): a CSV of ``--samples`` x ``--genes`` values with 17 significant
digits (the default, 200 x 50,000, is a 180 MB file holding an 80 MB matrix), samples as rows with a label column,
and the same matrix transposed (genes as rows, a sample sheet for the labels) as a gzipped TSV.

Each read runs in a subprocess of its own (one BLAS thread), after the imports: reported are the wall and CPU
seconds of :func:`genesel.expression_io.read_expression` and the growth of the peak resident memory over what the
process held before the read (Linux VmHWM, reset before the read), as a multiple of the matrix (samples x genes x 8
bytes). ``--lib DIR`` runs the same reads with another checkout's ``lib`` folder first on the path (e.g. the
commit before this reader, to compare).

Run: ``python benchmarks/bench_readers.py [--samples 200] [--genes 50000] [--folder DIR] [--lib DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from _common import recorded

_CHILD = r"""
import json, os, resource, sys, time
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) * 1024
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM"):
            return int(line.split()[1]) * 1024
import numpy, pandas, genesel.expression_io
from genesel.expression_io import read_expression
path, label = sys.argv[1], sys.argv[2]
before = rss()
open("/proc/self/clear_refs", "w").write("5")  # reset VmHWM to the current RSS
t0, c0 = time.perf_counter(), time.process_time()
ds = read_expression(path, label=label)
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps({"wall": wall, "cpu": cpu, "peak_growth": hwm() - before, "shape": list(ds.X.shape),
                  "module": genesel.expression_io.__file__}))
"""


def _write(folder: Path, n: int, d: int):
    import pandas as pd

    csv, tsv, sheet = folder / f"study_{n}x{d}.csv", folder / f"study_{n}x{d}_genes.tsv.gz", folder / "sheet.csv"
    if csv.exists() and tsv.exists() and sheet.exists():
        return csv, tsv, sheet
    rng = np.random.default_rng(0)
    X = rng.lognormal(6, 1.5, (n, d))
    samples, genes = [f"GSM{100000 + i}" for i in range(n)], [f"ENSG{j:011d}" for j in range(d)]
    labels = np.where(np.arange(n) % 2, "tumour", "normal")
    frame = pd.DataFrame(X, index=pd.Index(samples, name="sample"), columns=genes)
    frame.insert(0, "class", labels)
    frame.to_csv(csv, float_format="%.17g")
    pd.DataFrame(X.T, index=pd.Index(genes, name="gene"), columns=samples).to_csv(
        tsv, sep="\t", float_format="%.17g", compression={"method": "gzip", "compresslevel": 1})
    pd.DataFrame({"sample": samples, "class": labels}).to_csv(sheet, index=False)
    return csv, tsv, sheet


def _run(path, label, lib):
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    if lib:
        env["PYTHONPATH"] = os.pathsep.join([str(Path(lib).resolve()), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", _CHILD, str(path), str(label)], env=env, capture_output=True,
                         text=True)
    if out.returncode:
        return {"error": out.stderr.strip().splitlines()[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])


@recorded
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--genes", type=int, default=50_000)
    ap.add_argument("--folder", default=None, help="where the files are written (default: a temporary folder)")
    ap.add_argument("--lib", default=None, help="another checkout's lib folder to compare with")
    args = ap.parse_args(argv)
    tmp = None
    if args.folder is None:
        tmp = tempfile.TemporaryDirectory()
        folder = Path(tmp.name)
    else:
        folder = Path(args.folder)
        folder.mkdir(parents=True, exist_ok=True)
    csv, tsv, sheet = _write(folder, args.samples, args.genes)
    matrix = args.samples * args.genes * 8
    print(f"matrix: {args.samples} x {args.genes} = {matrix / 2**20:.0f} MiB; "
          f"CSV {csv.stat().st_size / 2**20:.0f} MiB, "
          f"gzipped TSV {tsv.stat().st_size / 2**20:.0f} MiB\n")
    print("| file | code | wall s | CPU s | peak memory growth | x matrix |\n|---|---|---|---|---|---|")
    for path, label, what in ((csv, "class", "CSV, samples as rows"), (tsv, sheet, "TSV.gz, genes as rows")):
        for code, lib in (("this checkout", None),) + ((("--lib", args.lib),) if args.lib else ()):
            r = _run(path, label, lib)
            if "error" in r:
                print(f"| {what} | {code} | {r['error']} | | | |")
                continue
            print(f"| {what} | {code} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['peak_growth'] / 2**20:,.0f} MiB | "
                  f"{r['peak_growth'] / matrix:.2f} |")
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()
