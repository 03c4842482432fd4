#!/usr/bin/python3
"""`contend simulate --html` in a real browser (docs/html-report.md).

Writes the report of a shipped small case (16 ranks of every collective on
tests/data/platforms/testbed-frozen.yaml, the calibrated testbed frozen, under
the staircase model), then:
  - checks it is self-contained: no http(s) or protocol-relative src/href/url,
    no external script or style sheet;
  - loads it in headless Chromium (Debian's chromium) with console logging on:
    no console message at all (a script error, a blocked fetch: the page's
    content security policy forbids every one), and the script's marker
    (body data-rendered="yes", set at its end) in the dumped DOM;
  - counts what the page must hold against the run's own CSV outputs: one
    Gantt row per rank, a used core per distinct placement, an operating
    point per distinct staircase N in the attribution, a delayed-message row
    for each of the top 20, every chart laid out with a non-zero size;
  - takes a screenshot and counts its non-white pixels and the pixels of the
    Gantt chart's colours (python3-pil);
  - `--html -` writes the same bytes to standard output; an unwritable path
    fails with no file left.

Then the same browser checks on the page of a synthetic run written by
tests/html/html_report_sample.cpp: resource loads, message arrows, and names
HTML must escape (one of them a "<script>" element: the page must hold its
own script only).

usage: check_html_report.py CONTEND SRCDIR WORKDIR HTML_REPORT_SAMPLE
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from PIL import Image


def fail(message):
    print(f"check_html_report.py: {message}", file=sys.stderr)
    sys.exit(1)


contend, src, work = os.path.abspath(sys.argv[1]), Path(sys.argv[2]).resolve(), Path(sys.argv[3]).resolve()
sample_writer = os.path.abspath(sys.argv[4])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
chromium = shutil.which("chromium")
if not chromium:
    fail("chromium not found (Debian's chromium: scripts/install-deps.sh installs it)")

report = work / "report.html"
case = ["--platform", "tests/data/platforms/testbed-frozen.yaml", "--pattern", "traces/samples/collectives-16.pattern",
        "--model", "staircase", "--oversubscribe", "--quiet"]
subprocess.run([contend, "simulate", *case, "--html", str(report), "--per-rank", str(work / "ranks.csv"),
                "--explain", str(work / "explain.csv"), "--timeline", str(work / "timeline.json")], cwd=src,
               check=True)
page = report.read_text(encoding="utf-8")
ranks = list(csv.DictReader(open(work / "ranks.csv")))
intervals = list(csv.DictReader(open(work / "explain.csv")))
# The resources' loads, as the timeline's counter tracks: {name: {unit: load}}.
counters = [e for e in json.load(open(work / "timeline.json"))["traceEvents"] if e["ph"] == "C"]

# Self-contained: nothing a browser would fetch.
for pattern in [r"""\b(?:src|href|action|poster|data)\s*=\s*["']?\s*(?:https?:)?//""",
                r"""url\(\s*["']?\s*(?:https?:)?//""", r"@import", r"<link\b", r"<script\s[^>]*\bsrc\s*=",
                r"<iframe\b", r"<img\b"]:
    found = re.search(pattern, page, re.IGNORECASE)
    if found:
        fail(f"the page fetches from outside: '{found.group(0)}'")
if "http://" in page or "https://" in page:
    fail("the page names an http(s) address")


