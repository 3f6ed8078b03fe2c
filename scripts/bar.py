#!/usr/bin/env python3
"""Checks the performance targets of docs/performance.md against a cascade-bench results file.

    python3 scripts/bar.py bench/results/bench-h200-2026-12-02.json.xz   (NAME or NAME.xz)

The targets (float, int32 and double plus and float minimum; ratio = CUB's time / default_policy's,
the median of the per-repeat ratios of one process):
  - ratio >= 1.00 at every size 2^10..2^30, hot and cold (>= 0.98 at 2^26 and above);
  - ratio >= 1.4 hot and >= 1.15 cold at 2^14..2^20;
Hot is checked twice: "hot" is GPU time (the call queued behind a spin kernel, launches excluded),
and with the host's launch included: "batch" in an NVBench program's file (NVBench's calls back to
back) or "hot_idle" in the older harness's (the call on an idle GPU). The two are reported apart,
so that neither hides the other, and all the targets are counted once with each.
  - float plus at 2^30 reaches >= 97% of the measured read bandwidth (the streaming-read ceiling);
  - cascade::reduce (to the host) at least 2x faster than thrust::reduce at 2^10..2^22.
Prints every check that fails and a one-line verdict; exits 1 when any fails.

Given cascade-rivals files instead (rows with a "family"), it checks their targets with
scripts/rivals_bar.py: python3 scripts/bar.py rivals-h200-...-cccl3.5.0.json [more.json].
"""
import sys

from results_io import load_result, rows_of, sweep_rows

BAR_CONFIGS = ["float-plus", "int32-plus", "double-plus", "float-minimum"]


def sweep_rows_of(path):
    return sweep_rows(load_result(path))


def launch_mode(row):
    """The row's time with the launch: the older harness's idle-GPU hot, or NVBench's batch."""
    for mode in ("hot_idle", "batch"):
        if row.get("cub_ratio_" + mode) is not None:
            return mode
    return None


def find(rows, config, group, n):
    for r in rows:
        if r["config"] == config and r["group"] == group and r["n"] == n:
            return r
    return None


def main(path):
    rows = sweep_rows_of(path)
    failures, checks = [], 0

    def check(ok, what):
        nonlocal checks
        checks += 1
        if not ok:
            failures.append(what)

    per_mode = {}

    def check_mode(ok, mode, what):
        held, total = per_mode.get(mode, (0, 0))
        per_mode[mode] = (held + (1 if ok else 0), total + 1)
        check(ok, what)

    for config in BAR_CONFIGS:
        for lg in range(10, 31, 2):
            d = find(rows, config, "default", 1 << lg)
            if d is None:
                continue
            launch = launch_mode(d)
            modes = ["hot", "cold"] + ([launch] if launch else [])
            for mode in modes:
                ratio = d["cub_ratio_" + mode]
                floor = 0.98 if lg >= 26 else 1.00
                check_mode(ratio >= floor, mode, f"{config} 2^{lg} {mode}: CUB/default {ratio:.2f} < {floor:.2f}")
                if 14 <= lg <= 20:
                    need = 1.15 if mode == "cold" else 1.4
                    check_mode(ratio >= need, mode, f"{config} 2^{lg} {mode}: CUB/default {ratio:.2f} < {need:.2f}")
            if lg <= 22:
                h = find(rows, config, "to_host", 1 << lg)
                for mode in ("hot", "cold"):
                    ratio = h["thrust_ratio_" + mode]
                    check_mode(ratio >= 2.0, "to host " + mode,
                               f"{config} 2^{lg} {mode}: thrust/cascade::reduce {ratio:.2f} < 2.00")
    d, c = find(rows, "float-plus", "default", 1 << 30), find(rows, "float-plus", "ceiling", 1 << 30)
    if d and c:
        for mode in ("hot", "cold"):
            share = d[mode + "_gbps"] / c[mode + "_gbps"]
            check_mode(share >= 0.97, "read ceiling", f"float-plus 2^30 {mode}: {share:.1%} of the read ceiling < 97%")
            print(f"float-plus 2^30 {mode}: {d[mode + '_gbps']:.0f} GB/s, {share:.1%} of the read ceiling "
                  f"({c[mode + '_gbps']:.0f} GB/s)")
    for f in failures:
        print("FAIL", f)
    for mode, (held, total) in per_mode.items():
        print(f"  {mode}: {held} of {total} hold")
    # The targets' hot read both ways: all of them with hot in GPU time, and with hot timed with the launch.
    for reading, hot in (("hot = GPU time", "hot"), ("hot = with the launch", "hot_idle"),
                         ("hot = with the launch", "batch")):
        if hot not in per_mode:
            continue
        parts = [per_mode[m] for m in (hot, "cold", "to host hot", "to host cold", "read ceiling") if m in per_mode]
        print(f"  the targets with {reading}: {sum(h for h, _ in parts)} of {sum(t for _, t in parts)} hold")
    print(f"{checks - len(failures)} of {checks} checks hold, {len(failures)} fail")
    return 1 if failures else 0


def is_rivals_file(path):
    rows = rows_of(load_result(path))  # cascade-bench's rows have a group, the rivals' none
    return any(isinstance(r, dict) and "family" in r and "group" not in r for r in rows)


if __name__ == "__main__":
    # cascade-rivals files (the targets against the newest CUB, the floor, every algorithm) go to
    # rivals_bar.py, which takes one or more of them.
    if len(sys.argv) >= 2 and is_rivals_file(sys.argv[1]):
        sys.path.insert(0, __import__("os").path.dirname(__file__))
        import rivals_bar
        sys.exit(rivals_bar.main(sys.argv[1:]))
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
