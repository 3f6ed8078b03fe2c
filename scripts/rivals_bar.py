#!/usr/bin/env python3
"""Checks the bar of the newest-CUB issue (18) against cascade-rivals results files.

    python3 scripts/rivals_bar.py bench/results/rivals-h200-<date>-cccl3.5.0.json [more files]

Rows are taken from the file built against the newest CCCL among those given (the highest "cccl").
The bar (H200; ratio = CUB's time / cascade's, the median of per-round ratios of one process):
  - floor: reduce_into(default_policy) takes at most the read ceiling's time + 0.6 us at every size
    2^14..2^30, hot and cold, for every reduce configuration;
  - reduce: default_policy >= 1.00x CUB's run_to_run (two-phase) at every size and configuration, hot
    and cold, and >= 1.2x cold at 2^14..2^20; the fastest non-deterministic cascade policy (the
    finish::atomic rows) >= 1.00x CUB's not_guaranteed wherever CUB has that mode (plus);
    default_policy against not_guaranteed and against the single-phase env call is reported beside;
  - argmin, argmax, minmax: >= 90% of the read ceiling's bandwidth at 2^28..2^30 for every type, and
    >= 1.2x CUB at 2^14..2^22, hot and cold;
  - transform_reduce: within 3% of cascade's reduce of the same bytes (time <= 1.03x), hot and cold.
Prints every check that fails, a count per part, and exits 1 when any fails.
"""
import sys
from collections import defaultdict

from results_io import load_result, rows_of


def version_key(v):
    return tuple(int(x) for x in v.split("."))


def load(paths):
    rows = []
    for p in paths:
        rows += rows_of(load_result(p))
    timings = [r for r in rows if r.get("kind") == "timing"]
    if not timings:
        sys.exit("no cascade-rivals timing rows in " + ", ".join(paths))
    newest = max({r["cccl"] for r in timings}, key=version_key)
    return [r for r in timings if r["cccl"] == newest], newest


def main(paths):
    rows, cccl = load(paths)
    groups = defaultdict(list)  # (family, config, n) -> rows
    for r in rows:
        groups[(r["family"], r["config"], r["n"])].append(r)
    parts = defaultdict(lambda: [0, 0])
    failures = []

    def check(part, ok, what):
        parts[part][1] += 1
        parts[part][0] += 1 if ok else 0
        if not ok:
            failures.append(f"[{part}] {what}")

    def one(rs, library, mode=None, name_has=None):
        for r in rs:
            if r["library"] == library and (mode is None or r["mode"] == mode) and (
                    name_has is None or name_has in r["name"]):
                return r
        return None

    print(f"rows of the program built against CCCL {cccl}")
    for (family, config, n), rs in sorted(groups.items()):
        lg = n.bit_length() - 1
        where = f"{family} {config} 2^{lg}"
        if family == "reduce":
            d = one(rs, "cascade", "deterministic")
            cub = one(rs, "cub", "run_to_run (two-phase)")
            for m in ("hot", "cold"):
                if 14 <= lg <= 30 and d[f"ceiling_{m}_us"] is not None:
                    over = d[f"{m}_us"] - d[f"ceiling_{m}_us"]
                    check("floor", over <= 0.6, f"{where} {m}: default_policy {d[m + '_us']:.2f} us, "
                          f"ceiling + {over:.2f} us > + 0.6 us")
                ratio = d["ratio_" + m]  # the reference is CUB run_to_run (two-phase)
                check("reduce vs run_to_run", ratio >= 1.0, f"{where} {m}: CUB run_to_run/default {ratio:.2f} < 1.00")
                if m == "cold" and 14 <= lg <= 20:
                    check("reduce cold 1.2x", ratio >= 1.2, f"{where} cold: CUB run_to_run/default {ratio:.2f} < 1.20")
                ng = one(rs, "cub", "not_guaranteed (env)")
                atomics = [r for r in rs if r["library"] == "cascade" and r["mode"] == "not deterministic"]
                if ng and atomics:
                    best = min(atomics, key=lambda r: r[m + "_us"])
                    ratio_ng = ng[m + "_us"] / best[m + "_us"]
                    check("atomic vs not_guaranteed", ratio_ng >= 1.0,
                          f"{where} {m}: CUB not_guaranteed/{best['name']} {ratio_ng:.2f} < 1.00")
        elif family in ("argmin", "argmax", "minmax"):
            d = one(rs, "cascade", "deterministic")  # default_policy (not the fixed shapes)
            for m in ("hot", "cold"):
                if 28 <= lg <= 30 and d[f"ceiling_{m}_us"]:
                    share = d[f"ceiling_{m}_us"] / d[f"{m}_us"]
                    check("arg 90% of ceiling", share >= 0.9, f"{where} {m}: {share:.1%} of the read ceiling < 90%")
                if 14 <= lg <= 22:
                    check("arg vs CUB 1.2x", d["ratio_" + m] >= 1.2, f"{where} {m}: CUB/cascade {d['ratio_' + m]:.2f} < 1.20")
        elif family == "transform_reduce":
            tr = one(rs, "cascade", "deterministic")
            red = one(rs, "cascade", "plain reduce, same bytes")
            for m in ("hot", "cold"):
                rel = tr[m + "_us"] / red[m + "_us"]
                check("transform within 3%", rel <= 1.03, f"{where} {m}: transform_reduce {rel:.3f}x reduce > 1.03x")
    for f in failures:
        print("FAIL", f)
    for part, (held, total) in parts.items():
        print(f"  {part}: {held} of {total} hold")
    total = sum(t for _, t in parts.values())
    print(f"{total - len(failures)} of {total} checks hold, {len(failures)} fail")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