def chromium_run(html, *arguments):
    profile = work / "profile"
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
               f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *arguments, html.as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "HOME": str(work)})
    if done.returncode != 0:
        fail(f"chromium exits {done.returncode}: {done.stderr[-2000:]}")
    console = [line for line in done.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    if console:
        fail(f"the browser's console is not empty on {html.name}:\n" + "\n".join(console))
    return done.stdout


def count(text, what):
    return len(re.findall(what, text))


def rendered(html):
    """The DOM of `html` once its script ran to its end, every chart laid out."""
    dom = chromium_run(html, "--dump-dom")
    if 'data-rendered="yes"' not in dom:
        fail(f"the script of {html.name} did not run to its end (no data-rendered=\"yes\" on the body)")
    if count(dom, r"<script\b") != 1:
        fail(f"{html.name} has {count(dom, r'<script')} script elements, expected its own only")
    sizes = re.search(r'data-chart-sizes="([^"]*)"', dom).group(1).split()
    empty = [size for size in sizes if size.startswith("0x") or size.endswith("x0")]
    if len(sizes) != count(dom, r'<svg [^>]*class="chart') or empty:
        fail(f"charts of {html.name} laid out as {sizes}")
    return dom, sizes


def screenshot(html, rows):
    """Non-white pixels and pixels of the Gantt colours of a screenshot of `html`."""
    shot = work / (html.stem + ".png")
    chromium_run(html, f"--screenshot={shot}", "--window-size=1280,2400")
    pixels = list(Image.open(shot).convert("RGB").getdata())
    non_white = sum(1 for p in pixels if p != (255, 255, 255))
    gantt_colours = {(0x4E, 0x79, 0xA7), (0xF2, 0xA0, 0x2B), (0xE1, 0x57, 0x59)}
    gantt = sum(1 for p in pixels if p in gantt_colours)
    if non_white < 0.05 * len(pixels) or gantt < rows * 400:
        fail(f"the screenshot of {html.name} looks blank: {non_white} non-white pixels of {len(pixels)}, "
             f"{gantt} of the Gantt colours")
    return non_white, gantt


dom, sizes = rendered(report)


for section in ["summary", "gantt", "loads", "mapping", "staircase", "delayed"]:
    if count(dom, f'<section id="{section}"') != 1:
        fail(f"no section '{section}' in the rendered page")
if count(dom, r'<g class="row" data-rank="\d+">') != len(ranks):
    fail(f"{count(dom, '<g class=.row.')} Gantt rows for {len(ranks)} ranks")
drawn_rows = count(dom, r'<g class="row" data-rank="\d+"><title>[^<]*</title><path class="[cmw]" d="M')
if drawn_rows != len(ranks):
    fail(f"{drawn_rows} of the {len(ranks)} Gantt rows have a bar")
placements = {(r["node"], r["socket"], r["core"]) for r in ranks}
if count(dom, 'class="core used"') != len(placements):
    fail(f"{count(dom, 'class=.core used.')} used cores drawn for {len(placements)} placements")
# testbed-frozen.yaml: intra_socket and inter_node are tables, inter_socket is constant.
# Operating points: the N of staircase groups in the attribution, and the
# whole loads of staircase groups counted in flows or processes.
socket_n = {int(m.group(1)) for i in intervals
            for m in [re.search(r"^staircase:node\d+/socket\d+\(N=(\d+)\)$", i["resource"])] if m}
node_n = {int(m.group(1)) for i in intervals
          for m in [re.search(r"^staircase:node\d+\(N=(\d+)\)$", i["resource"])] if m}
for event in counters:
    [(unit, load)] = event["args"].items()
    whole = load >= 1 and load == int(load)
    if event["name"].startswith("staircase:") and ("flow" in unit or "process" in unit) and whole:
        (socket_n if "/socket" in event["name"] else node_n).add(int(load))
if not socket_n or not node_n:
    fail("the shipped case met no staircase group: choose another")
if count(dom, '<circle class="op"') != len(socket_n) + len(node_n):
    fail(f"{count(dom, '<circle class=.op.')} operating points for N in {sorted(socket_n)} and {sorted(node_n)}")
if count(dom, r'<p class="constant" data-level="inter_socket">') != 1:
    fail("the constant inter_socket level is not said to be constant")
resources = {e["name"] for e in counters}
if not resources and count(dom, r'<p class="empty" id="no-loads">no resource loads recorded by this model</p>') != 1:
    fail("a run without loads does not say so")
if resources and count(dom, r'<g class="load" data-resource="') != min(40, len(resources)):
    fail(f"{count(dom, '<g class=.load.')} resources drawn of {len(resources)} with loads")
messages = len({(i["id"]) for i in intervals})
if count(dom, '<tr class="delayed"') != min(20, messages):
    fail(f"{count(dom, '<tr class=.delayed.')} delayed messages listed of {messages}")
non_white, gantt = screenshot(report, len(ranks))

stdout = subprocess.run([contend, "simulate", *case, "--html", "-"], cwd=src, check=True, capture_output=True).stdout
if stdout != report.read_bytes():
    fail("--html - writes other bytes than --html FILE")
missing = work / "no-such-folder" / "report.html"
refused = subprocess.run([contend, "simulate", *case, "--html", str(missing)], cwd=src, capture_output=True, text=True)
if refused.returncode == 0 or missing.exists() or "cannot write" not in refused.stderr:
    fail(f"--html into a missing folder: exit {refused.returncode}, {refused.stderr!r}")

# A synthetic run (html_report_sample): resource loads, message arrows and
# names to escape, in the browser.
sample = work / "sample.html"
subprocess.run([sample_writer, str(sample)], check=True)
sample_dom, sample_sizes = rendered(sample)
expected = {"<g class=\"row\" data-rank=": 48, "<g class=\"load\" data-resource=": 3, "<line x1=": 48,
            "id=\"show-arrows\"": 1, "<circle class=\"op\"": 8, "id=\"no-loads\"": 0,
            "data-resource=\"link:&lt;script&gt;alert(2)&lt;/script&gt;\"": 1}
for what, number in expected.items():
    if sample_dom.count(what) != number:
        fail(f"the synthetic page holds {sample_dom.count(what)} '{what}', expected {number}")
screenshot(sample, 48)

print(f"check_html_report.py: {len(ranks)} Gantt rows, {len(placements)} cores, "
      f"{len(socket_n) + len(node_n)} operating points, {min(20, messages)} delayed messages, charts {sizes}, "
      f"screenshot {non_white} non-white pixels ({gantt} of the Gantt colours), page {len(page)} bytes; synthetic "
      f"run: charts {sample_sizes}")
