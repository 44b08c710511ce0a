"""`kernelwright run`: every bundled problem's kernelwright ModelNew passes the harness."""

import ast
import json
import os
import re
import subprocess
import sys

from test_harness import check_throughput

from kernelwright.harness.roofline import first_sentence
from kernelwright.run import bundled_problems_dir, problem_names


def test_every_bundled_problem_has_a_kernelwright_candidate():
    root = bundled_problems_dir()
    names = problem_names(root)
    assert len(names) >= 7
    for name in names:
        assert os.path.isfile(os.path.join(root, name, "candidate_kernelwright.py")), name


def test_run_passes_every_bundled_problem_on_cpu(tmp_path):
    out = tmp_path / "report"
    cmd = [sys.executable, "-m", "kernelwright.cli", "run", "--device", "cpu", "--out", str(out),
           "--trials", "2", "--timing-budget", "0.3", "--no-compile", "--quiet"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1500)
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines() if line.strip()]
    assert proc.returncode == 0, (proc.stdout[-2000:], proc.stderr[-2000:], records)
    assert {r["id"].split("/")[0] for r in records} == set(problem_names(bundled_problems_dir()))
    assert all(r["verdict"] == "pass" for r in records), [(r["id"], r["reason"]) for r in records]
    assert (out / "summary.md").exists() and (out / "speedups.png").exists()
    summary = (out / "summary.md").read_text()
    for r in records:
        assert r["bytes"] > 0 and r["flops"] >= 0
        check_throughput(r)
        with open(os.path.join(bundled_problems_dir(), r["id"] + ".py")) as f:
            assert r["design"] == first_sentence(ast.get_docstring(ast.parse(f.read())))
        assert "- **%s**: %s" % (r["id"], r["bound"]) in summary
    # The headline problem's GEMMs are counted.
    assert [r["flops"] > 0 for r in records if r["id"].startswith("linear_sigmoid_linear_logsumexp/")] == [True]


def test_design_notes_are_whole_sentences():
    """The harness shows a candidate's first docstring sentence as its design note and cuts it
    at 400 characters: each bundled one must end within them."""
    for name in problem_names(bundled_problems_dir()):
        with open(os.path.join(bundled_problems_dir(), name, "candidate_kernelwright.py")) as f:
            design = first_sentence(ast.get_docstring(ast.parse(f.read())))
        assert design is None or design.endswith("."), (name, design)


def test_unknown_problem_is_a_clear_error(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "kernelwright.cli", "run", "--problems", "nope", "--out",
                           str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "unknown problem" in proc.stdout


def test_help_shows_defaults_without_importing_torch():
    code = ("import sys\nfrom kernelwright.cli import main\n"
            "for argv in (['--help'], ['run', '--help'], ['eval', '--help']):\n"
            "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
            "assert 'torch' not in sys.modules, 'torch imported'\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, COLUMNS="250"))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "seeded draws of get_inputs() (default: 5)" in out
    assert "(default: auto)" in out and "(default: 2.0)" in out
    assert "half of physical memory" in out and "kernelwright-report/eval-" in out
    assert re.search(r"--quiet +print nothing", out)
