// The loss chart's points (web/lib/training/loss-chart.js: lossPoints,
// lossReading, pointAtX), which the keyboard and the pointer move a cursor
// over, and the curves' table (train-table.js: curveTable) that lists the
// same points: buckets of steps for the digit tasks (the last one short),
// evaluations for the text task, '…' where a curve has not got there yet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lossPoints, lossReading, pointAtX, chartBox } from '../../web/lib/training/loss-chart.js';
import { curveTable } from '../../web/lib/training/train-table.js';
import { TEXT } from '../../web/lib/training/train-session.js';

test('digit tasks: a point per bucket of steps, the last bucket cut at the run’s end; the reading names each encoding that has it', () => {
  const series = [
    { enc: 'none', curve: new Float32Array([2.3, 2.2, 2.1]), bucket: 3 },
    { enc: 'rope', curve: new Float32Array([2.3, 1.875]), bucket: 3 },
  ];
  const points = lossPoints(series, 'reverse', 8);
  assert.equal(points.count, 3);
  assert.deepEqual([0, 1, 2].map(points.at), [1.5, 4.5, 7.5], 'drawn at the middle of each bucket');
  assert.equal(lossReading(points, series, 1), 'steps 4–6, mean loss: none 2.200, RoPE 1.875');
  assert.equal(lossReading(points, series, 2), 'steps 7–8, mean loss: none 2.100');
  const { headers, rows, caption } = curveTable(points, series, 'reverse');
  assert.deepEqual(headers, ['steps', 'none', 'RoPE']);
  assert.deepEqual(rows(), [
    ['1–3', '2.300', '2.300'],
    ['4–6', '2.200', '1.875'],
    ['7–8', '2.100', '…'],
  ]);
  assert.match(caption, /mean loss over its steps/);
  // one step a point: no range
  const single = [{ enc: 'rope', curve: new Float32Array([2, 1]), bucket: 1 }];
  assert.equal(lossReading(lossPoints(single, 'copy', 50), single, 1), 'step 2, loss: RoPE 1.000');
});

test('the pointer picks the point under it, clamped to the points drawn; nothing before there is any', () => {
  const series = [{ enc: 'alibi', curve: new Float32Array(10).fill(1), bucket: 10 }];
  const points = lossPoints(series, 'sort', 200); // 10 points of 20 drawn so far
  const { pad, pw } = chartBox(400);
  const x = (step) => pad.l + (step / 200) * pw;
  assert.equal(pointAtX(points, 400, x(0)), 0);
  assert.equal(pointAtX(points, 400, x(35)), 3);
  assert.equal(pointAtX(points, 400, x(199)), 9, 'past the last point drawn: the last one');
  assert.equal(pointAtX(points, 400, 0), 0, 'left of the axis: the first');
  assert.equal(pointAtX(lossPoints([], 'sort', 200), 400, x(35)), null);
});

test('text: a point per evaluation, every TEXT.evalEvery steps', () => {
  const series = [
    { enc: 'rope', val: new Float32Array([3.5, 2.75]) },
    { enc: 't5', val: new Float32Array([3.25]) },
  ];
  const points = lossPoints(series, 'text', 10 * TEXT.evalEvery);
  assert.equal(points.count, 2);
  assert.equal(points.at(1), 2 * TEXT.evalEvery);
  assert.equal(lossReading(points, series, 1), `step ${2 * TEXT.evalEvery}, validation loss: RoPE 2.750`);
  const { headers, rows } = curveTable(points, series, 'text');
  assert.deepEqual(headers, ['step', 'RoPE', 'T5 bias']);
  assert.deepEqual(rows(), [
    [String(TEXT.evalEvery), '3.500', '3.250'],
    [String(2 * TEXT.evalEvery), '2.750', '…'],
  ]);
});
