#!/usr/bin/env python3
"""The benchmark table of docs/benchmarks.md: runs the benchmark set and rewrites the table.

    python3 scripts/bench_table.py --bin FREKANS --refreader REFREADER --orjson-python PY \
        [--quick] [--only GROUP,...] [--skip GROUP,...] [--dir DIR] [--doc FILE | --no-write]

Run it through scripts/bench_table.sh, which finds or builds the programs it needs. Every
figure is a whole process measured from outside: CPU is user + system time of the process and
its threads (wait4's rusage), wall the time from start to exit, peak the kernel's peak resident
set size (ru_maxrss). A figure and its reference are run in turn (A B A B ..., after one warm-up
of each), each figure is the median of its runs, the peak the largest, and a ratio the median of
the pairwise ratios, so a comparison holds while the machine's speed drifts.

The generated block (between the bench-table markers) is replaced in --doc (default
docs/benchmarks.md), the rest of the file kept; with --quick, --only or --skip nothing is written
unless --doc is given.
"""
import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = "<!-- bench-table:start -->"
END = "<!-- bench-table:end -->"
MIB = 1024 * 1024
GROUPS = ["check", "score", "teams", "individual", "audit", "site", "publish", "import", "salliere"]

# Figures this script does not measure itself, carried with their date and source. The dataset
# run (scripts/bench_dataset.sh, ~30 minutes, its own optional script) is copied here by hand
# after it is run; SALLIERE_CARRIED stands in when salliere cannot be installed.
DATASET_CARRIED = {
    "date": "2026-11-29 06:00 UTC",
    "note": "from scripts/bench_dataset.sh (a season of 5,000 club sessions and 20 championships, "
            "10,402,274 results, 1,951 MiB of JSON log; machine shared with two other builds)",
    "rows": [
        ("`dataset add` of the whole season, one run", "CPU 144.4 s · wall 242.0 s · peak 781 MiB",
         "`score --no-cache` of every log: CPU 139.1 s · wall 336.2 s · peak 517 MiB",
         "1.04× CPU", "≤ 1.5× `score` (issue 35)", "**yes**"),
        ("one more night (2,391 results): its `dataset add`", "CPU 0.22 s · wall 0.27 s · peak 85 MiB",
         "`score` of its 10 logs: CPU 0.18 s · wall 0.27 s", "1.22× CPU", "", ""),
        ("the season added again with the night (unchanged logs recognised)",
         "CPU 7.3 s · wall 7.4 s · peak 113 MiB", "", "", "", ""),
        ("the dataset's bytes", "75.3 bytes a result (747 MiB)", "the JSON logs: 196.6 bytes a result",
         "0.38×", "", ""),
        ("docs/dataset.md's queries at 10.4 M results (6 queries)",
         "DuckDB 5.5–12.8 s · polars 1.8–4.7 s · Spark 13.5–126.6 s", "the same at 1.0 M: DuckDB "
         "0.25–0.74 s · polars 0.14–0.46 s · Spark 2.1–22.0 s", "6–17× for 10× the results", "", ""),
    ],
}
# The builds (scripts/bench_build.sh, ~45 minutes of CPU a commit), copied here by hand.
BUILD_CARRIED = {
    "date": "2026-11-29 19:03–19:23 UTC",
    "note": "from scripts/bench_build.sh's steps run by hand for be4e385 and 6cddc29 on an idle "
            "machine (load 2.0–2.1: the build's own two jobs); 6cddc29 also carries three sessions' "
            "code more (individual events, the world seam, typed errors)",
    "rows": [
        ("first build from nothing (`cargo build --release --locked`), the workspace (6cddc29)",
         "wall 445 s · CPU 874 s (user 833.8 + system 40.0) · peak 1,435 MiB",
         "one crate (be4e385): wall 429 s · CPU 843 s (user 805.1 + system 38.2) · peak 1,429 MiB",
         "1.04× wall · 1.04× CPU", "measured (issue 36 item 1)", ""),
        ("the test build after it (`cargo test --release --locked --no-run`), the workspace",
         "wall 119 s · CPU 229 s (user 211.5 + system 17.8) · peak 630 MiB",
         "one crate: wall 108 s · CPU 209 s (user 193.4 + system 15.6) · peak 1,022 MiB",
         "1.10× wall · 0.62× peak", "measured (issue 36 item 1)", ""),
    ],
}
SALLIERE_CARRIED = {
    "date": "2026-11-24 06:16 UTC",
    "note": "carried: salliere was not available for this run (from scripts/compare_salliere.sh)",
    "rows": [
        ("`score` mp, 26 boards × 3,000 tables, one field", "CPU 0.34 s · wall 0.25 s",
         "salliere 0.10: CPU 28.51 s · wall 27.04 s", "82.6× CPU · 106.4× wall", "≥ 20× (issue 8)", "**yes**"),
        ("`score` ximp, 26 boards × 3,000 tables, one field", "CPU 0.35 s · wall 0.24 s",
         "salliere 0.10: CPU 25.81 s · wall 24.58 s", "74.2× CPU · 100.7× wall", "≥ 100× (issue 8)",
         "CPU **no**; wall **yes**"),
    ],
}


