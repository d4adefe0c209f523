"""Running grids at cluster scale: batching, the SLURM recipe (as far as this machine allows), the scheduler taken
from the environment, progress that suits where it runs."""

import os
import subprocess
import sys
import time

import pandas as pd
import pytest

from genesel.experiments import run_grid
from genesel.experiments.batching import BatchPlanner, run_batch

from test_grid import _files, poly_cell


def pid_cell(a):
    return {"pid": os.getpid()}


def fail_on_three(a, b):
    if a == 3:
        raise RuntimeError("cell a=3 fails")
    return {"v": a + b}


def fail_on_three_late(a, b):
    """:func:`fail_on_three`, but the failing cell takes a second first, so the other cells' results (milliseconds
    each) are back before its error whatever the order in which the cluster runs the batches."""
    if a == 3:
        time.sleep(1.0)
    return fail_on_three(a, b)


# ------------------------------------------------------------------------------------------------ batching


def test_batches_aim_at_the_target_work_and_cover_every_cell_once():
    keys = [f"k{i}" for i in range(1000)]
    est = {k: 2.0 ** -7 for k in keys}  # about 8 ms each (exact in binary): 32 cells make a 0.25 s task
    p = BatchPlanner(keys, est, lambda: 2, target=0.25)
    batches = []
    while True:
        b = p.next_batch()
        if not b:
            break
        batches.append(b)
    assert [k for b in batches for k in b] == keys
    sizes = [len(b) for b in batches]
    assert max(sizes) == 32  # 7.8 s of work, 2 workers: far above 4 x 2 x 0.25 s
    # near the end the batches shrink so that both workers finish together
    p2 = BatchPlanner(keys[:40], {k: 2.0 ** -7 for k in keys[:40]}, lambda: 2, target=0.25)
    assert len(p2.next_batch()) == 5  # 0.31 s left over 2 workers: tasks of a quarter of 0.16 s


def test_unknown_costs_start_with_single_cells_then_learn():
    keys = [f"k{i}" for i in range(100)]
    p = BatchPlanner(keys, {}, lambda: 1, target=0.25)
    assert p.next_batch() == ["k0"]
    assert p.next_batch() == ["k1"]
    p.observe(2.0 ** -9)
    p.observe(3 * 2.0 ** -9)  # about 4 ms per cell on average
    assert len(p.next_batch()) == 24  # 98 cells x 3.9 ms = 0.38 s left for one worker: tasks of a quarter
    big = BatchPlanner(["a", "b"], {"a": 100.0, "b": 1.0}, lambda: 4)
    assert big.next_batch() == ["a"]  # a cell costlier than the target is a task of its own


def test_a_failing_cell_returns_the_results_before_it():
    done, exc = run_batch(fail_on_three, [(i, {"a": i, "b": 1}) for i in range(6)])
    assert [d[0] for d in done] == [0, 1, 2] and isinstance(exc, RuntimeError)


def test_dask_run_resumes_after_a_failing_cell(tmp_path):
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster

    cells = [{"a": a, "b": 1} for a in range(8)]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        with pytest.raises(RuntimeError, match="a=3 fails"):
            run_grid(cells, fail_on_three_late, cache_dir=tmp_path, backend="dask", scheduler=client,
                     progress=False)
    cached = len(_files(tmp_path))
    assert 3 <= cached < 8  # what came back before the failure is kept
    rest = run_grid([c for c in cells if c["a"] != 3], fail_on_three_late, cache_dir=tmp_path, progress=False)
    assert rest["v"].tolist() == [a + 1 for a in range(8) if a != 3] and len(_files(tmp_path)) == 7


def test_scheduler_from_the_environment_runs_the_grid_on_that_cluster(tmp_path, monkeypatch):
    """GENESEL_SCHEDULER (set by `make full SCHEDULER=...` and the notebook runner's --scheduler) sends every grid
    that names no backend to that scheduler: the recipe's last step, with a LocalCluster standing in for SLURM."""
    distributed = pytest.importorskip("distributed")
    cells = [{"a": a, "b": b} for a in range(6) for b in (0.5, 1.5)]
    serial = run_grid(cells, poly_cell, use_cache=False, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        monkeypatch.setenv("GENESEL_SCHEDULER", cluster.scheduler_address)
        got = run_grid(cells, poly_cell, cache_dir=tmp_path, progress=False)
        pids = run_grid([{"a": a} for a in range(4)], pid_cell, use_cache=False, progress=False)["pid"]
        workers = set(client.run(os.getpid).values())
    pd.testing.assert_frame_equal(serial, got, check_exact=True)
    assert set(pids) <= workers and os.getpid() not in set(pids), "the cells did not run on the cluster"
    monkeypatch.setenv("GENESEL_SCHEDULER", "tcp://127.0.0.1:9")  # nothing listens there
    import dask

    # dask's connect timeout is honoured (30 s by default; the test shortens it)
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}), \
            pytest.raises(OSError, match="cannot reach the dask scheduler"):
        run_grid([{"a": 99, "b": 0}], poly_cell, cache_dir=tmp_path, progress=False)


