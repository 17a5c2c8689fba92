#!/usr/bin/env python3
"""plot_scaling.py RUNS_CSV PNG - bars of the median time per workload for the node runtime
alone, the distributed build on 1 GPU and on 2 GPUs, with the 1 -> 2 GPU speedup above the
pairs. RUNS_CSV is run_2gpu.sh's runs.csv (workload,config,ranks,rep,run,ms)."""
import csv
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    t = {}
    for r in csv.DictReader(open(sys.argv[1])):
        t.setdefault(r["workload"], {}).setdefault((r["config"], int(r["ranks"])), []).append(float(r["ms"]))
    names = [w for w in t if ("dist", 1) in t[w] and ("dist", 2) in t[w]]
    fig, axes = plt.subplots(1, len(names), figsize=(3.2 * len(names), 3.6), squeeze=False)
    for ax, w in zip(axes[0], names):
        cols = [("alone", 0, "node runtime alone"), ("dist", 1, "1 GPU"), ("dist", 2, "2 GPUs")]
        cols = [c for c in cols if (c[0], c[1]) in t[w]]
        med = [statistics.median(t[w][(c[0], c[1])]) for c in cols]
        ax.bar(range(len(cols)), med, color=["#999999", "#1f77b4", "#ff7f0e"][-len(cols):])
        ax.set_xticks(range(len(cols)))
        ax.set_xticklabels([c[2] for c in cols], rotation=20, fontsize=8)
        one, two = statistics.median(t[w][("dist", 1)]), statistics.median(t[w][("dist", 2)])
        ax.set_title("%s: %.2fx" % (w, one / two), fontsize=9)
        ax.set_ylabel("ms (median)", fontsize=8)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=120)


if __name__ == "__main__":
    main()
