#!/usr/bin/env python3
"""Run one command and report its wall time and peak memory (for scripts/bench.sh).

    python3 scripts/measure.py [--env K=V ...] [--stdout FILE] [--repeat N] -- CMD ARGS...

Prints one line of JSON: {"wall_s": 1.234, "maxrss_kib": 123456, "exit": 0}; with --repeat N,
that of the fastest of N runs (or of the first that failed). The peak
resident set size is the kernel's (wait4's rusage.ru_maxrss, in KiB on Linux) for the command
itself, so it does not depend on GNU time being installed. The command's standard output goes
to FILE (default /dev/null); its standard error is passed through.
"""
import json
import os
import subprocess
import sys
import time


def main(argv):
    env = dict(os.environ)
    stdout = os.devnull
    repeat = 1
    i = 0
    while i < len(argv) and argv[i] != "--":
        if argv[i] == "--env":
            k, _, v = argv[i + 1].partition("=")
            env[k] = v
            i += 2
        elif argv[i] == "--stdout":
            stdout = argv[i + 1]
            i += 2
        elif argv[i] == "--repeat":
            repeat = int(argv[i + 1])
            i += 2
        else:
            sys.exit(f"measure.py: unknown option {argv[i]!r}")
    cmd = argv[i + 1:]
    if not cmd:
        sys.exit("measure.py: no command after --")
    best = None
    for _ in range(max(repeat, 1)):
        run = once(cmd, env, stdout)
        if run["exit"] != 0:
            best = run
            break
        if best is None or run["wall_s"] < best["wall_s"]:
            best = run
    print(json.dumps(best))
    return 0


def once(cmd, env, stdout):
    with open(stdout, "wb") as out:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    return {"wall_s": round(wall, 3), "maxrss_kib": ru.ru_maxrss,
            "user_s": round(ru.ru_utime, 3), "sys_s": round(ru.ru_stime, 3),
            "exit": os.waitstatus_to_exitcode(status)}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