# ------------------------------------------------------------------------------------------------ the SLURM recipe


def test_slurm_job_script_retires_workers_before_the_wall_time_and_needs_only_the_mirror(tmp_path, monkeypatch):
    pytest.importorskip("dask_jobqueue")
    from genesel.experiments.cluster import _seconds, lifetime_options, slurm_cluster

    assert _seconds("02:00:00") == 7200 and _seconds("1-12") == 36 * 3600 and _seconds("45") == 2700
    life = lifetime_options("02:00:00")
    assert int(life[1].rstrip("s")) < 7200
    monkeypatch.setenv("GENESEL_CACHE_KEY", "the client's secret, not for workers")
    cluster = slurm_cluster(cores=4, memory="16GB", walltime="02:00:00", queue="short", account="lab",
                            mirror="/shared/genesel-data", python="/opt/genesel/bin/python", max_jobs=25,
                            host="127.0.0.1", secrets_dir=tmp_path / "tls")
    try:
        script = cluster.job_script()
        adaptive = cluster._adaptive
    finally:
        cluster.close()
    assert "#SBATCH -t 02:00:00" in script and "#SBATCH -p short" in script and "#SBATCH -A lab" in script
    assert "--cpus-per-task=4" in script and "--nworkers 4" in script and "--nthreads 1" in script
    assert "export GENESEL_DATA_MIRROR=/shared/genesel-data" in script
    assert "--lifetime 6480s" in script and "--lifetime-stagger 360s" in script  # 12 min before the wall time
    assert "/opt/genesel/bin/python -m distributed.cli.dask_worker" in script
    assert "GENESEL_CACHE_KEY" not in script and "secret" not in script  # workers never write the cache
    assert "--tls-key" in script and "--protocol tls://" in script and "--no-dashboard" in script
    assert adaptive is not None and adaptive.maximum == 25 * 4  # adaptive, up to 25 jobs of 4 workers


def test_slurm_recipe_config_speaks_tls_listens_on_one_address_and_starts_no_dashboard(tmp_path, monkeypatch):
    """The recipe's SLURMCluster arguments, without starting anything: TLS required with a generated certificate,
    the scheduler on one address (this machine's outward one by default, never 0.0.0.0 unless asked), no
    dashboard, a scheduler class that starts no HTTP server, owner-only secrets folder."""
    pytest.importorskip("dask_jobqueue")
    import stat

    from distributed import Scheduler
    from distributed.utils import get_ip

    from genesel.experiments.cluster import slurm_options

    opts = slurm_options(mirror="/shared/data", secrets_dir=tmp_path / "secrets")
    sec = opts["security"]
    assert sec.require_encryption and opts["protocol"] == "tls://"
    for role in ("scheduler", "worker", "client"):
        tls = sec.get_tls_config_for_role(role)
        assert "BEGIN CERTIFICATE" in tls["ca_file"] and "BEGIN CERTIFICATE" in tls["cert"]
        assert "PRIVATE KEY" in tls["key"]
    sched = opts["scheduler_options"]
    assert sched["host"] == get_ip() and sched["host"] not in ("", "0.0.0.0", "::")
    assert sched["dashboard"] is False and sched["dashboard_address"] is None
    assert issubclass(opts["scheduler_cls"], Scheduler) and opts["scheduler_cls"] is not Scheduler
    assert "--no-dashboard" in opts["worker_extra_args"]
    assert stat.S_IMODE((tmp_path / "secrets").stat().st_mode) == 0o700
    assert opts["shared_temp_directory"] == str(tmp_path / "secrets")
    # asked for: another interface, every interface, a dashboard on localhost
    assert slurm_options(mirror="/m", interface="ib0", secrets_dir=tmp_path)["scheduler_options"]["interface"] == "ib0"
    assert slurm_options(mirror="/m", host="0.0.0.0", secrets_dir=tmp_path)["scheduler_options"]["host"] == "0.0.0.0"
    dash = slurm_options(mirror="/m", dashboard="localhost:8787", secrets_dir=tmp_path)
    assert dash["scheduler_options"]["dashboard_address"] == "localhost:8787" and "scheduler_cls" not in dash
    with pytest.raises(ValueError, match="interface"):
        slurm_options(mirror="/m", interface="eth0; rm -rf ~", secrets_dir=tmp_path)


