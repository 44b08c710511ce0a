"""scripts/optimize_levels.py: a problem's last record counts, levels are told apart by the
KernelBench folder, and what is missing, slow or below eager is named."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _record(problem, verdict="pass", eager=2.0, compile_=1.5, seconds=30.0):
    return {"problem": problem, "verdict": verdict, "speedup_vs_eager": eager, "speedup_vs_compile": compile_,
            "error_vs_fp64": {"rel_l2": 1e-7}, "seconds": {"total": seconds}, "device_name": "GPU X",
            "date": "2026-11-26 05:00 UTC"}


def test_levels_count_each_problems_last_record(tmp_path):
    kb = tmp_path / "kb"
    for level, names in (("level1", ["1_Add", "2_Mul", "3_Conv"]), ("level2", ["1_Conv_ReLU", "2_Gemm_Tanh"]),
                         ("level3", ["1_Model"])):
        (kb / level).mkdir(parents=True)
        for n in names:
            (kb / level / (n + ".py")).write_text("")
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    old.write_text("\n".join(json.dumps(r) for r in [
        _record("L1_1_Add", eager=0.5), _record("2_Mul", verdict="fail", eager=None, compile_=None),
        _record("1_Conv_ReLU", eager=4.0, compile_=2.0, seconds=75.0)]) + "\n")
    lost = dict(_record("2_Mul", eager=0.9, compile_=0.8), kernels=[{"kept": False}, {"kept": False}])
    kept = dict(_record("1_Conv_ReLU", eager=4.0, compile_=2.0, seconds=75.0), kernels=[{"kept": False}, {"kept": True}])
    # Its kernel kept, but Model's whole forward measured faster end to end.
    passthrough = dict(_record("1_Model"), kernels=[{"kept": True}], passthrough=True)
    # Its one group runs in its GEMM's epilogue: a generated kernel in the emitted module.
    in_epilogue = dict(_record("2_Gemm_Tanh"), kernels=[{"kept": False, "template": "GEMM epilogue"}])
    new.write_text("".join(json.dumps(r) + "\n" for r in (lost, kept, passthrough, in_epilogue)))
    out = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "optimize_levels.py"), "--kernelbench",
                          str(kb), str(old), str(new)], capture_output=True, text=True, check=True).stdout
    level1, level2 = out.split("## level1")[1].split("## level2")
    level2, level3 = level2.split("## level3")
    assert "2 of 3 problems measured" in level1 and "- verdicts: 2 pass" in level1
    # 1_Add (0.5x, its "L1_" name) and 2_Mul's last record (0.9x, not its earlier failure).
    assert "geometric mean over passing problems: 0.671x vs eager" in level1
    assert "under 0.95x eager: 1_Add (0.5x), 2_Mul (0.9x)" in level1
    assert "not measured: 3" in level1 and "over 60 s to optimize: none" in level1
    assert "2 of 2 problems measured" in level2 and "over 60 s to optimize: 1_Conv_ReLU (75 s)" in level2
    assert "faster than torch.compile on 2 of 2" in level2 and "not measured: none" in level2
    assert "planned, none in the emitted module: 2\n" in level1  # 1_Add planned none: not named
    assert "planned, none in the emitted module: none" in level2
    assert "planned, none in the emitted module: 1\n" in level3
