"""Exchange files between the workers: gone when an evaluation ends, however it ends, and
few enough at once that a problem fits an exchange space a few sets large.

Exchange directories are made under ``tmp_path`` here (``exchange.SHM_DIR`` and the temp
directory are redirected), so a test sees every file an evaluation left behind.  A small
exchange space is simulated in the workers by tests/harness_cases/small_exchange.
"""

import os
import re
import signal
import subprocess
import sys
import tempfile

import pytest

from kernelwright.harness import evaluate, exchange

CASES = os.path.join(os.path.dirname(__file__), "harness_cases")
FAST = dict(device="cpu", trials=2, compile=False, timing_budget_s=0.2, min_reps=5, warmup_ms=5.0, timeout=60)
MIB = 1 << 20
S = 4 * MIB  # elu_4mib: one input and one output of S bytes
LOGS = ["candidate.job.json", "candidate.log", "judge.job.json", "judge.log"]


def run(prob, cand, **kw):
    opts = dict(FAST)
    opts.update(kw)
    return evaluate(os.path.join(CASES, "problems", prob + ".py"),
                    os.path.join(CASES, "candidates", cand + ".py"), **opts)


def files_under(*dirs):
    return sorted(os.path.join(root, f) for d in dirs for root, _, names in os.walk(str(d)) for f in names)


def entries(*dirs):
    return sorted(os.path.join(str(d), n) for d in dirs for n in os.listdir(str(d)))


@pytest.fixture
def parents(tmp_path, monkeypatch):
    """(shm, tmp): where an evaluation makes its exchange directories and its own workdir."""
    shm, tmp = tmp_path / "shm", tmp_path / "tmp"
    shm.mkdir()
    tmp.mkdir()
    monkeypatch.setattr(exchange, "SHM_DIR", str(shm))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    return shm, tmp


