"""Prints the summary of `kernelwright optimize --suite` results files (results.jsonl), as
the suite writes it to summary.md: fast_p, geometric means, a line per problem. A problem in
several files (a rerun in another folder) counts once, as its last record."""

import sys

from kernelwright.harness.report import summarize
from kernelwright.optimize.report import latest_records, suite_markdown


def main(paths):
    # Missing files are skipped: an unmatched shell glob arrives as a literal path.
    records = list(latest_records(paths, missing_ok=True).values())
    if records:
        print(suite_markdown(records, summarize(records)))


if __name__ == "__main__":
    main(sys.argv[1:])
