#!/usr/bin/env python3
"""How cost grows, as a small SVG chart and the Markdown tables behind it.

    chart.py POINTS.jsonl BACKLOG.jsonl OUT.svg

POINTS.jsonl is what bench/profile/cost-growth.sh writes (one line per worker count and payload
size), BACKLOG.jsonl what bench/profile/backlog.sh writes (one line per backlog). Either may be
"-" to leave its panels out. The chart is a row of bar panels per file: jobs/s, coordinator CPU
per job and disk bytes written per job against worker processes and payload size; heap, restart
time and the Lease p99 ratio against the backlog. The tables go to stdout, ready for
docs/benchmarks.md. Python 3 standard library only.
"""
import json
import sys
from xml.sax.saxutils import escape

PANEL_W = 230
PANEL_H = 170
PAD_TOP = 34
PAD_BOTTOM = 30
PAD_SIDE = 14
BAR_COLOUR = "#4a78b0"
LINE_COLOUR = "#c0392b"


def read_lines(path):
    if path == "-":
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def size_label(n):
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024} KiB"
    return f"{n} B"


def count_label(n):
    if n >= 1_000_000 and n % 1_000_000 == 0:
        return f"{n // 1_000_000}M"
    if n >= 1000 and n % 1000 == 0:
        return f"{n // 1000}k"
    return str(n)


def number(v):
    if v >= 100:
        return f"{v:,.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def panel(x, y, title, bars, unit="", limit=None):
    """One bar panel at (x, y): bars is a list of (label, value); limit draws a dashed line."""
    out = [f'<g transform="translate({x},{y})">',
           f'<rect width="{PANEL_W}" height="{PANEL_H}" fill="#fff" stroke="#ccc"/>',
           f'<text x="{PANEL_W / 2}" y="15" text-anchor="middle" font-weight="bold">'
           f'{escape(title)}</text>']
    if unit:
        out.append(f'<text x="{PANEL_W / 2}" y="28" text-anchor="middle" fill="#555">'
                   f'{escape(unit)}</text>')
    top = max([v for _, v in bars] + ([limit] if limit else []) + [1e-9]) * 1.15
    plot_h = PANEL_H - PAD_TOP - PAD_BOTTOM
    slot = (PANEL_W - 2 * PAD_SIDE) / max(1, len(bars))
    base = PANEL_H - PAD_BOTTOM
    for i, (label, value) in enumerate(bars):
        h = plot_h * value / top
        bx = PAD_SIDE + i * slot + slot * 0.2
        bw = slot * 0.6
        out.append(f'<rect x="{bx:.1f}" y="{base - h:.1f}" width="{bw:.1f}" height="{h:.1f}" '
                   f'fill="{BAR_COLOUR}"/>')
        out.append(f'<text x="{bx + bw / 2:.1f}" y="{base - h - 3:.1f}" text-anchor="middle">'
                   f'{escape(number(value))}</text>')
        out.append(f'<text x="{bx + bw / 2:.1f}" y="{base + 14}" text-anchor="middle">'
                   f'{escape(label)}</text>')
    out.append(f'<line x1="{PAD_SIDE}" y1="{base}" x2="{PANEL_W - PAD_SIDE}" y2="{base}" '
               'stroke="#333"/>')
    if limit:
        ly = base - plot_h * limit / top
        out.append(f'<line x1="{PAD_SIDE}" y1="{ly:.1f}" x2="{PANEL_W - PAD_SIDE}" y2="{ly:.1f}" '
                   f'stroke="{LINE_COLOUR}" stroke-dasharray="4 3"/>')
        out.append(f'<text x="{PANEL_W - PAD_SIDE}" y="{ly - 3:.1f}" text-anchor="end" '
                   f'fill="{LINE_COLOUR}">target {number(limit)}</text>')
    out.append("</g>")
    return out


