// The parameters of a live sample. A sample (web/samples/<id>.js) is data:
//
//   export default {
//     section,     the lesson section it is written for: the build drops the
//                  sample, with a note, if that section leaves the lesson
//     params,      { name: spec }: the {{name}} placeholders of its Python code
//                  and the controls <pe-live-output> builds for them
//     cases,       [{ name: value }]: settings beyond the defaults that the
//                  PyTorch golden test runs (unnamed parameters keep defaults)
//     run(pe, p),  the text the Python code prints at the values p
//   }
//
// A spec is ../base/params.js's ({ type, default, min, max, ... }) with `step` (the
// slider's grid; randomSettings draws on it too) and `label` (the control's
// caption). These write one a line: the label, the default, then the range.

/** An integer from min to max in steps of `step`. */
export const int = (label, value, min, max, step = 1) => ({ type: 'int', default: value, min, max, step, label });

/** A number from min to max in steps of `step`. */
export const float = (label, value, min, max, step) => ({ type: 'float', default: value, min, max, step, label });

/** A vector as long as its default, each entry from min to max in steps of `step`. */
export const vector = (label, value, min, max, step) => ({
  type: 'vector',
  default: value,
  length: value.length,
  min,
  max,
  step,
  label,
});

/** One of `options`, the first by default (a menu). */
export const choice = (label, options) => ({ type: 'choice', default: options[0], options, label });
