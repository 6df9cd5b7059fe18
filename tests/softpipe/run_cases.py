#!/usr/bin/env python3
"""Runs corpus cases on Mesa's softpipe, all in one process (see tests/softpipe/README.md).

    run_cases.py --probe                      # print the renderer as JSON; exit 3 if unusable
    run_cases.py --jobs jobs.json --results results.json

`jobs.json` is written by the Rust wrapper (tests/src/softpipe/); `results.json` gets, per case,
the output files, the TGSI softpipe generated and the GLSL-to-TGSI binding map. Exit status: 0
when every case ran, 1 when some case failed (its record says why), 2 for a usage error, 3 when
softpipe cannot be used here.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from sp_harness.dump import CapturedOutput  # noqa: E402
from sp_harness.environment import OracleUnavailable, describe, open_context  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--probe", action="store_true", help="only check that softpipe works")
    parser.add_argument("--jobs", help="JSON file of cases to run")
    parser.add_argument("--results", help="JSON file to write the results to")
    args = parser.parse_args()
    if not args.probe and not (args.jobs and args.results):
        parser.error("give --probe, or both --jobs and --results")
    try:
        # Creating the context makes Mesa build (and softpipe dump) its internal shaders.
        with CapturedOutput():
            ctx = open_context()
    except OracleUnavailable as e:
        print(json.dumps({"available": False, "reason": str(e)}))
        return 3
    environment = describe(ctx)
    if args.probe:
        print(json.dumps({"available": True, **environment}))
        return 0

    from sp_harness.runner import run_job  # noqa: PLC0415 - needs moderngl, imported above

    with open(args.jobs, encoding="utf-8") as f:
        jobs = json.load(f)
    results = [run_job(ctx, job) for job in jobs["cases"]]
    with open(args.results, "w", encoding="utf-8") as f:
        json.dump({"environment": environment, "cases": results}, f, indent=1)
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