def growth_panels(points):
    by_workers = sorted((p for p in points if p["payloadBytes"] == 100),
                        key=lambda p: p["workers"])
    by_payload = sorted((p for p in points if p["workers"] == 2), key=lambda p: p["payloadBytes"])
    w = [str(p["workers"]) for p in by_workers]
    s = [size_label(p["payloadBytes"]) for p in by_payload]
    return [
        ("jobs/s by worker processes", "end to end, 100 B payloads",
         list(zip(w, [p["jobsPerSecond"] for p in by_workers])), None),
        ("coordinator CPU by workers", "µs per job",
         list(zip(w, [p["coordinatorCpuMicrosPerJob"] for p in by_workers])), None),
        ("jobs/s by payload size", "end to end, 2 worker processes",
         list(zip(s, [p["jobsPerSecond"] for p in by_payload])), None),
        ("coordinator CPU by payload", "µs per job",
         list(zip(s, [p["coordinatorCpuMicrosPerJob"] for p in by_payload])), None),
        ("disk written by payload", "KiB per job (coordinator write_bytes)",
         list(zip(s, [p["diskBytesWrittenPerJob"] / 1024 for p in by_payload])), None),
    ]


def backlog_panels(rows):
    rows = sorted(rows, key=lambda r: r["backlog"])
    b = [count_label(r["backlog"]) for r in rows]
    return [
        ("heap after full GC by backlog", "MB used (cap 512 MB)",
         list(zip(b, [r["heapUsedAfterFullGcAfterLeasesBytes"] / 1e6 for r in rows])), None),
        ("restart by backlog", "s from launch to /readyz 200",
         list(zip(b, [r["restartToReadyzMs"] / 1000 for r in rows])), 5.0),
        ("Lease p99 by backlog", "x an empty queue's, same run",
         list(zip(b, [r["leaseP99Ratio"] or 0 for r in rows])), 1.2),
    ]


def svg(rows_of_panels):
    cols = max(len(r) for r in rows_of_panels)
    width = cols * (PANEL_W + 10) + 10
    height = len(rows_of_panels) * (PANEL_H + 10) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="#f8f8f8"/>']
    for r, panels in enumerate(rows_of_panels):
        for c, (title, unit, bars, limit) in enumerate(panels):
            out += panel(10 + c * (PANEL_W + 10), 10 + r * (PANEL_H + 10), title, bars, unit,
                         limit)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def growth_table(points):
    lines = ["| worker processes | payload | jobs/s | coordinator CPU µs/job | disk bytes written/job"
             " | rounds | load average |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for p in sorted(points, key=lambda p: (p["payloadBytes"], p["workers"])):
        lines.append(f'| {p["workers"]} | {size_label(p["payloadBytes"])} '
                     f'| {p["jobsPerSecond"]:,.0f} | {p["coordinatorCpuMicrosPerJob"]:,.0f} '
                     f'| {p["diskBytesWrittenPerJob"]:,.0f} | {p["rounds"]} '
                     f'| {p["loadAverage"]} |')
    return "\n".join(lines)


def backlog_table(rows):
    lines = ["| pending jobs | heap used after full GC | restart to ready file | restart to /readyz"
             " (without the class archive) | Lease p50 empty / backlog | Lease p99 empty / backlog"
             " | p99 ratio | data dir | load average |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in sorted(rows, key=lambda r: r["backlog"]):
        without = r.get("restartWithoutClassArchiveToReadyzMs")
        without = f' ({without / 1000:.2f} s)' if without is not None else ""
        lines.append(
            f'| {r["backlog"]:,} | {r["heapUsedAfterFullGcAfterLeasesBytes"] / 1e6:.1f} MB '
            f'| {r["restartToReadyFileMs"] / 1000:.2f} s '
            f'| {r["restartToReadyzMs"] / 1000:.2f} s{without} '
            f'| {r["leaseEmptyP50Ms"]:.2f} / {r["leaseBacklogP50Ms"]:.2f} ms '
            f'| {r["leaseEmptyP99Ms"]:.2f} / {r["leaseBacklogP99Ms"]:.2f} ms '
            f'| {r["leaseP99Ratio"]} | {r["dataDirBytes"] / 1e9:.2f} GB | {r["loadAverage"]} |')
    return "\n".join(lines)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    points = read_lines(sys.argv[1])
    backlog = read_lines(sys.argv[2])
    rows = []
    if points:
        rows.append(growth_panels(points))
    if backlog:
        rows.append(backlog_panels(backlog))
    if not rows:
        sys.exit("chart.py: no points in either file")
    with open(sys.argv[3], "w", encoding="utf-8") as f:
        f.write(svg(rows))
    if points:
        print(growth_table(points))
        print()
    if backlog:
        print(backlog_table(backlog))


if __name__ == "__main__":
    main()
