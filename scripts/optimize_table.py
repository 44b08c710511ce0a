"""Prints the summary of `kernelwright optimize --suite` results files (results.jsonl), as
the suite writes it to summary.md: fast_p, geometric means, a line per problem. A problem in
several files (a rerun in another folder) counts once, as its last record."""

import json
import sys

from kernelwright.harness.report import summarize
from kernelwright.optimize.report import last_per_problem, suite_markdown


def main(paths):
    records = []
    for path in paths:
        try:
            with open(path) as f:
                records += [json.loads(line) for line in f if line.strip()]
        except OSError:
            continue
    records = list(last_per_problem(records).values())
    if records:
        print(suite_markdown(records, summarize(records)))


if __name__ == "__main__":
    main(sys.argv[1:])
