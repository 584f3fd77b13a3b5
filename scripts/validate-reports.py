#!/usr/bin/env python3
"""Renders every golden case (Golden/*/golden.json: scales x pixel ratios x
floors) with the built mapsnap, writes its report, and validates each report
against docs/report.schema.json with the jsonschema package (Draft 2020-12).

A negative control proves the validator can fail: a copy of the first report
with a required key removed and a count made negative must be rejected.

    python3 scripts/validate-reports.py [path/to/mapsnap]

Exit 0 when every report is valid, 1 otherwise.
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    sys.exit("scripts/validate-reports.py needs the jsonschema package: python3 -m pip install jsonschema")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAPSNAP = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "release", "mapsnap")


def number_text(n):
    return str(int(n)) if float(n).is_integer() else repr(n)


def cases():
    golden = os.path.join(ROOT, "Golden")
    for name in sorted(os.listdir(golden)):
        meta_path = os.path.join(golden, name, "golden.json")
        if not os.path.exists(meta_path):
            continue
        with open(meta_path) as f:
            meta = json.load(f)
        for scale in meta.get("scales", []):
            for ratio in meta.get("pixelRatios", [None]):
                for floor in meta.get("floors", [None]):
                    yield name, scale, ratio, floor


def main():
    with open(os.path.join(ROOT, "docs", "report.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    passed, failed, first = 0, 0, None
    with tempfile.TemporaryDirectory() as tmp:
        for name, scale, ratio, floor in cases():
            label = f"{name} 1:{number_text(scale)}" + (f" @{number_text(ratio)}x" if ratio else "") + (f" floor {floor}" if floor is not None else "")
            args = [MAPSNAP, os.path.join(ROOT, "Golden", name, "scene.json"), "--scale", number_text(scale),
                    "-o", os.path.join(tmp, "out.png"), "--report", os.path.join(tmp, "report.json")]
            if ratio:
                args += ["--pixel-ratio", number_text(ratio)]
            if floor is not None:
                args += ["--floor", str(floor)]
            run = subprocess.run(args, capture_output=True, text=True)
            if run.returncode != 0:
                print(f"FAIL {label}: mapsnap exited {run.returncode}: {run.stderr.strip()}")
                failed += 1
                continue
            with open(os.path.join(tmp, "report.json")) as f:
                report = json.load(f)
            errors = sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path))
            if errors:
                failed += 1
                for e in errors[:5]:
                    print(f"FAIL {label}: {'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}")
            else:
                passed += 1
                first = first or report
    if first is None:
        print("no report was produced")
        return 1
    # Negative control: the validator rejects a broken report.
    broken = copy.deepcopy(first)
    del broken["map"]
    broken["layers"][0]["features"]["drawn"] = -1
    if validator.is_valid(broken):
        print("FAIL negative control: a report without 'map' and with a negative count was accepted")
        failed += 1
    print(f"report schema: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
