#!/usr/bin/env python3
"""Checks the documents against the code that cites them (make check-docs).

1. Every scene-format section cited ("scene format section 8", "scene format 3.4",
   "section 6 of the format", "sections 1–3 and 6", "§7") in Sources/, Tests/, Golden/,
   Fuzz/, scripts/, README.md and docs/ is a numbered heading of docs/scene-format.md.
2. Every relative link in README.md, BENCHMARKS.md and docs/*.md names a file that exists and,
   with an anchor, a heading of that file (GitHub's slugs).
3. Nothing cites the scene format outside the repository (shared/spec/scene-format.md).
Exit 0 when all hold, 1 otherwise, listing every failure as FILE:LINE: message.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORMAT = "docs/scene-format.md"
CITING = ["Sources", "Tests", "Golden", "Fuzz", "scripts", "docs", "README.md"]
SUFFIXES = (".swift", ".py", ".sh", ".md", ".dict", ".c", ".h")
LINKED = ["README.md", "BENCHMARKS.md", "docs"]
# Pages whose "section N" means their own sections or passes, not the format's.
NOT_CITING = {"docs/benchmarks-history.md", "scripts/check-docs.py"}

NUMBER = r"\d+(?:\.\d+)?"
LIST = rf"{NUMBER}(?:\s*(?:,|and|–|-|to)\s*{NUMBER})*"
CITATIONS = [
    re.compile(rf"\bsections?\s+({LIST})", re.I),
    re.compile(rf"\bscene[ -]format,?\s+({NUMBER})\b", re.I),
    re.compile(rf"§\s*({NUMBER})"),
]


def files(paths, suffixes):
    for p in paths:
        full = os.path.join(ROOT, p)
        if os.path.isfile(full):
            yield p
            continue
        for d, _, names in os.walk(full):
            for n in sorted(names):
                if n.endswith(suffixes):
                    yield os.path.relpath(os.path.join(d, n), ROOT)


def lines(path):
    with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
        return f.read().split("\n")


def slug(heading):
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading.strip().lower())
    return "".join(c for c in text if c.isalnum() or c in " -").replace(" ", "-")


def headings(path):
    slugs, seen, fence = set(), {}, False
    for line in lines(path):
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"^#{1,6} (.*)$", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            slugs.add(s if n == 0 else f"{s}-{n}")
    return slugs


def expand(numbers):
    out = []
    for part in re.split(r"\s*(?:,|and)\s*", numbers):
        r = re.match(rf"^({NUMBER})\s*(?:–|-|to)\s*({NUMBER})$", part)
        if r and "." not in part:
            out += [str(i) for i in range(int(r.group(1)), int(r.group(2)) + 1)]
        elif part:
            out += re.findall(NUMBER, part)
    return out


def main():
    problems = []
    sections = set()
    for line in lines(FORMAT):
        m = re.match(rf"^#{{2,3}} ({NUMBER})\.? ", line)
        if m:
            sections.add(m.group(1))
    cited = 0
    for path in files(CITING, SUFFIXES):
        if path in NOT_CITING:
            continue
        for i, line in enumerate(lines(path), 1):
            if "shared/spec/scene-format" in line and path != "scripts/check-docs.py":
                problems.append(f"{path}:{i}: cites the scene format outside the repository; cite {FORMAT}")
            for pattern in CITATIONS:
                for m in pattern.finditer(line):
                    for n in expand(m.group(1)):
                        cited += 1
                        if n not in sections:
                            problems.append(f"{path}:{i}: cites section {n}, which {FORMAT} does not have")
    anchors = {}
    for path in files(LINKED, (".md",)):
        fence = False
        for i, line in enumerate(lines(path), 1):
            if line.startswith("```"):
                fence = not fence
            if fence:
                continue
            for target in re.findall(r"\]\(([^)\s]+)\)", line):
                if re.match(r"^[a-z]+:", target):
                    continue
                file, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
                if not os.path.exists(os.path.join(ROOT, dest)):
                    problems.append(f"{path}:{i}: link to {target}: no file {dest}")
                elif anchor and dest.endswith(".md"):
                    if dest not in anchors:
                        anchors[dest] = headings(dest)
                    if anchor not in anchors[dest]:
                        problems.append(f"{path}:{i}: link to {target}: {dest} has no heading #{anchor}")
    for p in problems:
        print(p)
    print(f"check-docs: {cited} section citations, {len(sections)} sections in {FORMAT}, "
          f"{len(problems)} problem{'s' if len(problems) != 1 else ''}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
