"""Compare a suite's verdicts with what the candidates' authors expected.

    python tests/blind/score.py OUT/results.jsonl tests/blind/expected_honest.json

Expected "pass" is met by the verdict pass; expected "fail" by any other verdict (fail, error,
crash, timeout).  Prints one line per candidate and the totals; exits 1 on any mismatch or
missing result.
"""

import json
import sys


def main(results_path, expected_path):
    with open(expected_path) as f:
        expected = json.load(f)
    got = {}
    with open(results_path) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                got[r["id"]] = r
    bad = 0
    for cid, exp in sorted(expected.items()):
        r = got.get(cid)
        if r is None:
            bad += 1
            print("%-45s expected %-4s  MISSING" % (cid, exp["expected"]))
            continue
        ok = (r["verdict"] == "pass") == (exp["expected"] == "pass")
        bad += not ok
        speedup = r.get("speedup_vs_eager")
        print("%-45s expected %-4s  got %-7s %-9s %s" % (
            cid, exp["expected"], r["verdict"], "%.3fx" % speedup if speedup else "-",
            "ok" if ok else "MISMATCH  flags: %s" % ", ".join(r.get("flags") or []) or "-"))
    print("%d of %d as expected" % (len(expected) - bad, len(expected)))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