def test_every_value_in_the_job_script_is_shell_quoted(tmp_path, monkeypatch):
    """A mirror path with a space and a ';', a Python path with a space: each stays one word when bash runs the job
    script's lines, and nothing after the ';' runs; #SBATCH values with shell characters are refused."""
    pytest.importorskip("dask_jobqueue")
    import shlex

    from genesel.experiments import cluster as recipe

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "sec dir"))  # where the recipe keeps its TLS files
    marker = tmp_path / "pwned"
    mirror = f"/shared/genesel data;touch {marker}"
    python = "/opt/my env/bin/python"
    cluster = recipe.slurm_cluster(mirror=mirror, python=python)
    try:
        script = cluster.job_script()
    finally:
        cluster.close()
    export = next(ln for ln in script.splitlines() if "GENESEL_DATA_MIRROR" in ln)
    out = subprocess.run(["bash", "-c", export + '\nprintf %s "$GENESEL_DATA_MIRROR"'], capture_output=True,
                         text=True, timeout=30)
    assert out.stdout == mirror and not marker.exists()
    command = next(ln for ln in script.splitlines() if "distributed.cli.dask_worker" in ln)
    words = shlex.split(command)
    assert words[0] == python
    for flag in ("--tls-ca-file", "--tls-cert", "--tls-key"):
        path = words[words.index(flag) + 1]
        assert path.startswith(str(tmp_path / "sec dir") + "/"), path
    assert words[words.index("--protocol") + 1] == "tls://" and words[3].startswith("tls://")
    for bad in ({"queue": "short; rm -rf ~"}, {"account": "lab x"}, {"walltime": "02:00:00\n#SBATCH --x"}):
        with pytest.raises(ValueError, match="#SBATCH"):
            recipe.slurm_options(mirror="/m", secrets_dir=tmp_path, **bad)


def test_the_recipe_scheduler_listens_on_one_tls_address_and_nothing_else(tmp_path, monkeypatch):
    """The scheduler the recipe starts (before any job is submitted): a tls:// address on this machine's outward
    address, not every interface, and no other listening socket (no dashboard, no HTTP server on 8787)."""
    pytest.importorskip("dask_jobqueue")
    pytest.importorskip("psutil")
    from distributed.utils import get_ip

    from genesel.experiments.cluster import slurm_cluster

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    before = _listening_ports(os.getpid())
    cluster = slurm_cluster(mirror="/shared/data", max_jobs=0)
    try:
        addr = cluster.scheduler_address
        opened = {(c.laddr.ip, c.laddr.port) for c in _listening(os.getpid()) if c.laddr.port not in before}
    finally:
        cluster.close()
    assert addr.startswith("tls://"), addr
    port = int(addr.rsplit(":", 1)[1])
    assert opened == {(get_ip(), port)}, f"listening: {opened}"


def _listening(pid):
    import psutil

    return [c for c in psutil.Process(pid).net_connections(kind="inet") if c.status == "LISTEN"]


def _listening_ports(pid):
    return {c.laddr.port for c in _listening(pid)}


