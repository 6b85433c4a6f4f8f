"""Print the mutation score of `make mutation` from mutmut's results, over the mutants whose
names match the patterns given (the same globs the run was restricted to).

    python scripts/mutation_score.py 'conll_eval.stats.*' ...

Reads ``python -m mutmut results --all true`` (one ``name: status`` line per mutant) in the
current directory.  Killed and timed-out mutants count as detected; survivors and mutants no
selected test reaches ("no tests") count against the score; mutants not run (not checked,
skipped) are left out and counted apart.  Exit status 0, or 1 when no mutant matched.
"""
import fnmatch
import subprocess
import sys
from collections import Counter

DETECTED = ("killed", "timeout", "caught by type check")
UNDETECTED = ("survived", "no tests", "suspicious", "segfault")


def main(patterns):
    listing = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"],
                             capture_output=True, text=True, check=True).stdout
    status_of = {}
    for line in listing.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and any(fnmatch.fnmatchcase(name, p) for p in patterns):
            status_of[name] = status
    if not status_of:
        print("mutation score: no mutant matches", " ".join(patterns))
        return 1
    counts = Counter(status_of.values())
    detected = sum(counts[s] for s in DETECTED)
    scored = detected + sum(counts[s] for s in UNDETECTED)
    for name in sorted(n for n, s in status_of.items() if s in UNDETECTED):
        print(f"{status_of[name]}: {name}")
    print("statuses:", ", ".join(f"{s} {n}" for s, n in sorted(counts.items())))
    share = 100.0 * detected / scored if scored else 0.0
    print(f"mutation score: {detected}/{scored} killed ({share:.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["*"]))
