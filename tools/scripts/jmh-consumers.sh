#!/usr/bin/env bash
# jmh-consumers.sh: reads the JMH JSON of a group as the tools made for
# JMH read it, with their reading code transcribed: github-action-benchmark
# (src/extract.ts extractJmhResult, `tool: jmh`) and JMH Visualizer
# (functions/parse.js names, RunScreen's metric list, the Primary and
# Secondary MetricExtractors). It reads JMH 1.37's own output for a
# @Group and ours (the golden TestJMHGroupMatchesJMH keeps), prints what
# each tool shows and fails when ours gives a tool less than JMH's does.
#
#   tools/scripts/jmh-consumers.sh [OURS.json]   (default: the golden)
set -euo pipefail
cd "$(dirname "$0")/../.."
node - report/format/testdata/jmh-group-reference.json "${1:-report/format/testdata/jmh-group.golden}" <<'JS'
const fs = require('fs');
// github-action-benchmark v1.22.0, src/extract.ts extractJmhResult.
const action = (json) => json.map((b) => {
  const params = b.params ? ' ( ' + JSON.stringify(b.params) + ' )' : '';
  const extra = `iterations: ${b.measurementIterations}\nforks: ${b.forks}\nthreads: ${b.threads}`;
  return { name: b.benchmark + params, value: b.primaryMetric.score, unit: b.primaryMetric.scoreUnit, extra };
});
// JMH Visualizer: class and method from the name, one metric type per
// secondary key beside "Score", each read by score, scoreError,
// scoreUnit and rawData (a secondary never has a histogram).
const visualizer = (json) => json.map((b) => {
  const parts = b.benchmark.split('.');
  const method = parts.pop();
  const metrics = {};
  const read = (m, histogram) => {
    const raw = histogram ? m.rawDataHistogram.flat(2).map((bin) => bin[0]) : m.rawData.flat();
    return { score: m.score, error: m.scoreError, unit: m.scoreUnit, min: Math.min(m.score, ...raw), max: Math.max(m.score, ...raw) };
  };
  metrics.Score = read(b.primaryMetric, b.mode === 'sample');
  for (const k of Object.keys(b.secondaryMetrics)) metrics[k] = read(b.secondaryMetrics[k], false);
  return { cls: parts.join('.'), method, mode: b.mode, metrics };
});
const shapes = [];
for (const file of process.argv.slice(2)) {
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  console.log(`== ${file}`);
  for (const r of action(json)) console.log(`action: ${r.name} = ${r.value} ${r.unit} (${r.extra.replace(/\n/g, ', ')})`);
  const shown = visualizer(json).filter((b) => b.metrics.read);
  for (const b of shown) {
    const keys = Object.keys(b.metrics);
    console.log(`visualizer: class "${b.cls}" method "${b.method}" ${b.mode}: ${keys.length} metric types: ${keys.join(' ')}`);
    for (const k of ['Score', 'read', 'write']) {
      const m = b.metrics[k];
      if (typeof m.score !== 'number' || !isFinite(m.min) || !isFinite(m.max)) throw new Error(`${file} ${b.mode} ${k}: unreadable ${JSON.stringify(m)}`);
      console.log(`  ${k}: ${m.score} ${m.unit}, range ${m.min}..${m.max}`);
    }
  }
  shapes.push(Object.fromEntries(shown.map((b) => [b.mode, Object.keys(b.metrics).sort().join(' ')])));
}
for (const [mode, ours] of Object.entries(shapes[1])) {
  if (ours !== shapes[0][mode]) throw new Error(`${mode}: the visualizer's metric types differ:\nJMH:  ${shapes[0][mode]}\nours: ${ours}`);
}
console.log('ok: both tools read every member of ours as they read JMH\'s');
JS