def small_exchange(limit, monkeypatch, tmp_path):
    """Options giving the workers one exchange directory with room for ``limit`` bytes."""
    monkeypatch.setattr(exchange, "SHM_DIR", str(tmp_path / "no-shm"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    path = os.pathsep.join([os.path.join(CASES, "small_exchange")] + sys.path)
    return dict(env={"PYTHONPATH": path, "KW_TEST_EXCHANGE_BYTES": str(int(limit))})


def test_no_file_is_left_after_a_passing_evaluation(parents, tmp_path):
    # A suite passes its own work directory: it keeps the logs, not the tensors.
    work = tmp_path / "work"
    r = run("elu", "elu_correct", workdir=str(work))
    assert r["verdict"] == "pass", r["reason"]
    assert r["exchange"]["input_sets_by_handle"] == r["exchange"]["outputs_by_handle"] == 0  # on the CPU
    assert sorted(os.listdir(str(work))) == LOGS
    assert entries(*parents) == []
    r = run("elu", "elu_correct")
    assert r["verdict"] == "pass", r["reason"]
    assert entries(*parents) == []


@pytest.mark.parametrize("cand,verdict,phase", [
    ("segfault", "crash", "correctness"),
    ("crashes_when_timed", "crash", "timing candidate"),
    ("hangs_when_timed", "timeout", "timing candidate"),
])
def test_no_file_is_left_after_a_failed_evaluation(parents, tmp_path, cand, verdict, phase):
    # hangs_when_timed: waiting for the judge between correctness and timing must not
    # lift the candidate's time limit.
    work = tmp_path / "work"
    r = run("elu", cand, workdir=str(work), timeout=6)
    assert r["verdict"] == verdict and phase in r["reason"], r["reason"]
    assert sorted(os.listdir(str(work))) == LOGS
    assert entries(*parents) == []


def test_kept_workdir_holds_the_tensors_on_disk(parents):
    r = run("elu", "elu_correct", keep_workdir=True)
    assert r["verdict"] == "pass", r["reason"]
    kept = os.listdir(r["workdir"])
    assert {"setup.pt", "set0.pt", "out0.pt", "recheck0.pt"} <= set(kept)
    shm, tmp = parents
    assert entries(shm) == [] and entries(tmp) == [r["workdir"]]


def test_exchange_of_a_killed_evaluation_is_removed_by_the_next(parents):
    shm, tmp = parents
    code = ("import sys, time; from kernelwright.harness import exchange; exchange.SHM_DIR = sys.argv[1]; "
            "s = exchange.Space(); open(s.dirs[0] + '/set0.pt', 'w').close(); print(s.dirs, flush=True); "
            "time.sleep(60)")
    env = dict(os.environ, TMPDIR=str(tmp), PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.Popen([sys.executable, "-c", code, str(shm)], stdout=subprocess.PIPE, env=env, text=True)
    try:
        p.stdout.readline()
        running = exchange.Space()  # its sweep leaves a live evaluation's directories alone
        assert len(files_under(shm)) == 1 and len(entries(shm, tmp)) == 4
    finally:
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        p.stdout.close()
    running.close()
    after = exchange.Space()
    assert files_under(shm, tmp) == [] and entries(shm, tmp) == sorted(after.dirs)
    after.close()
    assert entries(shm, tmp) == []


def test_no_room_is_an_error_saying_why_and_the_next_evaluation_runs(tmp_path, monkeypatch):
    work = tmp_path / "work"
    r = run("elu", "elu_correct", workdir=str(work), redraw_inputs=False,
            **small_exchange(0, monkeypatch, tmp_path))
    assert r["verdict"] == "error"
    reason = r["reason"]
    assert reason.startswith("harness (in the judge worker), reference trials: ExchangeSpaceError: "
                             "no room to pass set0.pt between workers: it needs 64.0 MiB"), reason
    assert re.search(re.escape(os.path.join(str(tmp_path), "kw-exchange-")) + r"\w+ has 0\.0 MiB free", reason)
    assert "this evaluation's files there take 0.0 MiB" in reason
    assert sorted(os.listdir(str(work))) == LOGS
    assert [e for e in os.listdir(str(tmp_path)) if e.startswith(("kw-", ".kw-"))] == []

    monkeypatch.undo()
    assert run("elu", "elu_correct", workdir=str(work))["verdict"] == "pass"


# With two input sets (trial0 and one variant) passed as files, the most exchange files held
# at once is max(2S + 2O, S + 5O) = 6S: both sets and outputs until they are judged, then the
# timing's set and at most five re-checked outputs.  Holding every file until the end took
# 2S + 2O + R(S + O), 40 to 56 MiB here.  With the sets drawn again from their seeds (the
# default) only the outputs pass: at most 5O.
@pytest.mark.parametrize("redraw,peak", [(False, 6 * S), (True, 5 * S)])
def test_peak_exchange_files(tmp_path, monkeypatch, redraw, peak):
    room = exchange.MARGIN_BYTES + peak + (peak >> 6) + MIB
    r = run("elu_4mib", "elu_correct", max_input_bytes=2 * S, workdir=str(tmp_path / "work"),
            redraw_inputs=redraw, **small_exchange(room, monkeypatch, tmp_path))
    assert r["verdict"] == "pass", r["reason"]
    assert set(r["correctness"]["sets"]) == {"trial0", "signed(trial0)"}
    assert r["exchange"]["input_sets_redrawn"] == 2 * redraw
    assert 3 <= r["correctness"]["rechecked_timed_calls"] <= 5


def test_no_room_mid_evaluation_is_an_error_and_leaves_nothing(tmp_path, monkeypatch):
    # Room for both sets and one output, not the second output.
    room = exchange.MARGIN_BYTES + 3 * S + S // 2
    work = tmp_path / "work"
    r = run("elu_4mib", "elu_correct", max_input_bytes=2 * S, workdir=str(work), redraw_inputs=False,
            **small_exchange(room, monkeypatch, tmp_path))
    assert r["verdict"] == "error"
    assert r["reason"].startswith("harness (in the candidate worker), correctness signed(trial0): "
                                  "ExchangeSpaceError: no room to pass out1.pt between workers: it needs 68.1 MiB "
                                  "(4.0 MiB of tensors and a margin)"), r["reason"]
    assert "this evaluation's files there take 12.0 MiB" in r["reason"]
    assert sorted(os.listdir(str(work))) == LOGS
    assert [e for e in os.listdir(str(tmp_path)) if e.startswith(("kw-", ".kw-"))] == []


def test_sets_are_drawn_again_only_where_the_seed_reproduces_them():
    """A get_inputs() that ignores the seeds is caught by the judge's second draw: its sets pass
    as files and are judged as before.  One that differs only in another process is caught by
    the candidate worker's fingerprint check, and the evaluation runs again with the sets passed
    as files, saying why."""
    r = run("elu", "elu_correct")
    assert r["verdict"] == "pass" and r["exchange"]["input_sets_redrawn"] == len(r["correctness"]["sets"])
    r = run("elu_unseeded", "elu_correct")
    assert r["verdict"] == "pass", r["reason"]
    assert r["exchange"]["input_sets_redrawn"] == 0 and len(r["correctness"]["sets"]) >= 2
    r = run("elu_per_process", "elu_correct")
    assert r["verdict"] == "pass", r["reason"]
    assert r["exchange"]["input_sets_redrawn"] == 0
    assert r["notes"][0].startswith("input sets passed through files: harness (in the candidate worker), "
                                    "correctness trial0: InputsNotReproduced: input set trial0 drawn again")
    r = run("elu_per_process", "elu_correct", redraw_inputs=False)
    assert r["verdict"] == "pass", r["reason"]
    assert r["exchange"]["input_sets_redrawn"] == 0 and not any("drawn again" in n for n in r["notes"])


@pytest.mark.cuda
def test_cuda_tensors_round_trip_through_pinned_staging(tmp_path, monkeypatch):
    """Large CUDA tensors are staged through pinned memory; load() puts them back on their
    device, or where it is told; views and shared storages keep torch.save's own path."""
    import torch

    monkeypatch.setattr(exchange, "STAGE_MIN_BYTES", 4096)
    base = torch.randn(64, 96, device="cuda")
    big, view = torch.randn(3000, device="cuda"), base.t()  # a transposed view: strides kept
    obj = {"out": [big, view, base], "n": 7, "small": torch.arange(5, device="cuda")}
    staged, devices = exchange._staged(obj, torch)
    assert set(devices) == {"out['out'][0]"}  # base is shared with view, small is small
    assert staged["out"][0].is_pinned() and staged["out"][0].device.type == "cpu"
    path = exchange.save(obj, "x.pt", [str(tmp_path)])
    back = exchange.load(path)
    assert back["n"] == 7 and back["out"][0].is_cuda and torch.equal(back["out"][0], big)
    assert back["out"][1].stride() == view.stride() and torch.equal(back["out"][1], view)
    assert back["out"][1].untyped_storage().data_ptr() == back["out"][2].untyped_storage().data_ptr()
    assert torch.equal(back["small"], obj["small"]) and back["small"].is_cuda
    on_cpu = exchange.load(path, "cpu")
    assert on_cpu["out"][0].device.type == "cpu" and torch.equal(on_cpu["out"][0], big.cpu())
    plain = exchange.save([base.cpu()], "y.pt", [str(tmp_path)])  # nothing staged: plain file
    assert isinstance(torch.load(plain, weights_only=True), list)


def test_fingerprint_sees_any_change_and_needs_its_key():
    """The judge's check on the sets it shares by handle: one changed word anywhere (a float
    nudged by one ulp, an odd-sized storage's last byte) changes the fingerprint; views of one
    storage count once; another key gives another value."""
    import torch

    from kernelwright.harness import handles

    base = torch.randn(257, 33)
    x = [base, base.t()[3:], torch.arange(7, dtype=torch.uint8), torch.randn(0), 5]
    key = handles.new_key()
    ref = handles.fingerprint(x, key, torch)
    assert ref == handles.fingerprint(x, key, torch)
    assert ref != handles.fingerprint(x, handles.new_key(), torch)
    assert ref != handles.fingerprint([base], key, torch)  # the uint8 storage counts
    base.view(-1)[4000] = torch.nextafter(base.view(-1)[4000], torch.tensor(float("inf")))
    assert handles.fingerprint(x, key, torch) != ref
    ref = handles.fingerprint(x, key, torch)
    x[2][6] += 1  # 7 bytes: hashed byte by byte
    assert handles.fingerprint(x, key, torch) != ref


def test_device_exchange_option_reaches_the_workers():
    import argparse

    from kernelwright.harness.api import EvalOptions
    from kernelwright.harness.cli import add_eval_options, options_from_args

    p = argparse.ArgumentParser()
    add_eval_options(p)
    assert options_from_args(p.parse_args([])).device_exchange is True
    assert options_from_args(p.parse_args(["--no-device-exchange"])).device_exchange is False
    assert EvalOptions().device_exchange is True


_HANDLE_READER = r"""
import sys, torch
from kernelwright.harness import exchange
back = exchange.load(sys.argv[1])
torch.save(back, sys.argv[2])
a, v, b = back["out"]
print(a.is_cuda, v.stride(), v.untyped_storage().data_ptr() == b.untyped_storage().data_ptr(), a.requires_grad)
"""


@pytest.mark.cuda
def test_cuda_tensors_pass_by_handle_to_another_process(tmp_path):
    """With a holder that has room, save() writes only handles; another process gets copies of
    its own, with strides, shared storages and requires_grad as they were; released, the
    memory is the producer's again.  Without room (or without a holder) the data is in the file."""
    import torch

    from kernelwright.harness import handles

    base = torch.randn(64, 96, device="cuda")
    big = torch.randn(5000, device="cuda").requires_grad_()
    obj = {"out": [big, base.t(), base], "n": 7, "cpu": torch.arange(3)}
    holder = handles.Holder(torch, budget=1 << 30)
    path = exchange.save(obj, "x.pt", [str(tmp_path)], holder)
    assert holder.holds(path) and holder.bytes == big.nbytes + base.nbytes
    assert os.path.getsize(path) < 4096  # handles, not data
    out = subprocess.run([sys.executable, "-c", _HANDLE_READER, path, str(tmp_path / "copy.pt")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "(1,", "96)", "True", "True"]
    back = torch.load(str(tmp_path / "copy.pt"), weights_only=True)
    assert torch.equal(back["out"][0].cuda(), big.detach()) and torch.equal(back["out"][1].cuda(), base.t())
    assert back["n"] == 7 and torch.equal(back["cpu"], obj["cpu"])
    holder.release(path)
    assert not holder.holds(path) and holder.bytes == 0
    small = handles.Holder(torch, budget=big.nbytes)
    path = exchange.save(obj, "y.pt", [str(tmp_path)], small)
    assert not small.holds(path) and os.path.getsize(path) > big.nbytes  # no room: a file
    back = exchange.load(path)
    assert torch.equal(back["out"][0], big.detach()) and back["out"][0].is_cuda


@pytest.mark.cuda
def test_evaluation_passes_tensors_by_handle_or_by_file_alike():
    """The same candidate, the input sets drawn again in each worker (default) or passed, the
    GPU tensors passed by handle (default) or through files."""
    for redraw, by_handle in ((True, True), (False, True), (False, False)):
        r = run("elu_4mib", "elu_correct", device="cuda", device_exchange=by_handle, redraw_inputs=redraw)
        assert r["verdict"] == "pass", (redraw, by_handle, r["reason"])
        sets = r["exchange"]["input_sets"]
        assert sets >= 2 and r["exchange"] == {
            "input_sets": sets, "input_sets_redrawn": sets * redraw,
            "input_sets_by_handle": sets * (by_handle and not redraw), "outputs_by_handle": sets * by_handle}


def test_handle_room_leaves_the_reference_peak_free():
    """What the workers hold for each other leaves room for the float64 reference: a 6 GiB
    ELU set (two sets, two outputs) goes by handle on an 80 GB and a 141 GB GPU; a training
    step with three 6 GiB inputs and outputs, whose float64 reference takes 72 GiB, does not."""
    from kernelwright.harness.handles import room_bytes

    gib = 1 << 30
    for total in (80 * 10**9, 141 * 10**9):
        judge, room = room_bytes(total, 6 * gib, 6 * gib, 24 * gib)
        assert judge >= 12 * gib and room - 12 * gib >= 12 * gib and judge <= total // 4
        judge, room = room_bytes(total, 18 * gib, 18 * gib, 72 * gib)
        assert judge < 18 * gib and room < 18 * gib
    assert room_bytes(8 * gib, 4 * gib, 4 * gib, 16 * gib) == (0, 0)


def test_a_handle_that_cannot_be_opened_is_the_harness_fault():
    """Where CUDA IPC is not to be had (here: no CUDA at all, or a stale handle), opening a
    handle names the harness and the way around it, not the code under evaluation."""
    import torch

    from kernelwright.harness import handles
    from kernelwright.harness.plumbing import failure

    if torch.cuda.is_available():
        pytest.skip("needs a machine where CUDA IPC cannot work")
    fake = (0, b"\0" * 64, 4096, 0, b"ref", 0, b"\0" * 64, True)
    with pytest.raises(handles.HandleError, match="--no-device-exchange") as info:
        handles.unpack(([None], {"out[0]": (0, "float32", [4], [1], 0, False)}, [fake]), torch)
    try:
        raise info.value
    except handles.HandleError as exc:
        report = failure(exc)
    assert report["status"] == "error" and report["cause"] == "harness: exchange by handle"


def test_split_and_join_keep_layout_sharing_and_gradients():
    """What pack and unpack do around the IPC calls, on host tensors: the tensors come back as
    views of the storages given, with their strides, offsets, shared storage, dtypes and
    requires_grad; everything else in place."""
    import torch

    from kernelwright.harness import handles

    base = torch.randn(6, 10)
    obj = {"b": [base.t()[2:], base, torch.arange(5, dtype=torch.int16)], "a": (torch.randn(3).requires_grad_(), 7),
           "e": torch.empty(0)}
    skeleton, leaves, storages = handles._split(obj, torch, "cpu")
    assert len(storages) == 3 and set(leaves) == {"out['a'][0]", "out['b'][0]", "out['b'][1]", "out['b'][2]"}
    copies = [torch.empty(st.nbytes(), dtype=torch.uint8).untyped_storage() for st in storages]
    for c, st in zip(copies, storages):
        c.copy_(st)
    back = handles._join(skeleton, leaves, copies, torch)
    view, whole, ints = back["b"]
    assert torch.equal(view, base.t()[2:]) and view.stride() == base.t()[2:].stride()
    assert view.storage_offset() == base.t()[2:].storage_offset()
    assert view.untyped_storage().data_ptr() == whole.untyped_storage().data_ptr() != base.untyped_storage().data_ptr()
    assert ints.dtype == torch.int16 and torch.equal(ints, obj["b"][2])
    assert back["a"][0].requires_grad and torch.equal(back["a"][0].detach(), obj["a"][0].detach()) and back["a"][1] == 7
    assert back["e"].numel() == 0 and isinstance(back["a"], tuple)
    assert handles._split(obj, torch, "cuda")[2] == []