def log(msg):
    print(f"==> {msg}", file=sys.stderr, flush=True)


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def once(cmd, env=None, stdout=None, stderr=None, cwd=None):
    """One run of CMD: wall, CPU (user + system), peak RSS, exit status."""
    e = dict(os.environ)
    e.update(env or {})
    out = open(stdout or os.devnull, "wb")
    err = open(stderr, "wb") if stderr else None
    try:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=err, env=e, cwd=cwd)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    finally:
        out.close()
        if err:
            err.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise RuntimeError(f"exit {code}: {' '.join(map(str, cmd))}")
    return {"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "rss": ru.ru_maxrss * 1024 / MIB}


class Figure:
    """The runs of one command: medians of wall and CPU, the largest peak."""

    def __init__(self, runs):
        self.runs = runs
        self.wall = statistics.median(r["wall"] for r in runs)
        self.cpu = statistics.median(r["cpu"] for r in runs)
        self.rss = max(r["rss"] for r in runs)

    def text(self, peak=True):
        s = f"CPU {self.cpu:.2f} s · wall {self.wall:.2f} s"
        return s + (f" · peak {self.rss:,.0f} MiB" if peak else "")


def measure(cmd, n, before=None, warmup=True, **kw):
    """N runs of CMD after a warm-up; BEFORE() called before each."""
    runs = []
    for i in range(n + (1 if warmup else 0)):
        if before:
            before()
        r = once(cmd, **kw)
        if i or not warmup:
            runs.append(r)
    return Figure(runs)


def paired(cmds, n, before=None, env=None):
    """The commands in turn, N rounds after a warm-up round: a Figure each, and the median of
    the pairwise CPU and wall ratios of the first to each other."""
    runs = [[] for _ in cmds]
    for i in range(n + 1):
        for k, cmd in enumerate(cmds):
            if before and before[k]:
                before[k]()
            r = once(cmd, env=env)
            if i:
                runs[k].append(r)
    figs = [Figure(r) for r in runs]
    ratios = []
    for k in range(1, len(cmds)):
        cpu = statistics.median(a["cpu"] / b["cpu"] for a, b in zip(runs[0], runs[k]))
        wall = statistics.median(a["wall"] / b["wall"] for a, b in zip(runs[0], runs[k]))
        ratios.append((cpu, wall))
    return figs, ratios


def yes(ok):
    return "**yes**" if ok else "**no**"


class Bench:
    def __init__(self, a):
        self.a = a
        self.dir = a.dir
        os.makedirs(self.dir, exist_ok=True)
        # (a copy: a build during the run must not change the program measured)
        self.bin = os.path.join(self.dir, "frekans")
        shutil.copyfile(a.bin, self.bin + ".tmp")
        os.chmod(self.bin + ".tmp", 0o755)
        os.replace(self.bin + ".tmp", self.bin)
        self.quick = a.quick
        # The commit measured, taken at the start (HEAD may move during the run); a binary built
        # elsewhere (FREKANS_BIN) names its own with FREKANS_BIN_COMMIT.
        head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip() or "?"
        self.commit = os.environ.get("FREKANS_BIN_COMMIT", head)
        self.n = a.repeat or (2 if a.quick else 3)
        self.env = {"FREKANS_AUDIT_CACHE": os.path.join(self.dir, "cache")}
        self.groups = []      # (title, load, rows)
        # The logs: issue 37's 1.2 M championship, or a small one for --quick.
        self.sections = 100 if a.quick else 4168
        self.team_sections = 10 if a.quick else 400
        self.sal_tables = 120 if a.quick else 3000
        self.audit_sections = 10 if a.quick else 500
        self.scale = f"{self.sections * 12 * 24:,}-result" if a.quick else "1.2 M-result"

    # -- logs ---------------------------------------------------------------------------------
    def synth(self, name, *args):
        path = os.path.join(self.dir, name)
        if not os.path.exists(path):
            log(f"synth {name}")
            once([self.bin, "synth", "-q", *args, "--out", path + ".tmp"])
            os.rename(path + ".tmp", path)
        return path

    def pairs_log(self, form="mp", fmt=None, rulings=True):
        args = ["--form", form, "--compare", "field", "--sections", str(self.sections),
                "--tables", "12", "--boards", "24", "--seed", "2026"]
        args += ["--rulings", "0.01", "--corrections", "0.001"] if rulings else \
                ["--rulings", "0", "--corrections", "0"]
        ext = "jsonl"
        if fmt:
            args += ["--format", fmt]
            ext = {"pbn": "pbn", "usebio": "xml"}[fmt]
        return self.synth(f"{form}-{self.sections}{'' if rulings else '-plain'}.{ext}", *args)

    def size(self, path):
        return os.path.getsize(path) / MIB

    def count(self, path, needle):
        n = 0
        with open(path, "rb") as f:
            for line in f:
                if needle in line:
                    n += 1
        return n

    def discard(self, path):
        """Moves a directory of output aside, removed at the end of the run: unlinking a site's
        100,000 files takes minutes on this disk, and must not run beside a measurement."""
        if os.path.exists(path):
            trash = os.path.join(self.dir, "trash")
            os.makedirs(trash, exist_ok=True)
            os.rename(path, os.path.join(trash, f"{len(os.listdir(trash))}-{os.path.basename(path)}"))

    def clear_cache(self):
        shutil.rmtree(self.env["FREKANS_AUDIT_CACHE"], ignore_errors=True)

    def group(self, title, rows):
        self.groups.append((title, self.load0, rows))

    def run(self, name):
        self.load0 = loadavg()
        log(f"{name} (load {self.load0})")
        getattr(self, "g_" + name)()

    # -- the groups -----------------------------------------------------------------------------
    def g_check(self):
        lg = self.pairs_log()
        with open(lg, "rb") as f:
            while f.read(1 << 24):
                pass  # the page cache warmed
        n = self.n + 2
        (c, o, r), ((co, _), (cr, _)) = paired(
            [[self.bin, "-q", "check", lg], [self.a.orjson_python, os.path.join(ROOT, "scripts/orjson_pass.py"), lg],
             [self.a.refreader, lg]], n)
        mib = self.size(lg)
        self.group(f"`check` of the {self.scale} log against the readers it is held to (issue 37 item 1)", [
            ("`frekans check LOG`", c.text(), f"orjson pass, one thread: {o.text()}",
             f"{co:.2f}× CPU", "≤ 1× the orjson pass", yes(co <= 1)),
            ("`frekans check LOG`", c.text(peak=False), f"refreader (simd-json + SHA-256), one thread: {r.text()}",
             f"{cr:.2f}× CPU", "≤ 2× the reference reader", yes(cr <= 2)),
            ("`frekans check LOG`, peak", f"{c.rss:,.0f} MiB", f"the log's size + 300 MiB = {mib + 300:,.0f} MiB",
             f"{c.rss / (mib + 300):.2f}×", "under it", yes(c.rss <= mib + 300)),
        ])

    def score_vs_check(self, lg, out):
        """`score LOG --out OUT` (the audit cache written afresh each run) in turn with `check LOG`:
        (score's runs, check's runs, the median ratio of their CPU)."""
        def fresh():
            shutil.rmtree(out, ignore_errors=True)
            self.clear_cache()
        (s, c), ((ratio, _),) = paired(
            [[self.bin, "-q", "score", lg, "--out", out], [self.bin, "-q", "check", lg]],
            self.n, before=[fresh, None], env=self.env)
        return s, c, ratio

    def g_score(self):
        rows = []
        out = os.path.join(self.dir, "out")
        for form in ("mp", "ximp", "butler"):
            lg = self.pairs_log(form)
            s, c, ratio = self.score_vs_check(lg, out)
            rows.append((f"`frekans score LOG --out DIR`, {form}, audit cache written", s.text(),
                         f"`check` of the same log: {c.text()}", f"{ratio:.2f}× CPU",
                         "≤ 2× `check`, peak < 1 GiB",
                         f"ratio {yes(ratio <= 2)}; peak {yes(s.rss < 1024)}"))
        shutil.rmtree(out, ignore_errors=True)
        self.group("`score` against `check` (issue 37 item 2; issue 8)", rows)

    def g_teams(self):
        lg = self.synth(f"teams-{self.team_sections}.jsonl", "--form", "teams", "--sections",
                        str(self.team_sections), "--tables", "52", "--boards", "24", "--rulings",
                        "0.01", "--corrections", "0.001", "--seed", "2026")
        out = os.path.join(self.dir, "out")
        s, c, ratio = self.score_vs_check(lg, out)
        shutil.rmtree(out, ignore_errors=True)
        results = self.count(lg, b'"type":"result"')
        self.group("Team championship (issue 37 item 2, teams)", [
            (f"`frekans score LOG --out DIR`, teams, {results:,} results (two a board of a match)", s.text(),
             f"`check` of the same log: {c.text()}", f"{ratio:.2f}× CPU", "peak < 1 GiB",
             yes(s.rss < 1024)),
        ])

    def g_individual(self):
        # Issue 38 item 5: 1,000 players at 250 tables, 26 boards, one section (the same with --quick).
        lg = self.synth("individual-1000.jsonl", "--kind", "individual", "--form", "mp", "--sections",
                        "1", "--tables", "250", "--boards", "26", "--rulings", "0.01", "--corrections",
                        "0.001", "--seed", "2026")
        out = os.path.join(self.dir, "out")
        s, c, ratio = self.score_vs_check(lg, out)
        shutil.rmtree(out, ignore_errors=True)
        results = self.count(lg, b'"type":"result"')
        self.group("Individual championship (issue 38 item 5)", [
            (f"`frekans score LOG --out DIR`, individual (mp), 1,000 players × 26 boards, {results:,} results",
             s.text(), f"`check` of the same log: {c.text()}", f"{ratio:.2f}× CPU", "≤ 2× `check`",
             yes(ratio <= 2)),
        ])

    def g_audit(self):
        # Issue 37's log, one field of 50,016 tables (the worst case: a ruling moves every pair
        # of the field, and the answer lists all of them), and a sectioned championship of about
        # a million results (a ruling moves its section and the overall standings).
        sectioned = self.synth(f"sections-{self.audit_sections}.jsonl", "--form", "mp", "--compare",
                               "section", "--sessions", "6", "--sections", str(self.audit_sections),
                               "--tables", "13", "--boards", "26", "--rulings", "0.01",
                               "--corrections", "0.001", "--seed", "2026")
        results = self.count(sectioned, b'"type":"result"')
        rows = []
        for lg, shape in ((self.pairs_log(), "one field (the worst case)"),
                          (sectioned, f"6 sessions × {self.audit_sections} sections of 13 tables, "
                                      f"{results:,} results")):
            first = None
            with open(lg, "rb") as f:
                for line in f:
                    if b'"type":"ruling"' in line:
                        first = json.loads(line)["id"]
                        break
            self.clear_cache()
            once([self.bin, "-q", "score", lg, "--out", os.path.join(self.dir, "out")], env=self.env)
            shutil.rmtree(os.path.join(self.dir, "out"), ignore_errors=True)
            cached = measure([self.bin, "audit", lg, "--ruling", first, "--format", "json"], self.n + 2,
                             env=self.env, stdout=os.path.join(self.dir, "cached.json"))
            longway = measure([self.bin, "audit", lg, "--ruling", first, "--format", "json", "--no-cache"],
                              1, warmup=False, env=self.env, stdout=os.path.join(self.dir, "long.json"))
            answer = open(os.path.join(self.dir, "cached.json"), "rb").read()
            if answer != open(os.path.join(self.dir, "long.json"), "rb").read():
                raise RuntimeError(f"{shape}: the cached audit differs from the long way's")
            rows.append((f"`frekans audit LOG --ruling {first} --format json` from the cache left by "
                         f"`score`: {shape}, an answer of {len(answer) / MIB:,.1f} MiB",
                         cached.text(), f"the long way (`--no-cache`), one run: {longway.text()}",
                         f"{cached.wall / longway.wall:.2f}× wall", "well under a second (wall)",
                         yes(cached.wall < 1)))
        self.group("Audit of one ruling (issue 6)", rows)

    def g_site(self):
        lg = self.pairs_log()
        site = os.path.join(self.dir, "site")
        err = os.path.join(self.dir, "site.err")
        self.discard(site)
        self.clear_cache()
        f = measure([self.bin, "site", lg, "--out", site, "-v"], 1, warmup=False, env=self.env,
                    stderr=err)
        text = re.sub(r"\x1b\[[0-9;]*m", "", open(err, encoding="utf-8", errors="replace").read())
        pages = int(re.search(r"site: the pages made and written pages=(\d+)", text).group(1))
        stage_ms = float(re.search(r'cpu_ms_a_page="?([\d.]+)', text).group(1))
        answered = re.search(r"ruling effects: .*? rulings=(\d+) by_audit=(\d+)", text)
        answered, by_audit = (int(answered.group(1)), int(answered.group(2))) if answered else (0, 0)
        effects_wall = 0.0
        for m in re.finditer(r"ruling_effects: close time\.busy=([\d.]+)(ns|µs|us|ms|s)\b", text):
            unit = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}[m.group(2)]
            effects_wall = float(m.group(1)) * unit   # the outer span's close comes last
        # The rulings in force: every ruling but those withdrawn and those superseded.
        rulings = self.count(lg, b'"type":"ruling"')
        in_force = rulings - self.count(lg, b'"type":"ruling_withdrawn"') - self.count(lg, b'"supersedes"')
        self.discard(site)
        per_page = f.cpu / pages * 1000
        # The stage's own CPU is not logged: the whole run's CPU bounds it from above.
        all_shown = answered == in_force
        self.group("Every ruling's effect and the website (issue 37 items 3 and 4)", [
            ("`frekans site LOG --out DIR -v`: rulings whose effect is shown",
             f"{answered:,} rulings answered ({by_audit} by a whole audit); the stage "
             f"{effects_wall:.1f} s wall; the whole run {f.cpu:.1f} s CPU",
             f"{in_force:,} rulings in force ({rulings:,} ruling events, less the withdrawn and superseded)",
             f"{answered / in_force:.3f} of them" if in_force else "-", "all rulings in force, ≤ 60 s CPU",
             (f"**no**: {answered:,} of {in_force:,} shown" if not all_shown else yes(True) if f.cpu <= 60
              else "all shown; ≤ 60 s not shown (the stage's own CPU is not logged)")),
            (f"`frekans site LOG --out DIR`, {pages:,} pages", f.text(),
             f"the `site` stage alone: {stage_ms:.3f} ms CPU a page", f"{per_page:.3f} ms CPU a page",
             "≤ 0.3 ms CPU a page", yes(per_page <= 0.3)),
            ("`frekans site`, peak and wall", f"peak {f.rss:,.0f} MiB · wall {f.wall:.1f} s",
             f"CPU {f.cpu:.1f} s", f"wall ÷ CPU {f.wall / f.cpu:.2f}", "peak < 1.5 GB (1,431 MiB); "
             "wall ≤ 1.5× CPU", f"peak {yes(f.rss < 1.5e9 / MIB)}; wall {yes(f.wall <= 1.5 * f.cpu)} "
             f"(load {self.load0})"),
        ])

    def g_publish(self):
        lg = os.path.join(self.dir, "publish.jsonl")
        shutil.copyfile(self.pairs_log(), lg)
        out = os.path.join(self.dir, "pub")
        self.discard(out)
        self.clear_cache()
        first = measure([self.bin, "publish", lg, "--out", out], 1, warmup=False, env=self.env)
        ev = None
        with open(lg, "rb") as f:
            for line in f:
                if b'"type":"result"' in line:
                    e = json.loads(line)
                    ev = {"type": "ruling", "id": "BENCH1", "session": e["session"], "board": e["board"],
                          "ns": e["ns"], "ew": e["ew"], "score": "A+/A-", "law": "12C2(a)", "by": "TD"}
                    break
        once([self.bin, "-q", "append", lg, json.dumps(ev)], env=self.env)
        err = os.path.join(self.dir, "publish.err")
        again = measure([self.bin, "publish", lg, "--out", out, "-v"], 1, warmup=False, env=self.env,
                        stderr=err)
        text = re.sub(r"\x1b\[[0-9;]*m", "", open(err, encoding="utf-8", errors="replace").read())
        m = re.findall(r"published files=(\d+) rewritten=(\d+)", text)
        files, rewritten = (int(m[-1][0]), int(m[-1][1])) if m else (0, 0)
        self.discard(out)
        os.remove(lg)
        self.group("`publish` after one appended ruling (issue 37 item 4)", [
            ("`frekans publish LOG --out DIR` again after `append` of one `A+/A-` ruling",
             again.text() + f" · {rewritten:,} of {files:,} site files rewritten",
             f"the first `publish`: {first.text()}", f"{again.cpu / first.cpu:.2f}× CPU",
             "< 5 s, only the changed pages rewritten", yes(again.wall < 5) + " (wall)"),
        ])

    def g_import(self):
        rows = []
        for fmt, label in (("pbn", "PBN"), ("usebio", "USEBIO")):
            src = self.pairs_log(fmt=fmt, rulings=(fmt == "usebio"))
            imp = os.path.join(self.dir, f"imported-{fmt}.jsonl")

            def fresh():
                if os.path.exists(imp):
                    os.remove(imp)
            (i, c), ((ratio, _),) = paired(
                [[self.bin, "-q", "import", src, "--compare", "field", "--out", imp],
                 [self.bin, "-q", "check", imp]], self.n, before=[fresh, None], env=self.env)
            os.remove(imp)
            rows.append((f"`frekans import FILE --compare field --out LOG`, {label} ({self.size(src):,.0f} MiB)",
                         i.text(), f"`check` of the log written: {c.text()}", f"{ratio:.2f}× CPU",
                         "≤ 2× `check`", yes(ratio <= 2)))
        self.group(f"Import of the {self.scale} files (issue 18 item 7)", rows)

    def g_salliere(self):
        sal = "/usr/games/salliere"
        if not os.path.exists(sal):
            rows = SALLIERE_CARRIED["rows"]
            self.groups.append((f"Against salliere — {SALLIERE_CARRIED['note']}, "
                                f"{SALLIERE_CARRIED['date']}", None, rows))
            return
        # The Debian package's jar runs through binfmt_misc; where that is not registered
        # (containers), with `java -jar`.
        try:
            runner = [sal] if subprocess.run([sal, "--help"], capture_output=True).returncode == 0 \
                else ["java", "-jar", sal]
        except OSError:
            runner = ["java", "-jar", sal]
        rows = []
        n = 1
        for form in ("mp", "ximp"):
            common = ["--form", form, "--compare", "field", "--sections", str(self.sal_tables // 12),
                      "--tables", "12", "--boards", "26", "--rulings", "0", "--corrections", "0",
                      "--seed", "2026"]
            if form == "ximp":
                common += ["--options", '{"ximp_normalize":"comparisons"}']
            lg = self.synth(f"sal-{form}-{self.sal_tables}.jsonl", *common)
            csv = os.path.join(self.dir, f"sal-{form}-{self.sal_tables}.csv")
            names = csv[:-4] + ".names.csv"
            work = [csv + ".work", names + ".work"]
            out = os.path.join(self.dir, "out")

            def fresh_f():
                shutil.rmtree(out, ignore_errors=True)
                self.clear_cache()

            def fresh_s():
                shutil.copyfile(csv, work[0])
                shutil.copyfile(names, work[1])
            if not os.path.exists(csv):
                once([self.bin, "synth", "-q", "--format", "salliere", *common, "--out", csv, "--names", names])
            steps = ["--ximp", "score", "ximp", "total"] if form == "ximp" else ["score", "matchpoint", "total"]
            (s, f), ((ratio, wratio),) = paired(
                [[*runner, *steps, "--", *work], [self.bin, "-q", "score", lg, "--out", out]], n,
                before=[fresh_s, fresh_f], env=self.env)
            target = 100 if form == "ximp" else 20
            rows.append((f"`frekans score`, {form}, 26 boards × {self.sal_tables:,} tables, one field",
                         f.text(), f"salliere: {s.text()}", f"salliere ÷ frekans: {ratio:.1f}× CPU · {wratio:.1f}× wall",
                         f"salliere ≥ {target}× slower (issue 8)",
                         f"CPU {yes(ratio >= target)}; wall {yes(wratio >= target)}"))
            shutil.rmtree(out, ignore_errors=True)
        ver = subprocess.run([*runner, "--help"], capture_output=True, text=True)
        self.group("Against salliere (issue 8)", rows)

    # -- the table ------------------------------------------------------------------------------
    def block(self, started, load_before, command):
        commit = self.commit
        cpu = "unknown CPU"
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
        mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / (1 << 30)
        minutes = (time.time() - started) / 60
        L = [START, "",
             f"Generated by `{command}` on {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, "
             f"commit {commit}{' (**--quick: small logs, not the figures of record**)' if self.quick else ''}; "
             f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB RAM, {platform.system()} {platform.release()}; "
             f"load average {load_before} before, {loadavg()} after ({minutes:.0f} minutes). "
             f"Each figure the median of {self.n} runs (peak: the largest), after a warm-up, run in "
             f"turn with its reference; ratios are medians of the pairwise ratios. The load of the "
             f"machine when each group started is in its heading.", "",
             "| what is measured | figure | reference | ratio (figure ÷ reference) | target | met |",
             "|---|---|---|---|---|---|"]
        for title, load, rows in self.groups:
            L.append(f"| **{title}**{f' (load {load})' if load else ''} | | | | | |")
            for row in rows:
                L.append("| " + " | ".join(row) + " |")
        b = BUILD_CARRIED
        L.append(f"| **Building the program (issue 36 item 1) — {b['note']}, {b['date']}** | | | | | |")
        for row in b["rows"]:
            L.append("| " + " | ".join(row) + " |")
        d = DATASET_CARRIED
        L.append(f"| **A federation's season as one dataset (issue 35) — {d['note']}, {d['date']}** | | | | | |")
        for row in d["rows"]:
            L.append("| " + " | ".join(row) + " |")
        L += ["", END]
        return "\n".join(L)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", required=True)
    p.add_argument("--refreader", required=True)
    p.add_argument("--orjson-python", required=True)
    p.add_argument("--dir", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "frekans-bench-table"))
    p.add_argument("--quick", action="store_true")
    p.add_argument("--repeat", type=int, default=0)
    p.add_argument("--only", default="")
    p.add_argument("--skip", default="")
    p.add_argument("--doc", default=None)
    p.add_argument("--no-write", action="store_true")
    p.add_argument("--command", default="bash scripts/bench_table.sh")
    a = p.parse_args()
    a.dir = os.path.join(a.dir, "quick" if a.quick else "full")
    only = [g for g in a.only.split(",") if g] or GROUPS
    skip = {g for g in a.skip.split(",") if g}
    for g in list(only) + list(skip):
        if g not in GROUPS:
            sys.exit(f"bench_table.py: unknown group {g!r} (groups: {', '.join(GROUPS)})")
    b = Bench(a)
    started = time.time()
    load_before = loadavg()
    for g in only:
        if g in skip:
            continue
        try:
            b.run(g)
        except Exception as e:  # a failed group is a finding: said in the table, the rest goes on
            log(f"{g} failed: {e}")
            b.groups.append((f"{g}: FAILED ({e})", b.load0, []))
    block = b.block(started, load_before, a.command)
    print(block)
    # The table of record is a whole run's: --quick, --only and --skip write only to a --doc given.
    doc = a.doc or (None if a.quick or a.only or a.skip else os.path.join(ROOT, "docs/benchmarks.md"))
    if doc and not a.no_write:
        text = open(doc, encoding="utf-8").read()
        i, j = text.find(START), text.find(END)
        if i < 0 or j < i:
            sys.exit(f"bench_table.py: {doc} has no {START} ... {END} block")
        with open(doc + ".tmp", "w", encoding="utf-8") as f:
            f.write(text[:i] + block + text[j + len(END):])
        os.replace(doc + ".tmp", doc)
        log(f"table written into {doc}")
    shutil.rmtree(os.path.join(b.dir, "trash"), ignore_errors=True)


if __name__ == "__main__":
    main()