def test_a_scheduler_started_with_the_recipe_security_speaks_only_tls_and_serves_no_dashboard(tmp_path):
    """A real scheduler and worker (in this process) with the recipe's Security and scheduler class: a client
    with the recipe's connection file runs a grid; a client without the certificate, or with another one, is
    refused; the scheduler listens on its TLS port only (no HTTP server: nothing answers on the dashboard port)."""
    pytest.importorskip("dask_jobqueue")
    pytest.importorskip("psutil")
    import socket

    from distributed import Client, SpecCluster, Worker
    from distributed.security import Security

    from genesel.experiments.cluster import slurm_options, write_connection_file

    opts = slurm_options(mirror="/m", host="127.0.0.1", secrets_dir=tmp_path / "tls")
    sec = opts["security"]
    before = _listening_ports(os.getpid())
    scheduler = {"cls": opts["scheduler_cls"], "options": {**opts["scheduler_options"], "security": sec,
                                                            "protocol": "tls://"}}
    with SpecCluster(scheduler=scheduler, workers={}, security=sec) as cluster:
        addr = cluster.scheduler_address
        assert addr.startswith("tls://127.0.0.1:")
        port = int(addr.rsplit(":", 1)[1])
        opened = _listening_ports(os.getpid()) - before
        assert opened == {port}, f"the scheduler listens on more than its TLS port: {opened}"
        http = cluster.scheduler.http_server
        assert not getattr(http, "_sockets", {}), "the scheduler's HTTP server listens"
        with socket.socket() as probe:  # the stock scheduler's HTTP port: nothing of ours answers there
            probe.settimeout(2)
            assert probe.connect_ex(("127.0.0.1", 8787)) != 0 or 8787 not in opened
        cluster.scale(0)
        worker_sec = Security(require_encryption=True, **{f"tls_worker_{k}" if k != "ca_file" else "tls_ca_file": v
                                                           for k, v in sec.get_tls_config_for_role("worker").items()
                                                           if k in ("ca_file", "cert", "key")})
        conn = write_connection_file(tmp_path / "secrets" / "scheduler.json", addr, sec)
        assert (conn.stat().st_mode & 0o777) == 0o600

        async def worker_main():
            async with Worker(addr, security=worker_sec, nthreads=1, dashboard=False) as w:
                await w.finished()

        import asyncio
        import threading

        loop = asyncio.new_event_loop()
        t = threading.Thread(target=loop.run_until_complete, args=(worker_main(),), daemon=True)
        t.start()
        try:
            cells = [{"a": a, "b": 1.0} for a in range(3)]
            got = run_grid(cells, poly_cell, backend="dask", scheduler=str(conn), use_cache=False, progress=False)
            assert list(got["value"]) == [1.0, 2.0, 5.0]
            for bad in (None, Security.temporary()):
                with pytest.raises((OSError, TimeoutError)):
                    Client(addr if bad else addr.replace("tls://", "tcp://"), security=bad, timeout="3s")
        finally:
            with Client(addr, security=sec, timeout="10s") as c:
                c.retire_workers(close_workers=True)
            t.join(timeout=30)


def test_slurm_recipe_refuses_to_start_without_a_data_mirror(monkeypatch):
    pytest.importorskip("dask_jobqueue")
    from genesel.experiments.cluster import slurm_cluster

    monkeypatch.delenv("GENESEL_DATA_MIRROR", raising=False)
    with pytest.raises(ValueError, match="raw data files"):
        slurm_cluster()


# ------------------------------------------------------------------------------------------------ progress


_PROGRESS_SCRIPT = """
import sys, time
sys.path.insert(0, {tests!r})
from genesel.experiments import run_grid
from test_cluster import slow_cell
run_grid([{{"i": i}} for i in range(8)], slow_cell, use_cache=False, desc="demo")
"""


def slow_cell(i):
    time.sleep(0.05)
    return {"j": i}


def _run_progress(mode):
    env = dict(os.environ, GENESEL_PROGRESS=mode)
    code = _PROGRESS_SCRIPT.format(tests=os.path.dirname(__file__))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def test_progress_in_logs_is_a_few_summary_lines():
    out = _run_progress("log").stdout.splitlines()
    assert out[0] == "demo: 8 cells; computing 8 ..."
    assert out[-1].startswith("demo: 8/8 cells done (")
    assert len(out) <= 6


def test_progress_in_a_terminal_is_a_bar_and_can_be_silenced():
    bar = _run_progress("bar")
    assert "8/8" in bar.stdout and "cell/s" in bar.stdout or "s/cell" in bar.stdout
    assert _run_progress("none").stdout == ""
    bad = _run_progress("loud")
    assert bad.returncode != 0 and "GENESEL_PROGRESS" in bad.stderr


def test_live_progress_in_jupyter_updates_one_output_in_place():
    """In an interactive kernel the display is one output replaced in place (update_display_data), not a line per
    update."""
    from genesel.experiments import progress as P

    shown = []

    class Handle:
        def update(self, obj):
            shown.append(("update", str(obj.data)))

    import IPython.display as D

    orig = D.display
    try:
        D.display = lambda obj, display_id=False: shown.append(("display", str(obj.data))) or Handle()
        bar = P._Live(total=10, initial=2, desc="grid")
        for _ in range(8):
            bar.update()
            time.sleep(0.07)
        bar.close()
    finally:
        D.display = orig
    assert shown[0][0] == "display" and all(k == "update" for k, _ in shown[1:])
    assert "10/10 cells; done in" in shown[-1][1]
