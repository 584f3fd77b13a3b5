#!/usr/bin/env python3
"""The `swift test` options that run one sanitizer's tests (scripts/sanitizer-tests.txt).

    scripts/sanitizer-selection.py thread|address SELECTION LIST

LIST holds `swift test list`'s output (one test id, `Module.Suite/test()`, a
line). Prints one option a line (`--filter REGEX`, `--skip REGEX`) for
scripts/test-sanitizer.sh, then, on standard error, how many tests of how
many the selection runs.

Fails (exit 1, naming each) when a suite of LIST has no line of its own in
SELECTION, when a line names no test of LIST, when a line is given twice, or
when a line's sanitizers are not `thread`, `address`, both or `-`: coverage
cannot change without an edit to SELECTION that says why.
"""
import re
import sys

KINDS = {"thread", "address"}


def read_selection(path):
    """(pattern, kinds, line number) for each line, in file order."""
    entries = []
    problems = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            fields = text.split(None, 2)
            if len(fields) < 3:
                problems.append(f"{path}:{number}: needs a test, its sanitizers and why")
                continue
            pattern, sanitizers, _ = fields
            kinds = set() if sanitizers == "-" else set(sanitizers.split(","))
            if not kinds <= KINDS:
                problems.append(f"{path}:{number}: sanitizers are thread, address, thread,address or -, not {sanitizers}")
                continue
            entries.append((pattern, kinds, number))
    return entries, problems


def suite_of(test_id):
    return test_id.split("/", 1)[0]


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in KINDS:
        sys.exit(f"usage: {sys.argv[0]} thread|address SELECTION LIST")
    kind, selection, listing = sys.argv[1:]
    with open(listing, encoding="utf-8") as f:
        tests = [t for t in (line.strip() for line in f) if re.fullmatch(r"[\w.]+/.+", t)]
    if not tests:
        sys.exit(f"{listing}: no tests listed")
    entries, problems = read_selection(selection)

    seen = {}
    for pattern, _, number in entries:
        if pattern in seen:
            problems.append(f"{selection}:{number}: {pattern} is also on line {seen[pattern]}")
        seen[pattern] = number
    suites = {p: kinds for p, kinds, _ in entries if "/" not in p}
    for suite in sorted({suite_of(t) for t in tests} - suites.keys()):
        problems.append(f"{selection}: suite {suite} has no line: say which sanitizers run it and why")
    for pattern, _, number in entries:
        if not any(t == pattern or t.startswith(pattern + ("/" if "/" not in pattern else "")) for t in tests):
            problems.append(f"{selection}:{number}: {pattern} names no test of `swift test list`")
        if "/" in pattern and suite_of(pattern) not in suites:
            problems.append(f"{selection}:{number}: {pattern}: its suite {suite_of(pattern)} has no line of its own")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)

    # A test follows the most specific line naming it: its suite's line, or
    # the longest test-prefix line of that suite that matches it.
    def runs(test):
        suite = suite_of(test)
        best, kinds = suite, suites[suite]
        for pattern, k, _ in entries:
            if "/" in pattern and test.startswith(pattern) and len(pattern) > len(best):
                best, kinds = pattern, k
        return kind in kinds

    options = []
    for pattern, kinds, _ in entries:
        regex = "^" + re.escape(pattern) + ("/" if "/" not in pattern else "")
        parent = suites.get(suite_of(pattern), kinds)
        if "/" not in pattern and kind in kinds:
            options += ["--filter", regex]
        elif "/" in pattern and kind in kinds and kind not in parent:
            options += ["--filter", regex]
        elif "/" in pattern and kind not in kinds and kind in parent:
            options += ["--skip", regex]
    chosen = [t for t in tests if runs(t)]
    print(f"{kind} sanitizer: {len(chosen)} of {len(tests)} tests "
          f"({len({suite_of(t) for t in chosen})} of {len({suite_of(t) for t in tests})} suites), "
          f"chosen by {selection}", file=sys.stderr)
    print("\n".join(options))


if __name__ == "__main__":
    main()
