// Printing like Python, numpy and PyTorch, to the character, so a live panel
// beside a code sample shows exactly what that code prints. Pure functions,
// no DOM: the build, the page and the Node tests all use this file.
//
// What is reproduced (Python 3, numpy 1.24, PyTorch 1.13, default print options):
//   pyRepr(x)          repr()/str() of a Python float: shortest round-trip digits
//   fixed(x, p)        f"{x:.{p}f}"   (exact binary value, ties to even)
//   exponential(x, p)  f"{x:.{p}e}"
//   numpyStr(v, shape) print(ndarray) for float32 arrays (maxprec, precision 8,
//                      linewidth 75, summarised above 1000 elements)
//   numpyScalar(x)     print(np.float32(x))
//   torchStr(v, shape) print(tensor) (precision 4, linewidth 80, summarised
//                      above 1000 elements; float32, int64 and bool)
//   torchSize(shape)   print(t.shape)
//   npRound(v, d)      np.round / torch.round(decimals=d) on float32
//   pyList(v)          repr() of a list of floats//   pyLiteral(spec, v) a sample parameter written as a Python literal
//
// The numbers are pyformat-numbers.js, the arrays pyformat-arrays.js; this
// module is what the page, the build and the tests import.
import { pyRepr, pyList } from './pyformat-numbers.js';

export { fixed, exponential, pyRepr, numpyScalar, grouped, pyList, torchSize, npRound } from './pyformat-numbers.js';
export { numpyStr, torchStr } from './pyformat-arrays.js';

/**
 * A sample parameter's value written as a Python literal, for the code shown
 * beside a live output: int 4, float 0.5 (repr), vector [1.0, 0.5], choice
 * 'half' (quoted unless spec.raw), bool True/False.
 */
export function pyLiteral(spec, value) {
  switch (spec?.type) {
    case 'int':
      return String(Math.trunc(value));
    case 'float':
      return pyRepr(value);
    case 'vector':
      return pyList(value);
    case 'bool':
      return value ? 'True' : 'False';
    case 'choice':
    case 'enum':
    case 'string':
      return spec.raw ? String(value) : `'${String(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    default:
      return String(value);
  }
}
