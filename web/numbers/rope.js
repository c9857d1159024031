// Numbers quoted in lessons/positional-encoding/04-rope.md, computed by the core.
import { fixed } from '../lib/printing/pyformat.js';
import { linearFactorFor, rotatedScore } from '../lib/rope/rotated-pair.js';

const wavelength = (inv) => (2 * Math.PI) / inv;

export default {
  // Pair 0 turns 1 radian per position whatever d and base are.
  'rope-wavelength-fastest': (pe) => fixed(wavelength(pe.ropeInvFreq(128)[0]), 2),
  'rope-wavelength-slowest-128': (pe) => fixed(wavelength(pe.ropeInvFreq(128).at(-1)), 0),
  'rope-wavelength-slowest-128-500k': (pe) => fixed(wavelength(pe.ropeInvFreq(128, { base: 500000 }).at(-1)), 0),
  // The rope-seats sample's defaults: q = [1.0, 0.5] at seat 1, k = [0.8, 0.2] at seat 3, theta 0.5.
  'rope-seats-score': (pe) => fixed(rotatedScore(pe, [1.0, 0.5], [0.8, 0.2], 1, 3, linearFactorFor(pe, 0.5)), 5),
  // Degrees the slowest pair of a 128-dim head (base 10000) turns over 4096 positions.
  'rope-arc-slowest-4096': (pe) => fixed((4096 * pe.ropeInvFreq(128).at(-1) * 180) / Math.PI, 0),
};
